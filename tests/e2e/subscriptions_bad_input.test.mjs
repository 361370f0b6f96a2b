// End-to-end refused subscription configurations (docs/design.md §2, §3 rule 5,
// §4, §5 Keys, Bounds and Filter, §12) against the built worker running in
// workerd: every bad configuration — alone, inside a batch, on a written or
// a never-written stream — is the right 4xx and commits nothing; the limits
// themselves (a 256-byte key, a 4 KiB expression) are accepted; at most 64
// subscriptions from one source to one receiver and 256 KiB of reduced
// state; bad cursor-sets, resumes, removals and control-event payloads; bad
// subscribe-from calls; and recursive JSONata, accepted at configure time and
// halted by the step budget when it runs, while the worker keeps serving.
//
// Delivery is live, though: the source stream's alarm delivers shortly after
// any append (§6). So every subscription here that the spine would deliver is
// either filtered to an event type no test appends (never()) — nothing is
// ever sent, no receiving stream is written and no halt or audit event is
// appended, so heads and states stay exact — or has nothing after its start
// cursor; the only exceptions are the two runaway subscriptions of the
// recursion test, which halt on a stream of their own. What the alarm
// still does for such a subscription is advance its
// cursor over the events its filter rejects (§6 rule 2), at a moment the test
// does not control: runtime rows of such subscriptions are asserted with cursor
// bounds (assertUnsentRuntime), and snapshots wait until the cursors have
// settled (quiescent) before comparing. Those helpers, shared with the other
// subscriptions_*.test.mjs files, are in subscription_helpers.mjs.
// One Tributary per file; every test uses its own stream paths.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary } from "./harness.mjs";
import { CONFIGURED, REMOVED, CURSOR_SET, RESUMED, eventually } from "./delivery_helpers.mjs";
import {
  counter,
  fresh,
  never,
  processorWake,
  copyTo,
  itxCall,
  webhookPost,
  configureEvent,
  assertError,
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
  info,
  subscribeFrom,
  configure,
  appendOk,
  batchOk,
  configureOk,
  byKey,
  cardOk,
  quiescent,
  rejectsAndCommitsNothing,
  seeded,
} = subscriptionRequests(() => t);

// ---------------------------------------------------------------------------
// 1. Bad input: the right 4xx, and nothing committed
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
