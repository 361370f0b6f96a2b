// End-to-end dead letters (docs/design.md §8, §6) against the built worker
// running in workerd: skip-mode exhaustion writes a letter before the cursor
// passes it; replay after a fix, against a still-failing receiver and
// through a reconfigured one; discarding one letter or a subscription's
// letters; listing by subscription and paging; and letters surviving a
// restart. Throttle and aggregate digests are in
// policies_throttle_aggregate.test.mjs, configure-time validation in
// policies_validation.test.mjs, the helpers the three share in
// policy_helpers.mjs. Webhook deliveries go to a real Node HTTP receiver on
// 127.0.0.1 (tests/e2e/webhook_receiver.mjs) that verifies every Standard
// Webhooks signature.
//
// One Tributary with ALLOW_INSECURE_WEBHOOKS and the ITX test service (the
// setup of every policies_*.test.mjs file). Tests run one after another (one
// of them restarts the instance on its persisted SQLite). Delivery is
// asynchronous (alarm-driven): every expectation about delivered state is
// polled for with a bounded wait (`eventually`, ≤ 20 s), never asserted after
// a fixed sleep; that something does NOT happen is asserted only after an
// observable moved (a later event delivered, a witness subscription caught
// up). No assertion is about timing, only about order.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary } from "./harness.mjs";
import { HALTED, ERROR_OCCURRED, streamApi } from "./delivery_helpers.mjs";
import {
  fresh,
  WAIT,
  SMALL_RETRY,
  data,
  dataBatch,
  dlUrl,
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
  listLetters,
  replay,
  letters,
  lettersEventually,
  receivedAtLeast,
  factsEventually,
  committedByOffset,
  caughtUpWithLettersFirst,
} = policyHelpers(() => t, () => receiver);

const discard = (path, id) => t.request("DELETE", dlUrl(path, `/${id}`));
const discardAll = (path, key) => t.request("DELETE", dlUrl(path, `?subscriptionKey=${encodeURIComponent(key)}`));

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
// 4. Dead letters are durable
// ---------------------------------------------------------------------------

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
