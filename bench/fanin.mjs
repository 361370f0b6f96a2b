// Copy fan-in benchmark (issue 20, docs/design.md §7 rule 2, §5 inbound): many
// source streams, each with one copy-to-stream subscription into one target
// stream, in one workerd started by the e2e harness (localhost only).
//
// Two sides in the same workerd: FEW sources (10) and MANY sources
// (BENCH_FANIN_SOURCES, 1,000), each into its own target. Per side:
//  - setup (not timed): one subscribe-from per source into the side's target;
//  - timed, shown: one event per source (each source's first copy opens its
//    fence record on the target);
//  - untimed: BENCH_FANIN_WARMUP_PHASES (2) phases as below, few then many,
//    so that every system is measured settled;
//  - timed, the aim: two phases of BENCH_FANIN_EVENTS × MANY copies each —
//    FEW sources with many events each, MANY sources with BENCH_FANIN_EVENTS
//    (20) each — appended in batches of BENCH_FANIN_EVENTS at a fixed
//    concurrency, every source copying at once, run in the order few, many,
//    many, few so a drifting machine load weighs on both sides alike. A
//    phase's copy rate is its copies ÷ (first append sent → createdAt of the
//    last copy committed on the target), with every fence record in place,
//    so a per-copy cost growing with the sources shows as a lower rate;
//  - checked: the target holds exactly the appended events, each source's
//    in source order, once; no source's subscription halted (the bench
//    aborts if any did); the target's inbound fence count is the number of
//    sources (stream info `inboundFenceCount`, else the records in its state).
// The platform floor (issue 33) runs the same two sides and phases after
// Tributary in this run, the same build of workerd, each system in a
// workerd of its own (fan-in measures what many objects cost; taking turns
// in one workerd left each system's sources idle through the others'
// phases, and workerd evicts an object idle for 10 s) (bench/fanin_systems.mjs):
// bare JS objects whose sources copy from their alarms, plain and with the
// writes §6 and §7 ask of a copy batch (a fence row per source among them);
// checked: each floor target holds exactly the appended events, each once.
// Then reportAim("fan-in copy rate, MANY sources ÷ FEW sources", ratio, ">=",
// 0.8) over phases 1–4, with the plain floor's own ratio beside it (an aim
// the floor itself misses is argued from that figure); that ratio ÷ the
// floor with §6/§7's writes' own (≥ 0.8: the systems run minutes apart, so
// each ratio is taken within its own run, and the many sources' rate ÷ each
// floor's is printed, not aimed at); and the halted sources (aim 0).
//
// Settings (environment): BENCH_FANIN_SOURCES (1000), BENCH_FANIN_FEW (10),
// BENCH_FANIN_EVENTS (20, events per MANY source and per append batch),
// BENCH_FANIN_CONCURRENCY (8, requests in flight), BENCH_FANIN_WAIT_SECONDS
// (300, the bounded wait for the last copy), BENCH_FANIN_WARMUP_PHASES (2:
// untimed phases before the timed ones, few then many, as many as asked,
// so each system is measured settled), BENCH_FANIN_FLOOR (1; 0 runs
// Tributary alone).
import { startTributary, TOKEN } from "../tests/e2e/harness.mjs";
import { envNumber, runLoad, assertNoFailures, printTable, fmt, reportAim } from "./lib.mjs";
import { cpuSnapshot } from "./cpu.mjs";
import { event, tributarySystem, floorSystem } from "./fanin_systems.mjs";

const manySources = envNumber("BENCH_FANIN_SOURCES", 1000, { integer: true });
const fewSources = envNumber("BENCH_FANIN_FEW", 10, { integer: true });
const eventsPerBatch = envNumber("BENCH_FANIN_EVENTS", 20, { integer: true });
const concurrency = envNumber("BENCH_FANIN_CONCURRENCY", 8, { integer: true });
const waitSeconds = envNumber("BENCH_FANIN_WAIT_SECONDS", 300);
const withFloor = process.env.BENCH_FANIN_FLOOR !== "0";
const warmUpPhases = process.env.BENCH_FANIN_WARMUP_PHASES === "0" ? 0 : envNumber("BENCH_FANIN_WARMUP_PHASES", 2, { integer: true });
const totalEvents = manySources * eventsPerBatch;

const authJson = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const fail = (message) => {
  throw new Error(`BENCH FAILED: fanin: ${message}`);
};

/** Runs `job(i)` for i in 0..count with `concurrency` in flight; every job must resolve to null. */
async function pool(label, count, job) {
  const result = await runLoad({ send: job, seconds: 3600, concurrency, maxRequests: count });
  assertNoFailures(`fanin: ${label}`, result);
  if (result.requests !== count) fail(`${label}: ${result.requests} of ${count} requests ran (${result.stoppedBy})`);
  return result;
}

/** One line per finished step, on stderr, so a long or failing run shows where it is. */
const progress = (label, { seconds, copies }) => console.error(`  ${label}: ${fmt(seconds, 2)} s${copies ? `, ${fmt(copies)} copies` : ""}`);

/** Polls the target's head (bounded) until it holds `count` events; a stall looks for halted sources. */
async function waitForCopies(system, target, sources, count) {
  const deadline = Date.now() + waitSeconds * 1000;
  let lastHead = -1;
  let stalledSince = Date.now();
  for (;;) {
    const head = await system.head(target);
    if (head >= count) return;
    if (head !== lastHead) [lastHead, stalledSince] = [head, Date.now()];
    if (Date.now() - stalledSince > 5000) {
      const halted = await system.halted(sources, pool);
      if (halted.length) fail(`${system.name}: ${halted.length} sources halted, e.g. ${JSON.stringify(halted[0]).slice(0, 400)}`);
      stalledSince = Date.now();
    }
    if (Date.now() > deadline) fail(`${system.name}: ${target} reached head ${head} of ${count} within ${waitSeconds}s`);
    await sleep(50);
  }
}

/**
 * Appends `batches` requests (`body(n)` to `sources[n % count]`) and waits
 * until the target's head moves from `from` to `to`; the rate is those
 * copies ÷ (first append sent → the commit time of the last copy).
 */
async function phase(system, label, target, sources, batches, body, { from, to }) {
  const before = from === 0 ? 0 : await system.copyBatches(target);
  const cpuBefore = cpuSnapshot().workerd;
  const firstAppendAtMs = Date.now();
  const appends = await pool(label, batches, (n) => system.append(sources[n % sources.length], body(n)));
  await waitForCopies(system, target, sources, to);
  const workerdCpu = cpuSnapshot().workerd - cpuBefore;
  const lastCopyAtMs = await system.lastCopyAtMs(target, to);
  if (!Number.isFinite(lastCopyAtMs)) fail(`${system.name}: ${label}: the last copy has no commit time`);
  const seconds = (lastCopyAtMs - firstAppendAtMs) / 1000;
  const copies = to - from;
  const after = await system.copyBatches(target);
  return { appends, copies, seconds, rate: copies / seconds, batches: after === null ? null : after - before, workerdCpu };
}

/**
 * One side of a system: `sourceCount` sources subscribed to its target
 * (setup, not timed), then each source's first copy (which opens its
 * fence record).
 */
async function prepare(system, label, sourceCount) {
  const { target, sources } = system.names(label, sourceCount);
  const setup = await pool(`${system.name} ${label}: subscribe`, sourceCount, (i) => system.subscribe(target, sources[i]));
  const opening = await phase(system, `${system.name} ${label}: first copies`, target, sources, sourceCount, (n) => JSON.stringify(event(n, 0)), {
    from: 0,
    to: sourceCount,
  });
  progress(`${system.name} ${label}: setup (${fmt(sourceCount)} subscriptions)`, { seconds: setup.seconds, copies: 0 });
  progress(`${system.name} ${label}: first copies`, opening);
  return { system, label, sourceCount, target, sources, perPhase: totalEvents / sourceCount, next: 1, setup, opening, warmUps: [], phases: [] };
}

/** One timed phase of a side: `totalEvents` copies, every source copying at once. */
async function steady(side, { warmUp = false } = {}) {
  const { sourceCount, perPhase } = side;
  const start = side.next;
  // Batch b of every source before batch b + 1 of any.
  const body = (n) => {
    const [source, batch] = [n % sourceCount, Math.floor(n / sourceCount)];
    const from = start + batch * eventsPerBatch;
    const size = Math.min(eventsPerBatch, start + perPhase - from);
    return JSON.stringify({ events: Array.from({ length: size }, (_, k) => event(source, from + k)) });
  };
  const head = sourceCount + (start - 1) * sourceCount;
  const batches = sourceCount * Math.ceil(perPhase / eventsPerBatch);
  const done = warmUp ? side.warmUps : side.phases;
  const label = `${side.system.name} ${side.label}: ${warmUp ? "warm-up" : "phase"} ${done.length + 1}`;
  done.push(await phase(side.system, label, side.target, side.sources, batches, body, { from: head, to: head + totalEvents }));
  progress(label, done.at(-1));
  side.next += perPhase;
}

/** Checks a side's target and sources: every event once (in order, for Tributary), none halted, one fence record per source. */
async function finish(side) {
  const fenceCount = await side.system.verify(`${side.system.name} ${side.label}`, side.target, side.sources, side.next);
  const halted = await side.system.halted(side.sources, pool);
  if (halted.length) fail(`${side.label}: ${halted.length} sources halted, e.g. ${JSON.stringify(halted[0]).slice(0, 400)}`);
  if (fenceCount !== null && fenceCount !== side.sourceCount) fail(`${side.label}: the target counts ${fenceCount} fence records for ${side.sourceCount} sources`);
  const copies = side.phases.reduce((n, p) => n + p.copies, 0);
  const seconds = side.phases.reduce((n, p) => n + p.seconds, 0);
  Object.assign(side, { halted: halted.length, fenceCount, rate: copies / seconds });
}

/**
 * One system's run: its two sides prepared, its phases in the order few,
 * many, many, few (a load that drifts during the run weighs on both sides
 * alike), then checked.
 */
async function runSystem(system) {
  const run = { system, few: await prepare(system, "few", fewSources), many: await prepare(system, "many", manySources) };
  // Untimed first: a fresh isolate runs Tributary's wasm in V8's baseline
  // compiler until its functions have run enough to be tiered up, and
  // every system is measured settled (the other benches warm up too).
  for (let k = 0; k < warmUpPhases; k++) await steady(run[k % 2 === 0 ? "few" : "many"], { warmUp: true });
  for (const which of ["few", "many", "many", "few"]) await steady(run[which]);
  await finish(run.few);
  await finish(run.many);
  return run;
}

/**
 * Every system in its own workerd, one after another, in this one run:
 * fan-in measures what many objects cost, and taking turns in one workerd
 * left each system's sources idle through the others' phases, long enough
 * for workerd to evict them (after 10 s) and construct them again.
 */
async function runAll() {
  const specs = [{ bench: true, make: (t) => tributarySystem(t, authJson) }];
  if (withFloor) specs.push({ floor: true, make: (t) => floorSystem(t.url, false) }, { floor: true, make: (t) => floorSystem(t.url, true) });
  const runs = [];
  for (const { make, ...options } of specs) {
    const t = await startTributary({ ...options, consoleAssets: false });
    try {
      runs.push(await runSystem(make(t)));
    } finally {
      await t.cleanup();
    }
  }
  return runs;
}

const sum = (side, field) => side.phases.reduce((n, p) => n + p[field], 0);
const ratioOf = (run) => run.many.rate / run.few.rate;

function printRuns(runs) {
  const row = (r, name, p) => [
    `${r.system.name}, ${fmt(r.sourceCount)} sources: ${name}`,
    fmt(p.appends.requests),
    fmt(p.appends.seconds, 2),
    fmt(p.copies),
    p.batches === null ? "—" : fmt(p.batches),
    fmt(p.seconds, 2),
    fmt(p.rate),
    fmt((p.seconds * 1e6) / p.copies, 1),
    fmt((p.workerdCpu * 1e6) / p.copies, 0),
  ];
  const rows = [];
  for (const { few, many } of runs) {
    rows.push(
      row(few, "first copy of each", few.opening),
      row(many, "first copy of each", many.opening),
      row(few, `phase 1: ${fmt(few.perPhase)} more each`, few.phases[0]),
      row(many, `phase 2: ${fmt(many.perPhase)} more each`, many.phases[0]),
      row(many, `phase 3: ${fmt(many.perPhase)} more each`, many.phases[1]),
      row(few, `phase 4: ${fmt(few.perPhase)} more each`, few.phases[1]),
    );
  }
  printTable(
    [
      { title: "run" },
      { title: "appends" },
      { title: "append s" },
      { title: "copies" },
      { title: "copy batches" },
      { title: "copy s" },
      { title: "copies/s" },
      { title: "µs/copy" },
      { title: "workerd CPU µs/copy" },
    ],
    rows,
  );
  console.log("(copy s = first append sent → commit time of the last copy on the target; a first copy opens the source's fence");
  console.log(" record; copy batches = copy appends Tributary's target committed, from its metrics; setup, not timed:");
  for (const { system, few, many } of runs) console.log(`  ${system.name}: ${fmt(few.setup.seconds, 2)} s for ${fmt(fewSources)} subscriptions, ${fmt(many.setup.seconds, 2)} s for ${fmt(manySources)})`);
  const [tributary] = runs;
  console.log(
    `verified: each target holds every appended event once (Tributary's: each source's in order; fence records ${fmt(tributary.few.fenceCount)} and ` +
      `${fmt(tributary.many.fenceCount)}; sources halted ${tributary.few.halted} and ${tributary.many.halted})`,
  );
  console.log("");
  for (const run of runs) {
    const cpuPerCopy = (side) => sum(side, "workerdCpu") / sum(side, "copies");
    console.log(
      `${run.system.name}: fan-in copy rate (phases 1–4) ${fmt(run.many.rate)} copies/s with ${fmt(manySources)} sources, ${fmt(run.few.rate)} with ${fmt(fewSources)}: ` +
        `ratio ${fmt(ratioOf(run), 2)}; workerd CPU a copy ${fmt(cpuPerCopy(run.many) * 1e6)} and ${fmt(cpuPerCopy(run.few) * 1e6)} µs: ratio ${fmt(cpuPerCopy(run.few) / cpuPerCopy(run.many), 2)}`,
    );
  }
}

async function main() {
  if (totalEvents % fewSources !== 0) fail(`${totalEvents} events do not divide over ${fewSources} sources`);
  console.log(
    `fanin bench: ${fewSources} sources vs ${manySources} sources copying into one target each, ` +
      `${fmt(totalEvents)} copies per timed phase, appended in batches of ${eventsPerBatch} at concurrency ${concurrency}` +
      (withFloor ? "; then the floor (bare JS objects, plain and with §6/§7's writes), each in a workerd of its own" : ""),
  );
  const runs = await runAll();
  printRuns(runs);
  const [tributary, floor, contract] = runs;
  // The floor's own ratio of the same measure argues the aim (issue 33): a
  // bare object per source, copying as Tributary does, shows what the
  // platform's per-object costs leave of the few sources' rate.
  reportAim(`fan-in copy rate, ${fmt(manySources)} sources ÷ ${fmt(fewSources)} sources`, ratioOf(tributary), ">=", 0.8, "ratio in one run", {
    floor: floor ? ratioOf(floor) : undefined,
  });
  if (floor && contract) {
    // Each system's ratio is taken within its own run; a rate of one
    // system ÷ another's crosses minutes of a machine's drift, so it is shown,
    // and the aim beside the floor is the ratio of ratios (how much of the
    // platform's own scaling Tributary keeps).
    console.log(`the floors' own fan-in ratios: ${fmt(ratioOf(floor), 2)} plain, ${fmt(ratioOf(contract), 2)} with §6/§7's writes`);
    console.log(
      `copies/s with ${fmt(manySources)} sources ÷ the floor's (runs minutes apart): ${fmt(tributary.many.rate / floor.many.rate, 2)} plain, ` +
        `${fmt(tributary.many.rate / contract.many.rate, 2)} with §6/§7's writes; with ${fmt(fewSources)}: ` +
        `${fmt(tributary.few.rate / floor.few.rate, 2)} and ${fmt(tributary.few.rate / contract.few.rate, 2)}`,
    );
    reportAim(
      `fan-in ratio (${fmt(manySources)} ÷ ${fmt(fewSources)} sources) ÷ the floor's with §6/§7's writes (in-flight mark, provenance, key under a unique index, fence row)`,
      ratioOf(tributary) / ratioOf(contract),
      ">=",
      0.8,
      "each ratio in its own run",
    );
  }
  reportAim(`fan-in sources halted (${fmt(manySources)} sources)`, tributary.many.halted, "<=", 0, "count");
}

main().catch((error) => {
  console.error(`\n${error.stack ?? error}`);
  process.exit(1);
});
