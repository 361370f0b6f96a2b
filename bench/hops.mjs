// Where a single append's CPU goes, hop by hop (issue 33): the same request
// sent to the same kind of object through different entries, interleaved in
// rounds, workerd's CPU per request for each:
//
//   single append, Rust entry        the API as a client calls it (Tributary's entry worker → stream object)
//   single append, JS entry          the same stream object code, reached from a bare JS entry (bench/floor/worker.mjs
//                                    `js-entry`), the body forwarded unread, no token, no checks
//   single append, JS entry reading  the same, the body read by the entry first and forwarded as bytes (as the Rust
//                                    entry does, to check it)
//   Rust baseline, Rust entry        one INSERT (durable-objects/src/bench_baseline.rs) behind Tributary's entry
//   Rust baseline, JS entry          the same object behind the bare JS entry
//   floor                            one INSERT, JS entry and JS object (the single-append floor of bench/append.mjs)
//   single append, asset router      the first row on a Tributary started with the console's assets, as
//                                    `wrangler dev` runs it: Miniflare's asset router worker takes every request first
//
// The differences say what each layer costs: the Rust entry (row 1 − row 2),
// reading the body in the entry (row 3 − row 2), the Rust shell of an object
// over a JS one (row 5 − row 6), the stream's own work over one INSERT
// (row 2 − row 5), the asset router (row 7 − row 1).
//
//   node bench/hops.mjs       BENCH_HOPS_ROUNDS (3), BENCH_SECONDS (5 per row and round), BENCH_WARMUP_SECONDS (1)
import { startTributary, streamUrl, TOKEN } from "../tests/e2e/harness.mjs";
import { warmThenMeasureCpu } from "./cpu.mjs";
import { checkedFetch, envNumber, fmt, loadSettings, printTable } from "./lib.mjs";

const settings = loadSettings();
const rounds = envNumber("BENCH_HOPS_ROUNDS", 3, { integer: true });
const eventAt = (i) =>
  JSON.stringify({ type: "t", payload: { seq: i, user: "user-000123", action: "page_view", url: "/products/widget-42?ref=bench" } });
const authJson = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
const INSERTED = (text) => (text === '{"rowsWritten":1}' ? null : `unexpected body ${text.slice(0, 120)}`);

/** Warm-up, then a measured run (every request checked): workerd's CPU µs per request over it. */
async function cpuPerRequest(label, send) {
  const { measured } = await warmThenMeasureCpu(label, { ...settings, send });
  return (1e6 * measured.workerdCpu) / measured.requests;
}

async function main() {
  console.log(`hops bench: ${rounds} rounds, ${settings.seconds}s per row after ${settings.warmupSeconds}s warm-up, concurrency ${settings.concurrency}`);
  const t = await startTributary({ bench: true, floor: true, consoleAssets: false });
  const routed = await startTributary({ bench: true });
  try {
    const post = (url, headers, status, check) => (i) => checkedFetch(url, { method: "POST", headers, body: eventAt(i) }, status, check);
    const rows = [
      ["single append, Rust entry", (r) => post(`${t.url}${streamUrl(`/bench/hops-rust-${r}`, "events")}`, authJson, 201)],
      ["single append, JS entry", (r) => post(`${t.url}/floor/js-entry/append/bench/hops-js-${r}`, {}, 201)],
      ["single append, JS entry reading", (r) => post(`${t.url}/floor/js-entry/append-read/bench/hops-jsr-${r}`, {}, 201)],
      ["Rust baseline, Rust entry", (r) => post(`${t.url}/bench/baseline/hops-rust-${r}`, {}, 200, INSERTED)],
      ["Rust baseline, JS entry", (r) => post(`${t.url}/floor/js-entry/baseline/hops-js-${r}`, {}, 200, INSERTED)],
      ["floor (JS entry, JS object)", (r) => post(`${t.url}/floor/insert/hops-${r}`, {}, 200, INSERTED)],
      ["single append, asset router", (r) => post(`${routed.url}${streamUrl(`/bench/hops-routed-${r}`, "events")}`, authJson, 201)],
    ];
    const measured = rows.map(() => []);
    for (let round = 1; round <= rounds; round++) {
      for (const [k, [label, sender]] of rows.entries()) measured[k].push(await cpuPerRequest(`${label} (round ${round})`, sender(round)));
    }
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const medians = measured.map(median);
    printTable(
      [{ title: "workerd µs of CPU per request" }, ...measured[0].map((_, r) => ({ title: `round ${r + 1}` })), { title: "median" }, { title: "÷ floor" }],
      rows.map(([label], k) => [label, ...measured[k].map((v) => fmt(v)), fmt(medians[k]), fmt(medians[k] / medians[5], 2)]),
    );
    const [rustEntry, jsEntry, jsReading, baselineRust, baselineJs, floor, router] = medians;
    console.log("");
    console.log(`the Rust entry (auth, route, body, checks, forward) over a bare JS one: ${fmt(rustEntry - jsEntry)} µs per append`);
    console.log(`  of which a JS entry pays to read the body first: ${fmt(jsReading - jsEntry)} µs`);
    console.log(`  the same for one INSERT (no token, no checks): ${fmt(baselineRust - baselineJs)} µs`);
    console.log(`a Rust object doing one INSERT over a JS object doing it: ${fmt(baselineJs - floor)} µs`);
    console.log(`the stream's own work over one INSERT, both behind a JS entry: ${fmt(jsEntry - baselineJs)} µs`);
    console.log(`the console's asset router in front (not in any other bench, not billed to the worker): ${fmt(router - rustEntry)} µs`);
  } finally {
    await routed.cleanup();
    await t.cleanup();
  }
}

main().catch((error) => {
  console.error(`\n${error.stack ?? error}`);
  process.exit(1);
});
