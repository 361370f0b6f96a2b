// Hosted processor benchmark (docs/design.md §9 processor-wake), side by side
// with copy-to-stream, in one workerd started by the e2e harness (localhost
// only):
//
//  (a) fold catch-up: a log of BENCH_PROCESSOR_EVENTS (50000) `order` events
//      is appended first (100-event batches at BENCH_PROCESSOR_APPEND_CONCURRENCY),
//      then a processor-wake subscription (a JSONata running-totals reducer)
//      is configured on it — a processor always starts at its own checkpoint
//      0 — and timed from the configure request until
//      `GET .../-/processors/{name}` shows lag 0 (polled every
//      BENCH_PROCESSOR_POLL_MS); the state is then checked against a plain
//      JavaScript fold of the same events;
//  (b) copy catch-up of the same log: a copy-to-stream subscription with
//      start "beginning" configured after (a) finished, timed from the
//      configure request until the receiving stream's head covers the log
//      (polled the same way); the copies are checked (every order once, in
//      order);
//  (c) append → state-visible latency, lightly loaded: BENCH_LIGHT_EVENTS
//      single appends ~BENCH_LIGHT_SPACING_MS apart on a fresh stream with the
//      processor configured; measured two ways: client-side (append response
//      received → first state-route read whose checkpoint covers the
//      appended offset, polled back to back) and the stream's debug card
//      completionLatencyMs for the processor subscription (the event's
//      commit → the instance's checkpoint acknowledged, server clock).
//
// Settings (environment): BENCH_PROCESSOR_EVENTS (50000),
// BENCH_PROCESSOR_APPEND_CONCURRENCY (4), BENCH_PROCESSOR_WAIT_SECONDS (600),
// BENCH_PROCESSOR_POLL_MS (50), BENCH_LIGHT_EVENTS (50),
// BENCH_LIGHT_SPACING_MS (50).
import os from "node:os";
import { startTributary, streamUrl, TOKEN } from "../tests/e2e/harness.mjs";
import { envNumber, checkedFetch, runLoad, assertNoFailures, percentile, printTable, fmt } from "./lib.mjs";

const BATCH = 100;
const LOG = "/bench/proc-log";
const COPY = "/bench/proc-copy";
const LIGHT = "/bench/proc-light";
const NAME = "bench-totals";
const PROC_KEY = "proc";
const COPY_KEY = "copy";
const PAGE = 1000;
const CONFIGURED = "events.iterate.com/stream/subscription-configured";

const totalEvents = envNumber("BENCH_PROCESSOR_EVENTS", 50_000, { integer: true });
const appendConcurrency = envNumber("BENCH_PROCESSOR_APPEND_CONCURRENCY", 4, { integer: true });
const waitSeconds = envNumber("BENCH_PROCESSOR_WAIT_SECONDS", 600);
const pollMs = envNumber("BENCH_PROCESSOR_POLL_MS", 50);
const lightEvents = envNumber("BENCH_LIGHT_EVENTS", 50, { integer: true });
const lightSpacingMs = envNumber("BENCH_LIGHT_SPACING_MS", 50);

/** Running totals per customer (TOTALS, the reducer of tests/e2e/processor_helpers.mjs). */
const REDUCER =
  "$merge([$state, {$event.payload.customer: ($lookup($state, $event.payload.customer) ? $lookup($state, $event.payload.customer) : 0) + $event.payload.amount}])";

const authJson = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const fail = (message) => {
  throw new Error(`BENCH FAILED: processor: ${message}`);
};
const loadavgText = () => os.loadavg().map((v) => v.toFixed(2)).join(" / ");

/** The i-th order of the log (deterministic, so the expected fold is computed locally). */
const orderAt = (i) => ({ type: "order", payload: { customer: `c${(i * 7) % 97}`, amount: (i * 7919) % 1000, i } });

function foldOrders(orders) {
  const state = {};
  for (const { payload } of orders) state[payload.customer] = (state[payload.customer] ?? 0) + payload.amount;
  return state;
}

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.length ? sorted[sorted.length - 1] : NaN };
}

function sameState(actual, expected) {
  const a = Object.keys(actual ?? {}).sort();
  const e = Object.keys(expected).sort();
  return a.length === e.length && a.every((key, i) => key === e[i] && actual[key] === expected[key]);
}

async function main() {
  if (totalEvents % BATCH !== 0) fail(`BENCH_PROCESSOR_EVENTS must be a multiple of ${BATCH}`);
  console.log(
    `processor bench: ${totalEvents} events appended in ${BATCH}-event batches at concurrency ${appendConcurrency}, then ` +
      `(a) a processor-wake catch-up and (b) a copy-to-stream catch-up of that log (state/head polled every ${pollMs} ms), ` +
      `(c) ${lightEvents} single appends ~${lightSpacingMs} ms apart → state visible`,
  );
  console.log(`machine: ${os.cpus().length} CPUs, load average (1/5/15 min) at start ${loadavgText()}`);
  const t = await startTributary({ consoleAssets: false });
  try {
    const url = t.url;

    async function request(method, path, body, expect = 200) {
      const response = await t.request(method, path, body === undefined ? {} : { body });
      if (response.status !== expect) {
        fail(`${method} ${path}: status ${response.status} (expected ${expect}): ${JSON.stringify(response.body).slice(0, 300)}`);
      }
      return response.body;
    }
    const info = (path) => request("GET", streamUrl(path));
    const processorState = (path) => request("GET", streamUrl(path, `processors/${NAME}`));
    async function cardEntry(path, key) {
      const card = await request("GET", streamUrl(path, "subscriptions"));
      const entry = card?.subscriptions?.find((s) => s.subscriptionKey === key);
      if (!entry?.runtime) fail(`no subscription ${key} on the card of ${path}: ${JSON.stringify(card).slice(0, 500)}`);
      return entry;
    }
    async function checkNotHalted(path, key, label) {
      const entry = await cardEntry(path, key);
      if (entry.deliveryHalted) fail(`${label}: subscription ${key} on ${path} halted: ${JSON.stringify(entry.deliveryHalted)}`);
      return entry;
    }
    /**
     * Polls `probe()` (truthy = done) every pollMs, bounded; watches the card
     * for a halt. A poll whose connection the worker closes without an answer
     * is counted (`dropped`, printed) and polled again: in workerd, requests
     * to a stream made while its alarm catches up a long backlog wait for the
     * whole catch-up and are then dropped (see the report of this bench).
     */
    async function waitUntil(probe, path, key, label) {
      const deadline = Date.now() + waitSeconds * 1000;
      let lastCardCheck = Date.now();
      let dropped = 0;
      for (;;) {
        let done = null;
        try {
          done = await probe();
        } catch (error) {
          if (!(error instanceof TypeError && /fetch failed/.test(error.message))) throw error;
          dropped++;
          if (dropped > 100) fail(`${label}: 100 polls dropped: ${error.cause?.message ?? error.message}`);
        }
        if (done) return { at: Date.now(), value: done, dropped };
        if (Date.now() - lastCardCheck > 2000) {
          lastCardCheck = Date.now();
          await checkNotHalted(path, key, label);
        }
        if (Date.now() > deadline) fail(`${label}: not done within ${waitSeconds}s; runtime ${JSON.stringify((await cardEntry(path, key)).runtime)}`);
        await sleep(pollMs);
      }
    }
    const configure = (path, payload) => request("POST", streamUrl(path, "events"), { type: CONFIGURED, payload }, 201);

    // 0. The definition.
    const definition = await request("PUT", `/v1/processors/${NAME}`, { kind: "jsonata-reducer", initialState: {}, reducer: REDUCER });
    if (definition.version !== 1) fail(`definition version ${definition.version}`);

    // 1. The log.
    const appendTarget = `${url}${streamUrl(LOG, "events")}`;
    const batches = totalEvents / BATCH;
    const logStart = Date.now();
    const appended = await runLoad({
      send: (b) =>
        checkedFetch(
          appendTarget,
          { method: "POST", headers: authJson, body: JSON.stringify({ events: Array.from({ length: BATCH }, (_, k) => orderAt(b * BATCH + k)) }) },
          201,
        ),
      seconds: 3600,
      concurrency: appendConcurrency,
      maxRequests: batches,
    });
    assertNoFailures("processor: appending the log", appended);
    if (appended.requests !== batches) fail(`appended ${appended.requests} of ${batches} batches`);
    const logSeconds = (Date.now() - logStart) / 1000;
    const logHead = (await info(LOG)).head;
    if (logHead !== totalEvents) fail(`log head ${logHead}, expected ${totalEvents}`);
    // The expected fold: the orders in offset order (committed order = read back).
    const logEvents = [];
    for (let after = 0; after < logHead; ) {
      const page = await request("GET", `${streamUrl(LOG, "events")}?after=${after}&limit=${PAGE}`);
      if (!page.events.length) fail(`reading the log stopped at ${after}`);
      logEvents.push(...page.events);
      after = page.events[page.events.length - 1].offset;
    }
    if (logEvents.length !== totalEvents || logEvents.some((e, i) => e.offset !== i + 1 || e.type !== "order")) fail("the log is not 1..N orders");
    const expected = foldOrders(logEvents);

    // 2. (a) Processor catch-up.
    const loadBeforeFold = os.loadavg()[0];
    const foldStart = Date.now();
    const procConfigured = await configure(LOG, { subscriptionKey: PROC_KEY, filter: { eventTypes: ["order"] }, receiver: { action: "processor-wake", expression: ["processors", NAME, "wake"] } });
    if (procConfigured.event.offset !== totalEvents + 1) fail(`configure at offset ${procConfigured.event.offset}`);
    // Done when the checkpoint covers the last order. (The configure event
    // after them is filtered out and scanned alone: the instance is not
    // called for it, so the route's checkpoint stays at the last order and
    // its lag at 1 — printed below.)
    const foldPolls = { count: 0, longestMs: 0 };
    const folded = await waitUntil(
      async () => {
        foldPolls.count++;
        const started = Date.now();
        try {
          const state = await processorState(LOG);
          return state.checkpointOffset >= totalEvents ? state : null;
        } finally {
          foldPolls.longestMs = Math.max(foldPolls.longestMs, Date.now() - started);
        }
      },
      LOG,
      PROC_KEY,
      "processor catch-up",
    );
    const foldSeconds = (folded.at - foldStart) / 1000;
    const foldRate = totalEvents / foldSeconds;
    if (!sameState(folded.value.state, expected)) fail(`processor state ≠ the plain fold: ${JSON.stringify(folded.value.state).slice(0, 300)}`);
    const procCard = await checkNotHalted(LOG, PROC_KEY, "processor catch-up");

    // 3. (b) Copy catch-up of the same log.
    const loadBeforeCopy = os.loadavg()[0];
    const copyStart = Date.now();
    const copyConfigured = await configure(LOG, {
      subscriptionKey: COPY_KEY,
      filter: { eventTypes: ["order"] },
      receiver: { action: "copy-to-stream", receivingStreamPath: COPY, delivery: { start: "beginning", onFailingEvent: "halt" } },
    });
    const copyPolls = { count: 0, longestMs: 0 };
    const copied = await waitUntil(
      async () => {
        copyPolls.count++;
        const started = Date.now();
        try {
          const response = await t.request("GET", streamUrl(COPY));
          return response.status === 200 && response.body.head >= totalEvents ? response.body : null;
        } finally {
          copyPolls.longestMs = Math.max(copyPolls.longestMs, Date.now() - started);
        }
      },
      LOG,
      COPY_KEY,
      "copy catch-up",
    );
    const copySeconds = (copied.at - copyStart) / 1000;
    const copyRate = totalEvents / copySeconds;
    const copyCard = await checkNotHalted(LOG, COPY_KEY, "copy catch-up");
    // Every order copied once, in order; server-side span from the configure to the last copy.
    let lastCopyCreatedAt = null;
    for (let after = 0, n = 0; after < copied.value.head; ) {
      const page = await request("GET", `${streamUrl(COPY, "events")}?after=${after}&limit=${PAGE}`);
      if (!page.events.length) fail(`reading the copies stopped at ${after}`);
      for (const copy of page.events) {
        n++;
        const hop = copy.source?.copiedFrom?.at(-1);
        if (hop?.offset !== n || copy.payload?.i !== logEvents[n - 1].payload.i) fail(`copy ${copy.offset} carries source offset ${hop?.offset}, expected ${n}`);
        lastCopyCreatedAt = copy.createdAt;
      }
      after = page.events[page.events.length - 1].offset;
    }
    if (copied.value.head !== totalEvents) fail(`${copied.value.head} copies for ${totalEvents} events`);
    const copyServerSeconds = (Date.parse(lastCopyCreatedAt) - Date.parse(copyConfigured.event.createdAt)) / 1000;

    // 4. (c) Light load: single appends on a fresh stream, state polled back to back.
    await configure(LIGHT, { subscriptionKey: PROC_KEY, filter: { eventTypes: ["order"] }, receiver: { action: "processor-wake", expression: ["processors", NAME, "wake"] } });
    await waitUntil(async () => (await cardEntry(LIGHT, PROC_KEY)).runtime.lag === 0, LIGHT, PROC_KEY, "light: configured");
    const lightTarget = `${url}${streamUrl(LIGHT, "events")}`;
    const visibleMs = [];
    const lightOrders = [];
    for (let n = 0; n < lightEvents; n++) {
      const event = orderAt(n);
      const sent = performance.now();
      const response = await fetch(lightTarget, { method: "POST", headers: authJson, body: JSON.stringify(event) });
      const body = await response.json();
      if (response.status !== 201) fail(`light append ${n}: status ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
      const acknowledged = performance.now();
      lightOrders.push(body.event);
      const deadline = Date.now() + 30_000;
      for (;;) {
        const state = await processorState(LIGHT);
        if (state.checkpointOffset >= body.event.offset) {
          visibleMs.push({ fromAck: performance.now() - acknowledged, fromSend: performance.now() - sent });
          break;
        }
        if (Date.now() > deadline) fail(`light append ${n}: not visible within 30 s`);
      }
      await sleep(lightSpacingMs);
    }
    const lightState = await processorState(LIGHT);
    if (!sameState(lightState.state, foldOrders(lightOrders))) fail(`light: state ≠ the plain fold`);
    const lightCard = await checkNotHalted(LIGHT, PROC_KEY, "light");
    const fromAck = summary(visibleMs.map((v) => v.fromAck));
    const fromSend = summary(visibleMs.map((v) => v.fromSend));

    // Output.
    console.log("");
    printTable(
      [{ title: "catch-up of the log" }, { title: "events" }, { title: "seconds" }, { title: "events/s" }, { title: "batches" }, { title: "batch p50 ms" }, { title: "batch p99 ms" }, { title: "load 1m" }],
      [
        [`append the log (batch ${BATCH}, c=${appendConcurrency})`, fmt(totalEvents), fmt(logSeconds, 2), fmt(totalEvents / logSeconds), fmt(appended.requests), fmt(appended.p50, 1), fmt(appended.p99, 1), ""],
        [
          "(a) processor fold (configure → lag 0)",
          fmt(totalEvents),
          fmt(foldSeconds, 2),
          fmt(foldRate),
          fmt(procCard.runtime.deliveryDurationMs?.count ?? NaN),
          fmt(procCard.runtime.deliveryDurationMs?.p50 ?? NaN, 1),
          fmt(procCard.runtime.deliveryDurationMs?.p99 ?? NaN, 1),
          fmt(loadBeforeFold, 2),
        ],
        [
          "(b) copy-to-stream (configure → head)",
          fmt(totalEvents),
          fmt(copySeconds, 2),
          fmt(copyRate),
          fmt(copyCard.runtime.deliveryDurationMs?.count ?? NaN),
          fmt(copyCard.runtime.deliveryDurationMs?.p50 ?? NaN, 1),
          fmt(copyCard.runtime.deliveryDurationMs?.p99 ?? NaN, 1),
          fmt(loadBeforeCopy, 2),
        ],
        ["processor / copy", "", "", `${fmt(foldRate / copyRate, 2)}x`, "", "", "", ""],
      ],
    );
    console.log(
      `(seconds: client clock, configure request sent → first poll (every ${pollMs} ms) seeing it done. ` +
        `Polls: (a) ${foldPolls.count} (longest wait ${fmt(foldPolls.longestMs)} ms, ${folded.dropped} dropped without an answer), ` +
        `(b) ${copyPolls.count} (longest wait ${fmt(copyPolls.longestMs)} ms, ${copied.dropped} dropped). ` +
        `Copy, server clock, configure commit → last copy's createdAt: ${fmt(copyServerSeconds, 2)} s = ${fmt(totalEvents / copyServerSeconds)} events/s. ` +
        `batch columns: the debug card's deliveryDurationMs per delivered batch (p50/p99 over the last 1024). load 1m = os.loadavg()[0] before the phase)`,
    );
    console.log(`processor state route when done: checkpointOffset ${folded.value.checkpointOffset}, lag ${folded.value.lag} (head ${totalEvents + 1}); card row: acknowledgedOffset ${procCard.runtime.acknowledgedOffset}, lag ${procCard.runtime.lag}`);
    console.log(`verified: processor state = plain JS fold of the ${totalEvents} orders (${Object.keys(expected).length} customers); the copy holds every order once, in order`);

    console.log("");
    const row = (label, s) => [label, fmt(s?.count ?? NaN), fmt(s?.p50 ?? NaN, 1), fmt(s?.p99 ?? NaN, 1), fmt(s?.max ?? NaN, 1)];
    printTable(
      [{ title: `(c) append → state visible, light (${lightEvents} × 1, ~${lightSpacingMs} ms apart), ms` }, { title: "events" }, { title: "p50" }, { title: "p99" }, { title: "max" }],
      [
        row("client: append acknowledged → state route shows it", fromAck),
        row("client: append sent → state route shows it", fromSend),
        row("card completionLatencyMs (commit → checkpoint acked)", lightCard.runtime.completionLatencyMs),
        row("card deliveryDurationMs (wake + fold per batch)", lightCard.runtime.deliveryDurationMs),
      ],
    );
    console.log(
      "(client rows: the state route polled back to back after each acknowledged append (each poll reads the definition and the instance); " +
        "card rows: server clock, one sample per delivered batch; the headline latency is the card's completionLatencyMs)",
    );
    console.log(`load average (1/5/15 min) at the end ${loadavgText()}`);
  } finally {
    await t.cleanup();
  }
}

main().catch((error) => {
  console.error(`\n${error.stack ?? error}`);
  process.exit(1);
});
