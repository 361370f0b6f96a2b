// End-to-end configure-time validation of the delivery policies (docs/design.md
// §8, §2) against the built worker running in workerd: every out-of-range or
// misplaced retry, throttle and aggregate setting on webhook-post, itx-call,
// copy-to-stream and processor-wake receivers is 422 invalid_subscription
// naming the field and commits nothing (event log, state, debug card, dead
// letters), and the boundaries themselves are accepted. What the policies do
// is in policies_dead_letters.test.mjs and
// policies_throttle_aggregate.test.mjs; the helpers shared with them are in
// policy_helpers.mjs.
//
// One Tributary with ALLOW_INSECURE_WEBHOOKS and the ITX test service, and
// the Node webhook receiver (tests/e2e/webhook_receiver.mjs) whose URLs the
// configurations name; no configuration here is ever delivered.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary } from "./harness.mjs";
import { CONFIGURED, streamApi } from "./delivery_helpers.mjs";
import { fresh, SMALL_RETRY, data, webhook, policyHelpers } from "./policy_helpers.mjs";
import { startReceiver } from "./webhook_receiver.mjs";

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

const { letters } = policyHelpers(() => t, () => receiver);

const NEVER = { eventTypes: ["never-delivered"] };

// ---------------------------------------------------------------------------
// 1. Configure-time validation
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
