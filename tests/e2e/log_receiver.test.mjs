// The log receiver end to end (docs/design.md §15.1): `receiver: {action: "log"}`
// against the built worker in workerd. Each matching event becomes one line
// of JSON on the worker's console — observed here through Miniflare's
// structured logs (the harness's `onLog`) — and the cursor moves past it; a
// failing transform follows `onFailingEvent`; a bad receiver is 422. One
// invocation writes at most its log budget (§12: Workers Logs keeps 256 KB of
// an invocation's log): each invocation is observed whole through a tail
// worker (the harness's `onTail`), a backlog of large lines arrives over
// several alarms, and a line over the budget is dead-lettered or halts.
//
// Every expectation is polled for (`eventually`); the absence of a line is
// asserted only once the cursor has moved past its offset.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary } from "./harness.mjs";
import { CONFIGURED, ERROR_OCCURRED, HALTED, eventually, streamApi } from "./delivery_helpers.mjs";

/** What one invocation may log (`INVOCATION_LOG_BYTES`, src/limits.rs). */
const LOG_BUDGET = 200 * 1024;

let t;
let api;
const lines = [];
/** Every invocation of the worker: `{event, logs}` (each log the console.log arguments). */
const traces = [];
before(async () => {
  t = await startTributary({
    onLog: ({ message }) => {
      for (const text of String(message).split("\n")) {
        if (!text.includes('"log-receiver"')) continue;
        lines.push(JSON.parse(text));
      }
    },
    onTail: (trace) => traces.push(trace),
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

/** The log receiver's lines of `path` in one invocation's trace. */
const receiverLines = (trace, path) =>
  trace.logs
    .flat()
    .filter((text) => typeof text === "string" && text.includes('"log-receiver"'))
    .map((text) => JSON.parse(text))
    .filter((line) => line.stream === path);

/** What an invocation logged, each line at its length as a JSON string (as the platform keeps it). */
const loggedBytes = (trace) =>
  trace.logs.reduce((sum, args) => sum + Buffer.byteLength(JSON.stringify(args.map(String).join(" "))), 0);

/** Another stream still answers: the alarm's work never held the worker. */
async function anotherStreamAnswers() {
  const other = fresh("other");
  await api.appendOk(other, { type: "ping" });
  const info = await api.infoOk(other);
  assert.equal(info.head, 1);
}

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

test("§12: a backlog whose lines pass one invocation's log budget arrives over several alarms, none logging more than the budget", async () => {
  const path = fresh("budget");
  await configure(path, "audit", logReceiver());
  // Eight lines of ~60 KB: ~480 KB, one batch by the batch limits (100 events, 1 MiB).
  const pad = "x".repeat(60_000);
  const appended = await api.batchOk(
    path,
    Array.from({ length: 8 }, (_, n) => ({ type: "order", payload: { n, pad } })),
  );
  const offsets = appended.map((event) => event.offset);
  await api.caughtUp(path, "audit");
  const logged = await eventually(
    () => {
      const found = [...new Set(linesOf(path, "audit").map((line) => line.offset))].sort((a, b) => a - b);
      assert.deepEqual(found, offsets);
      return found;
    },
    { what: "a line of every event" },
  );
  assert.equal(logged.length, 8);
  // Each invocation, whole, from the tail: the lines came from several, none over the budget.
  const invocations = await eventually(
    () => {
      const found = traces.filter((trace) => receiverLines(trace, path).length > 0);
      const covered = new Set(found.flatMap((trace) => receiverLines(trace, path).map((line) => line.offset)));
      assert.equal(covered.size, 8, `invocations seen: ${found.length}`);
      return found;
    },
    { what: "the invocations that wrote the lines, from the tail" },
  );
  assert.ok(invocations.length >= 3, `480 KB of lines in ${invocations.length} invocations`);
  for (const trace of invocations) {
    assert.ok("scheduledTime" in (trace.event ?? {}), `written by an alarm: ${JSON.stringify(trace.event)}`);
    const bytes = loggedBytes(trace);
    assert.ok(bytes <= LOG_BUDGET, `one invocation logged ${bytes} bytes, over ${LOG_BUDGET}`);
  }
  await anotherStreamAnswers();
});

test("§15.1: a line over the log budget is dead-lettered in skip mode and halts in halt mode, never acknowledged unseen", async () => {
  const reason = "more than one invocation may log";
  for (const mode of ["skip", "halt"]) {
    const path = fresh(`oversized-${mode}`);
    await configure(path, "audit", logReceiver({}, { onFailingEvent: mode }));
    // An event within 256 KiB whose line alone is over the budget.
    const [small, big, after] = await api.batchOk(path, [
      { type: "order", payload: { n: 1 } },
      { type: "order", payload: { n: 2, pad: "x".repeat(215_000) } },
      { type: "order", payload: { n: 3 } },
    ]);
    if (mode === "skip") {
      const entry = await api.caughtUp(path, "audit");
      assert.equal(entry.runtime.deadLetters, 1, JSON.stringify(entry.runtime));
      const letters = await api.request("GET", `/v1/streams${path}/-/dead-letters`);
      assert.equal(letters.status, 200, JSON.stringify(letters.body));
      assert.equal(letters.body.deadLetters[0].offset, big.offset);
      assert.match(letters.body.deadLetters[0].reason, new RegExp(reason));
      const [fact] = await api.eventsOfType(path, ERROR_OCCURRED);
      assert.deepEqual(fact.payload.offsets, [big.offset]);
      const logged = await eventually(
        () => {
          const found = [...new Set(linesOf(path, "audit").map((line) => line.offset))].sort((a, b) => a - b);
          assert.deepEqual(found, [small.offset, after.offset]);
          return found;
        },
        { what: "the lines around the oversized one" },
      );
      assert.ok(!logged.includes(big.offset), "the oversized line is never written");
    } else {
      const entry = await eventually(
        async () => {
          const found = await api.cardEntry(path, "audit");
          assert.ok(found.deliveryHalted, JSON.stringify(found));
          return found;
        },
        { what: "a halt" },
      );
      assert.equal(entry.runtime.acknowledgedOffset, small.offset, "the cursor stays before it");
      const [halted] = await api.eventsOfType(path, HALTED);
      assert.equal(halted.payload.afterOffset, small.offset);
      assert.match(halted.payload.error, new RegExp(reason));
      await eventually(
        () => assert.deepEqual([...new Set(linesOf(path, "audit").map((line) => line.offset))], [small.offset]),
        { what: "the line before it" },
      );
      assert.ok(!linesOf(path, "audit").some((line) => line.offset === big.offset), "never written");
    }
  }
  await anotherStreamAnswers();
});
