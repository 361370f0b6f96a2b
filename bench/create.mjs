// What creating a stream costs: a single append to a new stream each time,
// beside a single append to one stream, and the floor doing the same (an
// INSERT into a new JS Durable Object each time, bench/floor/worker.mjs),
// interleaved in rounds, workerd's CPU per request for each. A stream's
// first append opens a new object, builds its schema (migrations/fresh/),
// writes its first rows and registers it in its project's catalog.
//
//   node bench/create.mjs       BENCH_CREATE_ROUNDS (3), BENCH_SECONDS (5 per row and round), BENCH_WARMUP_SECONDS (1)
import { startTributary, streamUrl, TOKEN } from "../tests/e2e/harness.mjs";
import { warmThenMeasureCpu } from "./cpu.mjs";
import { checkedFetch, envNumber, fmt, loadSettings, printTable } from "./lib.mjs";

const settings = loadSettings();
const rounds = envNumber("BENCH_CREATE_ROUNDS", 3, { integer: true });
const eventAt = (i) => JSON.stringify({ type: "t", payload: { seq: i, user: "user-000123", action: "page_view" } });
const authJson = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
const INSERTED = (text) => (text === '{"rowsWritten":1}' ? null : `unexpected body ${text.slice(0, 120)}`);

async function main() {
  console.log(`create bench: ${rounds} rounds, ${settings.seconds}s per row after ${settings.warmupSeconds}s warm-up, concurrency ${settings.concurrency}`);
  const t = await startTributary({ bench: true, floor: true, consoleAssets: false });
  try {
    const post = (url, headers, status, check) => checkedFetch(url, { method: "POST", headers, body: eventAt(0) }, status, check);
    const rows = [
      ["append to a new stream each time", (r) => (i) => post(`${t.url}${streamUrl(`/bench/create-${r}-${i}`, "events")}`, authJson, 201)],
      ["append to one stream", (r) => () => post(`${t.url}${streamUrl(`/bench/create-one-${r}`, "events")}`, authJson, 201)],
      ["floor: INSERT into a new object each time", (r) => (i) => post(`${t.url}/floor/insert/create-${r}-${i}`, {}, 200, INSERTED)],
      ["floor: INSERT into one object", (r) => () => post(`${t.url}/floor/insert/create-one-${r}`, {}, 200, INSERTED)],
    ];
    const measured = rows.map(() => []);
    for (let round = 1; round <= rounds; round++) {
      for (const [k, [label, sender]] of rows.entries()) {
        const { measured: run } = await warmThenMeasureCpu(`${label} (round ${round})`, { ...settings, send: sender(round) });
        measured[k].push((1e6 * run.workerdCpu) / run.requests);
      }
    }
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const medians = measured.map(median);
    printTable(
      [{ title: "workerd µs of CPU per request" }, ...measured[0].map((_, r) => ({ title: `round ${r + 1}` })), { title: "median" }],
      rows.map(([label], k) => [label, ...measured[k].map((v) => fmt(v)), fmt(medians[k])]),
    );
    const [created, existing, floorCreated, floorExisting] = medians;
    console.log("");
    console.log(`creating a stream (its first append over an append to one stream): ${fmt(created - existing)} µs`);
    console.log(`the floor creating an object (its first INSERT over one into an existing object): ${fmt(floorCreated - floorExisting)} µs`);
    console.log(`a new stream's first append ÷ the floor's first INSERT into a new object: ${fmt(created / floorCreated, 2)}`);
  } finally {
    await t.cleanup();
  }
}

main().catch((error) => {
  console.error(`\n${error.stack ?? error}`);
  process.exit(1);
});
