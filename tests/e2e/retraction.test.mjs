// End-to-end retraction, the delivery journal and gates (docs/design.md §13)
// against the built worker in workerd, delivering to a real Node receiver
// that verifies every request's Standard Webhooks signature.
//
// Every expectation is polled for (`eventually`); an absence is asserted
// only after a later delivery arrived, never after a fixed sleep.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary, streamUrl } from "./harness.mjs";
import { CONFIGURED, CONTROL, eventually, streamApi, copyReceiver } from "./delivery_helpers.mjs";
import { startReceiver, dedupeById } from "./webhook_receiver.mjs";

const INVALIDATED = `${CONTROL}events-invalidated`;
let t;
let api;
let receiver;
before(async () => {
  [t, receiver] = await Promise.all([startTributary({ allowInsecureWebhooks: true }), startReceiver()]);
  api = streamApi(t);
});
after(async () => {
  await receiver?.close();
  await t?.cleanup();
});

let counter = 0;
const fresh = (name) => `/e2e-retraction/${name}-${++counter}`;
const SMALL_RETRY = { maxAttempts: 2, initialBackoffMs: 50, maxBackoffMs: 100 };

async function configureHook(path, key, hookPath, delivery = {}) {
  await api.appendOk(path, {
    type: CONFIGURED,
    payload: {
      subscriptionKey: key,
      filter: { eventTypes: ["data"] },
      receiver: {
        action: "webhook-post",
        url: receiver.url(hookPath),
        delivery: { start: "beginning", onFailingEvent: "skip", retry: SMALL_RETRY, ...delivery },
      },
    },
  });
  const secret = await t.request("GET", streamUrl(path, `subscriptions/${encodeURIComponent(key)}/signing-secret`));
  assert.equal(secret.status, 200);
  receiver.setSecret(hookPath, secret.body.secret);
}

const data = (i) => ({ type: "data", payload: { i } });

/** What `hookPath` received (deduplicated by webhook-id), as `kind:offset`. */
const seen = (hookPath) =>
  dedupeById(receiver.received(hookPath)).map((record) =>
    record.body.type === "retracted" ? `retracted:${record.body.offset}` : `${record.body.type}:${record.body.event?.offset ?? record.body.events?.map((e) => e.offset).join("+")}`,
  );

const waitFor = (hookPath, n) =>
  eventually(
    () => {
      const got = seen(hookPath);
      assert.ok(got.length >= n, `${got.length} of ${n}: ${got}`);
      return got;
    },
    { timeoutMs: 20_000, what: `${n} deliveries on ${hookPath}` },
  );

test("§13: a webhook receiver sees 5 events, then 3 signed retractions, then the replacements, in that order", async () => {
  const path = fresh("reorg");
  const hook = `/hook${path}`;
  await configureHook(path, "k", hook);
  const appended = [];
  for (let i = 0; i < 5; i++) appended.push(await api.appendOk(path, data(i))); // 2..6
  await waitFor(hook, 5);
  const invalidation = await api.appendOk(path, { type: INVALIDATED, payload: { afterOffset: appended[1].offset, reason: "reorg" } });
  await api.appendOk(path, data(10));
  await api.appendOk(path, data(11));
  const got = await waitFor(hook, 10);
  assert.deepEqual(got, [
    "event:2", "event:3", "event:4", "event:5", "event:6",
    "retracted:4", "retracted:5", "retracted:6",
    "event:8", "event:9",
  ]);
  const records = dedupeById(receiver.received(hook));
  for (const record of records) assert.equal(record.verified, true, `verifies: ${record.verifyError}`);
  const retractions = records.filter((record) => record.body.type === "retracted");
  const deliveries = new Map(records.filter((r) => r.body.type === "event").map((r) => [r.body.event.offset, r.body.deliveryId]));
  for (const retraction of retractions) {
    assert.equal(retraction.body.deliveryId, deliveries.get(retraction.body.offset), "names the retracted delivery");
    assert.equal(retraction.body.invalidatedAtOffset, invalidation.offset);
    assert.equal(retraction.body.reason, "reorg");
    assert.notEqual(retraction.headers["webhook-id"], retraction.body.deliveryId, "its own webhook-id");
  }
  // The receiver saw offset 9 before the stream recorded its completion:
  // read the journal once the cursor says so.
  const card = await eventually(
    async () => {
      const entry = await api.cardEntry(path, "k");
      assert.ok(entry.runtime.acknowledgedOffset >= 9, JSON.stringify(entry.runtime));
      return entry;
    },
    { what: "offset 9 acknowledged" },
  );
  assert.equal(card.runtime.journal.size, 4, "delivered retractions forget their rows");
  const metrics = await api.metricsOk(path);
  assert.equal(metrics.tributary_retractions_total, 3);
});

test("§13: retraction flows down a copy chain A → B → webhook", async () => {
  const A = fresh("chain-a");
  const B = fresh("chain-b");
  const hook = `/hook${B}`;
  await api.appendOk(A, { type: CONFIGURED, payload: { subscriptionKey: "copy", receiver: copyReceiver(B) } });
  await configureHook(B, "k", hook);
  for (let i = 0; i < 3; i++) await api.appendOk(A, data(i)); // A: 2, 3, 4
  await waitFor(hook, 3);
  await api.appendOk(A, { type: INVALIDATED, payload: { offsets: [3, 4], reason: "corrected import" } });
  await api.appendOk(A, data(9));
  const got = await waitFor(hook, 6);
  const copies = (await api.readAll(B)).events.filter((e) => e.type === "data");
  const copyOf = (sourceOffset) => copies.find((e) => e.source.copiedFrom.at(-1).offset === sourceOffset).offset;
  assert.deepEqual(got.slice(3, 5), [`retracted:${copyOf(3)}`, `retracted:${copyOf(4)}`]);
  assert.equal(got[5], `event:${copyOf(6)}`);
  const own = (await api.readAll(B)).events.filter((e) => e.type === INVALIDATED && !e.source);
  assert.equal(own.length, 1);
  assert.deepEqual(own[0].payload, { offsets: [copyOf(3), copyOf(4)], reason: "corrected import" });
});

/**
 * A fresh stream whose hook took offset 2, which is then invalidated (at
 * offset 3) with the hook answering the retraction 400 once, then 200.
 */
async function retractionRefusedOnce(name) {
  const path = fresh(name);
  const hook = `/hook${path}`;
  await configureHook(path, "k", hook);
  await api.appendOk(path, data(0)); // 2
  await waitFor(hook, 1);
  receiver.script(hook, { status: 400 }, { status: 200 });
  await api.appendOk(path, { type: INVALIDATED, payload: { offsets: [2] } }); // 3
  return { path, hook };
}

/** `path`'s dead letters, once it holds one. */
const oneDeadLetter = (path) =>
  eventually(
    async () => {
      const res = await t.request("GET", streamUrl(path, "dead-letters"));
      assert.equal(res.body.deadLetters.length, 1);
      return res.body.deadLetters;
    },
    { what: "the retraction's dead letter" },
  );

test("§13: a retraction that fails is dead-lettered, refused on replay with 409, and its journal row kept", async () => {
  const { path, hook } = await retractionRefusedOnce("dead");
  const next = await api.appendOk(path, data(1));
  const letters = await oneDeadLetter(path);
  assert.equal(letters[0].kind, "retraction");
  assert.equal(letters[0].offset, 2);
  const got = await waitFor(hook, 3);
  assert.equal(got.at(-1), `event:${next.offset}`, "the next event went after the dead-lettered retraction");
  const replay = await t.request("POST", streamUrl(path, `dead-letters/${letters[0].id}/replay`));
  assert.equal(replay.status, 409);
  assert.equal(replay.body.error.code, "no_replay_retracted");
  const card = await eventually(
    async () => {
      const entry = await api.cardEntry(path, "k");
      assert.ok(entry.runtime.acknowledgedOffset >= next.offset, JSON.stringify(entry.runtime));
      return entry;
    },
    { what: `offset ${next.offset} acknowledged` },
  );
  assert.equal(card.runtime.journal.size, 2, "the dead-lettered retraction keeps its journal row");
});

test("§13: an offset a new run delivers again is journaled again, so its invalidation is retracted again", async () => {
  const { path, hook } = await retractionRefusedOnce("again");
  await oneDeadLetter(path);
  // A new run from the beginning delivers offset 2 again (under the same
  // delivery id) and meets the invalidation again: the journal row the
  // dead-lettered retraction had marked is retracted this time.
  await configureHook(path, "k", hook);
  const retractions = await eventually(
    () => {
      const sent = receiver.received(hook).filter((record) => record.body.type === "retracted");
      assert.equal(sent.length, 2, `${sent.length} retractions sent`);
      return sent;
    },
    { timeoutMs: 20_000, what: "the second retraction" },
  );
  assert.equal(retractions[1].body.offset, 2);
  assert.equal(retractions[1].verified, true, `verifies: ${retractions[1].verifyError}`);
  const card = await eventually(
    async () => {
      const entry = await api.cardEntry(path, "k");
      assert.equal(entry.runtime.journal.size, 0, JSON.stringify(entry.runtime));
      return entry;
    },
    { what: "the delivered retraction's row forgotten" },
  );
  assert.ok(card.runtime.acknowledgedOffset >= 3, JSON.stringify(card.runtime));
});

test("§13: a journal at its depth keeps the newest offsets; an invalidation older than it retracts the rest and counts a gap", async () => {
  const path = fresh("depth");
  const hook = `/hook${path}`;
  await configureHook(path, "k", hook, { journalDepth: 2 });
  for (let i = 0; i < 4; i++) await api.appendOk(path, data(i)); // 2..5
  await waitFor(hook, 4);
  // Each delivery past the depth pruned the oldest row in the same write.
  const journal = await eventually(
    async () => {
      const entry = await api.cardEntry(path, "k");
      assert.equal(entry.runtime.acknowledgedOffset, 5, JSON.stringify(entry.runtime));
      return entry.runtime.journal;
    },
    { what: "every delivery acknowledged" },
  );
  assert.equal(journal.size, 2, JSON.stringify(journal));
  assert.equal(journal.oldestRetainedOffset, 4, JSON.stringify(journal));
  assert.equal(journal.prunedThroughOffset, 3, JSON.stringify(journal));
  const invalidation = await api.appendOk(path, { type: INVALIDATED, payload: { afterOffset: 1 } }); // voids 2..5
  // The gap's fact takes the next offset when the retraction is planned,
  // which may come before this append or after it.
  const after = await api.appendOk(path, data(10));
  assert.deepEqual((await waitFor(hook, 7)).slice(4), ["retracted:4", "retracted:5", `event:${after.offset}`], "the retained part is retracted");
  const gaps = (await api.readAll(path)).events.filter((event) => event.payload?.kind === "journal-gap");
  assert.equal(gaps.length, 1, JSON.stringify(gaps));
  assert.equal(gaps[0].payload.invalidatedAtOffset, invalidation.offset);
});

test("§13 gates: threshold mints one digest per count; maxOnce delivers once per window and discards quietly", async () => {
  const path = fresh("gates");
  const thresholdHook = `/hook${path}/threshold`;
  const onceHook = `/hook${path}/once`;
  await configureHook(path, "threshold", thresholdHook, { gate: { threshold: { count: 3, windowMs: 600_000 } } });
  await configureHook(path, "once", onceHook, { gate: { maxOnce: { windowMs: 600_000 } } });
  const offsets = [];
  for (let i = 0; i < 6; i++) offsets.push((await api.appendOk(path, data(i))).offset);
  const digests = await waitFor(thresholdHook, 2);
  assert.deepEqual(digests, [`digest:${offsets.slice(0, 3).join("+")}`, `digest:${offsets.slice(3).join("+")}`]);
  await eventually(async () => {
    const card = await api.cardEntry(path, "once");
    assert.equal(card.runtime.acknowledgedOffset, offsets.at(-1), "the maxOnce cursor passed every hit");
  });
  assert.deepEqual(seen(onceHook), [`event:${offsets[0]}`]);
  const metrics = await api.metricsOk(path);
  assert.equal(metrics.tributary_gate_discarded_total, 5);
  const letters = await t.request("GET", streamUrl(path, "dead-letters"));
  assert.deepEqual(letters.body.deadLetters, [], "quiet discards leave no dead letters");
});

test("§13 bad input: malformed invalidations and gates are refused with 422 and commit nothing", async () => {
  const path = fresh("bad");
  await api.appendOk(path, data(0));
  for (const payload of [
    {},
    { afterOffset: 0, offsets: [1] },
    { afterOffset: 5 },
    { offsets: [9] },
    { offsets: [] },
    { offsets: Array.from({ length: 1001 }, (_, i) => i + 1) },
  ]) {
    const res = await api.append(path, { type: INVALIDATED, payload });
    assert.equal(res.status, 422, JSON.stringify(payload));
  }
  for (const gate of [{ threshold: { count: 0, windowMs: 1 } }, { maxOnce: { windowMs: 10 ** 12 } }, { other: {} }]) {
    const res = await api.append(path, {
      type: CONFIGURED,
      payload: { receiver: { action: "webhook-post", url: receiver.url("/x"), delivery: { start: "now", onFailingEvent: "skip", gate } } },
    });
    assert.equal(res.status, 422, JSON.stringify(gate));
  }
  assert.equal((await api.infoOk(path)).head, 1, "nothing committed");
});
