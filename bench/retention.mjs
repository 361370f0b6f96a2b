// Retention benchmark (docs/design.md §16): appends into a stream with
// `maxEvents: 1000` — trimmed in the background by the stream's alarm, in
// bounded steps, while the appends run — side by side with the same appends
// into a stream without retention, in one workerd started by the e2e harness
// (localhost only). Single-event appends and 100-event batches, each in
// alternating pairs (with, without; then without, with; ...) so drift of the
// machine falls on both sides. Each shape starts with BENCH_RETENTION_WARMUP_PAIRS
// (1) unmeasured pairs: the isolate compiles and tiers up its wasm over the
// first seconds, and that fell on the first pair's first side (it was always
// the lowest pair: 0.76 against 1.07 and 1.10 in one run).
//
// The platform's floor (issue 33) runs the same pairs in the same workerd,
// right after Tributary's in each pair: a bare JS Durable Object
// (bench/floor/worker.mjs FloorStream) appending the same bodies, with and
// without the I/O §16 and §12 ask of trimming (bounded steps from the
// alarm, at most a round a second, each step summing its rows' bytes,
// writing the snapshot, deleting the rows and saving its progress).
// Trimming lags a run's appends; no run starts until both retained streams
// are back at their limit (read from their row counts), so what one run
// leaves is trimmed during no other.
//
// Prints events/s of each run, the rows each stream holds after it, and the
// aims: appends with trimming ÷ without ≥ 0.9, lowest of the measured pairs,
// beside the floor's own figure (the same statistic); and trimming's cost to
// Tributary against its cost to the floor: each pair's (with ÷ without) ÷
// the floor's, the median pair ≥ 0.9.
//
// Settings (environment): BENCH_RETENTION_PAIRS (3), BENCH_RETENTION_WARMUP_PAIRS (1),
// BENCH_RETENTION_PAIR_SECONDS (3: each run of a pair), BENCH_WARMUP_SECONDS (1),
// BENCH_CONCURRENCY (8), BENCH_MAX_REQUESTS per run (500000).
import os from "node:os";
import { startTributary, streamUrl, TOKEN } from "../tests/e2e/harness.mjs";
import { loadSettings, envNumber, checkedFetch, warmThenMeasure, parsePrometheus, metric, printTable, fmt, reportAim, medianBy } from "./lib.mjs";

const BATCH = 100;
const MAX_EVENTS = 1000;
/** A retained stream is settled once it is back within the slack a round waits for (§16: a sixteenth). */
const SETTLED_ROWS = MAX_EVENTS + MAX_EVENTS / 16;
/** How long a retained stream may take to trim what one run left before the bench fails. */
const SETTLE_DEADLINE_MS = 60_000;
const RETENTION = "events.iterate.com/stream/retention-configured";
const settings = loadSettings();
const pairs = envNumber("BENCH_RETENTION_PAIRS", 3, { integer: true });
const warmupPairs = envNumber("BENCH_RETENTION_WARMUP_PAIRS", 1, { integer: true });
const pairSeconds = envNumber("BENCH_RETENTION_PAIR_SECONDS", 3);

// The same modest event as bench/append.mjs.
const eventAt = (i) => ({
  type: "t",
  payload: { seq: i, user: "user-000123", action: "page_view", url: "/products/widget-42?ref=bench" },
});
const authJson = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };

async function main() {
  const load = os.loadavg().map((v) => v.toFixed(2)).join(" ");
  console.log(
    `retention bench: ${pairs} alternating pairs of ${pairSeconds}s runs per shape after ${warmupPairs} unmeasured pair(s), each run after ${settings.warmupSeconds}s warm-up, ` +
      `concurrency ${settings.concurrency}, maxEvents ${MAX_EVENTS}; load average ${load}`,
  );
  const t = await startTributary({ bench: true, floor: true, consoleAssets: false });
  try {
    const info = async (path) => {
      const res = await t.request("GET", streamUrl(path));
      if (res.status !== 200) throw new Error(`info of ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const appended = async (path) => {
      const res = await t.request("GET", streamUrl(path, "metrics"));
      if (res.status !== 200) throw new Error(`metrics of ${path}: ${res.status}`);
      return metric(parsePrometheus(String(res.body)), "tributary_events_appended_total");
    };

    /** One measured run of `shape` into `path`; checks every acknowledged event was counted. */
    async function run(label, path, shape) {
      const target = `${t.url}${streamUrl(path, "events")}`;
      const send = (i) => checkedFetch(target, { method: "POST", headers: authJson, body: shape.body(i) }, 201);
      let before;
      const runs = await warmThenMeasure(label, {
        ...settings,
        seconds: pairSeconds,
        send,
        onMeasureStart: async () => {
          before = await appended(path);
        },
      });
      const events = runs.measured.requests * shape.events;
      const counted = (await appended(path)) - before;
      if (counted !== events) throw new Error(`BENCH FAILED: ${label}: ${events} events acknowledged, the stream counted ${counted}`);
      const after = await info(path);
      return { rate: events / runs.measured.seconds, p99: runs.measured.p99, rows: after.eventCount, trimmed: after.trimmedEvents };
    }

    /** What the floor's stream `name` holds (bench/floor/retention.mjs `info`). */
    const floorHeld = async (name) => JSON.parse(await (await fetch(`${t.url}/floor/stream/${name}/retention`)).text());

    /**
     * Trimming lags the appends of a run (the rows-left column), and what a run
     * leaves is trimmed from its stream's alarm in the same workerd: before
     * anything runs, each retained stream (Tributary's and the floor's) is
     * awaited back at its limit, read from its row count, so no run pays for
     * another's trimming.
     */
    async function settled(retained, floorName) {
      const deadline = Date.now() + SETTLE_DEADLINE_MS;
      for (;;) {
        const rows = (await info(retained)).eventCount;
        const floorRows = (await floorHeld(floorName)).rows;
        if (rows <= SETTLED_ROWS && floorRows <= SETTLED_ROWS) return;
        if (Date.now() > deadline) throw new Error(`BENCH FAILED: ${retained} (${rows} rows) or the floor's ${floorName} (${floorRows}) not back at ${MAX_EVENTS} events in ${SETTLE_DEADLINE_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }

    /** The same run on the floor's stream `name`; checks it holds every event it acknowledged but the ones it trimmed. */
    const floorAcked = new Map();
    async function runFloor(label, name, shape) {
      const target = `${t.url}/floor/stream/${name}/events`;
      const send = (i) => checkedFetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: shape.body(i) }, 201);
      const runs = await warmThenMeasure(label, { ...settings, seconds: pairSeconds, send });
      const acked = (floorAcked.get(name) ?? 0) + (runs.warmup.requests + runs.measured.requests) * shape.events;
      floorAcked.set(name, acked);
      const held = await floorHeld(name);
      if (held.head !== acked || held.rows !== held.head - held.trimmedThrough || held.trimmedEvents !== held.trimmedThrough) {
        throw new Error(`BENCH FAILED: ${label}: ${acked} events acknowledged, the floor holds ${JSON.stringify(held)}`);
      }
      return { rate: (runs.measured.requests * shape.events) / runs.measured.seconds, p99: runs.measured.p99, rows: held.rows, trimmed: held.trimmedEvents };
    }

    const shapes = [
      { name: "single", events: 1, body: (i) => JSON.stringify(eventAt(i)) },
      { name: `batch ${BATCH}`, events: BATCH, body: (i) => JSON.stringify({ events: Array.from({ length: BATCH }, (_, k) => eventAt(i * BATCH + k)) }) },
    ];
    const table = [];
    for (const shape of shapes) {
      const retained = `/bench/retention-${shape.events}`;
      const plain = `/bench/plain-${shape.events}`;
      const configured = await t.request("POST", streamUrl(retained, "events"), { body: { type: RETENTION, payload: { maxEvents: MAX_EVENTS } } });
      if (configured.status !== 201) throw new Error(`retention-configured: ${configured.status} ${JSON.stringify(configured.body)}`);
      const floorNames = { with: `retention-${shape.events}`, without: `plain-${shape.events}` };
      const retain = await fetch(`${t.url}/floor/stream/${floorNames.with}/retain`, { method: "POST", body: JSON.stringify({ maxEvents: MAX_EVENTS }) });
      if (retain.status !== 201) throw new Error(`floor retain: ${retain.status} ${await retain.text()}`);
      const ratios = [];
      const floorRatios = [];
      const toFloor = [];
      for (let pair = 1 - warmupPairs; pair <= pairs; pair++) {
        const order = pair % 2 === 1 ? ["with", "without"] : ["without", "with"];
        const name = pair >= 1 ? `pair ${pair}` : `warm-up ${pair + warmupPairs}`;
        const result = {};
        const floor = {};
        for (const side of order) {
          await settled(retained, floorNames.with);
          result[side] = await run(`${shape.name} ${side} retention (${name})`, side === "with" ? retained : plain, shape);
        }
        for (const side of order) {
          await settled(retained, floorNames.with);
          floor[side] = await runFloor(`floor: ${shape.name} ${side} retention (${name})`, floorNames[side], shape);
        }
        const ratio = result.with.rate / result.without.rate;
        const floorRatio = floor.with.rate / floor.without.rate;
        if (pair >= 1) {
          ratios.push(ratio);
          floorRatios.push(floorRatio);
          toFloor.push(ratio / floorRatio);
        }
        for (const [system, r, value] of [
          ["", result, ratio],
          ["floor: ", floor, floorRatio],
        ]) {
          table.push([
            `${system}${shape.name}, ${name}`,
            fmt(r.with.rate),
            fmt(r.without.rate),
            fmt(value, 2),
            fmt(r.with.p99, 1),
            fmt(r.without.p99, 1),
            fmt(r.with.rows),
            fmt(r.with.trimmed),
            fmt(r.without.rows),
          ]);
        }
      }
      shape.ratios = ratios;
      shape.floorRatios = floorRatios;
      shape.toFloor = toFloor;
    }
    console.log("");
    printTable(
      [
        { title: "run" },
        { title: "with: events/s" },
        { title: "without: events/s" },
        { title: "ratio" },
        { title: "with: p99 ms" },
        { title: "without: p99 ms" },
        { title: "with: rows left" },
        { title: "with: trimmed" },
        { title: "without: rows" },
      ],
      table,
    );
    console.log(`(warm-up pairs are not measured; rows left: the retained stream's eventCount right after the run; maxEvents ${MAX_EVENTS}, a new round of trimming starts at most once a second, after 1/16 past it;`);
    console.log(` floor: a bare JS Durable Object with the same trimming I/O, right after Tributary in each pair)`);
    console.log(`load average after: ${os.loadavg().map((v) => v.toFixed(2)).join(" ")}`);
    console.log("");
    for (const shape of shapes) {
      console.log(
        `${shape.name}: trimming's cost (with ÷ without) ÷ the floor's, pair by pair: ${shape.toFloor.map((r) => fmt(r, 2)).join(", ")}`,
      );
    }
    for (const shape of shapes) {
      reportAim(`${shape.name} appends with retention trimming ÷ without`, Math.min(...shape.ratios), ">=", 0.9, `lowest of ${pairs} pairs after ${warmupPairs} warm-up`, {
        floor: Math.min(...shape.floorRatios),
      });
      reportAim(
        `${shape.name} appends, trimming's cost ÷ the floor's (each side's with ÷ without)`,
        medianBy(shape.toFloor, (r) => r),
        ">=",
        0.9,
        `median of ${pairs} pairs`,
      );
    }
  } finally {
    await t.cleanup();
  }
}

main().catch((error) => {
  console.error(`\n${error.stack ?? error}`);
  process.exit(1);
});
