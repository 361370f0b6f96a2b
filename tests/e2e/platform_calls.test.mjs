// Budgets of what an append asks of the platform (issue 33; §12: every
// outgoing call has a budget). Each import the wasm calls is one crossing
// into JavaScript and most are work of the runtime's: a header read, a
// `Response` made, a SQL statement, a promise awaited. These budgets count
// them (tests/e2e/platform_calls.mjs) on the built worker, so a change that
// adds a call to every append fails here instead of hiding in a benchmark's
// noise. Counts, not times: they do not move with the machine's load.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { startTributary, streamUrl, TOKEN } from "./harness.mjs";
import { instrumentedBuild, markIn, perUnit } from "./platform_calls.mjs";

/** Requests measured per shape, after `WARM_UP` of the same shape. */
const REQUESTS = 120;
const WARM_UP = 10;
const IN_FLIGHT = 4;
/** A test that waits on a mark the worker never prints fails at this deadline instead of hanging. */
const DEADLINE = { timeout: 120_000 };

let worker;
let build;
/** Marks awaited: name → resolve, called when the worker's line arrives. */
const awaited = new Map();

function onLog({ message }) {
  for (const [name, resolve] of awaited) {
    const counts = markIn([String(message)], name);
    if (counts) {
      awaited.delete(name);
      resolve(counts);
    }
  }
}

before(async () => {
  build = instrumentedBuild();
  worker = await startTributary({ buildDir: build, onLog });
});

after(async () => {
  await worker?.cleanup();
  if (build) rmSync(build, { recursive: true, force: true });
});

/** Sends mark `name` and resolves with its counts when the worker's line arrives (awaited before it is sent: the structured logs may follow the answer). */
async function mark(name) {
  const printed = new Promise((resolve) => awaited.set(name, resolve));
  await (await fetch(`${worker.url}/__calls/${name}`)).arrayBuffer();
  return printed;
}

/** `send(i)` `REQUESTS` times, `IN_FLIGHT` at once, after a warm-up; the calls a request between two marks. */
async function measure(label, send) {
  for (let i = 0; i < WARM_UP; i++) await send(i);
  const start = await mark(`${label}-start`);
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < REQUESTS) await send(WARM_UP + next++);
    }),
  );
  const end = await mark(`${label}-end`);
  return perUnit(start, end, REQUESTS);
}

const show = (calls) => `${calls.total.toFixed(2)} calls, ${calls.statements.toFixed(2)} statements a request; most: ${calls.rows
  .slice(0, 6)
  .map((row) => `${row.name} ${row.perUnit.toFixed(2)}`)
  .join(", ")}`;

async function expectStatus(response, status) {
  const text = await response.text();
  assert.equal(response.status, status, text.slice(0, 300));
}

const nativeAppend = (path, body) =>
  fetch(`${worker.url}${streamUrl(path, "events")}`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

test("§12 a single append asks the platform at most 66 times and runs one SQL statement", DEADLINE, async (context) => {
  const calls = await measure("single", async (i) =>
    expectStatus(await nativeAppend("/e2e-calls/single", { type: "t", payload: { n: i, user: "user-000123" } }), 201),
  );
  context.diagnostic(show(calls));
  assert.ok(calls.total >= 50 && calls.total <= 66, show(calls));
  assert.ok(calls.statements >= 1 && calls.statements <= 1.1, show(calls));
});

test("§12 a 100-event batch append asks the platform at most 75 times and runs at most 10.6 SQL statements (one per 11 events and one more)", DEADLINE, async (context) => {
  const events = (i) => Array.from({ length: 100 }, (_, k) => ({ type: "t", payload: { n: i, k } }));
  const calls = await measure("batch", async (i) => expectStatus(await nativeAppend("/e2e-calls/batch", { events: events(i) }), 201));
  context.diagnostic(show(calls));
  assert.ok(calls.total >= 50 && calls.total <= 75, show(calls));
  assert.ok(calls.statements >= 1 && calls.statements <= 10.6, show(calls));
});

test("§12 §17 a single JSON append on the protocol face asks the platform at most 85 times and runs two SQL statements (its face row read once)", DEADLINE, async (context) => {
  const url = `${worker.url}/v1/stream/e2e-calls/protocol`;
  const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
  await expectStatus(await fetch(url, { method: "PUT", headers }), 201);
  const calls = await measure("protocol", async (i) =>
    expectStatus(await fetch(url, { method: "POST", headers, body: JSON.stringify({ n: i }) }), 204),
  );
  context.diagnostic(show(calls));
  assert.ok(calls.total >= 50 && calls.total <= 85, show(calls));
  assert.ok(calls.statements >= 1 && calls.statements <= 2.2, show(calls));
});
