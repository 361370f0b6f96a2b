// Two builds compared in short windows that take turns (issue 33): both run
// at once, each in its own workerd, and the load moves from one to the
// other every window (A B, B A, A B, …), so the machine's drift, which moves
// a whole run of either by ±10 % on the shared 2-core machine, falls on both
// sides of every pair a fraction of a second apart. Each window's figure is
// the workerd's CPU a unit, read to the nanosecond from the scheduler
// (/proc/<pid>/task/*/schedstat, every thread of the process: the isolate's
// and V8's background compiler and collector) from the start of one of its
// windows to the start of its next, so work a window leaves running (an
// alarm's last completions) is counted in that window, not the other
// build's.
//
//   cp -r durable-objects/build /tmp/build-a      # after `bash scripts/build` of each revision
//   node bench/ab_windows.mjs /tmp/build-a /tmp/build-b append        # single appends, 8 in flight
//   node bench/ab_windows.mjs /tmp/build-a /tmp/build-b webhook       # one webhook subscription, 100-event batches
//   node bench/ab_windows.mjs /tmp/build-a /tmp/build-b batch         # 100-event batch appends, 4 in flight
//   node bench/ab_windows.mjs /tmp/build-a /tmp/build-a append        # the same build twice: what the windows resolve
//
// Settings (environment): AB_PAIRS (measured pairs: 600 for appends and
// batches, 400 for webhooks), AB_WARMUP_PAIRS (40, unmeasured first, so both
// isolates have tiered their code up), AB_UNITS (units a window: 150
// appends, one 100-event batch's deliveries, or 10 batches of 100 events),
// AB_BATCH_EVENTS (100, events a batch of the `batch` scenario).
//
// Prints B ÷ A twice: the ratio of the builds' trimmed means (each one's
// costliest tenth of windows left out) ± its standard error by resampling
// the pairs, and the ratio of their totals ± its standard error from the
// pairs' differences; and each build's µs a unit. The same build on both
// sides gave 1.008 ± 0.017 over 600 append pairs (3 minutes) and 1.001 ±
// 0.011 over 200 webhook pairs (36 s) on the 2-core machine: bench/ab.mjs's
// twelve whole runs a side resolve about 3 % in 8 minutes.
// Not a benchmark of its own: like bench/ab.mjs, it says which of two builds
// a figure favours, and by how much the windows resolve.
import http from "node:http";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startTributary, streamUrl, TOKEN } from "../tests/e2e/harness.mjs";
import { descendantsNamed } from "./cpu.mjs";
import { checkedFetch, envNumber, resolvedFromOne, spread } from "./lib.mjs";

const [buildA, buildB, scenario = "append"] = process.argv.slice(2);
if (!buildA || !buildB) throw new Error("usage: node bench/ab_windows.mjs BUILD_A BUILD_B [append|webhook|batch]");
for (const build of [buildA, buildB]) {
  if (!existsSync(join(build, "index_bg.wasm"))) throw new Error(`${build} holds no build (index_bg.wasm)`);
}
if (!["append", "webhook", "batch"].includes(scenario)) throw new Error(`scenario must be append, webhook or batch, got ${scenario}`);
const pairs = envNumber("AB_PAIRS", scenario === "webhook" ? 400 : 600, { integer: true });
const warmupPairs = envNumber("AB_WARMUP_PAIRS", 40, { integer: true });
const units = envNumber("AB_UNITS", { append: 150, webhook: 100, batch: 10 }[scenario], { integer: true });
const batchEvents = envNumber("AB_BATCH_EVENTS", 100, { integer: true });
/** Bound on the threads one CPU reading sums (every loop bounded). */
const MAX_THREADS = 10_000;
const CONFIGURED = "events.iterate.com/stream/subscription-configured";
const authJson = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };

/** Nanoseconds every thread of `pid` has run so far (threads that ended are not counted). */
function cpuNanos(pid) {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`).slice(0, MAX_THREADS)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return total;
}

/** Deliveries the receiver has taken, by the path's first segment (`a` or `b`). */
const received = { a: 0, b: 0 };
const receiver = http.createServer((request, response) => {
  const side = request.url.split("/")[1];
  request.on("data", () => {});
  request.on("end", () => {
    if (side in received) received[side]++;
    response.writeHead(200).end("ok");
  });
});

/** One build started in its own workerd, with what a window sends it. */
async function start(name, buildDir, receiverBase) {
  const before = new Set(descendantsNamed("workerd"));
  const t = await startTributary({ bench: true, consoleAssets: false, allowInsecureWebhooks: true, buildDir });
  const pids = descendantsNamed("workerd").filter((pid) => !before.has(pid));
  if (pids.length !== 1) throw new Error(`build ${name}: expected one new workerd, found ${pids.length}`);
  const side = name.toLowerCase();
  const path = `/ab/${side}`;
  let sent = 0;
  let window;
  if (scenario === "append" || scenario === "batch") {
    // Single appends 8 in flight, or batches of AB_BATCH_EVENTS events 4 in flight.
    const target = `${t.url}${streamUrl(path, "events")}`;
    const event = (seq) => ({ type: "t", payload: { seq, user: "user-000123", action: "page_view" } });
    const body = scenario === "append" ? (i) => event(i) : (i) => ({ events: Array.from({ length: batchEvents }, (_, k) => event(i * batchEvents + k)) });
    const inFlight = scenario === "append" ? 8 : 4;
    const send = (i) => checkedFetch(target, { method: "POST", headers: authJson, body: JSON.stringify(body(i)) }, 201);
    window = async () => {
      const end = sent + units;
      await Promise.all(Array.from({ length: inFlight }, async () => { while (sent < end) await send(sent++); }));
    };
  } else {
    const subscription = { subscriptionKey: "w", filter: { eventTypes: ["data"] }, receiver: { action: "webhook-post", url: `${receiverBase}/${side}/w`, delivery: { start: "now", onFailingEvent: "halt" } } };
    const r = await t.request("POST", streamUrl(path, "events"), { body: { type: CONFIGURED, payload: subscription } });
    if (r.status !== 201) throw new Error(`build ${name}: configuring the webhook answered ${r.status}`);
    window = async () => {
      const expected = received[side] + units;
      const events = Array.from({ length: units }, (_, k) => ({ type: "data", payload: { n: sent + k } }));
      sent += units;
      await checkedFetch(`${t.url}${streamUrl(path, "events")}`, { method: "POST", headers: authJson, body: JSON.stringify({ events }) }, 201);
      const deadline = Date.now() + 60_000;
      while (received[side] < expected) {
        if (Date.now() > deadline) throw new Error(`build ${name}: ${expected - received[side]} deliveries missing after 60 s`);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    };
  }
  return { name, t, pid: pids[0], window };
}

const mean = (values) => spread(values).mean;
/** The mean of the cheaper nine tenths. */
const trimmedMean = (values) => mean([...values].sort((x, y) => x - y).slice(0, Math.max(1, Math.floor(values.length * 0.9))));
/** Resamples of the pairs for the trimmed ratio's standard error. */
const RESAMPLES = 1000;
/** A seeded generator (mulberry32), so a run's error is reproducible from its samples. */
let seed = 0x2545f491;
function random() {
  seed = (seed + 0x6d2b79f5) | 0;
  let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
}

async function main() {
  await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverBase = `http://127.0.0.1:${receiver.address().port}`;
  const a = await start("A", buildA, receiverBase);
  const b = await start("B", buildB, receiverBase);
  try {
    console.log(`ab windows: ${scenario}, ${units} units a window, ${warmupPairs} unmeasured pairs, then ${pairs} measured`);
    /** CPU ns of each build's windows, window by window, taken from the start of one of its windows to the next's. */
    const cpu = { A: [], B: [] };
    const last = { A: null, B: null };
    for (let pair = 0; pair < warmupPairs + pairs + 1; pair++) {
      for (const side of pair % 2 === 0 ? [a, b] : [b, a]) {
        const now = cpuNanos(side.pid);
        if (last[side.name] !== null && pair > warmupPairs) cpu[side.name].push(now - last[side.name]);
        last[side.name] = now;
        if (pair < warmupPairs + pairs) await side.window();
      }
    }
    // Two figures. The ratio of the two builds' totals, its standard error
    // from the pairs' differences: every cost, and the noisier, since about
    // one window in ten costs two to four times the median. And the ratio of
    // the builds' trimmed means (each build's costliest tenth of windows left
    // out), its standard error by resampling the pairs: the cost of the path
    // itself, resolved a little more finely.
    const differences = spread(cpu.A.map((nanos, i) => cpu.B[i] - nanos));
    const totals = mean(cpu.B) / mean(cpu.A);
    const totalsError = differences.error / mean(cpu.A);
    const trimmedRatio = (indices) => trimmedMean(indices.map((i) => cpu.B[i])) / trimmedMean(indices.map((i) => cpu.A[i]));
    const all = cpu.A.map((_, i) => i);
    const trimmed = trimmedRatio(all);
    // A resampled ratio's spread is the ratio's standard error.
    const trimmedError = spread(Array.from({ length: RESAMPLES }, () => trimmedRatio(all.map(() => all[Math.floor(random() * all.length)])))).sd;
    const perUnit = (nanos) => nanos / units / 1000;
    const verdict = (ratio, error) => (resolvedFromOne(ratio, error) ? "" : " (not resolved)");
    console.log(`A: ${perUnit(mean(cpu.A)).toFixed(1)} µs workerd CPU a unit (trimmed ${perUnit(trimmedMean(cpu.A)).toFixed(1)}); B: ${perUnit(mean(cpu.B)).toFixed(1)} (trimmed ${perUnit(trimmedMean(cpu.B)).toFixed(1)})`);
    console.log(
      `B ÷ A over ${differences.count} pairs: trimmed ${trimmed.toFixed(3)} ± ${trimmedError.toFixed(3)}${verdict(trimmed, trimmedError)}; ` +
        `totals ${totals.toFixed(3)} ± ${totalsError.toFixed(3)}${verdict(totals, totalsError)}`,
    );
  } finally {
    await a.t.cleanup();
    await b.t.cleanup();
    receiver.close();
  }
}

await main();
