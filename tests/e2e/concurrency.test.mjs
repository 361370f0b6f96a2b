// End-to-end concurrent delivery (docs/design.md §8 `concurrency`, §6, §11)
// against the built worker in workerd: a webhook-post subscription in skip
// mode with `delivery.concurrency` N has up to N single-event deliveries in
// flight, each under its own webhook-id, acknowledged, retried and
// dead-lettered on its own; the cursor passes only the completed front; the
// debug card shows the in-flight set; a restart resends only what was in
// flight. Deliveries go to a real Node HTTP receiver on 127.0.0.1
// (tests/e2e/webhook_receiver.mjs) that verifies every signature and is
// scripted per event.
//
// One Tributary with ALLOW_INSECURE_WEBHOOKS; tests run one after another
// (one restarts the instance on its persisted SQLite). Every expectation
// about delivered state is polled (`eventually`, ≤ 20 s), never asserted
// after a fixed sleep, and no assertion is about timing: "the others arrive
// meanwhile" is observed while the held request is still held.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary } from "./harness.mjs";
import { ERROR_OCCURRED, eventually, streamApi } from "./delivery_helpers.mjs";
import { fresh, WAIT, dataBatch, assertAllVerified, policyHelpers } from "./policy_helpers.mjs";
import { startReceiver } from "./webhook_receiver.mjs";

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

const { configureHook, lettersEventually, factsEventually } = policyHelpers(() => t, () => receiver);

/** The `i` of the data event a request delivered. */
const eventIndex = (record) => record.body?.event?.payload?.i;
/** Requests on `hookPath` by webhook-id → count. */
const countById = (hookPath) => {
  const counts = new Map();
  for (const record of receiver.received(hookPath)) {
    const id = record.headers["webhook-id"];
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
};
const offsetsReceived = (hookPath) => new Set(receiver.received(hookPath).map((record) => record.body?.event?.offset));

async function caughtUp(path, key) {
  return eventually(
    async () => {
      const entry = await api.cardEntry(path, key);
      const info = await api.infoOk(path);
      assert.equal(entry.runtime.acknowledgedOffset, info.head, "caught up");
      assert.deepEqual(entry.runtime.window.inFlight, [], "nothing in flight");
      assert.equal(entry.runtime.window.completedAhead, 0);
      return entry;
    },
    { what: `${path} → ${key} caught up`, ...WAIT },
  );
}

test("§8 concurrency: a receiver that holds one event — the others arrive meanwhile, the cursor waits before the held one, and the card shows it in flight", async () => {
  const path = fresh("held");
  const hook = `${path}/hook`;
  receiver.script(hook, (record) => (eventIndex(record) === 1 ? { gate: "held-one" } : { status: 200 }));
  await configureHook(path, "hook", hook, { concurrency: 4 });
  const events = await api.batchOk(path, dataBatch(6));
  const held = events[1];

  // Every other event arrives while the held one is still held.
  await eventually(
    () => {
      const got = offsetsReceived(hook);
      for (const event of events) assert.ok(got.has(event.offset), `offset ${event.offset} received`);
    },
    { what: "all six deliveries started", ...WAIT },
  );
  const entry = await eventually(
    async () => {
      const entry = await api.cardEntry(path, "hook");
      assert.equal(entry.runtime.window.completedAhead, 4, JSON.stringify(entry.runtime));
      return entry;
    },
    { what: "the four after the held one completed ahead", ...WAIT },
  );
  assert.equal(entry.runtime.acknowledgedOffset, held.offset - 1, "the cursor waits just before the held event");
  assert.equal(entry.runtime.window.concurrency, 4);
  const inFlight = entry.runtime.window.inFlight;
  assert.deepEqual(inFlight.map((slot) => [slot.offset, slot.state]), [[held.offset, "sending"]]);
  const heldRequest = receiver.received(hook).find((record) => record.body.event.offset === held.offset);
  assert.equal(inFlight[0].deliveryId, heldRequest.headers["webhook-id"], "the card names the held delivery's id");
  assert.match(inFlight[0].inFlightDeadlineAt, /^\d{4}-\d\d-\d\dT/);

  receiver.release("held-one");
  await caughtUp(path, "hook");
  const counts = countById(hook);
  assert.equal(counts.size, 6, "each event under its own webhook-id");
  assert.ok([...counts.values()].every((count) => count === 1), `nothing sent twice: ${JSON.stringify([...counts])}`);
  assertAllVerified(receiver.received(hook));
});

test("§8 concurrency: a receiver that fails one event permanently — a dead letter for it alone, the others delivered once", async () => {
  const path = fresh("one-fails");
  const hook = `${path}/hook`;
  receiver.script(hook, (record) => (eventIndex(record) === 2 ? { status: 400, body: "no" } : { status: 200 }));
  await configureHook(path, "hook", hook, { concurrency: 3 });
  const events = await api.batchOk(path, dataBatch(7));
  const failing = events[2];
  const [letter] = await lettersEventually(path, 1, "hook");
  assert.equal(letter.offset, failing.offset);
  assert.equal(letter.reason, "permanent: HTTP 400: no");
  assert.equal(letter.attempts, 1, "a permanent failure skips the ladder");
  const failedRequest = receiver.received(hook).find((record) => record.body.event.offset === failing.offset);
  assert.equal(letter.deliveryId, failedRequest.headers["webhook-id"], "its own delivery id");
  const [fact] = await factsEventually(path, ERROR_OCCURRED, 1);
  assert.deepEqual(fact.payload.offsets, [failing.offset]);
  await caughtUp(path, "hook");
  const counts = countById(hook);
  assert.equal(counts.size, 7);
  assert.ok([...counts.values()].every((count) => count === 1));
});

test("§8 concurrency: configure-time validation over HTTP — 422 naming the field, nothing committed", async () => {
  const path = fresh("invalid");
  await api.batchOk(path, dataBatch(1));
  const before = await api.infoOk(path);
  for (const delivery of [
    { concurrency: 0 },
    { concurrency: 33 },
    { concurrency: 1.5 },
    { concurrency: "4" },
    { concurrency: 4, onFailingEvent: "halt" },
    { concurrency: 4, aggregate: { windowMs: 1000, maxBatch: 10 } },
    { concurrency: 4, gate: { threshold: { count: 2, windowMs: 1000 } } },
  ]) {
    const res = await api.append(path, {
      type: "events.iterate.com/stream/subscription-configured",
      payload: {
        subscriptionKey: "hook",
        receiver: { action: "webhook-post", url: receiver.url(`${path}/hook`), delivery: { start: "beginning", onFailingEvent: "skip", ...delivery } },
      },
    });
    assert.equal(res.status, 422, `${JSON.stringify(delivery)} → ${JSON.stringify(res.body)}`);
    assert.equal(res.body.error.code, "invalid_subscription");
    assert.equal(res.body.error.details.field, "receiver.delivery.concurrency");
  }
  const after = await api.infoOk(path);
  assert.equal(after.head, before.head, "nothing committed");
  assert.deepEqual(after.state.subscriptions.outbound.byKey, {});
});

test("§8 concurrency: a restart resends only the delivery that was in flight, never those completed ahead of it", async () => {
  const path = fresh("restart");
  const hook = `${path}/hook`;
  let heldOnce = false;
  receiver.script(hook, (record) => {
    if (eventIndex(record) === 0 && !heldOnce) {
      heldOnce = true;
      return { hang: true };
    }
    return { status: 200 };
  });
  await configureHook(path, "hook", hook, { concurrency: 4, timeoutMs: 30_000 });
  // The cursor passes the configuration first, so the hung delivery starts right before events[0].
  await caughtUp(path, "hook");
  const events = await api.batchOk(path, dataBatch(4));
  await eventually(
    async () => {
      const entry = await api.cardEntry(path, "hook");
      assert.equal(entry.runtime.window.completedAhead, 3, JSON.stringify(entry.runtime));
      assert.equal(entry.runtime.acknowledgedOffset, events[0].offset - 1);
    },
    { what: "three completed ahead of the hung one", ...WAIT },
  );
  await t.restart();
  // Any request opens the object: what the dead instance had in flight is due now.
  const poke = await api.appendOk(path, { type: "poke" });
  await caughtUp(path, "hook");
  const counts = countById(hook);
  const heldId = receiver.received(hook).find((record) => eventIndex(record) === 0).headers["webhook-id"];
  assert.equal(counts.get(heldId), 2, "the hung delivery is resent under its webhook-id");
  for (const [id, count] of counts) {
    if (id !== heldId) assert.equal(count, 1, `${id} completed before the restart: not resent`);
  }
  assert.equal((await api.infoOk(path)).head, poke.offset);
});
