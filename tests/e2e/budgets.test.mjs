// JSONata budgets inside workerd (docs/design.md §12 rows "JSONata evaluation"
// and "JSONata per engine call"; issue 18 items 1 and 9).
//
// - Memory: a size bomb (`$pad("", -2147483648)` was a capacity-overflow
//   panic that reset the whole wasm isolate: every object lost its memory,
//   live sockets dropped) answers a clear 422 in the playground and halts a
//   subscription cleanly; the isolate survives: a WebSocket opened before on
//   another stream is still open and still delivers, another stream answers.
// - Steps per engine call: an expensive filter on 10 000 events used to run
//   in one synchronous scan (a request to another stream waited 14.3 s). Now
//   the scan spends at most MAX_JSONATA_STEPS_PER_CALL steps per call and the
//   alarm re-arms: while it works through the log, another stream answers and
//   the subscription's cursor is observed far from the head afterwards.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary, streamUrl, TOKEN } from "./harness.mjs";
import { CONFIGURED, HALTED, REMOVED, copyReceiver, eventually, streamApi } from "./delivery_helpers.mjs";

let t;
let api;
/** A WebSocket live connection on another stream, opened before any bomb. */
let watcher;
const WATCHED = "/e2e-budgets/watched";

before(async () => {
  t = await startTributary();
  api = streamApi(t);
  await api.appendOk(WATCHED, { type: "tick", payload: { n: 0 } });
  watcher = openWs(WATCHED);
  await watcher.opened;
  await eventually(() => assert.equal(watcher.events.length, 1), { what: "the watcher's first event" });
});
after(async () => {
  watcher?.close();
  await t?.cleanup();
});

let counter = 0;
/** A stream path no other test uses. */
const fresh = (name) => `/e2e-budgets/${name}-${++counter}`;

function openWs(path) {
  const url = `${t.url}${streamUrl(path, "live")}?after=0`.replace(/^http/, "ws");
  const ws = new WebSocket(url, ["tributary.v1", `bearer.${TOKEN}`]);
  const conn = { ws, events: [], closeInfo: null };
  conn.opened = new Promise((resolve, reject) => {
    ws.addEventListener("open", () => resolve(ws.protocol), { once: true });
    ws.addEventListener("error", () => reject(new Error("closed before open")), { once: true });
  });
  ws.addEventListener("close", (e) => {
    conn.closeInfo = { code: e.code, reason: e.reason };
  });
  ws.addEventListener("message", (message) => {
    const frame = JSON.parse(message.data);
    if (frame.type === "events") {
      conn.events.push(...frame.events);
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ack", offset: frame.events.at(-1).offset }));
    }
  });
  conn.close = () => {
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(1000, "done");
  };
  return conn;
}

/**
 * The isolate survived: the watcher's socket is still open and still
 * delivers (a reset closes every socket), and another stream answers.
 */
async function isolateSurvived(what) {
  assert.equal(watcher.closeInfo, null, `${what}: the watcher's socket stayed open`);
  assert.equal(watcher.ws.readyState, WebSocket.OPEN, `${what}: the watcher's socket stayed open`);
  const before = watcher.events.length;
  const appended = await api.appendOk(WATCHED, { type: "tick", payload: { after: what } });
  await eventually(
    () => assert.ok(watcher.events.some((e) => e.offset === appended.offset), "the new tick arrived"),
    { what: `${what}: the watcher hears a new event` },
  );
  assert.equal(watcher.events.length, before + 1);
  const other = fresh("other");
  await api.appendOk(other, { type: "data", payload: { what } });
  assert.equal((await api.infoOk(other)).head, 1, `${what}: another stream answers`);
}

const PLAYGROUND_BOMBS = [
  '$pad("", -2147483648)',
  '$pad("x", 2147483647)',
  '$join($map([1..20], function($i){$pad("", 50000000)}))',
];

test("§12 JSONata memory: the playground answers size bombs with a clear 422 (U1004) and the isolate survives", async () => {
  for (const expression of PLAYGROUND_BOMBS) {
    const res = await t.request("POST", "/v1/jsonata/evaluate", { body: { expression } });
    assert.equal(res.status, 422, `${expression}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.error.code, "jsonata_evaluation_error", JSON.stringify(res.body));
    assert.equal(res.body.error.details.jsonataCode, "U1004", JSON.stringify(res.body));
    assert.match(res.body.error.message, /largest value an evaluation may build is 1048576 bytes/);
    await isolateSurvived(expression);
  }
  // Many values each under the cap: the evaluation's total budget (U1005).
  const res = await t.request("POST", "/v1/jsonata/evaluate", {
    body: { expression: '$count($map([1..40], function($i){$pad("", 1000000)}))' },
  });
  assert.equal(res.status, 422, JSON.stringify(res.body));
  assert.equal(res.body.error.details.jsonataCode, "U1005", JSON.stringify(res.body));
  assert.match(res.body.error.message, /memory budget of 16777216 bytes/);
  // Under the budgets, the same builtins work.
  const ok = await t.request("POST", "/v1/jsonata/evaluate", { body: { expression: '$length($pad("", -1000))' } });
  assert.deepEqual([ok.status, ok.body], [200, { result: 1000 }]);
  await isolateSurvived("U1005");
});

test("§12 JSONata memory: a size bomb in a filter or a transform halts its subscription cleanly, once, and the isolate survives", async () => {
  const path = fresh("bomb");
  await api.appendOk(path, { type: "data", payload: { i: 1 } });
  await api.appendOk(path, {
    type: CONFIGURED,
    payload: {
      subscriptionKey: "bomb-filter",
      filter: { jsonataCondition: '$pad("", -2147483648) = ""' },
      receiver: copyReceiver(fresh("bomb-dst")),
    },
  });
  await api.appendOk(path, {
    type: CONFIGURED,
    payload: {
      subscriptionKey: "bomb-transform",
      receiver: copyReceiver(fresh("bomb-dst"), { jsonataTransform: '{"payload": $pad("", -2147483648)}' }),
    },
  });
  for (const key of ["bomb-filter", "bomb-transform"]) {
    const halted = await eventually(
      async () => {
        const entry = await api.cardEntry(path, key);
        assert.ok(entry.deliveryHalted, `${key} halted: ${JSON.stringify(entry)}`);
        return entry.deliveryHalted;
      },
      { what: `${key} to halt` },
    );
    assert.equal(halted.afterOffset, 0, `${key} halts at the first event: ${JSON.stringify(halted)}`);
    assert.match(halted.error, /U1004/, `${key}: ${JSON.stringify(halted)}`);
  }
  // Halted once: one halt fact per subscription (a reset would repeat the alarm).
  const facts = await api.eventsOfType(path, HALTED);
  assert.equal(facts.length, 2, JSON.stringify(facts));
  await isolateSurvived("a bomb in a filter and a transform");
});

test("§12 JSONata per engine call: an expensive filter on 10 000 events works through them turn by turn; another stream answers meanwhile", async () => {
  const busy = fresh("busy");
  for (let batch = 0; batch < 10; batch++) {
    await api.batchOk(
      busy,
      Array.from({ length: 1000 }, (_, k) => ({ type: "data", payload: { i: batch * 1000 + k } })),
    );
  }
  // The reproduced filter: ~90 000 steps per event, within one evaluation's
  // budget; one call affords about eleven of them.
  await api.appendOk(busy, {
    type: CONFIGURED,
    payload: {
      subscriptionKey: "expensive",
      filter: { jsonataCondition: "$count([1..90000]) < 0" },
      receiver: copyReceiver(fresh("busy-dst")),
    },
  });
  const head = (await api.infoOk(busy)).head;
  assert.equal(head, 10_001);
  const cursor = async () => (await api.cardEntry(busy, "expensive")).runtime.acknowledgedOffset;
  // The scan is running: its cursor moved (before the fix, the first move
  // came only after one call had scanned all 10 000 rows).
  await eventually(async () => assert.ok((await cursor()) > 0, "the scan started"), {
    what: "the expensive scan to start",
    timeoutMs: 60_000,
  });
  // Another stream answers while the scan works...
  const other = fresh("meanwhile");
  await api.appendOk(other, { type: "data", payload: { n: 1 } });
  const read = await api.range(other, "after=0");
  assert.equal(read.status, 200);
  assert.equal(read.body.events.length, 1);
  // ... before the scan is anywhere near done: observed after the answer.
  const at = await cursor();
  assert.ok(at < head - 1000, `the other stream answered while the scan was at ${at} of ${head}`);
  // The scan goes on, turn by turn, and fails nothing.
  await eventually(async () => assert.ok((await cursor()) > at, "the cursor moves on"), {
    what: "the scan to progress",
    timeoutMs: 60_000,
  });
  const entry = await api.cardEntry(busy, "expensive");
  assert.equal(entry.deliveryHalted, undefined, JSON.stringify(entry));
  await isolateSurvived("the expensive scan");
  // Stop the scan so it does not outlive the test.
  await api.appendOk(busy, { type: REMOVED, payload: { subscriptionKey: "expensive" } });
});

test("§12 read budget: a page whose JSON passes SQLite's 2 MB value limit within the 4 MiB budget comes whole; past the budget it is cut and nextAfter goes on", async () => {
  const path = fresh("wide-page");
  const big = "w".repeat(200 * 1024);
  // Twelve events of 200 KiB: about 2.4 MB of JSON, past one SQLite value, within the read budget.
  for (let n = 0; n < 12; n++) await api.appendOk(path, { type: "data", payload: { n, big } });
  const whole = await api.range(path, "limit=1000");
  assert.equal(whole.status, 200, JSON.stringify(whole.body).slice(0, 300));
  assert.deepEqual(whole.body.events.map((event) => event.payload.n), [...Array(12).keys()]);
  assert.ok(whole.body.events.every((event) => event.payload.big === big && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(event.createdAt)));
  assert.equal(whole.body.nextAfter, 12);
  // Twelve more: 24 events of 200 KiB (4.8 MB) pass the budget, so the page is cut and the rest follows.
  for (let n = 12; n < 24; n++) await api.appendOk(path, { type: "data", payload: { n, big } });
  const seen = [];
  let after = 0;
  for (let page = 0; page < 24 && seen.length < 24; page++) {
    const res = await api.range(path, `after=${after}&limit=1000`);
    assert.equal(res.status, 200);
    assert.ok(res.body.events.length > 0 && res.body.events.length < 24, `a cut page: ${res.body.events.length} events`);
    seen.push(...res.body.events.map((event) => event.payload.n));
    after = res.body.nextAfter;
  }
  assert.deepEqual(seen, [...Array(24).keys()], "every event once, in order, across the cut pages");
});
