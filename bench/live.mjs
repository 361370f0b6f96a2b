// Live connections benchmark (docs/design.md §10), in one workerd started by the
// e2e harness (localhost only), readers and writers in this one Node process:
//
//  (a) append → live reader latency: on its own stream per scenario, with 1,
//      100 and 1000 WebSocket readers (each acknowledging as the README
//      says: once 64 KiB arrived since its last ack) and with 1 SSE reader (EventSource). Single appends, one at a
//      time: each carries performance.now() taken just before its request is
//      sent; every reader records, per event, the time from then until the
//      frame carrying it arrived (same process, same clock). The next append
//      is sent once every reader has the previous event (plus a small gap).
//      p50 / p99 / max over all (reader, event) samples. Every reader must
//      receive every event exactly once, in offset order, or the bench fails.
//      At 1000 readers the time includes this process parsing 1000 frames
//      per event — the readers share one Node thread with the writer.
//  (b) the single-append rate (BENCH_CONCURRENCY requests in flight, warm-up
//      then BENCH_SECONDS measured, as bench/append.mjs) into a stream with
//      no reader and into one with 100 WebSocket readers attached (same event
//      body, same pre-existing events), side by side, and the ratio. After
//      the run, every reader must have caught up with the head (or the bench
//      reports how many were closed as slow consumers). Measured in
//      BENCH_LIVE_RATE_ROUNDS (3) rounds, each on fresh streams, Tributary
//      and the floor with and without readers taking turns and the order
//      rotating (bench/lib.mjs inRounds): a row is the system's median round,
//      a ratio the median of the same rounds' ratios. One 5 s run each moved
//      the ratio to the floor between 0.66 and 1.15 from run to run.
//  - beside each figure, the CPU each side used while it was measured: this
//    Node process (readers and appenders, process.cpuUsage) and workerd
//    (/proc/<pid>/stat of the workerd processes under this one), since both
//    share the machine's cores; and the stream's live work per append and
//    reader from its /-/metrics counters (frames sent, acknowledgements
//    handled, attachment writes; frames serialized per append).
//  - the aims of issue 20 through reportAim (bench/lib.mjs): the rate ratio
//    ≥ 0.8, p50 ≤ 5 ms with 100 readers and ≤ 25 ms with 1000.
//  - the platform floor (issue 33, bench/floor/worker.mjs): a bare JS Durable
//    Object in the same workerd that inserts each append and sends one frame
//    per commit to its hibernatable WebSockets (ctx.acceptWebSocket), measured
//    as (a) with 100 and 1000 readers and as (b) with none and 100; its
//    readers are checked the same way (every event once, in order). Aims of
//    issue 33: appends with 100 readers ≥ 0.8 of the floor's, append → reader
//    p50 ≤ 1.5× the floor's.
//  - the machine's load average next to the figures.
//
// Settings (environment): BENCH_SECONDS (5), BENCH_WARMUP_SECONDS (1),
// BENCH_CONCURRENCY (8), BENCH_MAX_REQUESTS per run (500000),
// BENCH_LIVE_EVENTS (200 measured appends per latency scenario),
// BENCH_LIVE_WARMUP_EVENTS (20), BENCH_LIVE_GAP_MS (2, pause between
// latency appends), BENCH_LIVE_WAIT_SECONDS (60, bound on any wait),
// BENCH_LIVE_RATE_ROUNDS (3, rounds of (b)), BENCH_LIVE_ACK (`frame`:
// readers ack every frame instead).
import os from "node:os";
import { EventSource } from "eventsource";
import { startTributary, streamUrl, TOKEN } from "../tests/e2e/harness.mjs";
import { loadSettings, envNumber, checkedFetch, warmThenMeasure, percentile, parsePrometheus, metric, printTable, fmt, reportAim, medianBy, inRounds, pairedRatio } from "./lib.mjs";
import { cpuSnapshot, cpuBetween, cpuText } from "./cpu.mjs";

const settings = loadSettings();
const latencyEvents = envNumber("BENCH_LIVE_EVENTS", 200, { integer: true });
const latencyWarmup = envNumber("BENCH_LIVE_WARMUP_EVENTS", 20, { integer: true });
const gapMs = envNumber("BENCH_LIVE_GAP_MS", 2);
const waitSeconds = envNumber("BENCH_LIVE_WAIT_SECONDS", 60);
// BENCH_LIVE_ACK=frame: readers ack every frame (the README's advice before issue 20).
const ackEveryFrame = process.env.BENCH_LIVE_ACK === "frame";

const authJson = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const fail = (message) => {
  throw new Error(`BENCH FAILED: live: ${message}`);
};
const loadavgText = () => os.loadavg().map((v) => v.toFixed(2)).join(" / ");

// The same modest event as bench/append.mjs.
const eventAt = (i) => ({
  type: "t",
  payload: { seq: i, user: "user-000123", action: "page_view", url: "/products/widget-42?ref=bench" },
});

/** Waits for `condition()` (polled), at most BENCH_LIVE_WAIT_SECONDS. */
async function until(condition, what) {
  const deadline = performance.now() + waitSeconds * 1000;
  while (!condition()) {
    if (performance.now() > deadline) fail(`timed out after ${waitSeconds}s waiting for ${what}`);
    await sleep(5);
  }
}

/**
 * The stream's live work over a measured run (its /-/metrics counters), per
 * append and reader: frames sent, acknowledgements handled (each one engine
 * call in the object), attachment writes, and frames serialized per append.
 */
function liveWork(before, after, appends, readers) {
  // A build from before these counters has none of them: n/a.
  const delta = (name) => (after.get(name) ?? NaN) - (before.get(name) ?? NaN);
  const perReader = (name) => (readers ? delta(name) / appends / readers : NaN);
  return {
    framesSent: perReader("tributary_live_frames_sent_total"),
    acks: perReader("tributary_live_acks_total"),
    attachmentWrites: perReader("tributary_live_attachment_writes_total"),
    serializedPerAppend: delta("tributary_live_frames_serialized_total") / appends,
  };
}

/** One table of {label, work} rows (liveWork). */
function printWork(rows) {
  printTable(
    [
      { title: "work per append and reader" },
      { title: "frames sent" },
      { title: "acks handled" },
      { title: "attachment writes" },
      { title: "frames serialized per append" },
    ],
    rows.map((s) => [s.label, fmt(s.work.framesSent, 3), fmt(s.work.acks, 3), fmt(s.work.attachmentWrites, 3), fmt(s.work.serializedPerAppend, 2)]),
  );
}

/** "1.23 / 4.56" CPU seconds of this process and of workerd. */
const cpuCells = (cpu) => `${fmt(cpu.node, 2)} / ${fmt(cpu.workerd, 2)}`;

/** What a reader may hold unacknowledged before it acks (LIVE_ACK_WINDOW_BYTES, src/limits.rs). */
const ACK_WINDOW = 64 * 1024;

/**
 * A WebSocket reader's acknowledgements, as the README's live section tells
 * users to send them: once the frames received since its last ack reach
 * 64 KiB, the last offset received.
 */
function acknowledger(ws) {
  if (ackEveryFrame) return (frame) => ws.send(JSON.stringify({ type: "ack", offset: frame.events.at(-1).offset }));
  let unacknowledged = 0;
  return (frame, data) => {
    unacknowledged += data.length;
    if (unacknowledged < ACK_WINDOW) return;
    ws.send(JSON.stringify({ type: "ack", offset: frame.events.at(-1).offset }));
    unacknowledged = 0;
  };
}

/**
 * Readers of one stream. Each reader checks that offsets arrive contiguous
 * from `after + 1`; `onEvent(event, now)` sees every event of every reader.
 */
function readerSet({ baseUrl, path, after, onEvent, floor = false }) {
  const set = { readers: [], problems: [], closes: [] };
  const accept = (reader, events) => {
    const now = performance.now();
    for (const event of events) {
      if (event.offset !== reader.last + 1) {
        set.problems.push(`reader ${reader.id}: offset ${event.offset} after ${reader.last}`);
      }
      reader.last = Math.max(reader.last, event.offset);
      onEvent(event, now);
    }
  };
  set.addWebSocket = () => {
    const live = floor ? `/floor/stream/${encodeURIComponent(path)}/live` : streamUrl(path, "live");
    const ws = new WebSocket(`${baseUrl.replace(/^http/, "ws")}${live}?after=${after}`, floor ? ["tributary.v1"] : ["tributary.v1", `bearer.${TOKEN}`]);
    const reader = { id: set.readers.length, last: after, ws };
    reader.opened = new Promise((resolve, reject) => {
      ws.addEventListener("open", resolve, { once: true });
      ws.addEventListener("error", () => reject(new Error(`reader ${reader.id} failed to open`)), { once: true });
    });
    const acknowledge = acknowledger(ws);
    ws.addEventListener("message", (message) => {
      const frame = JSON.parse(message.data);
      if (frame.type !== "events") return;
      accept(reader, frame.events);
      acknowledge(frame, message.data);
    });
    ws.addEventListener("close", (e) => set.closes.push({ id: reader.id, code: e.code, reason: e.reason }));
    reader.close = () => ws.close(1000, "bench done");
    set.readers.push(reader);
    return reader;
  };
  set.addSse = () => {
    const es = new EventSource(`${baseUrl}${streamUrl(path, "live")}?after=${after}`, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, authorization: `Bearer ${TOKEN}` } }),
    });
    const reader = { id: set.readers.length, last: after };
    reader.opened = new Promise((resolve) => es.addEventListener("open", resolve, { once: true }));
    es.addEventListener("event", (message) => accept(reader, [JSON.parse(message.data)]));
    es.addEventListener("error", (e) => {
      if (typeof e.data === "string") set.closes.push({ id: reader.id, reason: e.data });
    });
    reader.close = () => es.close();
    set.readers.push(reader);
    return reader;
  };
  set.minLast = () => set.readers.reduce((min, r) => Math.min(min, r.last), Infinity);
  set.closeAll = () => set.readers.forEach((r) => r.close());
  return set;
}

async function main() {
  console.log(
    `live bench: readers ack ${ackEveryFrame ? "every frame" : "every 64 KiB (the README's advice)"}; latency over ${latencyEvents} appends per scenario (after ${latencyWarmup} warm-up, ${gapMs} ms apart); ` +
      `append rate ${settings.seconds}s after ${settings.warmupSeconds}s warm-up at concurrency ${settings.concurrency}`,
  );
  const t = await startTributary({ floor: true, consoleAssets: false });
  try {
    const url = t.url;

    async function streamMetrics(path) {
      const response = await t.request("GET", streamUrl(path, "metrics"));
      if (response.status !== 200) fail(`metrics of ${path}: ${response.status} ${JSON.stringify(response.body)}`);
      return parsePrometheus(String(response.body));
    }

    // Floor streams (issue 33) are named "floor:<path>": same calls, the floor's routes, no metrics.
    const isFloor = (path) => path.startsWith("floor:");
    const eventsTarget = (path) => (isFloor(path) ? `${url}/floor/stream/${encodeURIComponent(path)}/events` : `${url}${streamUrl(path, "events")}`);
    const appendHeaders = (path) => (isFloor(path) ? { "content-type": "application/json" } : authJson);
    const noMetrics = new Map();

    async function seed(path) {
      const seeded = isFloor(path)
        ? await fetch(eventsTarget(path), { method: "POST", headers: appendHeaders(path), body: JSON.stringify({ events: Array.from({ length: 10 }, (_, i) => eventAt(i)) }) }).then(
            async (r) => ({ status: r.status, body: await r.json() }),
          )
        : await t.request("POST", streamUrl(path, "events"), {
            body: { events: Array.from({ length: 10 }, (_, i) => eventAt(i)) },
          });
      if (seeded.status !== 201) fail(`seeding ${path}: ${seeded.status} ${JSON.stringify(seeded.body)}`);
      return seeded.body.events.at(-1).offset;
    }

    async function openReaders(path, after, count, transport, onEvent) {
      const set = readerSet({ baseUrl: url, path, after, onEvent, floor: isFloor(path) });
      for (let k = 0; k < count; k += 100) {
        const wave = Array.from({ length: Math.min(100, count - k) }, () =>
          transport === "sse" ? set.addSse() : set.addWebSocket(),
        );
        await Promise.all(wave.map((r) => r.opened));
      }
      if (isFloor(path)) return set; // every reader's open event arrived (awaited above)
      const connections = metric(await streamMetrics(path), "tributary_live_connections");
      if (connections !== count) fail(`${path}: ${connections} live connections registered, expected ${count}`);
      return set;
    }

    // (a) latency
    async function latencyScenario(label, path, count, transport) {
      const head = await seed(path);
      const samples = [];
      let measuring = false;
      const set = await openReaders(path, head, count, transport, (event, now) => {
        if (measuring && event.payload && typeof event.payload.sentAt === "number") samples.push(now - event.payload.sentAt);
      });
      const target = eventsTarget(path);
      const metricsOf = async () => (isFloor(path) ? noMetrics : streamMetrics(path));
      let offset = head;
      const appendMs = [];
      const loadBefore = os.loadavg()[0];
      let cpuBefore = cpuSnapshot();
      let measuredFrom = performance.now();
      let workBefore;
      for (let i = 0; i < latencyWarmup + latencyEvents; i++) {
        if (i === latencyWarmup) {
          workBefore = await metricsOf();
          cpuBefore = cpuSnapshot();
          measuredFrom = performance.now();
        }
        measuring = i >= latencyWarmup;
        offset++;
        const sentAt = performance.now();
        const body = JSON.stringify({ type: "lat", payload: { i, sentAt } });
        const problem = await checkedFetch(target, { method: "POST", headers: appendHeaders(path), body }, 201, (text) =>
          JSON.parse(text).event.offset === offset ? null : "unexpected offset",
        );
        if (problem) fail(`${label}: ${problem}`);
        if (measuring) appendMs.push(performance.now() - sentAt);
        await until(() => set.minLast() >= offset || set.closes.length > 0, `${label}: every reader has offset ${offset}`);
        if (set.closes.length) fail(`${label}: readers closed: ${JSON.stringify(set.closes.slice(0, 3))}`);
        if (gapMs) await sleep(gapMs);
      }
      const cpu = cpuBetween(cpuBefore, cpuSnapshot(), (performance.now() - measuredFrom) / 1000);
      const work = liveWork(workBefore, await metricsOf(), latencyEvents, count);
      if (set.problems.length) fail(`${label}: ${set.problems.slice(0, 3).join("; ")}`);
      if (samples.length !== count * latencyEvents) fail(`${label}: ${samples.length} samples, expected ${count * latencyEvents}`);
      set.closeAll();
      samples.sort((a, b) => a - b);
      appendMs.sort((a, b) => a - b);
      return {
        label,
        readers: count,
        samples: samples.length,
        p50: percentile(samples, 50),
        p99: percentile(samples, 99),
        max: samples.at(-1),
        appendP50: percentile(appendMs, 50),
        cpu,
        work,
        load: `${loadBefore.toFixed(2)} → ${os.loadavg()[0].toFixed(2)}`,
      };
    }

    const latency = [];
    latency.push(await latencyScenario("1 WebSocket reader", "/bench/live-lat-ws-1", 1, "websocket"));
    latency.push(await latencyScenario("100 WebSocket readers", "/bench/live-lat-ws-100", 100, "websocket"));
    latency.push(await latencyScenario("1000 WebSocket readers", "/bench/live-lat-ws-1000", 1000, "websocket"));
    latency.push(await latencyScenario("1 SSE reader", "/bench/live-lat-sse-1", 1, "sse"));
    const floorLatency = [];
    floorLatency.push(await latencyScenario("floor: 100 WebSockets", "floor:live-lat-ws-100", 100, "websocket"));
    floorLatency.push(await latencyScenario("floor: 1000 WebSockets", "floor:live-lat-ws-1000", 1000, "websocket"));

    // (b) append rate with and without 100 readers
    async function rateScenario(label, path, readers) {
      const head = await seed(path);
      const set = readers ? await openReaders(path, head, readers, "websocket", () => {}) : null;
      const target = eventsTarget(path);
      const metricsOf = async () => (isFloor(path) ? noMetrics : streamMetrics(path));
      const body = (i) => JSON.stringify(eventAt(i));
      const loadBefore = os.loadavg()[0];
      let cpuBefore;
      let measuredFrom;
      let workBefore;
      const runs = await warmThenMeasure(label, {
        ...settings,
        send: (i) => checkedFetch(target, { method: "POST", headers: appendHeaders(path), body: body(i) }, 201),
        onMeasureStart: async () => {
          workBefore = await metricsOf();
          cpuBefore = cpuSnapshot();
          measuredFrom = performance.now();
        },
      });
      const cpu = cpuBetween(cpuBefore, cpuSnapshot(), (performance.now() - measuredFrom) / 1000);
      const loadAfter = os.loadavg()[0];
      let caughtUp = "n/a";
      if (set) {
        const finalHead = head + runs.warmup.requests + runs.measured.requests;
        const started = performance.now();
        await until(() => set.minLast() >= finalHead || set.closes.length > 0, `${label}: readers reach ${finalHead}`);
        if (set.problems.length) fail(`${label}: ${set.problems.slice(0, 3).join("; ")}`);
        caughtUp = set.closes.length
          ? `${set.closes.length} closed (${set.closes[0].code} ${set.closes[0].reason})`
          : `all, ${fmt(performance.now() - started, 0)} ms after the last append`;
      }
      const work = liveWork(workBefore, await metricsOf(), runs.measured.requests, readers);
      set?.closeAll();
      return { label, run: runs.measured, work, rate: runs.measured.requests / runs.measured.seconds, cpu, caughtUp, load: `${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}` };
    }

    const rateRounds = envNumber("BENCH_LIVE_RATE_ROUNDS", 3, { integer: true });
    const rateSystems = [
      ["single append, no reader", "/bench/live-rate-0", 0],
      ["single append, 100 WebSocket readers", "/bench/live-rate-100", 100],
      ["floor: single append, no reader", "floor:live-rate-0", 0],
      ["floor: single append, 100 WebSockets", "floor:live-rate-100", 100],
    ];
    const rateRuns = await inRounds(
      rateRounds,
      rateSystems.map(([label, path, readers]) => (round) => rateScenario(`${label} (round ${round})`, `${path}-r${round}`, readers)),
    );
    const [none, hundred, floorNone, floorHundred] = rateRuns.map((runs) => medianBy(runs, (s) => s.rate));
    const [noneRates, hundredRates, floorNoneRates, floorHundredRates] = rateRuns.map((runs) => runs.map((s) => s.rate));
    const readersCost = pairedRatio(hundredRates, noneRates);
    const floorReadersCost = pairedRatio(floorHundredRates, floorNoneRates);
    const toFloor = pairedRatio(hundredRates, floorHundredRates);

    console.log("");
    printTable(
      [
        { title: "append → reader latency" },
        { title: "readers" },
        { title: "samples" },
        { title: "p50 ms" },
        { title: "p99 ms" },
        { title: "max ms" },
        { title: "append p50 ms" },
        { title: "CPU s node / workerd" },
        { title: "p50 ÷ floor's" },
        { title: "load avg 1m", align: "left" },
      ],
      [...latency, ...floorLatency].map((s) => {
        const floorOf = floorLatency.find((f) => f.readers === s.readers && s.label.includes("WebSocket"));
        return [s.label, fmt(s.readers), fmt(s.samples), fmt(s.p50, 2), fmt(s.p99, 2), fmt(s.max, 2), fmt(s.appendP50, 2), cpuCells(s.cpu), floorOf ? fmt(s.p50 / floorOf.p50, 2) : "", s.load];
      }),
    );
    console.log("(latency = append request sent → frame received by each reader; append p50 = request → response; floor = bench/floor/worker.mjs)");
    console.log("");
    printWork([...latency, hundred]);
    console.log("");
    printTable(
      [
        { title: "append rate" },
        { title: "requests" },
        { title: "seconds" },
        { title: "appends/s" },
        { title: "p50 ms" },
        { title: "p99 ms" },
        { title: "CPU s node / workerd" },
        { title: "÷ floor" },
        { title: "readers caught up", align: "left" },
        { title: "load avg 1m", align: "left" },
      ],
      [
        [none, floorNone],
        [hundred, floorHundred],
        [floorNone, floorNone],
        [floorHundred, floorHundred],
      ].map(([s, f]) => [s.label, fmt(s.run.requests), fmt(s.run.seconds, 2), fmt(s.rate), fmt(s.run.p50, 2), fmt(s.run.p99, 2), cpuCells(s.cpu), fmt(s.rate / f.rate, 2), s.caughtUp, s.load]),
    );
    console.log(`(each row its system's median of ${rateRounds} rounds; ÷ floor = appends/s ÷ the floor's with as many readers in that row)`);
    console.log(`100 readers ÷ none, round by round: ${hundredRates.map((r, k) => fmt(r / noneRates[k], 2)).join(", ")}; the floor's: ${floorHundredRates.map((r, k) => fmt(r / floorNoneRates[k], 2)).join(", ")}`);
    console.log(`100 readers ÷ the floor's with 100, round by round: ${hundredRates.map((r, k) => fmt(r / floorHundredRates[k], 2)).join(", ")}`);
    console.log("");
    console.log(`CPU during the measured appends, no reader: ${cpuText(none.cpu)}`);
    console.log(`CPU during the measured appends, 100 WebSocket readers: ${cpuText(hundred.cpu)}`);
    console.log(
      `per append with 100 readers ÷ none: workerd CPU ${fmt(hundred.cpu.workerd / hundred.run.requests / (none.cpu.workerd / none.run.requests), 2)}×, ` +
        `node CPU ${fmt(hundred.cpu.node / hundred.run.requests / (none.cpu.node / none.run.requests), 2)}×`,
    );
    reportAim("single appends, 100 WebSocket readers ÷ none", readersCost.median, ">=", 0.8, readersCost.note, { floor: floorReadersCost.median });
    for (const readers of [100, 1000]) {
      const scenario = latency.find((s) => s.readers === readers && s.label.includes("WebSocket"));
      reportAim(`append → reader p50, ${readers} WebSocket readers`, scenario.p50, "<=", readers === 100 ? 5 : 25, "ms", {
        floor: floorLatency.find((s) => s.readers === readers)?.p50,
      });
    }
    reportAim("single appends with 100 WebSocket readers ÷ floor's with 100", toFloor.median, ">=", 0.8, toFloor.note);
    for (const readers of [100, 1000]) {
      const scenario = latency.find((s) => s.readers === readers && s.label.includes("WebSocket"));
      const floorOf = floorLatency.find((s) => s.readers === readers);
      reportAim(`append → reader p50, ${readers} WebSocket readers ÷ floor's`, scenario.p50 / floorOf.p50, "<=", 1.5, `floor p50 ${fmt(floorOf.p50, 2)} ms`);
    }
    console.log(`load average (1/5/15 min) at the end: ${loadavgText()} on ${os.cpus().length} CPUs`);
  } finally {
    await t.cleanup();
  }
}

main().catch((error) => {
  console.error(`\n${error.stack ?? error}`);
  process.exit(1);
});
