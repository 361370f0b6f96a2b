// End-to-end durable-subscription *configuration* (DESIGN.md §4, §5, §6
// runtime rows, §11 debug card) against the built worker running in workerd.
// Delivery is not what is tested here (copy.test.mjs, itx.test.mjs and
// webhooks.test.mjs do that): only what configuring, replacing, removing,
// moving cursors and resuming commit, what the reduced state and the debug
// card show, subscribe-from, and that every bad configuration commits nothing.
//
// Delivery is live, though: the source stream's alarm delivers shortly after
// any append (§6). So every subscription here that the spine would deliver is
// either filtered to an event type no test appends (never(), below) — nothing
// is ever sent, no receiving stream is written and no halt or audit event is
// appended, so heads and states stay exact — or has nothing after its start
// cursor. What the alarm still does for such a subscription is advance its
// cursor over the events its filter rejects (§6 rule 2), at a moment the test
// does not control: runtime rows of such subscriptions are asserted with cursor
// bounds (assertUnsentRuntime), and snapshots wait until the cursors have
// settled (quiescent) before comparing.
// One Tributary per file; every test uses its own stream paths.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary, streamUrl, OTHER_TOKEN } from "./harness.mjs";
import { eventually } from "./delivery_helpers.mjs";

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

let counter = 0;
/** A stream path no other test uses. */
const fresh = (name) => `/e2e-subs/${name}-${++counter}`;

const RFC3339_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(Z|\+00:00)$/;

const CONTROL = "events.iterate.com/stream/";
const CONFIGURED = `${CONTROL}subscription-configured`;
const REMOVED = `${CONTROL}subscription-removed`;
const CURSOR_SET = `${CONTROL}subscription-cursor-set`;
const RESUMED = `${CONTROL}subscription-delivery-resumed`;
const HALTED = `${CONTROL}subscription-delivery-halted`;

// --- receivers ---------------------------------------------------------------

/** A filter that matches nothing: no test appends an event of type "never". */
const never = () => ({ eventTypes: ["never"] });

const processorWake = () => ({ action: "processor-wake", expression: ["processors", "p", "wake"] });
const copyTo = (receivingStreamPath, start = "beginning") => ({
  action: "copy-to-stream",
  receivingStreamPath,
  delivery: { start, onFailingEvent: "halt" },
});
const itxCall = (start = "beginning") => ({
  action: "itx-call",
  expression: ["services", "X", "m"],
  delivery: { start, onFailingEvent: "skip" },
});
const webhookPost = () => ({
  action: "webhook-post",
  url: "https://example.com/hook",
  delivery: {
    start: "now",
    onFailingEvent: "skip",
    retry: { maxAttempts: 3, initialBackoffMs: 10, maxBackoffMs: 100 },
    timeoutMs: 5000,
  },
});

// --- requests ----------------------------------------------------------------

const append = (path, body, opts = {}) =>
  t.request("POST", streamUrl(path, "events"), { body, ...opts });
const info = (path, opts = {}) => t.request("GET", streamUrl(path), opts);
const card = (path, opts = {}) => t.request("GET", streamUrl(path, "subscriptions"), opts);
const range = (path, query = "", opts = {}) =>
  t.request("GET", `${streamUrl(path, "events")}${query ? `?${query}` : ""}`, opts);
const subscribeFrom = (receivingPath, body, opts = {}) =>
  t.request("POST", streamUrl(receivingPath, "subscribe-from"), { body, ...opts });

const configureEvent = (payload, extra = {}) => ({ type: CONFIGURED, payload, ...extra });
const configure = (path, payload, extra, opts) => append(path, configureEvent(payload, extra), opts);

async function appendOk(path, event, opts) {
  const res = await append(path, event, opts);
  assert.equal(res.status, 201, `append should be 201: ${JSON.stringify(res.body)}`);
  return res.body.event;
}

async function batchOk(path, events, opts) {
  const res = await append(path, { events }, opts);
  assert.equal(res.status, 201, `batch append should be 201: ${JSON.stringify(res.body)}`);
  return res.body.events;
}

const configureOk = (path, payload, extra, opts) => appendOk(path, configureEvent(payload, extra), opts);

async function infoOk(path, opts) {
  const res = await info(path, opts);
  assert.equal(res.status, 200, `info should be 200: ${JSON.stringify(res.body)}`);
  return res.body;
}

async function byKey(path, opts) {
  return (await infoOk(path, opts)).state.subscriptions.outbound.byKey;
}

async function cardOk(path, opts) {
  const res = await card(path, opts);
  assert.equal(res.status, 200, `debug card should be 200: ${JSON.stringify(res.body)}`);
  return res.body;
}

async function cardEntry(path, key) {
  const c = await cardOk(path);
  return c.subscriptions.find((s) => s.subscriptionKey === key);
}

function assertError(res, status, code, field) {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  assert.equal(typeof res.body, "object", `error body must be JSON: ${res.body}`);
  assert.ok(res.body && res.body.error, `error body must have "error": ${JSON.stringify(res.body)}`);
  if (code) assert.equal(res.body.error.code, code, JSON.stringify(res.body));
  assert.equal(typeof res.body.error.message, "string");
  assert.equal(typeof res.body.error.details, "object");
  if (field) assert.equal(res.body.error.details.field, field, JSON.stringify(res.body));
}

/** Subscriptions the delivery spine works on (§6): not processor-wake, not halted. */
const delivered = (s) => s.configuration.receiver.action !== "processor-wake" && s.deliveryHalted === undefined;

/**
 * Waits until the alarm has nothing left to do on `path`: every delivered
 * subscription's cursor is at the head, nothing in flight or scheduled. For
 * the subscriptions of this file (filtered to nothing, or with nothing after
 * their start) that is the cursor passing the events the filter rejects.
 */
async function quiescent(path) {
  return eventually(
    async () => {
      const res = await card(path);
      if (res.status === 404) return;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      for (const s of res.body.subscriptions.filter(delivered)) {
        assert.equal(s.runtime.lag, 0, `${s.subscriptionKey} lag 0: ${JSON.stringify(s.runtime)}`);
        assert.equal(s.runtime.inFlightDeadlineAt, null, `${s.subscriptionKey} nothing in flight`);
        assert.equal(s.runtime.nextAttemptAt, null, `${s.subscriptionKey} nothing scheduled`);
      }
    },
    { what: `delivery on ${path} to settle` },
  );
}

/** Everything a request could have committed to a stream (taken once delivery has settled). */
async function snapshot(path) {
  await quiescent(path);
  const i = await info(path);
  if (i.status === 404) {
    assert.equal(i.body.error.code, "stream_not_found");
    return { exists: false };
  }
  assert.equal(i.status, 200);
  const events = await range(path, "limit=1000&includeEphemeral=true");
  return {
    exists: true,
    head: i.body.head,
    eventCount: i.body.eventCount,
    streamId: i.body.streamId,
    state: i.body.state,
    events: events.body.events,
    card: await cardOk(path),
  };
}

/** Runs `request`, asserts the §2 error, and that nothing on `paths` moved. */
async function rejectsAndCommitsNothing(paths, request, status, code, field) {
  const before = await Promise.all(paths.map(snapshot));
  const res = await request();
  assertError(res, status, code, field);
  const after = await Promise.all(paths.map(snapshot));
  for (let n = 0; n < paths.length; n++) {
    assert.deepEqual(after[n], before[n], `nothing committed on ${paths[n]}`);
  }
  return res;
}

/** A source stream holding `n` ordinary events. */
async function seeded(name, n = 1) {
  const path = fresh(name);
  await batchOk(path, Array.from({ length: n }, (_, i) => ({ type: "seed", payload: i + 1 })));
  return path;
}

const RUNTIME_FIELDS = [
  "runOffset",
  "acknowledgedOffset",
  "lag",
  "attempt",
  "nextAttemptAt",
  "inFlightDeadlineAt",
  "lastError",
  "bytesSent",
];

/** The runtime fields of §6 that stay put while nothing is ever sent. */
function assertNothingSent(runtime) {
  assert.ok(runtime && typeof runtime === "object", `runtime row present: ${JSON.stringify(runtime)}`);
  for (const field of RUNTIME_FIELDS) assert.ok(field in runtime, `runtime.${field} present`);
  assert.equal(runtime.attempt, 0, "attempt");
  assert.equal(runtime.nextAttemptAt, null, "nextAttemptAt");
  assert.equal(runtime.inFlightDeadlineAt, null, "inFlightDeadlineAt");
  assert.equal(runtime.lastError, null, "lastError");
  assert.equal(runtime.bytesSent, 0, "bytesSent");
}

/**
 * The exact idle runtime row of §6, for a row the alarm cannot move: a
 * processor-wake subscription (never delivered by the spine), or one whose
 * cursor already is at the head (start "now" with nothing appended since).
 */
function assertIdleRuntime(runtime, { runOffset, acknowledgedOffset, lag }) {
  assertNothingSent(runtime);
  assert.equal(runtime.runOffset, runOffset, "runOffset");
  assert.equal(runtime.acknowledgedOffset, acknowledgedOffset, "acknowledgedOffset");
  assert.equal(runtime.lag, lag, "lag");
}

/**
 * The runtime row of a subscription that sends nothing (its filter matches
 * nothing) but whose cursor the alarm may already have advanced over the
 * rejected events (§6 rule 2): the cursor lies between the run's start
 * cursor and the head, and lag = head − cursor.
 */
function assertUnsentRuntime(runtime, { runOffset, startCursor, head }) {
  assertNothingSent(runtime);
  assert.equal(runtime.runOffset, runOffset, "runOffset");
  const cursor = runtime.acknowledgedOffset;
  assert.ok(
    Number.isInteger(cursor) && cursor >= startCursor && cursor <= head,
    `acknowledgedOffset ${cursor} within [${startCursor}, ${head}]`,
  );
  assert.equal(runtime.lag, head - cursor, "lag = head − acknowledgedOffset");
}

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
// 5. subscribe-from
// ---------------------------------------------------------------------------

test("§5 subscribeToEventsFrom: appends exactly one copy-to-stream configure on the source, returns {subscriptionKey, subscriptionConfiguredEvent}, and appends nothing on the receiving stream", async () => {
  const source = await seeded("sf-src", 2);
  const receiving = fresh("sf-dst");
  // Filtered to nothing, so no copy can ever write the receiving stream: what
  // is observed there is what subscribe-from itself did.
  const res = await subscribeFrom(receiving, { sourcePath: source, idempotencyKey: "attempt-1", filter: never() });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body).sort(), ["subscriptionConfiguredEvent", "subscriptionKey"]);
  const event = res.body.subscriptionConfiguredEvent;
  assert.equal(event.offset, 3);
  assert.equal(event.type, CONFIGURED);
  assert.match(event.createdAt, RFC3339_MILLIS);
  const expectedConfiguration = {
    filter: never(),
    receiver: {
      action: "copy-to-stream",
      receivingStreamPath: receiving,
      delivery: { start: "beginning", onFailingEvent: "halt" },
    },
  };
  assert.deepEqual(event.payload, expectedConfiguration);
  assert.equal(res.body.subscriptionKey, "subscription:3", "generated from the configure event's offset");

  const i = await infoOk(source);
  assert.equal(i.head, 3, "exactly one event appended on the source");
  const stored = (await range(source, "after=2")).body.events;
  assert.deepEqual(stored, [event], "the returned event is the committed one");
  assert.deepEqual(i.state.subscriptions.outbound.byKey, {
    "subscription:3": {
      configuration: expectedConfiguration,
      configuredAtOffset: 3,
      configuredAt: event.createdAt,
      subscriptionKeyWasGenerated: true,
    },
  });
  assertUnsentRuntime((await cardEntry(source, "subscription:3")).runtime, {
    runOffset: 3,
    startCursor: 0, // start "beginning"
    head: 3,
  });
  // subscribe-from wrote nothing on the receiving stream (not even created it);
  // it learns of the subscription only when a copy arrives.
  assertError(await info(receiving), 404, "stream_not_found");
  assertError(await card(receiving), 404, "stream_not_found");
  // Still so once the subscription has passed over the whole source.
  await quiescent(source);
  assertError(await info(receiving), 404, "stream_not_found");
  assert.equal((await infoOk(source)).head, 3, "still exactly one event appended on the source");

  // A retry with the same idempotencyKey is the same call: no new event anywhere.
  const again = await subscribeFrom(receiving, { sourcePath: source, idempotencyKey: "attempt-1", filter: never() });
  assert.equal(again.status, 200, JSON.stringify(again.body));
  assert.equal(again.body.subscriptionKey, "subscription:3");
  assert.deepEqual(again.body.subscriptionConfiguredEvent, event);
  assert.equal((await infoOk(source)).head, 3);
  assertError(await info(receiving), 404, "stream_not_found");
});

test("§5 subscribeToEventsFrom: a retried call with the same idempotencyKey → 200, same key, same event, nothing new on the source", async () => {
  const source = await seeded("sf-retry-src", 1);
  const receiving = fresh("sf-retry-dst");
  const body = { sourcePath: source, idempotencyKey: "retry-me", filter: { eventTypes: ["x"] } };
  const first = await subscribeFrom(receiving, body);
  assert.equal(first.status, 201, JSON.stringify(first.body));
  const before = await snapshot(source);
  const again = await subscribeFrom(receiving, body);
  assert.equal(again.status, 200, JSON.stringify(again.body));
  assert.equal(again.body.subscriptionKey, first.body.subscriptionKey);
  assert.deepEqual(again.body.subscriptionConfiguredEvent, first.body.subscriptionConfiguredEvent);
  assert.deepEqual(await snapshot(source), before, "source head, events and state unchanged");
  assert.equal(Object.keys(await byKey(source)).length, 1);
  assertError(await info(receiving), 404, "stream_not_found");

  // The same idempotencyKey from another receiving stream is a different call.
  const other = fresh("sf-retry-dst2");
  const third = await subscribeFrom(other, body);
  assert.equal(third.status, 201, JSON.stringify(third.body));
  assert.notEqual(third.body.subscriptionKey, first.body.subscriptionKey);
  assert.equal(Object.keys(await byKey(source)).length, 2);
});

test("§5 subscribeToEventsFrom: filter, jsonataTransform and start are carried into the configuration", async () => {
  const source = await seeded("sf-opts-src", 1);
  const receiving = fresh("sf-opts-dst");
  const filter = { eventTypes: ["a", "b"], jsonataCondition: "payload.n > 1" };
  const res = await subscribeFrom(receiving, {
    sourcePath: source,
    idempotencyKey: "opts",
    filter,
    jsonataTransform: '{"type": "copied." & type}',
    start: "now",
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const expected = {
    filter,
    receiver: {
      action: "copy-to-stream",
      receivingStreamPath: receiving,
      jsonataTransform: '{"type": "copied." & type}',
      delivery: { start: "now", onFailingEvent: "halt" },
    },
  };
  assert.deepEqual(res.body.subscriptionConfiguredEvent.payload, expected);
  const key = res.body.subscriptionKey;
  assert.deepEqual((await byKey(source))[key].configuration, expected);
  const offset = res.body.subscriptionConfiguredEvent.offset;
  assertIdleRuntime((await cardEntry(source, key)).runtime, { runOffset: offset, acknowledgedOffset: offset, lag: 0 });
});

test("§5 subscribeToEventsFrom: with a subscriptionKey the key is returned as given (no idempotencyKey needed); a never-written source is created", async () => {
  const source = fresh("sf-keyed-src");
  const receiving = fresh("sf-keyed-dst");
  const res = await subscribeFrom(receiving, { sourcePath: source, subscriptionKey: "mirror", filter: never() });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body.subscriptionKey, "mirror");
  assert.equal(res.body.subscriptionConfiguredEvent.offset, 1);
  assert.equal(res.body.subscriptionConfiguredEvent.payload.subscriptionKey, "mirror");
  const entries = await byKey(source);
  assert.deepEqual(Object.keys(entries), ["mirror"]);
  assert.equal(entries.mirror.subscriptionKeyWasGenerated, undefined);
  assert.equal(entries.mirror.configuration.receiver.receivingStreamPath, receiving);
  assert.deepEqual(entries.mirror.configuration.filter, never());
  assertError(await info(receiving), 404, "stream_not_found");

  // Calling again with the same key is ensure-or-replace: still one subscription.
  const again = await subscribeFrom(receiving, {
    sourcePath: source,
    subscriptionKey: "mirror",
    start: "now",
    filter: never(),
  });
  assert.ok([200, 201].includes(again.status), JSON.stringify(again.body));
  assert.equal(again.body.subscriptionKey, "mirror");
  const after = await byKey(source);
  assert.deepEqual(Object.keys(after), ["mirror"]);
  assert.equal(after.mirror.configuration.receiver.delivery.start, "now");
  assert.equal((await infoOk(source)).head, again.status === 201 ? 2 : 1);
  assertError(await info(receiving), 404, "stream_not_found");
});

test("§5 subscribeToEventsFrom: without subscriptionKey and idempotencyKey → 400 idempotency_key_required, nothing appended", async () => {
  const source = await seeded("sf-noidem-src", 1);
  const neverWritten = fresh("sf-noidem-src-new");
  const receiving = fresh("sf-noidem-dst");
  for (const sourcePath of [source, neverWritten]) {
    await rejectsAndCommitsNothing(
      [sourcePath, receiving],
      () => subscribeFrom(receiving, { sourcePath }),
      400,
      "idempotency_key_required",
    );
  }
  assertError(await info(neverWritten), 404, "stream_not_found");
});

test("§5 subscribeToEventsFrom: an invalid sourcePath → 400 invalid_path, nothing appended anywhere", async () => {
  const receiving = await seeded("sf-badpath-dst", 1);
  for (const sourcePath of ["nope", "/a//b", "/a/../b", "/a/./b", "/a/-/b", "", "/"]) {
    await rejectsAndCommitsNothing(
      [receiving, "/a/b", "/b"],
      () => subscribeFrom(receiving, { sourcePath, idempotencyKey: "x" }),
      400,
      "invalid_path",
    );
  }
  // A missing or non-string sourcePath is a 400 too.
  await rejectsAndCommitsNothing([receiving], () => subscribeFrom(receiving, { idempotencyKey: "x" }), 400);
  await rejectsAndCommitsNothing(
    [receiving],
    () => subscribeFrom(receiving, { sourcePath: 7, idempotencyKey: "x" }),
    400,
  );
});

test("§5 subscribeToEventsFrom: a stream cannot subscribe to itself (422); unknown fields → 400; bad options → 422", async () => {
  const path = await seeded("sf-self", 1);
  await rejectsAndCommitsNothing(
    [path],
    () => subscribeFrom(path, { sourcePath: path, idempotencyKey: "self" }),
    422,
  );
  const neverWritten = fresh("sf-self-new");
  await rejectsAndCommitsNothing(
    [neverWritten],
    () => subscribeFrom(neverWritten, { sourcePath: neverWritten, subscriptionKey: "self" }),
    422,
  );

  const source = await seeded("sf-unknown-src", 1);
  const receiving = fresh("sf-unknown-dst");
  const unknown = await rejectsAndCommitsNothing(
    [source, receiving],
    () => subscribeFrom(receiving, { sourcePath: source, idempotencyKey: "u", receiver: {} }),
    400,
  );
  assert.equal(unknown.body.error.details.field, "receiver");
  await rejectsAndCommitsNothing(
    [source, receiving],
    () => subscribeFrom(receiving, { sourcePath: source, idempotencyKey: "u", jsonataTransform: "{" }),
    422,
    "invalid_jsonata",
    "receiver.jsonataTransform",
  );
  await rejectsAndCommitsNothing(
    [source, receiving],
    () => subscribeFrom(receiving, { sourcePath: source, idempotencyKey: "u", start: "later" }),
    422,
    "invalid_subscription",
    "receiver.delivery.start",
  );
  await rejectsAndCommitsNothing(
    [source, receiving],
    () => subscribeFrom(receiving, { sourcePath: source, subscriptionKey: "subscription:9" }),
    422,
    "invalid_subscription",
    "subscriptionKey",
  );
});

test("§2/§5 subscribeToEventsFrom: the source is resolved in the caller's project only", async () => {
  const source = await seeded("sf-project-src", 1);
  const receiving = fresh("sf-project-dst");
  const res = await subscribeFrom(
    receiving,
    { sourcePath: source, subscriptionKey: "other-project", filter: never() },
    { token: OTHER_TOKEN },
  );
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body.subscriptionConfiguredEvent.offset, 1, "a fresh stream in project-b");
  assert.deepEqual(await byKey(source), {}, "project-a's source untouched");
  assert.equal((await infoOk(source)).head, 1);
  assert.deepEqual(Object.keys(await byKey(source, { token: OTHER_TOKEN })), ["other-project"]);
});

// ---------------------------------------------------------------------------
// 6. Runtime rows (§6) on the debug card (§11), and a restart
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

test("§2/§3: subscribe-from needs a bearer token, POST, and a JSON object body", async () => {
  const source = await seeded("sf-http-src", 1);
  const receiving = fresh("sf-http-dst");
  const body = { sourcePath: source, idempotencyKey: "h" };
  await rejectsAndCommitsNothing([source, receiving], () => subscribeFrom(receiving, body, { token: null }), 401);
  await rejectsAndCommitsNothing([source, receiving], () => subscribeFrom(receiving, body, { token: "wrong" }), 401);
  await rejectsAndCommitsNothing(
    [source, receiving],
    () => t.request("GET", streamUrl(receiving, "subscribe-from")),
    405,
  );
  await rejectsAndCommitsNothing(
    [source, receiving],
    () =>
      t.request("POST", streamUrl(receiving, "subscribe-from"), {
        rawBody: "{nope",
        headers: { "content-type": "application/json" },
      }),
    400,
  );
  await rejectsAndCommitsNothing([source, receiving], () => subscribeFrom(receiving, ["not", "an", "object"]), 400);
  assertError(await t.request("GET", streamUrl(source, "subscriptions"), { token: null }), 401);
});

// ---------------------------------------------------------------------------
// 7. Bad input: the right 4xx, and nothing committed
// ---------------------------------------------------------------------------

/** A stream holding one event and one subscription (matching nothing, so never sending), to reject things against. */
async function withOneSubscription(name) {
  const path = await seeded(name, 1);
  await configureOk(path, { subscriptionKey: "existing", filter: never(), receiver: copyTo("/e2e-subs/existing-dst") });
  return path;
}

const BAD_CONFIGURATIONS = [
  {
    name: "a syntax error in filter.jsonataCondition",
    payload: { receiver: copyTo("/e2e-subs/d", "now"), filter: { jsonataCondition: "payload.(" } },
    code: "invalid_jsonata",
    field: "filter.jsonataCondition",
    jsonataCode: true,
  },
  {
    name: "a syntax error in receiver.jsonataTransform",
    payload: { receiver: { ...copyTo("/e2e-subs/d", "now"), jsonataTransform: "{" } },
    code: "invalid_jsonata",
    field: "receiver.jsonataTransform",
    jsonataCode: true,
  },
  {
    name: "a syntax error in an itx-call transform",
    payload: { receiver: { ...itxCall(), jsonataTransform: "$foo(" } },
    code: "invalid_jsonata",
    field: "receiver.jsonataTransform",
    jsonataCode: true,
  },
  {
    name: "a condition that is a number",
    payload: { receiver: copyTo("/e2e-subs/d", "now"), filter: { jsonataCondition: 5 } },
    code: "invalid_subscription",
    field: "filter.jsonataCondition",
  },
  {
    name: "eventTypes that is not an array of strings",
    payload: { receiver: copyTo("/e2e-subs/d", "now"), filter: { eventTypes: "a" } },
    code: "invalid_subscription",
    field: "filter.eventTypes",
  },
  {
    name: "a transform on processor-wake",
    payload: { receiver: { ...processorWake(), jsonataTransform: "$" } },
    code: "invalid_subscription",
    field: "receiver.jsonataTransform",
  },
  {
    name: "onFailingEvent skip on copy-to-stream",
    payload: {
      receiver: { action: "copy-to-stream", receivingStreamPath: "/e2e-subs/d", delivery: { start: "now", onFailingEvent: "skip" } },
    },
    code: "invalid_subscription",
    field: "receiver.delivery.onFailingEvent",
  },
  {
    name: "a throttle on copy-to-stream",
    payload: {
      receiver: {
        action: "copy-to-stream",
        receivingStreamPath: "/e2e-subs/d",
        delivery: { start: "now", onFailingEvent: "halt", throttle: { maxDeliveries: 1, windowMs: 1000 } },
      },
    },
    code: "invalid_subscription",
    field: "receiver.delivery.throttle",
  },
  {
    name: "the reserved key prefix subscription:",
    payload: { subscriptionKey: "subscription:1", receiver: copyTo("/e2e-subs/d", "now") },
    code: "invalid_subscription",
    field: "subscriptionKey",
  },
  {
    name: "the reserved key prefix connection:",
    payload: { subscriptionKey: "connection:1", receiver: copyTo("/e2e-subs/d", "now") },
    code: "invalid_subscription",
    field: "subscriptionKey",
  },
  {
    name: "a 257-byte subscription key",
    payload: { subscriptionKey: "k".repeat(257), receiver: copyTo("/e2e-subs/d", "now") },
    code: "invalid_subscription",
    field: "subscriptionKey",
  },
  {
    name: "a 257-byte multibyte subscription key (129 two-byte chars)",
    payload: { subscriptionKey: "é".repeat(128) + "k", receiver: copyTo("/e2e-subs/d", "now") },
    code: "invalid_subscription",
    field: "subscriptionKey",
  },
  {
    name: "a filter.jsonataCondition over 4 KiB",
    payload: { receiver: copyTo("/e2e-subs/d", "now"), filter: { jsonataCondition: "a".repeat(4097) } },
    code: "invalid_jsonata",
    field: "filter.jsonataCondition",
  },
  {
    name: "a receiver.jsonataTransform over 4 KiB",
    payload: { receiver: { ...webhookPost(), jsonataTransform: `"${"x".repeat(4095)}"` } },
    code: "invalid_jsonata",
    field: "receiver.jsonataTransform",
  },
  {
    name: "a replace of an existing key with an invalid configuration",
    payload: { subscriptionKey: "existing", receiver: { ...processorWake(), jsonataTransform: "$" } },
    code: "invalid_subscription",
    field: "receiver.jsonataTransform",
  },
];

for (const bad of BAD_CONFIGURATIONS) {
  test(`§5/§2: ${bad.name} → 422 ${bad.code} naming ${bad.field}, nothing committed`, async () => {
    const path = await withOneSubscription(`bad-${counter}`);
    const neverWritten = fresh("bad-new");
    for (const target of [path, neverWritten]) {
      const res = await rejectsAndCommitsNothing(
        [target],
        () => configure(target, bad.payload),
        422,
        bad.code,
        bad.field,
      );
      if (bad.code === "invalid_jsonata") {
        assert.ok("jsonataCode" in res.body.error.details, "invalid_jsonata carries details.jsonataCode");
        if (bad.jsonataCode) assert.match(res.body.error.details.jsonataCode, /^[A-Z]\d{4}$/);
      }
    }
    assertError(await info(neverWritten), 404, "stream_not_found");
    // Inside a batch, the bad configuration sinks the whole batch.
    await rejectsAndCommitsNothing(
      [path],
      () => append(path, { events: [{ type: "fine" }, configureEvent(bad.payload), { type: "fine" }] }),
      422,
      bad.code,
      bad.field,
    );
  });
}

test("§5 Keys: a 256-byte key and a 4 KiB expression are exactly at the limit and accepted", async () => {
  const path = await seeded("limits-ok", 1);
  const key = "k".repeat(256);
  await configureOk(path, {
    subscriptionKey: key,
    filter: { jsonataCondition: "a".repeat(4096) },
    receiver: { ...copyTo("/e2e-subs/limits-dst", "now"), jsonataTransform: `"${"x".repeat(4094)}"` },
  });
  assert.deepEqual(Object.keys(await byKey(path)), [key]);
});

test("§5 Bounds: a 65th subscription from one source to one receiver → 422 too_many_subscriptions; another receiver is fine", async () => {
  const path = fresh("bound-64");
  const receiver = "/e2e-subs/bound-receiver";
  // Filtered to nothing: the later configure events are never copied, so the
  // receiving stream stays unwritten and its snapshot is exact.
  const events = Array.from({ length: 64 }, (_, i) =>
    configureEvent({ subscriptionKey: `k${i}`, filter: never(), receiver: copyTo(receiver, "now") }),
  );
  await batchOk(path, events);
  assert.equal(Object.keys(await byKey(path)).length, 64);
  assert.equal((await cardOk(path)).subscriptions.length, 64);

  await rejectsAndCommitsNothing(
    [path],
    () => configure(path, { subscriptionKey: "k64", filter: never(), receiver: copyTo(receiver, "now") }),
    422,
    "too_many_subscriptions",
  );
  await rejectsAndCommitsNothing(
    [path],
    () => configure(path, { filter: never(), receiver: copyTo(receiver, "beginning") }),
    422,
    "too_many_subscriptions",
  );
  // subscribe-from from that receiving stream counts against the same bound.
  await rejectsAndCommitsNothing(
    [path, receiver],
    () => subscribeFrom(receiver, { sourcePath: path, idempotencyKey: "sixty-five", filter: never() }),
    422,
    "too_many_subscriptions",
  );
  // Replacing one of the 64 is not adding.
  await configureOk(path, { subscriptionKey: "k0", filter: never(), receiver: copyTo(receiver, "beginning") });
  // A 65th to a different receiver is fine.
  await configureOk(path, { subscriptionKey: "k64", filter: never(), receiver: copyTo("/e2e-subs/bound-other", "now") });
  const entries = await byKey(path);
  assert.equal(Object.keys(entries).length, 65);
  // Removing one makes room again.
  await appendOk(path, { type: REMOVED, payload: { subscriptionKey: "k1" } });
  await configureOk(path, { subscriptionKey: "k65", filter: never(), receiver: copyTo(receiver, "now") });
  assert.equal(Object.keys(await byKey(path)).length, 65);
  assertError(await info(receiver), 404, "stream_not_found");
});

test("§5 Bounds: a configuration pushing the reduced state over 256 KiB → 422 reduced_state_too_large", async () => {
  const path = fresh("bound-state");
  const description = "d".repeat(60_000);
  for (let i = 0; i < 4; i++) {
    await configureOk(path, {
      subscriptionKey: `b${i}`,
      description,
      filter: never(),
      receiver: copyTo(`/e2e-subs/big${i}`, "now"),
    });
  }
  await rejectsAndCommitsNothing(
    [path],
    () => configure(path, { subscriptionKey: "b4", description, filter: never(), receiver: copyTo("/e2e-subs/big4", "now") }),
    422,
    "reduced_state_too_large",
  );
  // Growing an existing one past the limit by replacing it is refused too.
  await rejectsAndCommitsNothing(
    [path],
    () =>
      configure(path, {
        subscriptionKey: "b0",
        description: "d".repeat(120_000),
        filter: never(),
        receiver: copyTo("/e2e-subs/big0", "now"),
      }),
    422,
    "reduced_state_too_large",
  );
  assert.deepEqual(Object.keys(await byKey(path)).sort(), ["b0", "b1", "b2", "b3"]);
  // Room again after a removal.
  await appendOk(path, { type: REMOVED, payload: { subscriptionKey: "b3" } });
  await configureOk(path, { subscriptionKey: "b4", description, filter: never(), receiver: copyTo("/e2e-subs/big4", "now") });
});

test("§4/§2: cursor-set beyond head and for an unknown key, and resume of a not-halted subscription, commit nothing", async () => {
  const path = await withOneSubscription("bad-control"); // head 2
  const neverWritten = fresh("bad-control-new");
  const cases = [
    [{ type: CURSOR_SET, payload: { subscriptionKey: "existing", afterOffset: 3 } }, 422, "cursor_beyond_head"],
    [{ type: CURSOR_SET, payload: { subscriptionKey: "existing", afterOffset: 1e9 } }, 422, "cursor_beyond_head"],
    [{ type: CURSOR_SET, payload: { subscriptionKey: "unknown", afterOffset: 1 } }, 422, "unknown_subscription"],
    [{ type: RESUMED, payload: { subscriptionKey: "existing" } }, 409, "subscription_not_halted"],
    [{ type: RESUMED, payload: { subscriptionKey: "unknown" } }, 422, "unknown_subscription"],
    [{ type: REMOVED, payload: { subscriptionKey: "unknown" } }, 422, "unknown_subscription"],
  ];
  for (const [event, status, code] of cases) {
    await rejectsAndCommitsNothing([path], () => append(path, event), status, code);
    // In a batch the check is against the head before that event, so the bad one goes first.
    await rejectsAndCommitsNothing([path], () => append(path, { events: [event, { type: "ok" }] }), status, code);
  }
  // On a never-written stream every key is unknown, and the stream stays unwritten.
  await rejectsAndCommitsNothing(
    [neverWritten],
    () => append(neverWritten, { type: RESUMED, payload: { subscriptionKey: "existing" } }),
    422,
    "unknown_subscription",
  );
  await rejectsAndCommitsNothing(
    [neverWritten],
    () => append(neverWritten, { type: CURSOR_SET, payload: { subscriptionKey: "existing", afterOffset: 0 } }),
    422,
    "unknown_subscription",
  );
  // A cursor-set in a batch may name an offset committed earlier in the same batch.
  const batch = await batchOk(path, [
    { type: "a" },
    { type: CURSOR_SET, payload: { subscriptionKey: "existing", afterOffset: 3 } },
  ]);
  assert.deepEqual(batch.map((e) => e.offset), [3, 4]);
  assert.deepEqual((await byKey(path)).existing.cursorSet, { afterOffset: 3, setAtSourceOffset: 4 });
});

test("§5/§2: subscribe-from without idempotencyKey or key, and naming an invalid source path, commit nothing", async () => {
  const source = await withOneSubscription("bad-sf-src");
  const receiving = await seeded("bad-sf-dst", 1);
  await rejectsAndCommitsNothing(
    [source, receiving],
    () => subscribeFrom(receiving, { sourcePath: source, filter: { eventTypes: ["a"] } }),
    400,
    "idempotency_key_required",
  );
  await rejectsAndCommitsNothing(
    [source, receiving],
    () => subscribeFrom(receiving, { sourcePath: source, subscriptionKey: null, idempotencyKey: null }),
    400,
    "idempotency_key_required",
  );
  for (const sourcePath of ["nope", "/a//b", "/a/../b"]) {
    await rejectsAndCommitsNothing(
      [source, receiving],
      () => subscribeFrom(receiving, { sourcePath, idempotencyKey: "k" }),
      400,
      "invalid_path",
    );
  }
});

/**
 * JSONata that compiles but recurses: an unbounded tail recursion (uses no
 * stack, so no depth cap stops it), a deep non-tail recursion, mutual
 * recursion, the λ form, recursion through an alias and self-application.
 * None is refused at configure: evaluation is bounded in steps (§12), so each
 * ends with a clear error (U1001, or D1011 for the deep one) when it runs.
 */
const RECURSIVE = [
  "($f := function($n) { $f($n + 1) }; $f(0))",
  "($f := function($n) { $n = 0 ? 0 : 1 + $f($n - 1) }; $f(100000))",
  "($a := function() { $b() }; $b := function() { $a() }; $a())",
  "($f := λ($n) { $n = 0 ? 0 : $f($n - 1) }; $f(3))",
  "($f := function($n) { $h($n) }; $h := $f; $f(0))",
  "(function($x) { $x($x) })(function($x) { $x($x) })",
];
/** What a runaway evaluation ends with: the step budget (§12). */
const STEP_BUDGET = /U1001.*exceeded 100000 steps/;

test("§5/§12 Filter: recursive filters and transforms are accepted; a runaway one halts its subscription with the step-budget error; hostile nesting is refused; the worker keeps serving", async () => {
  const path = await withOneSubscription("hostile"); // head 2, subscription "existing"
  // Every payload here filters to nothing, so it is accepted and never evaluated.
  const condition = (jsonataCondition, extra = {}) => ({
    ...extra,
    filter: { ...never(), jsonataCondition },
    receiver: copyTo("/e2e-subs/hostile-dst", "beginning"),
  });
  const transform = (jsonataTransform, extra = {}) => ({
    ...extra,
    filter: never(),
    receiver: { ...copyTo("/e2e-subs/hostile-dst", "beginning"), jsonataTransform },
  });
  const accepted = [];
  for (const [i, expression] of RECURSIVE.entries()) {
    await configureOk(path, condition(expression, { subscriptionKey: `recursive-filter-${i}` }));
    await configureOk(path, transform(expression, { subscriptionKey: `recursive-transform-${i}` }));
    accepted.push(`recursive-filter-${i}`, `recursive-transform-${i}`);
  }
  // On the other receivers that carry a transform, and through subscribe-from.
  await configureOk(path, {
    subscriptionKey: "recursive-itx",
    filter: never(),
    receiver: { ...itxCall("now"), jsonataTransform: RECURSIVE[0] },
  });
  await configureOk(path, {
    subscriptionKey: "recursive-webhook",
    filter: never(),
    receiver: { ...webhookPost(), jsonataTransform: RECURSIVE[0] },
  });
  accepted.push("recursive-itx", "recursive-webhook");
  const viaSubscribeFrom = await subscribeFrom(fresh("hostile-sf-dst"), {
    sourcePath: path,
    idempotencyKey: "recursive",
    filter: never(),
    jsonataTransform: RECURSIVE[0],
  });
  assert.equal(viaSubscribeFrom.status, 201, JSON.stringify(viaSubscribeFrom.body));
  accepted.push(viaSubscribeFrom.body.subscriptionKey);

  // Evaluated for real, a runaway filter and a runaway transform each halt
  // their subscription at the first event with the step-budget error.
  const live = fresh("hostile-live");
  await appendOk(live, { type: "data", payload: { n: 1 } });
  await configureOk(live, {
    subscriptionKey: "runaway-filter",
    filter: { jsonataCondition: RECURSIVE[0] },
    receiver: copyTo(fresh("hostile-live-dst"), "beginning"),
  });
  await configureOk(live, {
    subscriptionKey: "runaway-transform",
    receiver: { ...copyTo(fresh("hostile-live-dst"), "beginning"), jsonataTransform: RECURSIVE[5] },
  });
  for (const key of ["runaway-filter", "runaway-transform"]) {
    const halted = await eventually(
      async () => {
        const entry = (await byKey(live))[key];
        assert.ok(entry.deliveryHalted, `${key} halted: ${JSON.stringify(entry)}`);
        return entry.deliveryHalted;
      },
      { what: `${key} to halt` },
    );
    assert.equal(halted.afterOffset, 0, `${key} halts at the first event: ${JSON.stringify(halted)}`);
    assert.match(halted.error, STEP_BUDGET, `${key}: ${JSON.stringify(halted)}`);
  }
  // POST /v1/jsonata/evaluate answers a runaway expression the same way.
  for (const expression of [RECURSIVE[0], RECURSIVE[4], RECURSIVE[5], "$map([1..9999999], function($v) { $v })"]) {
    const res = await t.request("POST", "/v1/jsonata/evaluate", { body: { expression } });
    assertError(res, 422, "jsonata_evaluation_error");
    assert.equal(res.body.error.details.jsonataCode, "U1001", JSON.stringify(res.body));
    assert.match(res.body.error.message, STEP_BUDGET);
  }

  // A function that does not call itself is an ordinary expression.
  await configureOk(path, {
    subscriptionKey: "helper",
    filter: { ...never(), jsonataCondition: "($double := function($x) { $x * 2 }; $double(payload.n) > 2)" },
    receiver: {
      ...copyTo("/e2e-subs/hostile-dst", "beginning"),
      jsonataTransform: "($g := function($x) { $string($x) & '$g' }; {'payload': $g(payload)})",
    },
  });

  // Nesting deep enough to blow a recursive-descent parser, under 4 KiB: refused as before.
  for (const expression of [
    "(".repeat(2000) + "1" + ")".repeat(2000),
    "[".repeat(2000) + "1" + "]".repeat(2000),
    "-".repeat(4000) + "1",
  ]) {
    await rejectsAndCommitsNothing(
      [path],
      () => configure(path, condition(expression)),
      422,
      "invalid_jsonata",
      "filter.jsonataCondition",
    );
  }

  // The worker still works: reads, appends and the debug card.
  const keys = ["existing", "helper", ...accepted].sort();
  assert.deepEqual(Object.keys(await byKey(path)).sort(), keys);
  const next = await appendOk(path, { type: "still-alive" });
  assert.equal(next.offset, 3 + accepted.length + 1, "the accepted configures and the helper were committed");
  const c = await cardOk(path);
  assert.deepEqual(c.subscriptions.map((s) => s.subscriptionKey).sort(), keys);
  await quiescent(path);
  const other = fresh("hostile-other");
  assert.equal((await appendOk(other, { type: "ok" })).offset, 1);
});

test("§2: a control event with a malformed payload is 422 and commits nothing", async () => {
  const path = await withOneSubscription("bad-payload");
  const cases = [
    { type: CONFIGURED, payload: "not an object" },
    { type: CONFIGURED },
    { type: CONFIGURED, payload: { receiver: copyTo("/e2e-subs/d"), extra: true } },
    { type: REMOVED, payload: { subscriptionKey: "existing", reason: "because" } },
    { type: REMOVED, payload: {} },
    { type: CURSOR_SET, payload: { subscriptionKey: "existing" } },
    { type: CURSOR_SET, payload: { subscriptionKey: "existing", afterOffset: -1 } },
    { type: CURSOR_SET, payload: { subscriptionKey: "existing", afterOffset: 1, extra: 1 } },
    { type: RESUMED, payload: { subscriptionKey: 5 } },
  ];
  for (const event of cases) {
    const res = await rejectsAndCommitsNothing([path], () => append(path, event), 422);
    assert.ok(res.body.error.code, JSON.stringify(res.body));
  }
  // Control events cannot be ephemeral (§3 rule 5).
  await rejectsAndCommitsNothing(
    [path],
    () => configure(path, { receiver: copyTo("/e2e-subs/d") }, { ephemeral: true }),
    400,
  );
});

