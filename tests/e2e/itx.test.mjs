// End-to-end itx-call delivery (docs/design.md §5, §6, §8 skip mode, §9) against
// the built worker running in workerd, calling the JS RPC method `deliver`
// of the test service tests/e2e/itx_service.mjs, bound as ITX_TEST (the
// deployment's ITX allowlist is "X,ITX_TEST").
//
// The service records every envelope it receives and is scripted over HTTP
// (POST /mode {"mode": "ok" | "throw" | "permanent", "times"?: N}). Its mode
// is global, so every test resets it first and leaves its subscriptions
// quiescent (caught up, halted or skipped past) before the next one starts;
// envelopes are always filtered by stream path. Delivery is asynchronous:
// expectations are polled for with bounded waits, never after fixed sleeps.
// Dead letters (§8) are not implemented yet: a skipped batch is asserted
// through its `error-occurred` fact only.
import { test, before, after, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { startTributary } from "./harness.mjs";
import { CONFIGURED, RESUMED, HALTED, ERROR_OCCURRED, eventually, streamApi } from "./delivery_helpers.mjs";

let t;
let api;
let itx;
before(async () => {
  t = await startTributary({ itx: true });
  api = streamApi(t);
  itx = await t.miniflare.getWorker("itx-test");
});
after(async () => {
  await t?.cleanup();
});

/** The test service's control routes. */
const service = {
  async reset() {
    const res = await itx.fetch("http://x/reset");
    assert.equal(res.status, 200);
    await res.json();
  },
  async mode(mode, times) {
    const res = await itx.fetch("http://x/mode", {
      method: "POST",
      body: JSON.stringify(times === undefined ? { mode } : { mode, times }),
    });
    assert.equal(res.status, 200);
    await res.json();
  },
  /** Every call the service got for stream `path`: [{rejected?, envelope}]. */
  async calls(path) {
    const res = await itx.fetch("http://x/received");
    const all = await res.json();
    return all.filter((call) => call.envelope?.stream?.path === path);
  },
};

beforeEach(async () => {
  await service.reset();
});

let counter = 0;
/** A stream path no other test uses. */
const fresh = (name) => `/e2e-itx/${name}-${++counter}`;

const PROJECT = "project-a";
const SMALL_RETRY = { maxAttempts: 3, initialBackoffMs: 50, maxBackoffMs: 200 };
const EXPRESSION = ["services", "ITX_TEST", "deliver"];
const ENVELOPE_FIELDS = ["attempt", "deliveryId", "events", "stream", "subscriptionKey"];

const itxCall = ({ expression = EXPRESSION, onFailingEvent = "halt", retry = SMALL_RETRY, start = "beginning" } = {}) => ({
  action: "itx-call",
  expression,
  delivery: { start, onFailingEvent, retry },
});

/** Configures `key` on `path` calling ITX_TEST.deliver with `data` events. */
const configure = (path, key, options) =>
  api.appendOk(path, {
    type: CONFIGURED,
    payload: { subscriptionKey: key, filter: { eventTypes: ["data"] }, receiver: itxCall(options) },
  });

const data = (i) => ({ type: "data", payload: { i } });
const dataBatch = (n, from = 0) => Array.from({ length: n }, (_, k) => data(from + k));

/** Polls until `path` holds exactly `n` events of `type`; returns them. */
const facts = (path, type, n, what) =>
  eventually(
    async () => {
      const got = await api.eventsOfType(path, type);
      assert.equal(got.length, n, `${n} × ${type}: ${JSON.stringify(got)}`);
      return got;
    },
    { what, timeoutMs: 20_000 },
  );

const offsetsOfCalls = (calls) => calls.flatMap((call) => call.envelope.events.map((e) => e.offset));

// ---------------------------------------------------------------------------
// Batches, order, envelope
// ---------------------------------------------------------------------------

test("§6/§9: 250 events arrive as batches of at most 100, in offset order, each once, in the {stream, subscriptionKey, deliveryId, attempt, events} envelope", async () => {
  const path = fresh("batches");
  const configured = await configure(path, "batches");
  const appended = await api.batchOk(path, dataBatch(250));
  await api.caughtUp(path, "batches", { timeoutMs: 20_000 });

  const calls = await service.calls(path);
  assert.ok(calls.every((call) => call.rejected === undefined), "the service never refused");
  const sizes = calls.map((call) => call.envelope.events.length);
  assert.deepEqual(sizes, [100, 100, 50], `batch sizes (one batch append, no failures): ${sizes}`);
  assert.deepEqual(offsetsOfCalls(calls), appended.map((e) => e.offset), "every event once, in offset order");

  const info = await api.infoOk(path);
  const committed = (await api.readAll(path)).events;
  const ids = new Set();
  for (const { envelope } of calls) {
    assert.deepEqual(Object.keys(envelope).sort(), ENVELOPE_FIELDS, JSON.stringify(Object.keys(envelope)));
    assert.deepEqual(envelope.stream, {
      projectId: PROJECT,
      path,
      streamId: info.streamId,
      streamCreatedAt: info.streamCreatedAt,
    });
    assert.equal(envelope.subscriptionKey, "batches");
    assert.equal(envelope.attempt, 1);
    assert.match(envelope.deliveryId, /\S/);
    ids.add(envelope.deliveryId);
    for (const event of envelope.events) {
      assert.deepEqual(event, committed.find((e) => e.offset === event.offset), "the committed event, verbatim");
    }
  }
  assert.equal(ids.size, 3, "one delivery id per batch");
  assert.ok(configured.offset < appended[0].offset);

  const entry = await api.cardEntry(path, "batches");
  assert.equal(entry.runtime.lastError, null);
  assert.ok(entry.runtime.bytesSent > 0);
});

test("§6 rule 9: events appended one by one reach the service in offset order, each exactly once", async () => {
  const path = fresh("one-by-one");
  await configure(path, "seq");
  const appended = [];
  for (let i = 0; i < 12; i++) appended.push(await api.appendOk(path, data(i)));
  await api.caughtUp(path, "seq", { timeoutMs: 20_000 });
  const calls = await service.calls(path);
  assert.deepEqual(offsetsOfCalls(calls), appended.map((e) => e.offset));
  for (const { envelope } of calls) assert.ok(envelope.events.length >= 1 && envelope.events.length <= 100);
});

// ---------------------------------------------------------------------------
// Retries
// ---------------------------------------------------------------------------

test("§9: a thrown error is transient: throw twice, the third attempt acks, under one deliveryId with attempt 1, 2, 3", async () => {
  const path = fresh("throw");
  await configure(path, "throw");
  await service.mode("throw", 2);
  const event = await api.appendOk(path, data(1));
  const entry = await api.caughtUp(path, "throw", { timeoutMs: 20_000 });
  assert.equal(entry.runtime.lastError, null, "success clears lastError");
  assert.equal(entry.runtime.attempt, 0);

  const calls = await service.calls(path);
  assert.deepEqual(calls.map((c) => c.rejected ?? "ok"), ["throw", "throw", "ok"]);
  assert.deepEqual(calls.map((c) => c.envelope.attempt), [1, 2, 3]);
  assert.equal(new Set(calls.map((c) => c.envelope.deliveryId)).size, 1, "deliveryId is stable across retries");
  for (const call of calls) assert.deepEqual(call.envelope.events.map((e) => e.offset), [event.offset]);
  assert.deepEqual(await api.eventsOfType(path, HALTED), []);
  assert.deepEqual(await api.eventsOfType(path, ERROR_OCCURRED), []);
});

test("§6 rule 4: after a failed batch the retry isolates the first event; the first success restores the full batch size", async () => {
  const path = fresh("isolate");
  await configure(path, "iso");
  await service.mode("throw", 1);
  const appended = await api.batchOk(path, dataBatch(5));
  await api.caughtUp(path, "iso", { timeoutMs: 20_000 });

  const calls = await service.calls(path);
  assert.deepEqual(calls.map((c) => c.rejected ?? "ok"), ["throw", "ok", "ok"]);
  assert.deepEqual(calls.map((c) => c.envelope.events.length), [5, 1, 4], "whole batch, then the failing event alone, then the rest");
  assert.deepEqual(calls.map((c) => c.envelope.attempt), [1, 2, 1]);
  const acked = calls.filter((c) => c.rejected === undefined);
  assert.deepEqual(offsetsOfCalls(acked), appended.map((e) => e.offset), "everything acknowledged once, in order");
  assert.equal(new Set(calls.map((c) => c.envelope.deliveryId)).size, 3, "a delivery id names its offset range (§8)");
});

test("§6 rules 5, 8: a service that keeps throwing halts after 3 attempts (lastError kept on the card); resume continues from the halt, nothing skipped", async () => {
  const path = fresh("throw-halt");
  const configured = await configure(path, "th");
  await api.caughtUp(path, "th"); // the failing batch starts right after the configuration
  await service.mode("throw");
  const first = await api.appendOk(path, data(1));

  const [halted] = await facts(path, HALTED, 1, "the halt fact");
  assert.equal(halted.payload.subscriptionKey, "th");
  assert.equal(halted.payload.reason, "delivery-failed");
  assert.equal(halted.payload.afterOffset, configured.offset);
  assert.equal(halted.payload.attempts, 3);
  assert.match(String(halted.payload.error), /try again/);
  const calls = await service.calls(path);
  assert.equal(calls.length, 3, "exactly the retry budget");
  assert.deepEqual(calls.map((c) => c.envelope.attempt), [1, 2, 3]);
  assert.equal(new Set(calls.map((c) => c.envelope.deliveryId)).size, 1);
  const entry = await api.cardEntry(path, "th");
  assert.match(String(entry.runtime.lastError), /try again/);
  assert.equal(entry.runtime.acknowledgedOffset, configured.offset);

  const second = await api.appendOk(path, data(2)); // waits while halted
  await service.mode("ok");
  await api.appendOk(path, { type: RESUMED, payload: { subscriptionKey: "th" } });
  await api.caughtUp(path, "th", { timeoutMs: 20_000 });
  const after = (await service.calls(path)).slice(3);
  assert.ok(after.every((c) => c.rejected === undefined));
  assert.equal(after[0].envelope.attempt, 1, "resume starts a fresh attempt count");
  assert.equal(after[0].envelope.events[0].offset, first.offset, "resume continues from the halt");
  assert.deepEqual(offsetsOfCalls(after), [first.offset, second.offset], "nothing skipped");
  assert.deepEqual(await api.eventsOfType(path, ERROR_OCCURRED), []);
});

// ---------------------------------------------------------------------------
// retryable: false — permanent
// ---------------------------------------------------------------------------

test("§9: a rejection carrying retryable: false is permanent — halt mode halts after one attempt", async () => {
  const path = fresh("permanent-halt");
  const configured = await configure(path, "ph");
  await api.caughtUp(path, "ph"); // the failing batch starts right after the configuration
  await service.mode("permanent", 1);
  const event = await api.appendOk(path, data(1));

  const [halted] = await facts(path, HALTED, 1, "the halt fact");
  assert.equal(halted.payload.subscriptionKey, "ph");
  assert.equal(halted.payload.afterOffset, configured.offset);
  assert.equal(halted.payload.attempts, 1, "permanent errors skip the retry ladder (retryable: false survived the RPC boundary)");
  assert.match(String(halted.payload.error), /refused for good/);
  const calls = await service.calls(path);
  assert.equal(calls.length, 1, "called once, never retried");
  assert.equal(calls[0].rejected, "permanent");
  assert.deepEqual(calls[0].envelope.events.map((e) => e.offset), [event.offset]);
  const entry = await api.cardEntry(path, "ph");
  assert.equal(entry.deliveryHalted.attempts, 1);

  // The service is fine again (times: 1 is spent); resuming delivers the event.
  await api.appendOk(path, { type: RESUMED, payload: { subscriptionKey: "ph" } });
  await api.caughtUp(path, "ph", { timeoutMs: 20_000 });
  const after = (await service.calls(path)).slice(1);
  assert.deepEqual(offsetsOfCalls(after), [event.offset]);
  assert.equal(after[0].envelope.deliveryId, calls[0].envelope.deliveryId, "the same delivery keeps its id (§8)");
});

test("§8/§9: in skip mode a retryable: false rejection appends one error-occurred (reason permanent:) and later events are delivered", async () => {
  const path = fresh("permanent-skip");
  await configure(path, "ps", { onFailingEvent: "skip" });
  await service.mode("permanent", 1);
  const doomed = await api.appendOk(path, data(1));

  const [fact] = await facts(path, ERROR_OCCURRED, 1, "the skip fact");
  const calls = await service.calls(path);
  assert.equal(calls.length, 1, "permanent: not retried");
  const p = fact.payload;
  assert.equal(p.kind, "delivery-skipped");
  assert.equal(p.subscriptionKey, "ps");
  assert.equal(p.deliveryId, calls[0].envelope.deliveryId);
  assert.equal(p.afterOffset, doomed.offset - 1);
  assert.equal(p.throughOffset, doomed.offset);
  assert.deepEqual(p.offsets, [doomed.offset]);
  assert.equal(p.attempts, 1);
  assert.match(p.reason, /^permanent: /);
  assert.match(p.reason, /refused for good/);

  const later = await api.batchOk(path, dataBatch(3, 10));
  await api.caughtUp(path, "ps", { timeoutMs: 20_000 });
  const delivered = (await service.calls(path)).slice(1);
  assert.ok(delivered.every((c) => c.rejected === undefined));
  assert.deepEqual(offsetsOfCalls(delivered), later.map((e) => e.offset), "the next events are delivered");
  assert.deepEqual(await api.eventsOfType(path, HALTED), [], "skip mode never halts");
  assert.equal((await api.eventsOfType(path, ERROR_OCCURRED)).length, 1, "one fact");
});

test("§8: in skip mode exhausted throws skip the batch with reason transient: and delivery moves on", async () => {
  const path = fresh("transient-skip");
  await configure(path, "ts", { onFailingEvent: "skip" });
  await service.mode("throw", 3);
  const doomed = await api.appendOk(path, data(1));

  const [fact] = await facts(path, ERROR_OCCURRED, 1, "the skip fact");
  assert.equal(fact.payload.attempts, 3);
  assert.match(fact.payload.reason, /^transient: /);
  assert.match(fact.payload.reason, /try again/);
  assert.deepEqual(fact.payload.offsets, [doomed.offset]);
  const calls = await service.calls(path);
  assert.deepEqual(calls.map((c) => c.envelope.attempt), [1, 2, 3]);
  assert.equal(fact.payload.deliveryId, calls[0].envelope.deliveryId);

  const next = await api.appendOk(path, data(2));
  await api.caughtUp(path, "ts", { timeoutMs: 20_000 });
  assert.deepEqual(offsetsOfCalls((await service.calls(path)).slice(3)), [next.offset]);
});

test(
  "§6 rule 4 + §8: a permanent rejection of a multi-event batch in skip mode isolates first — only the failing event is skipped",
  async () => {
    const path = fresh("permanent-batch-skip");
    await configure(path, "pbs", { onFailingEvent: "skip" });
    // Refuses the whole batch, then the first event alone; everything after that succeeds.
    await service.mode("permanent", 2);
    const appended = await api.batchOk(path, dataBatch(5));

    const [fact] = await facts(path, ERROR_OCCURRED, 1, "the skip fact");
    await api.caughtUp(path, "pbs", { timeoutMs: 20_000 });
    assert.deepEqual(fact.payload.offsets, [appended[0].offset], `only the failing event is skipped: ${JSON.stringify(fact.payload)}`);
    assert.match(fact.payload.reason, /^permanent: /);
    const acked = (await service.calls(path)).filter((c) => c.rejected === undefined);
    assert.deepEqual(offsetsOfCalls(acked), appended.slice(1).map((e) => e.offset), "the healthy events are delivered, in order");
  },
);

// ---------------------------------------------------------------------------
// Configure-time validation of the expression (§9 allowlist)
// ---------------------------------------------------------------------------

/** Everything a refused configure could have changed on `path`. */
async function snapshot(path) {
  return {
    info: await api.infoOk(path),
    events: (await api.readAll(path)).events,
    card: await api.cardOk(path),
  };
}

async function refused(path, expression) {
  const before = await snapshot(path);
  const res = await api.append(path, {
    type: CONFIGURED,
    payload: { subscriptionKey: "bad", filter: { eventTypes: ["data"] }, receiver: itxCall({ expression }) },
  });
  assert.equal(res.status, 422, `${JSON.stringify(expression)} → ${res.status} ${JSON.stringify(res.body)}`);
  assert.equal(res.body.error.code, "invalid_subscription", JSON.stringify(res.body));
  assert.equal(res.body.error.details.field, "receiver.expression", JSON.stringify(res.body));
  assert.deepEqual(await snapshot(path), before, `nothing committed for ${JSON.stringify(expression)}`);
}

test("§9: a binding that is not on the ITX allowlist is 422 on receiver.expression and commits nothing", async () => {
  const path = fresh("unknown-binding");
  await api.appendOk(path, data(0));
  for (const expression of [
    ["services", "NOPE", "deliver"],
    ["services", "itx_test", "deliver"],
    ["services", "STREAM", "deliver"],
    ["services", "ITX_TEST,X", "deliver"],
  ]) {
    await refused(path, expression);
  }
  assert.deepEqual(await service.calls(path), []);
});

test("§9: malformed ITX expressions are 422 on receiver.expression and commit nothing", async () => {
  const path = fresh("malformed");
  await api.appendOk(path, data(0));
  for (const expression of [
    "services",
    ["services"],
    ["services", "ITX_TEST"],
    [1, 2, 3],
    [],
    ["services", "ITX_TEST", ""],
    ["services", "ITX_TEST", "deliver", "extra"],
    ["processors", "ITX_TEST", "deliver"],
    ["services", "ITX_TEST", 7],
    { services: "ITX_TEST" },
    null,
  ]) {
    await refused(path, expression);
  }
});

test("§9: an allowlisted binding with a well-formed expression is accepted", async () => {
  const path = fresh("accepted");
  const res = await api.append(path, {
    type: CONFIGURED,
    payload: { subscriptionKey: "ok", filter: { eventTypes: ["never"] }, receiver: itxCall({ start: "now" }) },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const entry = await api.cardEntry(path, "ok");
  assert.deepEqual(entry.configuration.receiver.expression, EXPRESSION);
});
