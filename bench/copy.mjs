// Copy-to-stream benchmark: A → B through a copy-to-stream subscription
// configured with subscribe-from, in one workerd started by the e2e harness
// (localhost only). Copies run asynchronously from A's Durable Object alarm.
//
//  - sustained: 100-event batch appends to A for BENCH_SECONDS at a fixed
//    concurrency, then a bounded wait until B holds every copy; throughput is
//    first append → last copy committed on B, compared with the bare-insert
//    baseline (one SQLite INSERT per request) measured in the same run at the
//    append bench's concurrency;
//  - append→copy latency per copied event: B's createdAt minus the source
//    event's createdAt (the last `source.copiedFrom` hop), under the sustained
//    load and lightly loaded (single appends ~50 ms apart);
//  - correctness, checked after each phase: B's copies are exactly A's data
//    events, in order, once;
//  - A's debug card figures for the subscription.
//
// Settings (environment): BENCH_SECONDS (5), BENCH_WARMUP_SECONDS (1, baseline
// only), BENCH_CONCURRENCY (8, baseline), BENCH_COPY_CONCURRENCY (4, appends
// to A), BENCH_MAX_REQUESTS per run (500000), BENCH_COPY_WAIT_SECONDS (60),
// BENCH_LIGHT_EVENTS (50), BENCH_LIGHT_SPACING_MS (50).
import { startTributary, streamUrl, TOKEN } from "../tests/e2e/harness.mjs";
import { loadSettings, envNumber, checkedFetch, runLoad, assertNoFailures, warmThenMeasure, percentile, printTable, fmt, reportAim } from "./lib.mjs";

const BATCH = 100;
const SOURCE = "/bench/copy-a";
const RECEIVER = "/bench/copy-b";
const KEY = "bench";
const PAGE = 1000;

const settings = loadSettings();
const copyConcurrency = envNumber("BENCH_COPY_CONCURRENCY", 4, { integer: true });
const waitSeconds = envNumber("BENCH_COPY_WAIT_SECONDS", 60);
const lightEvents = envNumber("BENCH_LIGHT_EVENTS", 50, { integer: true });
const lightSpacingMs = envNumber("BENCH_LIGHT_SPACING_MS", 50);

const authJson = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const fail = (message) => {
  throw new Error(`BENCH FAILED: copy: ${message}`);
};

/** Parses an RFC 3339 timestamp to epoch ms, failing loudly on anything else. */
function timeMs(value, what) {
  const ms = typeof value === "string" ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) fail(`${what}: not an RFC 3339 time: ${JSON.stringify(value)}`);
  return ms;
}

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.length ? sorted[sorted.length - 1] : NaN };
}

async function main() {
  console.log(
    `copy bench: A→B copy-to-stream; sustained ${settings.seconds}s of ${BATCH}-event batches at concurrency ${copyConcurrency}, ` +
      `then ${lightEvents} single appends ~${lightSpacingMs} ms apart; baseline ${settings.seconds}s after ` +
      `${settings.warmupSeconds}s warm-up at concurrency ${settings.concurrency}`,
  );
  const t = await startTributary({ bench: true, consoleAssets: false });
  try {
    const url = t.url;

    async function getJson(path, allow404 = false) {
      const response = await t.request("GET", path);
      if (allow404 && response.status === 404) return null;
      if (response.status !== 200) fail(`GET ${path}: status ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`);
      return response.body;
    }

    async function subscriptionCard() {
      const card = await getJson(streamUrl(SOURCE, "subscriptions"));
      const sub = card?.subscriptions?.[0];
      if (!sub || sub.subscriptionKey !== KEY || !sub.runtime) fail(`unexpected debug card of ${SOURCE}: ${JSON.stringify(card).slice(0, 500)}`);
      return sub;
    }

    // Stream reading: every event after `after`, paged, bounded.
    async function readFrom(path, after, into) {
      let cursor = after;
      for (let page = 0; ; page++) {
        if (page > 100_000) fail(`reading ${path}: too many pages`);
        const body = await getJson(`${streamUrl(path, "events")}?after=${cursor}&limit=${PAGE}`, true);
        if (body === null) return cursor; // stream not written yet
        const events = body.events;
        if (!Array.isArray(events)) fail(`reading ${path}: no events array`);
        for (const event of events) {
          if (!(event.offset > cursor)) fail(`reading ${path}: offset ${event.offset} after ${cursor}`);
          into.push(event);
          cursor = event.offset;
        }
        if (events.length === 0 || cursor >= body.head) return cursor;
      }
    }

    // Everything read so far from A and B (each read once, incrementally).
    const aEvents = [];
    const bEvents = [];
    let aCursor = 0;
    let bCursor = 0;
    let sourceStreamId = null;
    const acknowledgedOffsets = []; // data offsets returned by A's append responses
    const phaseOf = new Map(); // A offset → "sustained" | "light"

    /**
     * Reads A and B to their heads and checks that B's copies are exactly A's
     * data events, in order, once. Returns the new B events' copies joined
     * with their source events.
     */
    async function readAndVerify(label) {
      aCursor = await readFrom(SOURCE, aCursor, aEvents);
      const bBefore = bEvents.length;
      bCursor = await readFrom(RECEIVER, bCursor, bEvents);
      const info = await getJson(streamUrl(SOURCE));
      sourceStreamId = info.streamId;

      const aData = aEvents.filter((event) => event.type === "data");
      const others = aEvents.filter((event) => event.type !== "data");
      if (others.length !== 1 || others[0].offset !== 1) {
        fail(`${label}: A should hold one control event (the subscription's configure at offset 1) besides data, found ${others.map((e) => `${e.offset}:${e.type}`).join(", ")}`);
      }
      const acknowledged = [...acknowledgedOffsets].sort((x, y) => x - y);
      if (acknowledged.length !== aData.length || acknowledged.some((offset, i) => offset !== aData[i].offset)) {
        fail(`${label}: A's data events (${aData.length}) differ from the ${acknowledged.length} acknowledged appends`);
      }
      if (bEvents.length !== aData.length) {
        fail(`${label}: B holds ${bEvents.length} events but A has ${aData.length} data events`);
      }
      const joined = [];
      for (let i = 0; i < bEvents.length; i++) {
        const copy = bEvents[i];
        const source = aData[i];
        const chain = copy.source?.copiedFrom;
        const where = `${label}: B offset ${copy.offset}`;
        if (!Array.isArray(chain) || chain.length !== 1) fail(`${where}: expected a one-hop source.copiedFrom, got ${JSON.stringify(copy.source)}`);
        const hop = chain[chain.length - 1];
        if (hop.offset !== source.offset) fail(`${where}: copies A offset ${hop.offset}, expected ${source.offset} (order or duplicate/missing copy)`);
        if (hop.path !== SOURCE || hop.subscriptionKey !== KEY || hop.streamId !== sourceStreamId) {
          fail(`${where}: hop ${JSON.stringify(hop)} does not name ${SOURCE} (${sourceStreamId}) key ${KEY}`);
        }
        if (hop.type !== "data" || copy.type !== "data") fail(`${where}: type ${copy.type} / hop type ${hop.type}, expected data`);
        if (hop.createdAt !== source.createdAt) fail(`${where}: hop createdAt ${hop.createdAt} ≠ source createdAt ${source.createdAt}`);
        if (copy.payload?.i !== source.payload?.i || copy.payload?.sentAt !== source.payload?.sentAt) {
          fail(`${where}: payload ${JSON.stringify(copy.payload)} ≠ source payload ${JSON.stringify(source.payload)}`);
        }
        if (i >= bBefore) joined.push({ copy, source, hop });
      }
      return joined;
    }

    /** Polls B's head (bounded) until it reaches `count`; watches A's card for a halt. */
    async function waitForCopies(count, label) {
      const deadline = Date.now() + waitSeconds * 1000;
      let lastCardCheck = Date.now();
      for (let polls = 0; ; polls++) {
        const info = await getJson(streamUrl(RECEIVER), true);
        const head = info?.head ?? 0;
        if (head >= count) return Date.now();
        if (Date.now() - lastCardCheck > 1000) {
          lastCardCheck = Date.now();
          const sub = await subscriptionCard();
          if (sub.deliveryHalted) fail(`${label}: subscription halted: ${JSON.stringify(sub.deliveryHalted)}`);
        }
        if (Date.now() > deadline) {
          const sub = await subscriptionCard();
          fail(`${label}: B reached head ${head} of ${count} within ${waitSeconds}s; A's runtime: ${JSON.stringify(sub.runtime)}`);
        }
        await sleep(20);
      }
    }

    // Append-response check: records the committed data offsets.
    const recordAppend = (expected, phase) => (text) => {
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        return "response is not JSON";
      }
      const events = body.events ?? (body.event ? [body.event] : []);
      if (events.length !== expected || events.some((event) => event.type !== "data" || !Number.isInteger(event.offset))) {
        return `expected ${expected} committed data events`;
      }
      for (const event of events) {
        acknowledgedOffsets.push(event.offset);
        phaseOf.set(event.offset, phase);
      }
      return null;
    };

    // 1. Baseline: one INSERT per request, the append bench's concurrency.
    const baselineTarget = `${url}/bench/baseline/copy`;
    const baselineBody = JSON.stringify({ type: "data", payload: { i: 0, sentAt: Date.now() } });
    const baselineRuns = await warmThenMeasure("baseline insert", {
      ...settings,
      send: () =>
        checkedFetch(baselineTarget, { method: "POST", body: baselineBody }, 200, (text) =>
          text === '{"rowsWritten":1}' ? null : "unexpected baseline body",
        ),
    });
    const baseline = baselineRuns.measured;
    const baselineRate = baseline.requests / baseline.seconds;

    // 2. Configure A → B.
    const configured = await t.request("POST", streamUrl(RECEIVER, "subscribe-from"), {
      body: { sourcePath: SOURCE, subscriptionKey: KEY, filter: { eventTypes: ["data"] }, start: "now" },
    });
    if (configured.status !== 201 || configured.body?.subscriptionKey !== KEY) {
      fail(`subscribe-from: status ${configured.status}: ${JSON.stringify(configured.body).slice(0, 300)}`);
    }

    // 3. Sustained: batches into A, then wait for every copy on B.
    const appendTarget = `${url}${streamUrl(SOURCE, "events")}`;
    const batchBody = (i) =>
      JSON.stringify({ events: Array.from({ length: BATCH }, (_, k) => ({ type: "data", payload: { i: i * BATCH + k, sentAt: Date.now() } })) });
    const firstAppendAtMs = Date.now();
    // A concurrent reader of A's latest 100 events during the sustained
    // appends (issue 20: a read still waits ≤ 100 ms while A copies).
    const readWaits = [];
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const started = performance.now();
        const response = await fetch(`${url}${streamUrl(SOURCE, "events")}?after=${Math.max(0, acknowledgedOffsets.length - 100)}&limit=100`, { headers: authJson });
        await response.text();
        if (response.status !== 200) fail(`concurrent read of A: status ${response.status}`);
        readWaits.push(performance.now() - started);
        await sleep(10);
      }
    })();
    const sustained = await runLoad({
      send: (i) => checkedFetch(appendTarget, { method: "POST", headers: authJson, body: batchBody(i) }, 201, recordAppend(BATCH, "sustained")),
      seconds: settings.seconds,
      concurrency: copyConcurrency,
      maxRequests: settings.maxRequests,
    });
    assertNoFailures("copy: sustained appends to A", sustained);
    const sustainedEvents = sustained.requests * BATCH;
    const caughtUpAtMs = await waitForCopies(sustainedEvents, "sustained");
    reading = false;
    await reader;
    const readWait = summary(readWaits);
    const sustainedCopies = await readAndVerify("sustained");
    if (sustainedCopies.length !== sustainedEvents) fail(`sustained: ${sustainedCopies.length} copies for ${sustainedEvents} appended events`);
    const lastCopyAtMs = timeMs(sustainedCopies[sustainedCopies.length - 1].copy.createdAt, "last copy createdAt");
    const copySeconds = (lastCopyAtMs - firstAppendAtMs) / 1000;
    const copyRate = sustainedEvents / copySeconds;
    const cardAfterSustained = await subscriptionCard();

    // 4. Lightly loaded: single appends, spaced.
    for (let n = 0; n < lightEvents; n++) {
      const body = JSON.stringify({ type: "data", payload: { i: sustainedEvents + n, sentAt: Date.now() } });
      const problem = await checkedFetch(appendTarget, { method: "POST", headers: authJson, body }, 201, recordAppend(1, "light"));
      if (problem) fail(`light append ${n}: ${problem}`);
      await sleep(lightSpacingMs);
    }
    await waitForCopies(sustainedEvents + lightEvents, "light");
    const lightCopies = await readAndVerify("light");
    if (lightCopies.length !== lightEvents) fail(`light: ${lightCopies.length} copies for ${lightEvents} appended events`);
    const cardAfterLight = await subscriptionCard();
    if (cardAfterLight.runtime.lag !== 0 || cardAfterLight.runtime.lastError) {
      fail(`A's runtime after catching up: ${JSON.stringify(cardAfterLight.runtime)}`);
    }

    // Latencies (ms): B commit − source commit; and client sentAt → B commit.
    const latencies = (copies, phase) => {
      for (const { hop } of copies) if (phaseOf.get(hop.offset) !== phase) fail(`offset ${hop.offset} is not from the ${phase} phase`);
      return {
        copy: summary(copies.map(({ copy, hop }) => timeMs(copy.createdAt, "copy createdAt") - timeMs(hop.createdAt, "hop createdAt"))),
        endToEnd: summary(copies.map(({ copy }) => timeMs(copy.createdAt, "copy createdAt") - copy.payload.sentAt)),
      };
    };
    const sustainedLatency = latencies(sustainedCopies, "sustained");
    const lightLatency = latencies(lightCopies, "light");

    // Output.
    console.log("");
    printTable(
      [
        { title: "scenario" },
        { title: "requests" },
        { title: "events" },
        { title: "seconds" },
        { title: "events/s" },
        { title: "x baseline" },
        { title: "p50 ms" },
        { title: "p99 ms" },
      ],
      [
        [
          `append to A (batch ${BATCH}, c=${copyConcurrency})`,
          fmt(sustained.requests),
          fmt(sustainedEvents),
          fmt(sustained.seconds, 2),
          fmt(sustainedEvents / sustained.seconds),
          fmt(sustainedEvents / sustained.seconds / baselineRate, 2),
          fmt(sustained.p50, 2),
          fmt(sustained.p99, 2),
        ],
        [`copy A→B (1st append → last copy)`, "", fmt(sustainedEvents), fmt(copySeconds, 2), fmt(copyRate), fmt(copyRate / baselineRate, 2), "", ""],
        [
          `baseline (1 INSERT/req, c=${settings.concurrency})`,
          fmt(baseline.requests),
          fmt(baseline.requests),
          fmt(baseline.seconds, 2),
          fmt(baselineRate),
          fmt(1, 2),
          fmt(baseline.p50, 2),
          fmt(baseline.p99, 2),
        ],
      ],
    );
    console.log(`(copy seconds = first append sent → createdAt of the last copy on B; client saw B caught up after ${fmt((caughtUpAtMs - firstAppendAtMs) / 1000, 2)} s)`);
    console.log(`(baseline "events" = rows inserted; x baseline = events/s ÷ baseline requests/s)`);
    if (sustained.stoppedBy !== "time") console.log(`note: sustained appends stopped by ${sustained.stoppedBy}`);
    if (baseline.stoppedBy !== "time") console.log(`note: baseline stopped by ${baseline.stoppedBy}`);

    console.log("");
    const latencyRow = (label, s) => [label, fmt(s.count), fmt(s.p50), fmt(s.p99), fmt(s.max)];
    printTable(
      [{ title: "append→copy latency (ms)" }, { title: "events" }, { title: "p50" }, { title: "p99" }, { title: "max" }],
      [
        latencyRow("sustained: B commit − A commit", sustainedLatency.copy),
        latencyRow(`light (${lightEvents} × 1, ~${lightSpacingMs} ms apart)`, lightLatency.copy),
        latencyRow("sustained: client send → B commit", sustainedLatency.endToEnd),
        latencyRow("light: client send → B commit", lightLatency.endToEnd),
      ],
    );
    console.log("(createdAt values are millisecond timestamps; client send = payload.sentAt, same machine clock)");
    console.log(
      `concurrent reads of A (latest 100 events) during the sustained phase: ${fmt(readWait.count)} reads, ` +
        `p50 ${fmt(readWait.p50, 1)} ms, p99 ${fmt(readWait.p99, 1)} ms, max ${fmt(readWait.max, 1)} ms`,
    );
    reportAim("copy A→B sustained, append→copy p50", sustainedLatency.copy.p50, "<=", 50, "ms");
    reportAim("copy A→B sustained, append→copy p99", sustainedLatency.copy.p99, "<=", 200, "ms");
    reportAim("read of A while it copies, p99 wait", readWait.p99, "<=", 100, "ms");

    console.log("");
    const cardRows = (label, sub) => {
      const row = (name, s) => [`${label}: ${name}`, fmt(s?.count ?? NaN), fmt(s?.p50 ?? NaN), fmt(s?.p99 ?? NaN), fmt(s?.max ?? NaN)];
      return [row("completionLatencyMs", sub.runtime.completionLatencyMs), row("deliveryDurationMs", sub.runtime.deliveryDurationMs)];
    };
    printTable(
      [{ title: "A's debug card (subscription bench)" }, { title: "count" }, { title: "p50" }, { title: "p99" }, { title: "max" }],
      [...cardRows("after sustained", cardAfterSustained), ...cardRows("after light", cardAfterLight)],
    );
    console.log(
      `bytesSent: ${fmt(cardAfterSustained.runtime.bytesSent)} after sustained, ${fmt(cardAfterLight.runtime.bytesSent)} after light; ` +
        `acknowledgedOffset ${cardAfterLight.runtime.acknowledgedOffset}, lag ${cardAfterLight.runtime.lag}`,
    );
    console.log("(card figures: one sample per delivered batch; completion = last event's commit → ack; p50/p99 over the last 1024 samples, count/max since the object started)");
    console.log(`verified: B holds ${bEvents.length} copies = A's ${bEvents.length} data events, in order, once`);
  } finally {
    await t.cleanup();
  }
}

main().catch((error) => {
  console.error(`\n${error.stack ?? error}`);
  process.exit(1);
});
