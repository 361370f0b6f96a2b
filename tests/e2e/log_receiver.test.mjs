// The log receiver end to end (DESIGN.md §15.1): `receiver: {action: "log"}`
// against the built worker in workerd. Each matching event becomes one line
// of JSON on the worker's console — observed here through Miniflare's
// structured logs (the harness's `onLog`) — and the cursor moves past it; a
// failing transform follows `onFailingEvent`; a bad receiver is 422.
//
// Every expectation is polled for (`eventually`); the absence of a line is
// asserted only once the cursor has moved past its offset.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary } from "./harness.mjs";
import { CONFIGURED, ERROR_OCCURRED, eventually, streamApi } from "./delivery_helpers.mjs";

let t;
let api;
const lines = [];
before(async () => {
  t = await startTributary({
    onLog: ({ message }) => {
      for (const text of String(message).split("\n")) {
        if (!text.includes('"log-receiver"')) continue;
        lines.push(JSON.parse(text));
      }
    },
  });
  api = streamApi(t);
});
after(async () => {
  await t?.cleanup();
});

let counter = 0;
const fresh = (name) => `/e2e-log/${name}-${++counter}`;

const logReceiver = (extra = {}, delivery = {}) => ({
  action: "log",
  delivery: { start: "beginning", onFailingEvent: "halt", ...delivery },
  ...extra,
});

const configure = (path, key, receiver, filter = { eventTypes: ["order"] }) =>
  api.appendOk(path, { type: CONFIGURED, payload: { subscriptionKey: key, filter, receiver } });

const linesOf = (path, key) => lines.filter((line) => line.stream === path && line.subscriptionKey === key);

test("§15.1: each matching event is one JSON log line, transformed, and the cursor passes it", async () => {
  const path = fresh("orders");
  await api.batchOk(path, [
    { type: "order", payload: { n: 1 } },
    { type: "noise", payload: { n: 2 } },
    { type: "order", payload: { n: 3 } },
  ]);
  await configure(path, "audit", logReceiver({ jsonataTransform: "{'payload': {'doubled': payload.n * 2}}" }));
  const [late] = await api.batchOk(path, [{ type: "order", payload: { n: 5 } }]);
  const entry = await api.caughtUp(path, "audit");
  const got = await eventually(
    () => {
      const found = linesOf(path, "audit");
      assert.equal(found.length, 3, JSON.stringify(found));
      return found;
    },
    { what: "three log lines" },
  );
  assert.deepEqual(
    got.map((line) => [line.offset, line.event.type, line.event.payload]),
    [
      [1, "order", { doubled: 2 }],
      [3, "order", { doubled: 6 }],
      [late.offset, "order", { doubled: 10 }],
    ],
  );
  const info = await api.infoOk(path);
  for (const line of got) {
    assert.equal(line.tributary, "log-receiver");
    assert.equal(line.project, "project-a");
    assert.equal(line.streamId, info.streamId);
    assert.match(line.deliveryId, /^dlv_/);
    assert.equal(line.event.offset, line.offset);
  }
  // The debug card shows it like any receiver, with its delivery counters.
  assert.equal(entry.configuration.receiver.action, "log");
  assert.ok(entry.runtime.deliveryDurationMs.count >= 1, JSON.stringify(entry.runtime));
  assert.ok(entry.runtime.bytesSent > 0, JSON.stringify(entry.runtime));
  const metrics = await api.metricsOk(path);
  assert.equal(metrics.tributary_subscriptions, 1);
});

test("§15.1: a failing transform in skip mode dead-letters its event; the others are logged", async () => {
  const path = fresh("skip");
  await configure(
    path,
    "audit",
    logReceiver({ jsonataTransform: "payload.n = 2 ? $error('refused') : {'payload': payload}" }, { onFailingEvent: "skip" }),
  );
  await api.batchOk(path, [1, 2, 3].map((n) => ({ type: "order", payload: { n } })));
  const entry = await api.caughtUp(path, "audit");
  assert.equal(entry.runtime.deadLetters, 1, JSON.stringify(entry.runtime));
  const logged = await eventually(
    () => {
      const found = linesOf(path, "audit").map((line) => line.event.payload.n);
      assert.deepEqual([...new Set(found)].sort(), [1, 3]);
      return found;
    },
    { what: "lines of n=1 and n=3" },
  );
  assert.ok(!logged.includes(2), "the failing event is not logged");
  const errors = await api.eventsOfType(path, ERROR_OCCURRED);
  assert.equal(errors.length, 1, JSON.stringify(errors));
});

test("§15.1: a bad log receiver is 422 naming the field and commits nothing", async () => {
  const path = fresh("bad");
  await api.appendOk(path, { type: "seed" });
  const cases = [
    [logReceiver({}, { retry: { maxAttempts: 2, initialBackoffMs: 1, maxBackoffMs: 1 } }), "receiver.delivery.retry"],
    [logReceiver({ url: "https://example.com/hook" }), "receiver.url"],
    [{ action: "log" }, "receiver.delivery"],
    [logReceiver({ jsonataTransform: "{" }), "receiver.jsonataTransform"],
    [logReceiver({}, { onFailingEvent: "sometimes" }), "receiver.delivery.onFailingEvent"],
  ];
  for (const [receiver, field] of cases) {
    const res = await api.append(path, { type: CONFIGURED, payload: { subscriptionKey: "audit", receiver } });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.equal(res.body.error.details.field, field, JSON.stringify(res.body));
  }
  const info = await api.infoOk(path);
  assert.equal(info.head, 1, "nothing committed");
  assert.deepEqual(info.state.subscriptions.outbound.byKey, {});
});
