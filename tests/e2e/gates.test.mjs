// End-to-end gates on their failure paths (docs/design.md §13 Gates, §6 rules 5
// and 11, §8) against the built worker in workerd, delivering to a real Node
// receiver that verifies every request's Standard Webhooks signature:
// a maxOnce hit answered 503 once is retried and delivered (never discarded
// by its own window), and a threshold digest refused with 400 is sent once,
// dead-letters each contained event, and stops.
//
// Every expectation is polled for (`eventually`); an absence is asserted
// only after a later delivery arrived, never after a fixed sleep.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary, streamUrl } from "./harness.mjs";
import { CONFIGURED, eventually, streamApi } from "./delivery_helpers.mjs";
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

let counter = 0;
const fresh = (name) => `/e2e-gates/${name}-${++counter}`;
const RETRY = { maxAttempts: 3, initialBackoffMs: 50, maxBackoffMs: 100 };
const data = (i) => ({ type: "data", payload: { i } });

async function configureHook(path, hookPath, delivery) {
  await api.appendOk(path, {
    type: CONFIGURED,
    payload: {
      subscriptionKey: "k",
      filter: { eventTypes: ["data"] },
      receiver: {
        action: "webhook-post",
        url: receiver.url(hookPath),
        delivery: { start: "beginning", onFailingEvent: "skip", retry: RETRY, ...delivery },
      },
    },
  });
  const secret = await t.request("GET", streamUrl(path, "subscriptions/k/signing-secret"));
  assert.equal(secret.status, 200);
  receiver.setSecret(hookPath, secret.body.secret);
}

const letters = async (path) => {
  const res = await t.request("GET", streamUrl(path, "dead-letters"));
  assert.equal(res.status, 200);
  return res.body.deadLetters;
};

/** Another stream answers: nothing here held the isolate. */
async function anotherStreamAnswers() {
  const other = fresh("other");
  const event = await api.appendOk(other, data(0));
  assert.equal(event.offset, 1);
}

test("§13 issue 18 item 2: a maxOnce hit answered 503 once is retried and delivered, not discarded by its own window", async () => {
  const path = fresh("once");
  const hook = `/hook${path}`;
  receiver.script(hook, { status: 503 }, { status: 200 });
  await configureHook(path, hook, { gate: { maxOnce: { windowMs: 600_000 } } });
  const hit = await api.appendOk(path, data(0));
  await eventually(
    async () => {
      const got = receiver.received(hook);
      assert.equal(got.length, 2, `503 then 200: ${got.map((r) => r.answeredWith.status)}`);
      const card = await api.cardEntry(path, "k");
      assert.ok(card.runtime.acknowledgedOffset >= hit.offset, "the cursor passed the delivered hit");
    },
    { what: "the retried hit delivered" },
  );
  const [first, second] = receiver.received(hook);
  assert.equal(first.headers["webhook-id"], second.headers["webhook-id"], "the same delivery, retried");
  assert.equal(second.body.event.offset, hit.offset);
  assert.ok(second.verified, second.verifyError);
  assert.deepEqual(await letters(path), []);
  // The anchor moved with the success: a later hit in the window is discarded
  // quietly, and nothing is left due (no alarm firing back to back).
  const later = await api.appendOk(path, data(1));
  await eventually(async () => {
    const card = await api.cardEntry(path, "k");
    assert.ok(card.runtime.acknowledgedOffset >= later.offset, JSON.stringify(card.runtime));
    assert.equal(card.runtime.nextAttemptAt, null);
    assert.equal(card.runtime.inFlightDeadlineAt, null);
  });
  assert.equal(receiver.received(hook).length, 2);
  const metrics = await api.metricsOk(path);
  assert.equal(metrics.tributary_gate_discarded_total, 1);
  await anotherStreamAnswers();
});

test("§13 issue 18 item 3: a threshold digest refused with 400 is sent once, dead-letters each event, and stops", async () => {
  const path = fresh("threshold");
  const hook = `/hook${path}`;
  receiver.script(hook, { status: 400 });
  await configureHook(path, hook, { gate: { threshold: { count: 2, windowMs: 600_000 } } });
  const refused = [(await api.appendOk(path, data(0))).offset, (await api.appendOk(path, data(1))).offset];
  const dead = await eventually(
    async () => {
      const got = await letters(path);
      assert.equal(got.length, 2, JSON.stringify(got));
      return got;
    },
    { what: "both events of the refused digest dead-lettered" },
  );
  assert.deepEqual(
    dead.map((letter) => letter.offset),
    refused,
  );
  assert.ok(dead.every((letter) => letter.reason.startsWith("permanent: ")), JSON.stringify(dead));
  // The receiver recovers; the next digest is delivered, and by then the
  // refused one was sent exactly once.
  receiver.script(hook, { status: 200 });
  const next = [(await api.appendOk(path, data(2))).offset, (await api.appendOk(path, data(3))).offset];
  await eventually(
    () => {
      const delivered = receiver.received(hook).filter((record) => record.answeredWith.status === 200);
      assert.equal(delivered.length, 1);
      assert.deepEqual(
        delivered[0].body.events.map((event) => event.offset),
        next,
      );
    },
    { what: "the next digest delivered" },
  );
  const got = receiver.received(hook);
  assert.equal(got.length, 2, `one refused digest, one delivered: ${got.map((r) => r.answeredWith.status)}`);
  assert.deepEqual(
    got[0].body.events.map((event) => event.offset),
    refused,
  );
  assert.ok(got.every((record) => record.verified), "signed");
  await api.caughtUp(path, "k");
  const card = await api.cardEntry(path, "k");
  assert.equal(card.runtime.gate.heldHits, 0);
  assert.equal(receiver.received(hook).length, 2, "nothing was resent while catching up");
  await anotherStreamAnswers();
});

test("§13 a threshold digest refused with 400 in halt mode halts once with a durable fact and keeps its hits", async () => {
  const path = fresh("halt");
  const hook = `/hook${path}`;
  receiver.script(hook, { status: 400 });
  await configureHook(path, hook, { onFailingEvent: "halt", gate: { threshold: { count: 2, windowMs: 600_000 } } });
  await api.appendOk(path, data(0));
  await api.appendOk(path, data(1));
  const card = await eventually(
    async () => {
      const entry = await api.cardEntry(path, "k");
      assert.ok(entry.deliveryHalted, JSON.stringify(entry));
      return entry;
    },
    { what: "halted" },
  );
  assert.equal(card.runtime.gate.heldHits, 2);
  assert.equal(receiver.received(hook).length, 1, "a permanent refusal is sent once");
  assert.deepEqual(await letters(path), []);
  await anotherStreamAnswers();
  assert.equal(receiver.received(hook).length, 1);
});
