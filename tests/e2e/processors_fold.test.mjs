// End-to-end hosted processors folding streams (docs/design.md §9 processor-wake,
// §5, §6, §11) against the built worker running in workerd: definitions per
// project (PUT/GET/DELETE /v1/processors), streams enabling them with a
// `processor-wake` subscription, one instance per (project, name, stream
// path) whose state must equal a plain fold of the stream's committed
// matching events — across batching, filters, redefinitions, recreated
// streams, reducer errors (halt, fix, resume; never skip), deleted
// definitions and a SIGKILL of the whole process group mid-fold — and the
// debug card's runtime row. Refused definitions and subscriptions, hostile
// reducers and project scoping are in processors_definitions.test.mjs.
//
// Every expected state is computed here by folding the events read back
// from the stream in plain JavaScript (processor_helpers.mjs). Delivery is
// asynchronous (the stream's alarm), so every expectation about folded state
// is polled for with a bounded wait (`eventually`), never asserted after a
// fixed sleep. One Tributary per file (plus a separate server process for
// the crash test); every test uses its own processor names and stream paths.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { startTributary, freshStateDir } from "./harness.mjs";
import { liveGroupMembers, servers, startServer } from "./server_process.mjs";
import { CONFIGURED, RESUMED, HALTED, copyReceiver, rawRequest, streamApi } from "./delivery_helpers.mjs";
import {
  fresh,
  freshName,
  TOTALS,
  foldTotals,
  orderEvents,
  order,
  wake,
  processorApi,
  wakeSubscriptions,
} from "./processor_helpers.mjs";

let t;
let api;
before(async () => {
  t = await startTributary();
  api = streamApi(t);
});
after(async () => {
  await t?.cleanup();
});

let papi;
before(() => {
  papi = processorApi({ request: (...args) => t.request(...args) });
});

const { configure, haltFacts } = wakeSubscriptions(() => t);

const RUNTIME_FIELDS = [
  "acknowledgedOffset",
  "lag",
  "attempt",
  "nextAttemptAt",
  "inFlightDeadlineAt",
  "lastError",
  "bytesSent",
  "completionLatencyMs",
  "deliveryDurationMs",
];

/** JSONata: totals that double each amount and count the events folded in `_seen`. */
const DOUBLED =
  "$merge([$state, {'_seen': $state._seen + 1, $event.payload.customer: ($lookup($state, $event.payload.customer) ? $lookup($state, $event.payload.customer) : 0) + 2 * $event.payload.amount}])";
const foldDoubled = (events, initial = { _seen: 0 }) =>
  events.reduce(
    (state, e) => ({ ...state, _seen: state._seen + 1, [e.payload.customer]: (state[e.payload.customer] ?? 0) + 2 * e.payload.amount }),
    initial,
  );

/**
 * JSONata: an audit fold — how many events, their sum, the last offset and
 * whether every offset folded was above the previous one (a duplicate or a
 * reordering turns `ordered` false for good), plus totals per customer.
 */
const AUDIT = `{
  "n": $state.n + 1,
  "sum": $state.sum + $event.payload.amount,
  "last": $event.offset,
  "ordered": $state.ordered and $event.offset > $state.last,
  "by": $merge([$state.by, {$event.payload.customer: ($lookup($state.by, $event.payload.customer) ? $lookup($state.by, $event.payload.customer) : 0) + $event.payload.amount}])
}`;
const AUDIT_INITIAL = { n: 0, sum: 0, last: 0, ordered: true, by: {} };
const foldAudit = (events) =>
  events.reduce(
    (state, e) => ({
      n: state.n + 1,
      sum: state.sum + e.payload.amount,
      last: e.offset,
      ordered: state.ordered && e.offset > state.last,
      by: { ...state.by, [e.payload.customer]: (state.by[e.payload.customer] ?? 0) + e.payload.amount },
    }),
    AUDIT_INITIAL,
  );

const ordersOf = (events) => events.filter((e) => e.type === "order");

// ---------------------------------------------------------------------------
// 1. One definition, two streams, independent instances
// ---------------------------------------------------------------------------

test("§9: one definition, two streams: each stream's instance equals a plain fold of its own matching events (eventTypes and jsonataCondition filters, ephemeral events excluded); lag 0, checkpoint at the head", { timeout: 90_000 }, async () => {
  const P = freshName("totals");
  const X = fresh("orders-x");
  const Y = fresh("orders-y");

  const defined = await papi.defineOk(P, { initialState: {}, reducer: TOTALS, description: "running totals per customer" });
  assert.deepEqual(Object.keys(defined).sort(), ["definedAt", "description", "initialState", "kind", "name", "reducer", "version"]);
  assert.equal(defined.name, P);
  assert.equal(defined.version, 1);
  assert.equal(defined.kind, "jsonata-reducer");
  assert.deepEqual(defined.initialState, {});
  assert.equal(defined.reducer, TOTALS);
  assert.equal(defined.description, "running totals per customer");
  assert.ok(Number.isFinite(Date.parse(defined.definedAt)), `definedAt is a time: ${defined.definedAt}`);
  // An identical PUT keeps the version (retries are safe).
  const again = await papi.defineOk(P, { initialState: {}, reducer: TOTALS, description: "running totals per customer" });
  assert.equal(again.version, 1);
  assert.deepEqual((await papi.get(P)).body, defined);
  const listed = (await papi.list()).body.processors.find((p) => p.name === P);
  assert.deepEqual(listed, { name: P, version: 1, kind: "jsonata-reducer", description: "running totals per customer", definedAt: defined.definedAt });

  await configure(X, "totals", P, { eventTypes: ["order"] });
  await configure(Y, "totals", P, { eventTypes: ["order"], jsonataCondition: "payload.amount >= 30" });
  // Before any order: the initial state (checkpoint wherever the filtered-out configure left it).
  assert.deepEqual((await papi.stateOk(X, P)).state, {});

  // Many orders in batches and single appends, with `note` events the filter
  // skips and an ephemeral order no durable fold may see; X and Y concurrently.
  const feed = async (path, seed) => {
    const batches = Array.from({ length: 6 }, (_, b) => orderEvents(60, seed + b, { noiseEvery: 7 }));
    for (const batch of batches.slice(0, 3)) await api.batchOk(path, batch);
    await api.appendOk(path, { ...order("ada", 5_000), ephemeral: true });
    await Promise.all(batches.slice(3).map((batch) => api.batchOk(path, batch)));
    for (const single of orderEvents(10, seed + 100)) await api.appendOk(path, single);
  };
  await Promise.all([feed(X, 1_000), feed(Y, 2_000)]);

  for (const [path, matches] of [
    [X, (e) => e.type === "order"],
    [Y, (e) => e.type === "order" && e.payload.amount >= 30],
  ]) {
    const state = await papi.caughtUp(api, path, P, { version: 1 });
    const { events, head } = await api.readAll(path);
    const folded = events.filter(matches);
    assert.ok(folded.length > 100, `${path}: enough matching events (${folded.length})`);
    assert.ok(folded.length < events.length - 40, `${path}: the filter left events out`);
    assert.ok(!events.some((e) => e.payload?.amount === 5_000), "the ephemeral order is not durable");
    assert.deepEqual(state.state, foldTotals(folded), `${path}: the state is the plain fold of its matching events`);
    assert.equal(state.name, P);
    assert.equal(state.checkpointOffset, head);
    const entry = await api.caughtUp(path, "totals");
    assert.equal(entry.runtime.lastError, null);
  }
  const x = (await papi.stateOk(X, P)).state;
  const y = (await papi.stateOk(Y, P)).state;
  assert.notDeepEqual(x, y, "two instances, two states");
  assert.ok(!Object.keys(x).includes("_seen") && Object.values(x).every((v) => v < 1_000_000), "notes never folded");
});

test("§9: the instance's checkpoint passes filtered-out events too — when the log ends in events the filter skips, GET /-/processors reaches checkpointOffset = head and lag 0, as the stream's card does", { timeout: 60_000 }, async () => {
  const P = freshName("tail");
  await papi.defineOk(P, { initialState: {}, reducer: TOTALS });
  // (1) caught up, then a filtered-out event appended on its own;
  // (2) a subscription configured after a log of more than one batch (the configure event itself is filtered out).
  const A = fresh("tail-note");
  const B = fresh("tail-configured-after");
  await configure(A, "k", P, { eventTypes: ["order"] });
  await api.appendOk(A, order("ada", 3));
  await papi.caughtUp(api, A, P);
  await api.appendOk(A, { type: "note", payload: {} });
  const log = await api.batchOk(B, orderEvents(150, 12));
  await configure(B, "k", P, { eventTypes: ["order"] });

  const outcomes = await Promise.allSettled(
    [A, B].map(async (path) => {
      await api.caughtUp(path, "k"); // the stream's own row: lag 0 at the head
      return papi.caughtUp(api, path, P, { timeoutMs: 8_000 });
    }),
  );
  const problems = outcomes.flatMap((outcome, i) => (outcome.status === "rejected" ? [`${[A, B][i]}: ${outcome.reason.message}`] : []));
  assert.equal(problems.length, 0, `the instance's checkpoint stays before a filtered-out tail:\n${problems.join("\n")}`);
  assert.deepEqual(outcomes[1].value.state, foldTotals(log));
});

// ---------------------------------------------------------------------------
// 2. Crash: SIGKILL of the whole process group mid-fold
// ---------------------------------------------------------------------------

const dirs = [];
after(async () => {
  for (const server of servers) await server.kill().catch(() => {});
  for (const server of servers) assert.deepEqual(liveGroupMembers(server.pgid), [], "no orphan workerd");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const CRASH_BATCHES = 24;
const CRASH_PER_BATCH = 100;
const CRASH_BEFORE_KILL = 20;
const CRASH_MAX_ROUNDS = 4;

test("§9 determinism, §6 rule 6: SIGKILL of the whole process group while the processor folds a burst, restart on the same storage: the state equals the plain fold — nothing double-counted, nothing lost, in offset order", { timeout: 300_000 }, async (tt) => {
  const dir = freshStateDir("tributary-processor-crash-");
  dirs.push(dir);
  const P = "audit";
  const S = "/e2e-processors/crash";

  let server = await startServer(dir);
  const clients = () => {
    const requester = { request: (method, path, opts) => rawRequest(server.url, method, path, opts) };
    return { streams: streamApi(requester), processors: processorApi(requester) };
  };
  let { streams, processors } = clients();

  await processors.defineOk(P, { initialState: AUDIT_INITIAL, reducer: AUDIT });
  await streams.appendOk(S, { type: CONFIGURED, payload: { subscriptionKey: "audit", filter: { eventTypes: ["order"] }, receiver: wake(P) } });
  await streams.appendOk(S, { type: "note", payload: { n: 0 } });
  const lifetime = await streams.infoOk(S);

  const batchBody = (round, b) => ({ events: orderEvents(CRASH_PER_BATCH, 10_000 * round + b, { idempotencyPrefix: `crash-r${round}-b${b}` }) });
  let round = 0;
  let landedMidFold = false;
  while (!landedMidFold && round < CRASH_MAX_ROUNDS) {
    const r = round++;
    // A burst: the first batches all at once; as soon as they are
    // acknowledged, the rest leave and the group is SIGKILLed in the same
    // turn — the stream's alarm is folding the burst into the instance.
    const acknowledged = new Set();
    const send = (b) =>
      streams.append(S, batchBody(r, b)).then(
        (res) => {
          assert.equal(res.status, 201, JSON.stringify(res.body).slice(0, 300));
          acknowledged.add(b);
        },
        () => {}, // the connection died with the server: re-sent after the restart
      );
    await Promise.all(Array.from({ length: CRASH_BEFORE_KILL }, (_, b) => send(b)));
    const inFlight = Array.from({ length: CRASH_BATCHES - CRASH_BEFORE_KILL }, (_, k) => send(CRASH_BEFORE_KILL + k));
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([server.kill(), ...inFlight]);

    server = await startServer(dir);
    ({ streams, processors } = clients());
    const info = await streams.infoOk(S);
    assert.equal(info.streamId, lifetime.streamId, "the same lifetime after the restart");
    // The kill landed mid-fold when the restarted stream object had folds
    // to deliver: its delivery figures count from its start (§11). A read of
    // the checkpoint after the restart cannot show it: the restarted object
    // resumes delivering at once, before any read is answered.
    const entry = await streams.caughtUp(S, "audit", { timeoutMs: 60_000 });
    const atCatchUp = await processors.stateOk(S, P);
    assert.equal(atCatchUp.streamId, lifetime.streamId);
    assert.equal(atCatchUp.checkpointOffset, info.head, "the fold reaches the head the restart found");
    const foldsAfterRestart = entry.runtime.deliveryDurationMs.count;
    landedMidFold = foldsAfterRestart > 0;
    tt.diagnostic(
      `round ${r}: killed with ${acknowledged.size}/${CRASH_BATCHES} batches acknowledged; after the restart head ${info.head}, ` +
        `${foldsAfterRestart} folds delivered by the restarted object${landedMidFold ? " — the kill landed mid-fold" : ""}`,
    );
    // Every batch again with the same idempotency keys: the acknowledged ones
    // deduplicate, the lost ones commit now (or were committed: all-or-nothing).
    for (let b = 0; b < CRASH_BATCHES; b++) {
      const res = await streams.append(S, batchBody(r, b));
      if (acknowledged.has(b)) assert.equal(res.status, 200, `round ${r} batch ${b} survived the kill`);
      else assert.ok([200, 201].includes(res.status), `round ${r} batch ${b}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    }
  }
  assert.ok(landedMidFold, `in ${CRASH_MAX_ROUNDS} rounds, no kill was shown to land before the processor caught up`);

  // A batch in flight at the kill is retried once its in-flight deadline (30 s) passes.
  const state = await processors.caughtUp(streams, S, P, { version: 1, timeoutMs: 120_000 });
  const { events, head } = await streams.readAll(S);
  const orders = ordersOf(events);
  assert.equal(orders.length, round * CRASH_BATCHES * CRASH_PER_BATCH, "each order committed once");
  assert.equal(state.checkpointOffset, head);
  assert.equal(state.state.ordered, true, "every offset folded once, ascending");
  assert.equal(state.state.n, orders.length, "nothing double-counted, nothing lost");
  assert.deepEqual(state.state, foldAudit(orders), "the state is the plain fold");
  assert.equal((await streams.eventsOfType(S, HALTED)).length, 0, "a crash never halts");
  const entry = await streams.caughtUp(S, "audit", { timeoutMs: 30_000 });
  assert.equal(entry.deliveryHalted, undefined);

  await server.kill();
  assert.deepEqual(liveGroupMembers(server.pgid), []);
});

// ---------------------------------------------------------------------------
// 3. Redefinition refolds; a recreated stream starts over
// ---------------------------------------------------------------------------

test("§9: a redefinition (new version) refolds the whole log with the new reducer and initialState on the next wake; a recreated stream folds its new lifetime only", { timeout: 90_000 }, async () => {
  const P = freshName("refold");
  const S = fresh("refold");
  await papi.defineOk(P, { initialState: {}, reducer: TOTALS });
  await configure(S, "k", P, { eventTypes: ["order"] });
  await api.batchOk(S, orderEvents(40, 7, { noiseEvery: 5 }));
  let state = await papi.caughtUp(api, S, P, { version: 1 });
  assert.deepEqual(state.state, foldTotals(ordersOf((await api.readAll(S)).events)));
  await api.caughtUp(S, "k");

  // Redefine: new reducer and initial state → version 2. Until the stream
  // next delivers, the route shows the reset the next wake will make.
  const v2 = await papi.defineOk(P, { initialState: { _seen: 0 }, reducer: DOUBLED });
  assert.equal(v2.version, 2);
  const pending = await papi.stateOk(S, P);
  const headBefore = (await api.infoOk(S)).head;
  assert.deepEqual(
    { version: pending.version, checkpointOffset: pending.checkpointOffset, lag: pending.lag, state: pending.state },
    { version: 2, checkpointOffset: 0, lag: headBefore, state: { _seen: 0 } },
    "not yet woken for version 2: initialState at checkpoint 0",
  );

  // The next matching append wakes it: the whole log refolds.
  await api.appendOk(S, order("zed", 3));
  state = await papi.caughtUp(api, S, P, { version: 2 });
  const v1Log = ordersOf((await api.readAll(S)).events);
  assert.equal(v1Log.length, 41);
  assert.deepEqual(state.state, foldDoubled(v1Log), "the new reducer over the whole log, from the new initialState");
  assert.equal(state.state._seen, 41);

  // Recreate the stream: DELETE, then a new lifetime (its subscription configured again).
  const oldStreamId = (await api.infoOk(S)).streamId;
  assert.equal((await api.destroy(S)).status, 204);
  assert.equal((await papi.state(S, P)).status, 404, "no stream, no instance view");
  await configure(S, "k", P, { eventTypes: ["order"] });
  const fresh2 = await api.batchOk(S, orderEvents(15, 99));
  const info = await api.infoOk(S);
  assert.notEqual(info.streamId, oldStreamId, "a new lifetime");
  state = await papi.caughtUp(api, S, P, { version: 2 });
  assert.equal(state.streamId, info.streamId);
  assert.deepEqual(state.state, foldDoubled(fresh2), "only the new lifetime's events, from initialState");
  assert.equal(state.state._seen, 15);
});

// ---------------------------------------------------------------------------
// 4. A reducer error halts; fix, resume, and the state covers every event
// ---------------------------------------------------------------------------

test("§9, §6 rules 4/5/8: a reducer error halts at exactly that event (durable fact, card), the state stays the fold before it, nothing is skipped; resuming unfixed halts again; redefined and resumed, the state covers every event", { timeout: 90_000 }, async () => {
  const P = freshName("strict");
  const S = fresh("strict");
  const STRICT = `$event.payload.amount < 0 ? $error("negative amount " & $string($event.payload.amount)) : ${TOTALS}`;
  await papi.defineOk(P, { initialState: {}, reducer: STRICT });
  await configure(S, "k", P, { eventTypes: ["order"] });
  const batch = [order("ada", 10), order("bob", 20), order("ada", 5), order("cy", 7), order("bob", 1), order("ada", -4), order("cy", 9), order("dee", 2)];
  const committed = await api.batchOk(S, batch);
  const failing = committed[5];
  assert.equal(failing.payload.amount, -4);

  const [halt] = await haltFacts(S, 1);
  assert.deepEqual(Object.keys(halt.payload).sort(), ["afterOffset", "attempts", "error", "reason", "subscriptionKey"]);
  assert.equal(halt.payload.subscriptionKey, "k");
  assert.equal(halt.payload.reason, "delivery-failed");
  assert.equal(halt.payload.attempts, 1, "a reducer error is permanent: no retry ladder");
  assert.equal(halt.payload.afterOffset, failing.offset - 1, "halted exactly at the failing event (isolated from its batch)");
  assert.match(halt.payload.error, /negative amount -4/, "the halt carries the reducer's error");
  assert.match(halt.payload.error, new RegExp(`offset ${failing.offset}\\b`), "and the offset it failed on");
  assert.match(halt.payload.error, new RegExp(`processor '${P}'`));

  const before = committed.slice(0, 5);
  let state = await papi.stateOk(S, P);
  assert.equal(state.checkpointOffset, failing.offset - 1);
  assert.deepEqual(state.state, foldTotals(before), "the fold before the failing event");
  const entry = await api.cardEntry(S, "k");
  const { subscriptionKey: _k, ...record } = halt.payload;
  assert.deepEqual(entry.deliveryHalted, record, "the card shows the halt");
  assert.match(entry.runtime.lastError, /negative amount/);
  assert.equal(entry.runtime.nextAttemptAt, null, "a halted subscription schedules nothing");
  assert.equal(entry.runtime.acknowledgedOffset, failing.offset - 1);

  // Appends while halted change nothing.
  const later = await api.batchOk(S, [order("eve", 11), order("ada", 1)]);
  state = await papi.stateOk(S, P);
  assert.equal(state.checkpointOffset, failing.offset - 1);
  assert.deepEqual(state.state, foldTotals(before));
  assert.equal((await api.eventsOfType(S, HALTED)).length, 1);

  // Resume without a fix: the fold cannot skip, so it halts again at the same event.
  await api.appendOk(S, { type: RESUMED, payload: { subscriptionKey: "k" } });
  const halts = await haltFacts(S, 2, "the second halt");
  assert.equal(halts[1].payload.afterOffset, failing.offset - 1, "never skipped");
  assert.match(halts[1].payload.error, /negative amount -4/);
  assert.deepEqual((await papi.stateOk(S, P)).state, foldTotals(before));

  // Fix the definition (negative amounts are refunds), resume: version 2 refolds everything.
  const fixed = await papi.defineOk(P, { initialState: {}, reducer: TOTALS });
  assert.equal(fixed.version, 2);
  await api.appendOk(S, { type: RESUMED, payload: { subscriptionKey: "k" } });
  state = await papi.caughtUp(api, S, P, { version: 2 });
  const all = ordersOf((await api.readAll(S)).events);
  assert.deepEqual(all.map((e) => e.offset), [...committed, ...later].map((e) => e.offset));
  assert.deepEqual(state.state, foldTotals(all), "every event, the failing one included");
  const settled = await api.caughtUp(S, "k");
  assert.equal(settled.deliveryHalted, undefined);
  assert.equal(settled.runtime.lastError, null);
  assert.equal((await api.eventsOfType(S, HALTED)).length, 2, "no further halt");
});

// ---------------------------------------------------------------------------
// 5. A deleted definition halts; defined again and resumed, it continues
// ---------------------------------------------------------------------------

test("§9: DELETE of the definition halts the subscription with the clear error on the next delivery; configuring it elsewhere is refused; defined again (next version) and resumed, the state covers every event", { timeout: 90_000 }, async () => {
  const P = freshName("deleted");
  const S = fresh("deleted");
  await papi.defineOk(P, { initialState: {}, reducer: TOTALS });
  await configure(S, "k", P, { eventTypes: ["order"] });
  const first = await api.batchOk(S, orderEvents(5, 3));
  await papi.caughtUp(api, S, P, { version: 1 });
  const checkpoint = (await api.infoOk(S)).head;

  const removed = await papi.remove(P);
  assert.equal(removed.status, 204);
  assert.equal((await papi.get(P)).status, 404);
  assert.equal((await papi.get(P)).body.error.code, "processor_not_found");
  assert.ok(!(await papi.list()).body.processors.some((p) => p.name === P), "not listed");
  const view = await papi.state(S, P);
  assert.equal(view.status, 404);
  assert.equal(view.body.error.code, "processor_not_found");
  assert.equal((await papi.remove(P)).status, 404, "a second DELETE: not found");

  // Configuring it on another stream is refused now.
  const other = fresh("deleted-other");
  const refused = await api.append(other, { type: CONFIGURED, payload: { subscriptionKey: "k", receiver: wake(P) } });
  assert.equal(refused.status, 422);
  assert.equal(refused.body.error.code, "unknown_processor");

  // The next delivery halts with the message naming the fix.
  const second = await api.batchOk(S, [order("ada", 4), order("bob", 6)]);
  const [halt] = await haltFacts(S, 1);
  assert.equal(halt.payload.afterOffset, checkpoint);
  assert.equal(halt.payload.attempts, 1);
  assert.ok(
    halt.payload.error.includes(`processor '${P}' is not defined; define it (PUT /v1/processors/${P}), then resume this subscription`),
    `the halt says how to fix it: ${halt.payload.error}`,
  );
  assert.equal((await api.cardEntry(S, "k")).deliveryHalted.error, halt.payload.error);

  // Defined again: versions survive DELETE, so this is version 2 and the instance refolds.
  const again = await papi.defineOk(P, { initialState: {}, reducer: TOTALS });
  assert.equal(again.version, 2, "versions survive DELETE");
  await api.appendOk(S, { type: RESUMED, payload: { subscriptionKey: "k" } });
  const state = await papi.caughtUp(api, S, P, { version: 2 });
  assert.deepEqual(state.state, foldTotals([...first, ...second]));
  assert.equal((await api.caughtUp(S, "k")).deliveryHalted, undefined);
});

// ---------------------------------------------------------------------------
// 6. The debug card
// ---------------------------------------------------------------------------

test("§11: the debug card lists processor subscriptions with the same runtime row as the others (acknowledgedOffset, lag, attempt, deadlines, lastError, latency summaries)", { timeout: 60_000 }, async () => {
  const P = freshName("carded");
  const S = fresh("carded");
  const mirror = fresh("carded-mirror");
  await papi.defineOk(P, { initialState: {}, reducer: TOTALS });
  const configured = await configure(S, "proc", P, { eventTypes: ["order"] });
  await api.appendOk(S, { type: CONFIGURED, payload: { subscriptionKey: "copy", filter: { eventTypes: ["order"] }, receiver: copyReceiver(mirror) } });
  const events = await api.batchOk(S, orderEvents(25, 4, { noiseEvery: 4 }));
  await api.appendOk(S, order("bob", 2));

  await papi.caughtUp(api, S, P);
  const proc = await api.caughtUp(S, "proc");
  const copy = await api.caughtUp(S, "copy");
  assert.equal(proc.subscriptionKey, "proc");
  assert.deepEqual(proc.configuration, configured.payload);
  assert.equal(proc.configuredAtOffset, configured.offset);
  assert.equal(proc.deliveryHalted, undefined);
  for (const field of RUNTIME_FIELDS) assert.ok(field in proc.runtime, `processor runtime has ${field}`);
  assert.deepEqual(Object.keys(proc.runtime).sort(), Object.keys(copy.runtime).sort(), "the same runtime row as a copy subscription");
  assert.equal(proc.runtime.attempt, 0);
  assert.equal(proc.runtime.nextAttemptAt, null);
  assert.equal(proc.runtime.lastError, null);
  for (const summary of ["completionLatencyMs", "deliveryDurationMs"]) {
    const s = proc.runtime[summary];
    assert.ok(s.count > 0, `${summary}.count > 0: ${JSON.stringify(s)}`);
    assert.ok(s.p50 >= 0 && s.p99 >= s.p50 && s.max >= s.p99, `${summary} ordered: ${JSON.stringify(s)}`);
  }
  const state = await papi.stateOk(S, P);
  assert.deepEqual(state.state, foldTotals([...ordersOf(events), order("bob", 2)]));
});
