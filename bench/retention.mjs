// Retention benchmark (docs/design.md §16): appends into a stream with
// `maxEvents: 1000` — trimmed in the background by the stream's alarm, in
// bounded steps, while the appends run — side by side with the same appends
// into a stream without retention, in one workerd started by the e2e harness
// (localhost only). Single-event appends and 100-event batches, each in
// alternating pairs (with, without; then without, with; ...) so drift of the
// machine falls on both sides. Each shape starts with BENCH_RETENTION_WARMUP_PAIRS
// (1) unmeasured pairs: the isolate compiles and tiers up its wasm over the
// first seconds, and that fell on the first pair's first side (it was always
// the lowest pair: 0.76 against 1.07 and 1.10 in one run). Prints events/s of
// each run, the rows each stream holds after it, and the aim: appends with
// trimming ÷ without ≥ 0.9, lowest of the measured pairs.
//
// Settings (environment): BENCH_RETENTION_PAIRS (3), BENCH_RETENTION_WARMUP_PAIRS (1),
// BENCH_RETENTION_PAIR_SECONDS (3: each run of a pair), BENCH_WARMUP_SECONDS (1),
// BENCH_CONCURRENCY (8), BENCH_MAX_REQUESTS per run (500000).
import os from "node:os";
import { startTributary, streamUrl, TOKEN } from "../tests/e2e/harness.mjs";
import { loadSettings, envNumber, checkedFetch, warmThenMeasure, parsePrometheus, metric, printTable, fmt, reportAim } from "./lib.mjs";

const BATCH = 100;
const MAX_EVENTS = 1000;
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
  const t = await startTributary({ bench: true, consoleAssets: false });
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
      const ratios = [];
      for (let pair = 1 - warmupPairs; pair <= pairs; pair++) {
        const order = pair % 2 === 1 ? ["with", "without"] : ["without", "with"];
        const name = pair >= 1 ? `pair ${pair}` : `warm-up ${pair + warmupPairs}`;
        const result = {};
        for (const side of order) {
          result[side] = await run(`${shape.name} ${side} retention (${name})`, side === "with" ? retained : plain, shape);
        }
        const ratio = result.with.rate / result.without.rate;
        if (pair >= 1) ratios.push(ratio);
        table.push([
          `${shape.name}, ${name}`,
          fmt(result.with.rate),
          fmt(result.without.rate),
          fmt(ratio, 2),
          fmt(result.with.p99, 1),
          fmt(result.without.p99, 1),
          fmt(result.with.rows),
          fmt(result.with.trimmed),
          fmt(result.without.rows),
        ]);
      }
      shape.ratios = ratios;
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
    console.log(`(warm-up pairs are not measured; rows left: the retained stream's eventCount right after the run; maxEvents ${MAX_EVENTS}, a new round of trimming starts at most once a second, after 1/16 past it)`);
    console.log(`load average after: ${os.loadavg().map((v) => v.toFixed(2)).join(" ")}`);
    console.log("");
    for (const shape of shapes) {
      reportAim(`${shape.name} appends with retention trimming ÷ without`, Math.min(...shape.ratios), ">=", 0.9, `lowest of ${pairs} pairs after ${warmupPairs} warm-up`);
    }
  } finally {
    await t.cleanup();
  }
}

main().catch((error) => {
  console.error(`\n${error.stack ?? error}`);
  process.exit(1);
});
