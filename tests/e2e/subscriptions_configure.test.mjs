// End-to-end durable-subscription *configuration* (docs/design.md §4, §5, §6
// runtime rows, §11 debug card, §3 rule 6) against the built worker running
// in workerd: configuring a keyed subscription of every receiver kind and
// replacing it, keyless configures, removal, cursor-set and resume, filters
// and transforms stored verbatim, the debug card's runtime rows across a
// restart, one key's whole life inside a batch, and a deleted source stream.
// Delivery is not what is tested here (copy.test.mjs, itx.test.mjs and
// webhooks.test.mjs do that); subscribe-from is in
// subscriptions_subscribe_from.test.mjs and refused configurations in
// subscriptions_bad_input.test.mjs.
//
// Delivery is live, though: the source stream's alarm delivers shortly after
// any append (§6). So every subscription here that the spine would deliver is
// either filtered to an event type no test appends (never()) — nothing is
// ever sent, no receiving stream is written and no halt or audit event is
// appended, so heads and states stay exact — or has nothing after its start
// cursor. What the alarm still does for such a subscription is advance its
// cursor over the events its filter rejects (§6 rule 2), at a moment the test
// does not control: runtime rows of such subscriptions are asserted with cursor
// bounds (assertUnsentRuntime), and snapshots wait until the cursors have
// settled (quiescent) before comparing. Those helpers, shared with the other
// subscriptions_*.test.mjs files, are in subscription_helpers.mjs.
// One Tributary per file; every test uses its own stream paths.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary, streamUrl } from "./harness.mjs";
import { CONFIGURED, REMOVED, CURSOR_SET, RESUMED, HALTED, eventually } from "./delivery_helpers.mjs";
import {
  fresh,
  RFC3339_MILLIS,
  never,
  processorWake,
  copyTo,
  itxCall,
  webhookPost,
  configureEvent,
  assertError,
  assertNothingSent,
  assertIdleRuntime,
  assertUnsentRuntime,
  subscriptionRequests,
} from "./subscription_helpers.mjs";

let t;
before(async () => {
  t = await startTributary();
  // The processor the processor-wake subscriptions below name (§9: naming
  // an undefined processor is refused).
  const defined = await t.request("PUT", "/v1/processors/p", {
    body: { kind: "jsonata-reducer", initialState: 0, reducer: "$state + 1" },
  });
  if (defined.status !== 200) throw new Error(`define processor p: ${JSON.stringify(defined.body)}`);
});
after(async () => {
  await t?.cleanup();
});

const {
  append,
  card,
  range,
  configure,
  appendOk,
  batchOk,
  configureOk,
  infoOk,
  byKey,
  cardOk,
  cardEntry,
  quiescent,
  snapshot,
  rejectsAndCommitsNothing,
  seeded,
} = subscriptionRequests(() => t);

// ---------------------------------------------------------------------------
// 1. Configure with an explicit key; replace
// ---------------------------------------------------------------------------

const RECEIVERS = {
  "processor-wake": processorWake,
  "copy-to-stream": () => copyTo("/e2e-subs/receiver", "beginning"),
  "itx-call": () => itxCall("beginning"),
  "webhook-post": webhookPost,
};

for (const [action, receiver] of Object.entries(RECEIVERS)) {
  test(`§5: configuring a keyed ${action} subscription puts exactly {configuration, configuredAtOffset, configuredAt} in state.subscriptions.outbound.byKey`, async () => {
    const path = await seeded(`keyed-${action}`, 2);
    const payload = { subscriptionKey: `my-${action}`, description: `a ${action}`, receiver: receiver() };
    // Delivered receivers match nothing: no copy, call or post ever happens
    // (the itx-call names the allowlisted but unbound service X), so the head
    // and the state stay exactly as configured.
    payload.filter = never();
    const event = await configureOk(path, payload);
    assert.equal(event.offset, 3);
    assert.equal(event.type, CONFIGURED);
    assert.deepEqual(event.payload, payload, "the control event is stored as given");

    const i = await infoOk(path);
    assert.equal(i.head, 3);
    assert.equal(i.eventCount, 3);
    assert.deepEqual(Object.keys(i.state.subscriptions).sort(), ["inbound", "outbound"]);
    assert.deepEqual(i.state.subscriptions.inbound, { bySourcePath: {} });
    const entries = i.state.subscriptions.outbound.byKey;
    assert.deepEqual(Object.keys(entries), [`my-${action}`]);
    const entry = entries[`my-${action}`];
    assert.deepEqual(
      Object.keys(entry).sort(),
      ["configuration", "configuredAt", "configuredAtOffset"],
      "no subscriptionKeyWasGenerated, cursorSet or deliveryHalted on a fresh keyed subscription",
    );
    assert.deepEqual(entry.configuration, payload, "configuration is the validated payload, verbatim");
    assert.equal(entry.configuredAtOffset, 3);
    assert.equal(typeof entry.configuredAtOffset, "number");
    assert.match(entry.configuredAt, RFC3339_MILLIS);
    assert.equal(entry.configuredAt, event.createdAt, "configuredAt is the configuring event's createdAt");

    // §11 debug card mirrors the state and adds the runtime row.
    const c = await cardOk(path);
    assert.deepEqual(c.inbound, { bySourcePath: {} });
    assert.equal(c.subscriptions.length, 1);
    const s = c.subscriptions[0];
    assert.equal(s.subscriptionKey, `my-${action}`);
    assert.deepEqual(s.configuration, payload);
    assert.equal(s.configuredAtOffset, 3);
    assert.equal(s.configuredAt, event.createdAt);
    assert.equal(s.deliveryHalted, undefined);
    assert.equal(s.cursorSet, undefined);
    if (action === "processor-wake") {
      // A processor has no `start`: it begins at its own checkpoint 0 (§9).
      assertUnsentRuntime(s.runtime, { runOffset: 3, startCursor: 0, head: 3 });
    } else if (payload.receiver.delivery.start === "now") {
      assertIdleRuntime(s.runtime, { runOffset: 3, acknowledgedOffset: 3, lag: 0 });
    } else {
      assertUnsentRuntime(s.runtime, { runOffset: 3, startCursor: 0, head: 3 });
    }

    // Once the alarm has passed over everything, the state, the head and the
    // configuration are still exactly what configuring committed.
    await quiescent(path);
    const settled = await infoOk(path);
    assert.equal(settled.head, 3, "delivery appended nothing on the source");
    assert.deepEqual(settled.state, i.state);
    const sc = (await cardOk(path)).subscriptions;
    assert.equal(sc.length, 1);
    assert.deepEqual(sc[0].configuration, payload);
    assertNothingSent(sc[0].runtime);
    assert.equal(sc[0].runtime.runOffset, 3);
  });
}

test("§5: configuring the same key again replaces it: one entry, new configuration, configuredAtOffset moves, a new run starts", async () => {
  const path = await seeded("replace", 1);
  const first = await configureOk(path, {
    subscriptionKey: "mirror",
    filter: never(),
    receiver: copyTo("/e2e-subs/r1", "beginning"),
  });
  await appendOk(path, { type: "between" });
  const cursor = await appendOk(path, { type: CURSOR_SET, payload: { subscriptionKey: "mirror", afterOffset: 1 } });
  assert.deepEqual((await byKey(path)).mirror.cursorSet, { afterOffset: 1, setAtSourceOffset: cursor.offset });

  const replacement = { subscriptionKey: "mirror", filter: { eventTypes: ["x"] }, receiver: webhookPost() };
  const second = await configureOk(path, replacement);
  assert.ok(second.offset > first.offset);
  const entries = await byKey(path);
  assert.deepEqual(Object.keys(entries), ["mirror"], "replaced, not added");
  assert.deepEqual(entries.mirror, {
    configuration: replacement,
    configuredAtOffset: second.offset,
    configuredAt: second.createdAt,
  }, "the replace also drops the old cursorSet");
  const c = await cardOk(path);
  assert.equal(c.subscriptions.length, 1);
  assertIdleRuntime(c.subscriptions[0].runtime, {
    runOffset: second.offset,
    acknowledgedOffset: second.offset, // start "now", nothing appended since
    lag: 0,
  });

  // Replacing with the very same configuration is still a new run.
  const third = await configureOk(path, replacement);
  assert.equal((await byKey(path)).mirror.configuredAtOffset, third.offset);
  assert.equal((await cardEntry(path, "mirror")).runtime.runOffset, third.offset);
});

// ---------------------------------------------------------------------------
// 2. Keyless configure
// ---------------------------------------------------------------------------

test("§5 Keys: a keyless configure with an idempotencyKey, retried, returns the same event and the same generated key", async () => {
  const path = await seeded("keyless-idem", 2);
  const event = configureEvent({ receiver: copyTo("/e2e-subs/keyless-dst", "now") }, { idempotencyKey: "once" });
  const first = await append(path, event);
  assert.equal(first.status, 201);
  assert.equal(first.body.deduplicated, false);
  assert.equal(first.body.event.offset, 3);
  const again = await append(path, event);
  assert.equal(again.status, 200, JSON.stringify(again.body));
  assert.equal(again.body.deduplicated, true);
  assert.deepEqual(again.body.event, first.body.event, "the originally committed event");

  const i = await infoOk(path);
  assert.equal(i.head, 3, "the retry assigned no offset");
  assert.equal(i.eventCount, 3);
  const entries = i.state.subscriptions.outbound.byKey;
  assert.deepEqual(Object.keys(entries), ["subscription:3"]);
  assert.deepEqual(entries["subscription:3"], {
    configuration: { receiver: copyTo("/e2e-subs/keyless-dst", "now") },
    configuredAtOffset: 3,
    configuredAt: first.body.event.createdAt,
    subscriptionKeyWasGenerated: true,
  });
  const c = await cardOk(path);
  assert.deepEqual(c.subscriptions.map((s) => s.subscriptionKey), ["subscription:3"]);
  assertIdleRuntime(c.subscriptions[0].runtime, { runOffset: 3, acknowledgedOffset: 3, lag: 0 });

  // The same idempotencyKey with a different configuration is a conflict, not a second subscription.
  const reused = await rejectsAndCommitsNothing(
    [path],
    () => configure(path, { receiver: copyTo("/e2e-subs/elsewhere", "now") }, { idempotencyKey: "once" }),
    409,
    "idempotency_key_reused",
  );
  assert.ok(reused);
});

test("§5 Keys: two raw keyless appends create two subscriptions, keyed subscription:<offset>", async () => {
  const path = await seeded("keyless-raw", 1);
  const payload = { filter: never(), receiver: copyTo("/e2e-subs/keyless-raw-dst", "beginning") };
  const a = await configureOk(path, payload);
  const b = await configureOk(path, payload);
  assert.deepEqual([a.offset, b.offset], [2, 3]);
  const entries = await byKey(path);
  assert.deepEqual(Object.keys(entries).sort(), ["subscription:2", "subscription:3"]);
  for (const e of [a, b]) {
    const entry = entries[`subscription:${e.offset}`];
    assert.equal(entry.subscriptionKeyWasGenerated, true);
    assert.equal(entry.configuredAtOffset, e.offset);
    assert.equal(entry.configuredAt, e.createdAt);
    assert.deepEqual(entry.configuration, payload);
  }
  // In one batch, too: each event's own offset names it.
  const batch = await batchOk(path, [configureEvent(payload), { type: "plain" }, configureEvent(payload)]);
  assert.deepEqual(batch.map((e) => e.offset), [4, 5, 6]);
  assert.deepEqual(
    Object.keys(await byKey(path)).sort(),
    ["subscription:2", "subscription:3", "subscription:4", "subscription:6"],
  );
  assert.equal((await cardOk(path)).subscriptions.length, 4);
});

// ---------------------------------------------------------------------------
// 3. Remove, cursor-set, resume
// ---------------------------------------------------------------------------

test("§4: subscription-removed drops the subscription from the state and the debug card; removing again is 422 unknown_subscription", async () => {
  const path = await seeded("remove", 1);
  await configureOk(path, { subscriptionKey: "gone", filter: never(), receiver: copyTo("/e2e-subs/remove-dst") });
  await configureOk(path, { subscriptionKey: "stays", receiver: processorWake() });
  const removed = await appendOk(path, { type: REMOVED, payload: { subscriptionKey: "gone", reason: "requested" } });
  assert.equal(removed.offset, 4);
  assert.deepEqual(Object.keys(await byKey(path)), ["stays"]);
  assert.deepEqual((await cardOk(path)).subscriptions.map((s) => s.subscriptionKey), ["stays"]);

  await rejectsAndCommitsNothing(
    [path],
    () => append(path, { type: REMOVED, payload: { subscriptionKey: "gone", reason: "requested" } }),
    422,
    "unknown_subscription",
  );
  // reason is optional
  await appendOk(path, { type: REMOVED, payload: { subscriptionKey: "stays" } });
  assert.deepEqual(await byKey(path), {});
  assert.deepEqual((await cardOk(path)).subscriptions, []);
});

test("§4: subscription-cursor-set records cursorSet; beyond head → 422 cursor_beyond_head; unknown key → 422 unknown_subscription", async () => {
  const path = fresh("cursor");
  await configureOk(path, { subscriptionKey: "k", filter: never(), receiver: copyTo("/e2e-subs/cursor-dst", "beginning") });
  await batchOk(path, [{ type: "a" }, { type: "b" }]); // head 3
  await rejectsAndCommitsNothing(
    [path],
    () => append(path, { type: CURSOR_SET, payload: { subscriptionKey: "k", afterOffset: 4 } }),
    422,
    "cursor_beyond_head",
  );
  await rejectsAndCommitsNothing(
    [path],
    () => append(path, { type: CURSOR_SET, payload: { subscriptionKey: "nope", afterOffset: 1 } }),
    422,
    "unknown_subscription",
  );
  // afterOffset equal to the head before the event is allowed.
  const set = await appendOk(path, { type: CURSOR_SET, payload: { subscriptionKey: "k", afterOffset: 3 } });
  assert.equal(set.offset, 4);
  const entry = (await byKey(path)).k;
  assert.deepEqual(entry.cursorSet, { afterOffset: 3, setAtSourceOffset: 4 });
  assert.equal(entry.configuredAtOffset, 1, "a cursor-set does not reconfigure");
  const c = await cardEntry(path, "k");
  assert.deepEqual(c.cursorSet, { afterOffset: 3, setAtSourceOffset: 4 });
  // A new run starting after offset 3 (the alarm may already have passed the cursor-set itself).
  assertUnsentRuntime(c.runtime, { runOffset: 4, startCursor: 3, head: 4 });

  // Backwards is fine too (exclusive offset 0 = replay everything).
  await quiescent(path);
  const back = await appendOk(path, { type: CURSOR_SET, payload: { subscriptionKey: "k", afterOffset: 0 } });
  assert.equal(back.offset, 5);
  assert.deepEqual((await byKey(path)).k.cursorSet, { afterOffset: 0, setAtSourceOffset: back.offset });
  assertUnsentRuntime((await cardEntry(path, "k")).runtime, { runOffset: 5, startCursor: 0, head: 5 });
  assert.equal((await infoOk(path)).head, 5, "nothing else appended");
});

test("§4: subscription-delivery-resumed on a subscription that is not halted → 409 subscription_not_halted; unknown key → 422", async () => {
  const path = await seeded("resume", 1);
  await configureOk(path, { subscriptionKey: "k", receiver: webhookPost() });
  const res = await rejectsAndCommitsNothing(
    [path],
    () => append(path, { type: RESUMED, payload: { subscriptionKey: "k" } }),
    409,
    "subscription_not_halted",
  );
  assert.equal(res.body.error.details.subscriptionKey, "k");
  await rejectsAndCommitsNothing(
    [path],
    () => append(path, { type: RESUMED, payload: { subscriptionKey: "ghost" } }),
    422,
    "unknown_subscription",
  );
  // Halts are facts only Tributary appends (§4 trusted only, §3 rule 7).
  await rejectsAndCommitsNothing(
    [path],
    () =>
      append(path, {
        type: HALTED,
        payload: { subscriptionKey: "k", reason: "delivery-failed", afterOffset: 0, attempts: 1 },
      }),
    403,
  );
  assert.equal((await byKey(path)).k.deliveryHalted, undefined);
});

// ---------------------------------------------------------------------------
// 4. Filters and transforms are stored verbatim
// ---------------------------------------------------------------------------

test("§5 Filter: eventTypes, jsonataCondition and jsonataTransform are stored verbatim in configuration", async () => {
  const path = await seeded("filter", 1);
  const filter = {
    eventTypes: ["order.created", "order.paid", "weird type?/with.chars"],
    jsonataCondition: "payload.amount > 100 and $contains(type, 'order')",
  };
  const transform = '{"type": "mirrored." & type, "payload": {"amount": payload.amount * 2, "tags": ["a", "b"]}}';
  const payloads = {
    copy: {
      subscriptionKey: "copy",
      filter,
      receiver: { ...copyTo("/e2e-subs/filter-dst", "now"), jsonataTransform: transform },
    },
    itx: {
      subscriptionKey: "itx",
      filter: { eventTypes: [] },
      receiver: { ...itxCall("now"), jsonataTransform: "$" },
    },
    webhook: {
      subscriptionKey: "webhook",
      filter: { jsonataCondition: "type = 'a'" },
      receiver: { ...webhookPost(), jsonataTransform: "payload" },
    },
  };
  for (const payload of Object.values(payloads)) await configureOk(path, payload);
  const entries = await byKey(path);
  for (const [key, payload] of Object.entries(payloads)) {
    assert.deepEqual(entries[key].configuration, payload, `${key} stored verbatim`);
  }
  const c = await cardOk(path);
  for (const s of c.subscriptions) assert.deepEqual(s.configuration, payloads[s.subscriptionKey]);
  // The raw event reads back verbatim too.
  const events = (await range(path)).body.events.filter((e) => e.type === CONFIGURED);
  assert.deepEqual(events.map((e) => e.payload), Object.values(payloads));
});

// ---------------------------------------------------------------------------
// 5. Runtime rows (§6) on the debug card (§11), and a restart
// ---------------------------------------------------------------------------

test("§6/§11: runtime rows for start beginning/now, cursor-set, removal and lag; all intact after a restart", async () => {
  const path = await seeded("runtime", 3); // head 3
  // b and n are delivered by the spine but match nothing, so they never send;
  // the alarm only moves their cursors over the events they reject (§6 rule 2).
  const b = await configureOk(path, {
    subscriptionKey: "b",
    filter: never(),
    receiver: copyTo("/e2e-subs/runtime-b", "beginning"),
  });
  const n = await configureOk(path, { subscriptionKey: "n", filter: never(), receiver: itxCall("now") });
  // keyless, no delivery block; a hosted processor is delivered like the others (§9)
  const p = await configureOk(path, { receiver: processorWake() });
  assert.deepEqual([b.offset, n.offset, p.offset], [4, 5, 6]);
  const pKey = "subscription:6";

  let c = await cardOk(path);
  assert.deepEqual(c.subscriptions.map((s) => s.subscriptionKey).sort(), ["b", "n", pKey].sort());
  assertUnsentRuntime((await cardEntry(path, "b")).runtime, { runOffset: 4, startCursor: 0, head: 6 });
  assertUnsentRuntime((await cardEntry(path, "n")).runtime, { runOffset: 5, startCursor: 5, head: 6 });
  assert.equal((await cardEntry(path, pKey)).runtime.runOffset, 6);

  // lag = head − acknowledgedOffset as the head moves.
  await batchOk(path, [{ type: "x" }, { type: "y" }]); // head 8
  assertUnsentRuntime((await cardEntry(path, "b")).runtime, { runOffset: 4, startCursor: 0, head: 8 });
  assertUnsentRuntime((await cardEntry(path, "n")).runtime, { runOffset: 5, startCursor: 5, head: 8 });
  assert.equal((await cardEntry(path, pKey)).runtime.runOffset, 6);
  // Nothing matched, so the cursors pass everything and nothing is ever sent.
  await quiescent(path);
  await eventually(async () =>
    assertIdleRuntime((await cardEntry(path, pKey)).runtime, { runOffset: 6, acknowledgedOffset: 8, lag: 0 }),
  );
  assertIdleRuntime((await cardEntry(path, "b")).runtime, { runOffset: 4, acknowledgedOffset: 8, lag: 0 });
  assertIdleRuntime((await cardEntry(path, "n")).runtime, { runOffset: 5, acknowledgedOffset: 8, lag: 0 });

  // cursor-set: a new run (runOffset = the cursor-set's offset) starting after afterOffset.
  const set = await appendOk(path, { type: CURSOR_SET, payload: { subscriptionKey: "b", afterOffset: 7 } });
  assert.equal(set.offset, 9);
  assertUnsentRuntime((await cardEntry(path, "b")).runtime, { runOffset: 9, startCursor: 7, head: 9 });
  assert.deepEqual((await cardEntry(path, "b")).cursorSet, { afterOffset: 7, setAtSourceOffset: 9 });

  // removal drops the row.
  await appendOk(path, { type: REMOVED, payload: { subscriptionKey: "n", reason: "requested" } }); // head 10
  c = await cardOk(path);
  assert.deepEqual(c.subscriptions.map((s) => s.subscriptionKey).sort(), ["b", pKey].sort());
  assertUnsentRuntime((await cardEntry(path, "b")).runtime, { runOffset: 9, startCursor: 7, head: 10 });
  assert.equal((await cardEntry(path, pKey)).runtime.runOffset, 6);
  assert.equal((await infoOk(path)).head, 10, "delivery appended nothing on the source");
  await eventually(async () =>
    assertIdleRuntime((await cardEntry(path, pKey)).runtime, { runOffset: 6, acknowledgedOffset: 10, lag: 0 }),
  );

  // Delivery figures are "since the object started" (§11): left out of the comparison.
  const durable = (snap) => ({
    ...snap,
    card: {
      ...snap.card,
      subscriptions: snap.card.subscriptions.map(({ runtime, ...rest }) => {
        const { completionLatencyMs: _c, deliveryDurationMs: _d, ...kept } = runtime;
        return { ...rest, runtime: kept };
      }),
    },
  });
  const beforeRestart = durable(await snapshot(path)); // once b's cursor has settled at the head
  assertIdleRuntime((await cardEntry(path, "b")).runtime, { runOffset: 9, acknowledgedOffset: 10, lag: 0 });
  await t.restart();
  const afterRestart = durable(await snapshot(path));
  assert.deepEqual(afterRestart, beforeRestart, "configuration, state and runtime rows survive the restart");

  // And they keep working: lag follows new appends, control events still apply.
  await appendOk(path, { type: "after-restart" }); // head 11
  assertUnsentRuntime((await cardEntry(path, "b")).runtime, { runOffset: 9, startCursor: 10, head: 11 });
  assert.equal((await cardEntry(path, pKey)).runtime.runOffset, 6);
  await appendOk(path, { type: REMOVED, payload: { subscriptionKey: pKey } });
  assert.deepEqual((await cardOk(path)).subscriptions.map((s) => s.subscriptionKey), ["b"]);
});

test("§5/§6: configure, remove and re-configure one key inside one batch leave exactly the last run", async () => {
  const path = await seeded("batch-lifecycle", 1);
  const events = await batchOk(path, [
    configureEvent({ subscriptionKey: "k", receiver: copyTo("/e2e-subs/batch-lifecycle-dst", "beginning") }),
    { type: REMOVED, payload: { subscriptionKey: "k" } },
    configureEvent({ subscriptionKey: "k", receiver: copyTo("/e2e-subs/batch-lifecycle-dst", "now") }),
  ]);
  assert.deepEqual(events.map((e) => e.offset), [2, 3, 4]);
  assert.equal((await byKey(path)).k.configuredAtOffset, 4);
  const c = await cardOk(path);
  assert.equal(c.subscriptions.length, 1);
  assertIdleRuntime(c.subscriptions[0].runtime, { runOffset: 4, acknowledgedOffset: 4, lag: 0 });
});

test("§3 rule 6: deleting a source stream destroys its subscriptions and runtime rows; the next lifetime starts empty", async () => {
  const path = await seeded("delete", 1);
  await configureOk(path, { subscriptionKey: "k", filter: never(), receiver: copyTo("/e2e-subs/delete-dst", "beginning") });
  const del = await t.request("DELETE", streamUrl(path));
  assert.ok([200, 204].includes(del.status), `delete: ${del.status}`);
  assertError(await card(path), 404, "stream_not_found");
  await appendOk(path, { type: "new-lifetime" });
  assert.deepEqual(await byKey(path), {});
  assert.deepEqual((await cardOk(path)).subscriptions, []);
  // The old key is unknown in the new lifetime.
  assertError(await append(path, { type: REMOVED, payload: { subscriptionKey: "k" } }), 422, "unknown_subscription");
});
