// End-to-end delivery policies (DESIGN.md §6, §8, §9) against the built
// worker running in workerd: dead letters (list, replay, discard), throttle,
// aggregate digests, their composition, restarts, and configure-time
// validation. Webhook deliveries go to a real Node HTTP receiver on 127.0.0.1
// (tests/e2e/webhook_receiver.mjs) that verifies every Standard Webhooks
// signature; itx-call deliveries go to the JS RPC test service
// (tests/e2e/itx_service.mjs, bound as ITX_TEST).
//
// One Tributary with ALLOW_INSECURE_WEBHOOKS and the ITX test service. Tests
// run one after another (four of them restart the instance on its persisted
// SQLite). Delivery is asynchronous (alarm-driven): every expectation about
// delivered state is polled for with a bounded wait (`eventually`, ≤ 20 s),
// never asserted after a fixed sleep; that something does NOT happen is
// asserted only after an observable moved (a later event delivered, a witness
// subscription caught up). No assertion is about timing, only about order.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary, streamUrl } from "./harness.mjs";
import { CONFIGURED, HALTED, ERROR_OCCURRED, eventually, streamApi } from "./delivery_helpers.mjs";
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

let counter = 0;
/** A stream path (and receiver path) no other test uses. */
const fresh = (name) => `/e2e-policies/${name}-${++counter}`;

const WAIT = { timeoutMs: 20_000 };
const SMALL_RETRY = { maxAttempts: 2, initialBackoffMs: 20, maxBackoffMs: 100 };
const NEVER = { eventTypes: ["never-delivered"] };
const DATA_ONLY = { eventTypes: ["data"] };
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

const data = (i) => ({ type: "data", payload: { i } });
const dataBatch = (n, from = 0) => Array.from({ length: n }, (_, k) => data(from + k));

/** A webhook-post receiver; `delivery` overrides the skip-mode defaults. */
const webhook = (url, delivery = {}) => ({
  action: "webhook-post",
  url,
  delivery: { start: "beginning", onFailingEvent: "skip", retry: SMALL_RETRY, ...delivery },
});

const signingSecret = (path, key) =>
  t.request("GET", streamUrl(path, `subscriptions/${encodeURIComponent(key)}/signing-secret`));

/**
 * Configures subscription `key` on `path` delivering `data` events to the
 * receiver path `hookPath` (skip mode, SMALL_RETRY unless overridden),
 * registers its signing secret with the receiver, returns the configure event.
 */
async function configureHook(path, key, hookPath, delivery = {}) {
  const configured = await api.appendOk(path, {
    type: CONFIGURED,
    payload: { subscriptionKey: key, filter: DATA_ONLY, receiver: webhook(receiver.url(hookPath), delivery) },
  });
  const res = await signingSecret(path, key);
  assert.equal(res.status, 200, `signing secret: ${JSON.stringify(res.body)}`);
  receiver.setSecret(hookPath, res.body.secret);
  return configured;
}

// --- dead-letter routes -----------------------------------------------------

const dlUrl = (path, suffix = "") => `${streamUrl(path, "dead-letters")}${suffix}`;
const listLetters = (path, query = "") => t.request("GET", dlUrl(path, query ? `?${query}` : ""));
const replay = (path, id) => t.request("POST", dlUrl(path, `/${id}/replay`));
const discard = (path, id) => t.request("DELETE", dlUrl(path, `/${id}`));
const discardAll = (path, key) => t.request("DELETE", dlUrl(path, `?subscriptionKey=${encodeURIComponent(key)}`));

/** Every dead letter of `path` (optionally of one subscription), paging by 1000. */
async function letters(path, key) {
  const all = [];
  let after = 0;
  for (let page = 0; page < 100; page++) {
    const query = [`after=${after}`, "limit=1000"];
    if (key !== undefined) query.push(`subscriptionKey=${encodeURIComponent(key)}`);
    const res = await listLetters(path, query.join("&"));
    assert.equal(res.status, 200, `dead letters of ${path}: ${JSON.stringify(res.body)}`);
    assert.deepEqual(Object.keys(res.body).sort(), ["deadLetters", "nextAfter"]);
    all.push(...res.body.deadLetters);
    if (res.body.deadLetters.length === 0) break;
    after = res.body.nextAfter;
  }
  return all;
}

/** Polls until `path` holds exactly `n` dead letters (of `key`, if given); returns them. */
const lettersEventually = (path, n, key) =>
  eventually(
    async () => {
      const got = await letters(path, key);
      assert.equal(got.length, n, `${n} dead letters: ${JSON.stringify(got)}`);
      return got;
    },
    { what: `${n} dead letters on ${path}`, ...WAIT },
  );

// `kind` is "event", or "retraction" for a dead-lettered retraction (§13).
const LETTER_FIELDS = ["attempts", "createdAt", "deliveryId", "id", "kind", "offset", "payload", "reason", "subscriptionKey"];

function assertLetterShape(letter) {
  assert.deepEqual(Object.keys(letter).sort(), LETTER_FIELDS, `§8 dead-letter fields: ${JSON.stringify(letter)}`);
  assert.ok(Number.isSafeInteger(letter.id) && letter.id > 0, `id: ${letter.id}`);
  assert.ok(Number.isSafeInteger(letter.offset) && letter.offset > 0);
  assert.equal(typeof letter.deliveryId, "string");
  assert.ok(letter.deliveryId.length > 0);
  assert.ok(Number.isSafeInteger(letter.attempts) && letter.attempts >= 0);
  assert.match(letter.reason, /^(permanent|transient): /);
  assert.match(letter.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, "RFC 3339 UTC with milliseconds");
}

/** Polls until `hookPath` has recorded at least `n` requests; returns them. */
const receivedAtLeast = (hookPath, n, what = `${n} requests on ${hookPath}`) =>
  eventually(
    () => {
      const got = receiver.received(hookPath);
      assert.ok(got.length >= n, `${got.length} of ${n} requests so far`);
      return got;
    },
    { what, ...WAIT },
  );

/** Polls until `path` holds exactly `n` events of `type`; returns them. */
const factsEventually = (path, type, n) =>
  eventually(
    async () => {
      const got = await api.eventsOfType(path, type);
      assert.equal(got.length, n, `${n} × ${type}: ${JSON.stringify(got)}`);
      return got;
    },
    { what: `${n} × ${type} on ${path}`, ...WAIT },
  );

function assertAllVerified(records) {
  assert.ok(records.length > 0);
  for (const record of records) {
    assert.equal(record.verified, true, `signature verifies: ${record.verifyError} ${JSON.stringify(record.headers)}`);
  }
}

/** The offsets a webhook request carried (one event or a digest). */
const offsetsIn = (record) =>
  record.body.type === "digest" ? record.body.events.map((e) => e.offset) : [record.body.event.offset];

/** Committed events of `path` by offset. */
async function committedByOffset(path) {
  return new Map((await api.readAll(path)).events.map((e) => [e.offset, e]));
}

/**
 * Waits until subscription `key` has caught up and asserts the §8
 * write-then-advance ordering on every observation while waiting: whenever
 * the cursor is seen past an offset of `watched`, a dead letter for it
 * already exists (card read first, letters read after).
 */
async function caughtUpWithLettersFirst(path, key, watched) {
  const violations = [];
  await eventually(
    async () => {
      const entry = await api.cardEntry(path, key);
      const present = new Set((await letters(path, key)).map((l) => l.offset));
      for (const offset of watched) {
        if (entry.runtime.acknowledgedOffset >= offset && !present.has(offset)) {
          violations.push(`cursor at ${entry.runtime.acknowledgedOffset} passed ${offset} without a dead letter`);
        }
      }
      const info = await api.infoOk(path);
      assert.equal(entry.runtime.acknowledgedOffset, info.head, "caught up");
      assert.equal(entry.runtime.inFlightDeadlineAt, null, "nothing in flight");
    },
    { what: `${path} → ${key} caught up`, ...WAIT },
  );
  assert.deepEqual(violations, [], "§8: the cursor moves on only after the dead-letter row is written");
}

// ---------------------------------------------------------------------------
// 1. Exhaustion → dead letter; replay after fixing the receiver
// ---------------------------------------------------------------------------

test("§8: skip-mode exhaustion writes a dead letter (transient:, payload as sent) before the cursor passes; later events flow; replay → 204, letter deleted, resent under the same webhook-id", async () => {
  const path = fresh("exhausted");
  const hook = `/hook${path}`;
  // The first event's whole budget (2 attempts) fails; everything after succeeds.
  receiver.script(hook, { status: 500, body: "down" }, { status: 500, body: "down" }, { status: 200 });
  await configureHook(path, "dl", hook);
  const [e1, e2, e3] = await api.batchOk(path, dataBatch(3, 1));

  await caughtUpWithLettersFirst(path, "dl", [e1.offset]);
  const [letter] = await lettersEventually(path, 1);
  assertLetterShape(letter);
  const records = receiver.received(hook);
  assertAllVerified(records);
  const forE1 = records.filter((r) => r.body.event.offset === e1.offset);
  assert.deepEqual(forE1.map((r) => r.body.attempt), [1, 2], "the whole retry budget was spent");
  assert.equal(new Set(forE1.map((r) => r.headers["webhook-id"])).size, 1);
  assert.equal(letter.subscriptionKey, "dl");
  assert.equal(letter.offset, e1.offset);
  assert.equal(letter.deliveryId, forE1[0].headers["webhook-id"], "the letter keeps the delivery id");
  assert.equal(letter.attempts, 2);
  assert.match(letter.reason, /^transient: /);
  assert.match(letter.reason, /500/);
  assert.deepEqual(letter.payload, forE1[0].body.event, "the payload is the event as it was (and would be) sent");
  assert.deepEqual(letter.payload, (await committedByOffset(path)).get(e1.offset));

  // The next events were still delivered, in order, once each after dedupe.
  assert.deepEqual(
    dedupeById(records.slice(forE1.length)).map((r) => r.body.event.offset),
    [e2.offset, e3.offset],
  );
  const [fact] = await factsEventually(path, ERROR_OCCURRED, 1);
  assert.equal(fact.payload.kind, "delivery-skipped");
  assert.equal(fact.payload.subscriptionKey, "dl");
  assert.equal(fact.payload.deliveryId, letter.deliveryId);
  assert.deepEqual(fact.payload.offsets, [e1.offset]);
  assert.equal(fact.payload.reason, letter.reason);
  assert.deepEqual(await api.eventsOfType(path, HALTED), []);

  const entry = await api.cardEntry(path, "dl");
  assert.equal(entry.runtime.deadLetters, 1, `card counts dead letters: ${JSON.stringify(entry.runtime)}`);
  const metrics = await api.metricsOk(path);
  assert.equal(metrics.tributary_dead_letters_total, 1, JSON.stringify(metrics));

  // The receiver is healthy now: replay delivers once more and deletes the letter.
  const before = receiver.received(hook).length;
  const res = await replay(path, letter.id);
  assert.equal(res.status, 204, `replay: ${res.status} ${JSON.stringify(res.body)}`);
  assert.deepEqual(await letters(path), [], "a delivered replay deletes the letter");
  const resent = receiver.received(hook).slice(before);
  assert.equal(resent.length, 1, "one successful send");
  assertAllVerified(resent);
  assert.equal(resent[0].headers["webhook-id"], letter.deliveryId, "the replay reuses the original delivery id");
  assert.equal(resent[0].body.deliveryId, letter.deliveryId);
  assert.equal(resent[0].body.type, "event");
  assert.equal(resent[0].body.subscriptionKey, "dl");
  assert.deepEqual(resent[0].body.event, letter.payload);
  assert.equal((await api.cardEntry(path, "dl")).runtime.deadLetters, 0);
  // Replay is the only route that resends: the spine does not send it again.
  // A later event the same subscription must deliver shows the spine ran past it.
  const e4 = await api.appendOk(path, data(4));
  await receivedAtLeast(hook, before + 2, "the later event after the replay");
  await api.caughtUp(path, "dl", WAIT);
  const afterReplay = receiver.received(hook).slice(before + 1);
  assert.deepEqual(afterReplay.map((r) => r.body.event.offset), [e4.offset], "only the later event; the replayed one is not sent again");
  assert.equal(receiver.received(hook).length, before + 2);
  assert.equal((await api.eventsOfType(path, ERROR_OCCURRED)).length, 1, "no new fact");
});

// ---------------------------------------------------------------------------
// 2. Replay against a receiver that still fails
// ---------------------------------------------------------------------------

test("§8: replay against a still-failing receiver → 502 replay_failed; the letter is kept with attempts bumped and the reason updated; unknown id → 404", async () => {
  const path = fresh("replay-fails");
  const hook = `/hook${path}`;
  receiver.script(hook, { status: 500, body: "down" });
  await configureHook(path, "rf", hook);
  const e1 = await api.appendOk(path, data(1));
  const [letter] = await lettersEventually(path, 1);
  await api.caughtUp(path, "rf", WAIT);
  assert.equal(letter.offset, e1.offset);
  assert.equal(letter.attempts, 2);
  assert.match(letter.reason, /^transient: .*500/);

  // Still failing, differently: a transient 503 spends the retry policy's budget.
  receiver.script(hook, { status: 503, body: "still down" });
  const before = receiver.received(hook).length;
  const res = await replay(path, letter.id);
  assert.equal(res.status, 502, `replay: ${res.status} ${JSON.stringify(res.body)}`);
  assert.equal(res.body.error.code, "replay_failed", JSON.stringify(res.body));
  assert.equal(typeof res.body.error.message, "string");
  const sent = receiver.received(hook).slice(before);
  assertAllVerified(sent);
  assert.equal(sent.length, SMALL_RETRY.maxAttempts, "the replay went through the subscription's retry policy");
  for (const record of sent) {
    assert.equal(record.headers["webhook-id"], letter.deliveryId);
    assert.deepEqual(record.body.event, letter.payload);
  }
  const [kept] = await letters(path);
  assert.ok(kept, "the letter is kept");
  assertLetterShape(kept);
  assert.equal(kept.id, letter.id);
  assert.equal(kept.offset, letter.offset);
  assert.equal(kept.deliveryId, letter.deliveryId);
  assert.deepEqual(kept.payload, letter.payload);
  assert.ok(kept.attempts > letter.attempts, `attempts bumped: ${letter.attempts} → ${kept.attempts}`);
  assert.equal(res.body.error.details.attempts, kept.attempts, "details.attempts is the letter's new count");
  assert.notEqual(kept.reason, letter.reason, "the reason is updated");
  assert.match(kept.reason, /^transient: /);
  assert.match(kept.reason, /503/);

  // A permanent answer stops the replay after one attempt; reason permanent:.
  receiver.script(hook, { status: 410, body: "gone" });
  const before410 = receiver.received(hook).length;
  const gone = await replay(path, letter.id);
  assert.equal(gone.status, 502, JSON.stringify(gone.body));
  assert.equal(gone.body.error.code, "replay_failed");
  assert.equal(receiver.received(hook).length - before410, 1, "a permanent failure is not retried");
  const [again] = await letters(path);
  assert.equal(again.id, letter.id);
  assert.ok(again.attempts > kept.attempts, `attempts bumped again: ${kept.attempts} → ${again.attempts}`);
  assert.match(again.reason, /^permanent: .*410/);
  assert.equal((await api.cardEntry(path, "rf")).runtime.deadLetters, 1);

  for (const id of [letter.id + 1000, 999_999_999]) {
    const missing = await replay(path, id);
    assert.equal(missing.status, 404, JSON.stringify(missing.body));
    assert.equal(missing.body.error.code, "dead_letter_not_found");
  }
  assert.equal((await letters(path)).length, 1);
});

test("§8: replay delivers through the subscription's current receiver (reconfigured after the letter was written)", async () => {
  const path = fresh("replay-current");
  const hookA = `/hook-a${path}`;
  const hookB = `/hook-b${path}`;
  receiver.script(hookA, { status: 400, body: "refused" });
  await configureHook(path, "cr", hookA);
  await api.appendOk(path, data(1));
  const [letter] = await lettersEventually(path, 1);
  await api.caughtUp(path, "cr", WAIT);
  // Replace the receiver (start "now": nothing is redelivered by the spine).
  await configureHook(path, "cr", hookB, { start: "now" });
  await api.caughtUp(path, "cr", WAIT);
  const sentToA = receiver.received(hookA).length;
  const res = await replay(path, letter.id);
  assert.equal(res.status, 204, JSON.stringify(res.body));
  const got = receiver.received(hookB);
  assert.equal(got.length, 1, "the current receiver got the replay");
  assert.equal(got[0].verified, true, got[0].verifyError);
  assert.equal(got[0].headers["webhook-id"], letter.deliveryId);
  assert.deepEqual(got[0].body.event, letter.payload);
  assert.equal(receiver.received(hookA).length, sentToA, "the old receiver got nothing");
  assert.deepEqual(await letters(path), []);
});

// ---------------------------------------------------------------------------
// 3. Discard one, discard many; listing by subscription and paging
// ---------------------------------------------------------------------------

test("§8: DELETE one letter → 204 then 404; DELETE ?subscriptionKey= → {discarded: N} leaving other subscriptions' letters untouched; list filters and pages in insertion order", async () => {
  const path = fresh("discard");
  const hookA = `/hook-a${path}`;
  const hookB = `/hook-b${path}`;
  receiver.script(hookA, { status: 400, body: "no" }); // permanent: one attempt each
  receiver.script(hookB, { status: 422, body: "nope" });
  await configureHook(path, "a", hookA);
  await configureHook(path, "b", hookB);
  const events = await api.batchOk(path, dataBatch(3, 1));
  const offsets = events.map((e) => e.offset);

  const all = await lettersEventually(path, 6);
  await api.caughtUp(path, "a", WAIT);
  await api.caughtUp(path, "b", WAIT);
  for (const letter of all) {
    assertLetterShape(letter);
    assert.equal(letter.attempts, 1);
    assert.match(letter.reason, /^permanent: /);
  }
  const ids = all.map((l) => l.id);
  assert.deepEqual([...ids].sort((x, y) => x - y), ids, "insertion order");
  const ofA = await letters(path, "a");
  const ofB = await letters(path, "b");
  assert.deepEqual(ofA.map((l) => l.offset), offsets, "a's letters in offset order");
  assert.deepEqual(ofB.map((l) => l.offset), offsets);
  assert.ok(ofA.every((l) => l.subscriptionKey === "a" && /400/.test(l.reason)));
  assert.ok(ofB.every((l) => l.subscriptionKey === "b" && /422/.test(l.reason)));
  assert.deepEqual((await letters(path, "nobody")), []);

  // Paging: limit and after.
  const page1 = await listLetters(path, "limit=4");
  assert.equal(page1.status, 200);
  assert.deepEqual(page1.body.deadLetters, all.slice(0, 4));
  assert.equal(page1.body.nextAfter, all[3].id);
  const page2 = await listLetters(path, `after=${page1.body.nextAfter}&limit=4`);
  assert.deepEqual(page2.body.deadLetters, all.slice(4));
  const pageA = await listLetters(path, `subscriptionKey=a&limit=2`);
  assert.deepEqual(pageA.body.deadLetters, ofA.slice(0, 2));
  const pageA2 = await listLetters(path, `subscriptionKey=a&after=${pageA.body.nextAfter}&limit=2`);
  assert.deepEqual(pageA2.body.deadLetters, ofA.slice(2));

  // Discard one.
  const gone = ofA[1];
  const res = await discard(path, gone.id);
  assert.equal(res.status, 204, JSON.stringify(res.body));
  const again = await discard(path, gone.id);
  assert.equal(again.status, 404, JSON.stringify(again.body));
  assert.equal(again.body.error.code, "dead_letter_not_found");
  const replayGone = await replay(path, gone.id);
  assert.equal(replayGone.status, 404);
  assert.equal(replayGone.body.error.code, "dead_letter_not_found");
  assert.deepEqual(await letters(path, "a"), [ofA[0], ofA[2]]);
  assert.equal((await api.cardEntry(path, "a")).runtime.deadLetters, 2);

  // Discard the rest of a's.
  const many = await discardAll(path, "a");
  assert.equal(many.status, 200, JSON.stringify(many.body));
  assert.deepEqual(many.body, { discarded: 2 });
  assert.deepEqual(await letters(path, "a"), []);
  assert.deepEqual(await letters(path, "b"), ofB, "another subscription's letters are untouched");
  assert.deepEqual(await letters(path), ofB);
  assert.equal((await api.cardEntry(path, "a")).runtime.deadLetters, 0);
  assert.equal((await api.cardEntry(path, "b")).runtime.deadLetters, 3);
  const none = await discardAll(path, "a");
  assert.deepEqual(none.body, { discarded: 0 });
  // Discarding resends nothing.
  assert.equal(receiver.received(hookA).length, 3);
});

// ---------------------------------------------------------------------------
// 4. Throttle
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
// 5. Aggregate digests
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
// 6. A failing digest dead-letters each event
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
// 7. Throttle and aggregate composed
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
// 8. itx-call digest
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
// 9. Restart with an open aggregate window
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
// 10. Configure-time validation
// ---------------------------------------------------------------------------

/** Everything a refused configure could have changed on `path`. */
async function snapshot(path) {
  return {
    info: await api.infoOk(path),
    events: (await api.readAll(path)).events,
    card: (await api.cardOk(path)).subscriptions.map(({ runtime, ...rest }) => ({
      ...rest,
      runtime: { ...runtime, completionLatencyMs: undefined, deliveryDurationMs: undefined },
    })),
    letters: await letters(path),
  };
}

test("§8/§2: every out-of-range or misplaced policy is 422 invalid_subscription naming the field, and commits nothing", async () => {
  const path = fresh("validation");
  await api.appendOk(path, data(0));
  const url = receiver.url(`/hook${path}`);
  const hookWith = (delivery) => ({ ...webhook(url, { start: "now" }), delivery: { start: "now", onFailingEvent: "skip", ...delivery } });
  const itxWith = (delivery) => ({
    action: "itx-call",
    expression: ["services", "ITX_TEST", "deliver"],
    delivery: { start: "now", onFailingEvent: "skip", ...delivery },
  });
  const copyWith = (delivery) => ({
    action: "copy-to-stream",
    receivingStreamPath: `${path}-copy`,
    delivery: { start: "now", onFailingEvent: "halt", ...delivery },
  });
  const R = "receiver.delivery.retry";
  const TH = "receiver.delivery.throttle";
  const AG = "receiver.delivery.aggregate";
  const retry = (over) => ({ retry: { ...SMALL_RETRY, ...over } });
  const throttle = (over) => ({ throttle: { maxDeliveries: 2, windowMs: 1000, ...over } });
  const aggregate = (over) => ({ aggregate: { maxBatch: 2, windowMs: 1000, ...over } });

  const cases = [
    // retry
    [hookWith(retry({ maxAttempts: 0 })), `${R}.maxAttempts`],
    [hookWith(retry({ maxAttempts: -1 })), `${R}.maxAttempts`],
    [hookWith(retry({ maxAttempts: 1.5 })), `${R}.maxAttempts`],
    [hookWith(retry({ maxAttempts: "2" })), `${R}.maxAttempts`],
    [hookWith(retry({ initialBackoffMs: 0 })), `${R}.initialBackoffMs`],
    [hookWith(retry({ initialBackoffMs: -20 })), `${R}.initialBackoffMs`],
    [hookWith(retry({ maxBackoffMs: 0 })), `${R}.maxBackoffMs`],
    [hookWith(retry({ maxBackoffMs: -100 })), `${R}.maxBackoffMs`],
    [hookWith(retry({ initialBackoffMs: 200, maxBackoffMs: 100 })), [`${R}.initialBackoffMs`, `${R}.maxBackoffMs`]],
    [itxWith(retry({ initialBackoffMs: 101, maxBackoffMs: 100 })), [`${R}.initialBackoffMs`, `${R}.maxBackoffMs`]],
    [copyWith(retry({ maxAttempts: 0 })), `${R}.maxAttempts`],
    // throttle
    [hookWith(throttle({ maxDeliveries: 0 })), `${TH}.maxDeliveries`],
    [hookWith(throttle({ maxDeliveries: -1 })), `${TH}.maxDeliveries`],
    [hookWith(throttle({ windowMs: 0 })), `${TH}.windowMs`],
    [itxWith(throttle({ windowMs: -1000 })), `${TH}.windowMs`],
    // aggregate
    [hookWith(aggregate({ windowMs: 0 })), `${AG}.windowMs`],
    [hookWith(aggregate({ windowMs: -1 })), `${AG}.windowMs`],
    [hookWith(aggregate({ windowMs: 86_400_001 })), `${AG}.windowMs`],
    [itxWith(aggregate({ windowMs: 86_400_001 })), `${AG}.windowMs`],
    [hookWith(aggregate({ maxBatch: 0 })), `${AG}.maxBatch`],
    [hookWith(aggregate({ maxBatch: -3 })), `${AG}.maxBatch`],
    [hookWith(aggregate({ maxBatch: 10_001 })), `${AG}.maxBatch`],
    [itxWith(aggregate({ maxBatch: 10_001 })), `${AG}.maxBatch`],
    // policies where they do not belong
    [copyWith(throttle({})), TH],
    [copyWith(aggregate({})), AG],
    [{ action: "processor-wake", expression: ["processors", "p", "wake"], delivery: { start: "now", onFailingEvent: "halt" } }, "receiver.delivery"],
    [{ action: "processor-wake", expression: ["processors", "p", "wake"], delivery: { start: "now", onFailingEvent: "halt", retry: SMALL_RETRY } }, "receiver.delivery"],
  ];
  for (const [receiverConfig, field] of cases) {
    const before = await snapshot(path);
    const res = await api.append(path, {
      type: CONFIGURED,
      payload: { subscriptionKey: "v", filter: NEVER, receiver: receiverConfig },
    });
    const label = JSON.stringify(receiverConfig.delivery ?? receiverConfig);
    assert.equal(res.status, 422, `${receiverConfig.action} ${label} → ${res.status} ${JSON.stringify(res.body)}`);
    assert.equal(res.body.error.code, "invalid_subscription", JSON.stringify(res.body));
    const fields = Array.isArray(field) ? field : [field];
    assert.ok(fields.includes(res.body.error.details.field), `${label}: field ${res.body.error.details.field}, expected ${fields}`);
    assert.deepEqual(await snapshot(path), before, `nothing committed for ${label}`);
  }

  // The boundaries themselves are accepted.
  const accepted = [
    hookWith({ ...retry({ initialBackoffMs: 100, maxBackoffMs: 100 }), ...aggregate({ windowMs: 86_400_000, maxBatch: 10_000 }) }),
    itxWith({ ...retry({ maxAttempts: 1, initialBackoffMs: 1, maxBackoffMs: 1 }), ...throttle({ maxDeliveries: 1, windowMs: 1 }), ...aggregate({ windowMs: 1, maxBatch: 1 }) }),
    copyWith(retry({ maxAttempts: 1 })),
  ];
  let n = 0;
  for (const receiverConfig of accepted) {
    const key = `ok-${++n}`;
    const res = await api.append(path, { type: CONFIGURED, payload: { subscriptionKey: key, filter: NEVER, receiver: receiverConfig } });
    assert.equal(res.status, 201, `${JSON.stringify(receiverConfig)}: ${JSON.stringify(res.body)}`);
    const entry = await api.cardEntry(path, key);
    assert.deepEqual(entry.configuration.receiver.delivery, receiverConfig.delivery);
  }
});

// ---------------------------------------------------------------------------
// 11. Dead letters are durable
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

test("§8: dead letters survive a restart (the list before equals the list after) and can still be replayed", async () => {
  const path = fresh("durable");
  const hook = `/hook${path}`;
  receiver.script(hook, { status: 400, body: "refused" });
  await configureHook(path, "du", hook);
  const events = await api.batchOk(path, dataBatch(3, 1));
  const before = await lettersEventually(path, 3);
  await api.caughtUp(path, "du", WAIT);
  assert.deepEqual(before.map((l) => l.offset), events.map((e) => e.offset));

  await t.restart();
  await api.infoOk(path);
  const after = await letters(path);
  assert.deepEqual(after, before, "the dead-letter rows are durable");
  assert.equal((await api.cardEntry(path, "du")).runtime.deadLetters, 3);

  receiver.script(hook, { status: 200 });
  const res = await replay(path, after[1].id);
  assert.equal(res.status, 204, JSON.stringify(res.body));
  const last = receiver.received(hook).at(-1);
  assert.equal(last.headers["webhook-id"], after[1].deliveryId);
  assert.equal(last.verified, true, last.verifyError);
  assert.deepEqual(await letters(path), [after[0], after[2]]);
});
