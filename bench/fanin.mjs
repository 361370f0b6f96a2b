// Copy fan-in benchmark (issue 20, docs/design.md §7 rule 2, §5 inbound): many
// source streams, each with one copy-to-stream subscription into one target
// stream, in one workerd started by the e2e harness (localhost only).
//
// Two sides in the same workerd: FEW sources (10) and MANY sources
// (BENCH_FANIN_SOURCES, 1,000), each into its own target. Per side:
//  - setup (not timed): one subscribe-from per source into the side's target;
//  - timed, shown: one event per source (each source's first copy opens its
//    fence record on the target);
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
// Then reportAim("fan-in copy rate, MANY sources ÷ FEW sources", ratio, ">=",
// 0.8) over phases 1–4, and the halted sources (aim 0).
//
// Settings (environment): BENCH_FANIN_SOURCES (1000), BENCH_FANIN_FEW (10),
// BENCH_FANIN_EVENTS (20, events per MANY source and per append batch),
// BENCH_FANIN_CONCURRENCY (8, requests in flight), BENCH_FANIN_WAIT_SECONDS
// (300, the bounded wait for the last copy).
import { startTributary, streamUrl, TOKEN } from "../tests/e2e/harness.mjs";
import { envNumber, checkedFetch, runLoad, assertNoFailures, parsePrometheus, metric, printTable, fmt, reportAim } from "./lib.mjs";
import { cpuSnapshot } from "./cpu.mjs";

const KEY = "fanin";
const PAGE = 1000;

const manySources = envNumber("BENCH_FANIN_SOURCES", 1000, { integer: true });
const fewSources = envNumber("BENCH_FANIN_FEW", 10, { integer: true });
const eventsPerBatch = envNumber("BENCH_FANIN_EVENTS", 20, { integer: true });
const concurrency = envNumber("BENCH_FANIN_CONCURRENCY", 8, { integer: true });
const waitSeconds = envNumber("BENCH_FANIN_WAIT_SECONDS", 300);
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

async function main() {
  if (totalEvents % fewSources !== 0) fail(`${totalEvents} events do not divide over ${fewSources} sources`);
  console.log(
    `fanin bench: ${fewSources} sources vs ${manySources} sources copying into one target each, ` +
      `${fmt(totalEvents)} copies per timed phase, appended in batches of ${eventsPerBatch} at concurrency ${concurrency}`,
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

    /** Every event of `path` (`expected` of them), paged and bounded. */
    async function readAll(path, expected) {
      const events = [];
      let after = 0;
      for (let page = 0; page <= expected / PAGE + 1; page++) {
        const body = await getJson(`${streamUrl(path, "events")}?after=${after}&limit=${PAGE}`);
        events.push(...body.events);
        if (body.events.length === 0 || body.nextAfter >= body.head) return events;
        after = body.nextAfter;
      }
      fail(`reading ${path}: more pages than ${expected} events need`);
    }

    /** The halted subscriptions among the run's sources (each source's card). */
    async function haltedSources(sources) {
      const halted = [];
      await pool("halt check", sources.length, async (i) => {
        const card = await getJson(streamUrl(sources[i], "subscriptions"));
        const entry = card.subscriptions?.find((s) => s.subscriptionKey === KEY);
        if (!entry) return `${sources[i]}: no subscription ${KEY}`;
        if (entry.deliveryHalted) halted.push({ source: sources[i], halted: entry.deliveryHalted, lastError: entry.runtime?.lastError });
        return null;
      });
      return halted;
    }

    /** Polls the target's head (bounded) until it holds `count` events. */
    async function waitForCopies(target, sources, count) {
      const deadline = Date.now() + waitSeconds * 1000;
      let lastHead = -1;
      let stalledSince = Date.now();
      for (;;) {
        const head = (await getJson(streamUrl(target), true))?.head ?? 0;
        if (head >= count) return;
        if (head !== lastHead) [lastHead, stalledSince] = [head, Date.now()];
        // A stall is when a halt would show: look, and abort on one.
        if (Date.now() - stalledSince > 5000) {
          const halted = await haltedSources(sources);
          if (halted.length) fail(`${halted.length} sources halted, e.g. ${JSON.stringify(halted[0]).slice(0, 400)}`);
          stalledSince = Date.now();
        }
        if (Date.now() > deadline) fail(`${target} reached head ${head} of ${count} within ${waitSeconds}s`);
        await sleep(50);
      }
    }

    /** One line per finished step, on stderr, so a long or failing run shows where it is. */
    const progress = (label, { seconds, copies }) =>
      console.error(`  ${label}: ${fmt(seconds, 2)} s${copies ? `, ${fmt(copies)} copies` : ""}`);

    /** Copy batches the target has committed (its metrics, since its object started). */
    async function copyBatches(target) {
      const response = await t.request("GET", streamUrl(target, "metrics"));
      if (response.status !== 200) fail(`${target} metrics: status ${response.status}`);
      return metric(parsePrometheus(String(response.body)), "tributary_appends_total");
    }

    /**
     * Appends `batches` requests (`body(n)` to `sources[n % count]`) and waits
     * until the target's head moves from `from` to `to`; the rate is those
     * copies ÷ (first append sent → createdAt of the last copy).
     */
    async function phase(label, target, sources, batches, body, { from, to }) {
      const before = from === 0 ? 0 : await copyBatches(target);
      const cpuBefore = cpuSnapshot().workerd;
      const firstAppendAtMs = Date.now();
      const appends = await pool(label, batches, (n) =>
        checkedFetch(`${url}${streamUrl(sources[n % sources.length], "events")}`, { method: "POST", headers: authJson, body: body(n) }, 201),
      );
      await waitForCopies(target, sources, to);
      const workerdCpu = cpuSnapshot().workerd - cpuBefore;
      const last = await getJson(`${streamUrl(target, "events")}/${to}`);
      const lastCopyAtMs = Date.parse(last.event?.createdAt);
      if (!Number.isFinite(lastCopyAtMs)) fail(`${label}: the last copy has no createdAt`);
      const seconds = (lastCopyAtMs - firstAppendAtMs) / 1000;
      const copies = to - from;
      return { appends, copies, seconds, rate: copies / seconds, batches: (await copyBatches(target)) - before, workerdCpu };
    }

    const event = (source, i) => ({ type: "data", payload: { source, i } });

    /**
     * Checks the target holds every source's events `0..perSource` once, in
     * source-offset order (§6 rule 9; appends to one source may commit in
     * any order when several are in flight, so `i` orders nothing).
     */
    async function verify(label, target, sources, perSource) {
      const copies = await readAll(target, sources.length * perSource);
      if (copies.length !== sources.length * perSource) fail(`${label}: target holds ${copies.length} events for ${sources.length * perSource} appended`);
      const lastOffset = new Array(sources.length).fill(0);
      const seen = sources.map(() => new Set());
      for (const copy of copies) {
        const { source, i } = copy.payload ?? {};
        const hop = copy.source?.copiedFrom?.at(-1);
        if (hop?.path !== sources[source] || hop?.subscriptionKey !== KEY) fail(`${label}: offset ${copy.offset} has hop ${JSON.stringify(hop)}`);
        if (!(hop.offset > lastOffset[source])) fail(`${label}: source ${source} offset ${hop.offset} copied after ${lastOffset[source]}`);
        if (seen[source].has(i)) fail(`${label}: source ${source} event i=${i} copied twice`);
        lastOffset[source] = hop.offset;
        seen[source].add(i);
      }
      if (seen.some((set) => set.size !== perSource)) fail(`${label}: a source copied fewer than ${perSource} events`);
    }

    /**
     * One side: `sourceCount` sources subscribed to its target (setup, not
     * timed), then each source's first copy (which opens its fence record).
     */
    async function prepare(label, sourceCount) {
      const root = `/bench/fanin-${label}`;
      const target = `${root}/target`;
      const sources = Array.from({ length: sourceCount }, (_, i) => `${root}/s${i}`);
      const setup = await pool(`${label}: subscribe-from`, sourceCount, (i) =>
        checkedFetch(
          `${url}${streamUrl(target, "subscribe-from")}`,
          {
            method: "POST",
            headers: authJson,
            body: JSON.stringify({ sourcePath: sources[i], subscriptionKey: KEY, filter: { eventTypes: ["data"] }, start: "now" }),
          },
          201,
        ),
      );
      const opening = await phase(`${label}: first copies`, target, sources, sourceCount, (n) => JSON.stringify(event(n, 0)), {
        from: 0,
        to: sourceCount,
      });
      progress(`${label}: setup (${fmt(sourceCount)} subscribe-from)`, { seconds: setup.seconds, copies: 0 });
      progress(`${label}: first copies`, opening);
      return { label, sourceCount, target, sources, perPhase: totalEvents / sourceCount, next: 1, setup, opening, phases: [] };
    }

    /** One timed phase of a side: `totalEvents` copies, every source copying at once. */
    async function steady(side) {
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
      const label = `${side.label}: phase ${side.phases.length + 1}`;
      side.phases.push(await phase(label, side.target, side.sources, batches, body, { from: head, to: head + totalEvents }));
      progress(label, side.phases.at(-1));
      side.next += perPhase;
    }

    /** Checks a side's target and sources: every event once in order, none halted, one fence record per source. */
    async function finish(side) {
      await verify(side.label, side.target, side.sources, side.next);
      const halted = await haltedSources(side.sources);
      if (halted.length) fail(`${side.label}: ${halted.length} sources halted, e.g. ${JSON.stringify(halted[0]).slice(0, 400)}`);
      const info = await getJson(streamUrl(side.target));
      const fenceCount =
        info.inboundFenceCount ?? Object.values(info.state?.subscriptions?.inbound?.bySourcePath ?? {}).reduce((n, byKey) => n + Object.keys(byKey).length, 0);
      if (fenceCount !== side.sourceCount) fail(`${side.label}: the target counts ${fenceCount} fence records for ${side.sourceCount} sources`);
      const copies = side.phases.reduce((n, p) => n + p.copies, 0);
      const seconds = side.phases.reduce((n, p) => n + p.seconds, 0);
      Object.assign(side, { halted: halted.length, fenceCount, rate: copies / seconds });
    }

    const few = await prepare("few", fewSources);
    const many = await prepare("many", manySources);
    // Phases in the order few, many, many, few: a load that drifts during the
    // run weighs on both sides alike.
    for (const side of [few, many, many, few]) await steady(side);
    await finish(few);
    await finish(many);

    console.log("");
    const row = (r, name, p) => [
      `${fmt(r.sourceCount)} sources: ${name}`,
      fmt(p.appends.requests),
      fmt(p.appends.seconds, 2),
      fmt(p.copies),
      fmt(p.batches),
      fmt(p.seconds, 2),
      fmt(p.rate),
      fmt((p.seconds * 1e6) / p.copies, 1),
      fmt((p.seconds * 1e3) / p.batches, 2),
    ];
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
        { title: "ms/batch" },
      ],
      [
        row(few, "first copy of each", few.opening),
        row(many, "first copy of each", many.opening),
        row(few, `phase 1: ${fmt(few.perPhase)} more each`, few.phases[0]),
        row(many, `phase 2: ${fmt(many.perPhase)} more each`, many.phases[0]),
        row(many, `phase 3: ${fmt(many.perPhase)} more each`, many.phases[1]),
        row(few, `phase 4: ${fmt(few.perPhase)} more each`, few.phases[1]),
      ],
    );
    console.log("(copy s = first append sent → createdAt of the last copy on the target; a first copy opens the source's fence");
    console.log(` record; copy batches = copy appends the target committed, from its metrics; setup, not timed: subscribe-from`);
    console.log(` ${fmt(few.setup.seconds, 2)} s for ${fmt(fewSources)} sources, ${fmt(many.setup.seconds, 2)} s for ${fmt(manySources)})`);
    console.log(`verified: each target holds every appended event once, each source's in order; fence records ${fmt(few.fenceCount)} and ${fmt(many.fenceCount)}; sources halted ${few.halted} and ${many.halted}`);
    console.log("");
    const ratio = many.rate / few.rate;
    console.log(`fan-in copy rate (phases 1–4): ${fmt(many.rate)} copies/s with ${fmt(manySources)} sources, ${fmt(few.rate)} with ${fmt(fewSources)}: ratio ${fmt(ratio, 2)}`);
    const perBatch = (side) => side.phases.reduce((n, p) => n + p.seconds, 0) / side.phases.reduce((n, p) => n + p.batches, 0);
    console.log(
      `per copy batch (phases 1–4): ${fmt(perBatch(many) * 1e3, 2)} ms with ${fmt(manySources)} sources, ${fmt(perBatch(few) * 1e3, 2)} ms with ${fmt(fewSources)} ` +
        `(FEW sources' backlogs coalesce into fewer, larger batches): ratio ${fmt(perBatch(few) / perBatch(many), 2)}`,
    );
    // CPU moves far less with the machine's load than rates do (bench/cpu.mjs):
    // appends, copies and the wait's polls, from the first append to the last copy.
    const cpuPerCopy = (side) => side.phases.reduce((n, p) => n + p.workerdCpu, 0) / side.phases.reduce((n, p) => n + p.copies, 0);
    console.log(
      `workerd CPU per copy (phases 1–4, appends included): ${fmt(cpuPerCopy(many) * 1e6)} µs with ${fmt(manySources)} sources, ` +
        `${fmt(cpuPerCopy(few) * 1e6)} µs with ${fmt(fewSources)}: ratio ${fmt(cpuPerCopy(few) / cpuPerCopy(many), 2)}`,
    );
    reportAim(`fan-in copy rate, ${fmt(manySources)} sources ÷ ${fmt(fewSources)} sources`, ratio, ">=", 0.8, "ratio in one run");
    reportAim(`fan-in sources halted (${fmt(manySources)} sources)`, many.halted, "<=", 0, "count");
  } finally {
    await t.cleanup();
  }
}

main().catch((error) => {
  console.error(`\n${error.stack ?? error}`);
  process.exit(1);
});
