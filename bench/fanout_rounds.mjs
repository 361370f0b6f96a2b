// Copy fan-out in rounds, one workerd (issue 33): each round a fresh source
// stream copying to `subs` fresh streams, `events` events appended in
// 100-event batches, timed until every target holds them all. Prints each
// round's rate and workerd's CPU a copy over the round (bench/cpu.mjs);
// round 0 is the isolate's warm-up. Made for `bench/ab.mjs`, which compares
// two builds by the mean of rounds 1 and on:
//
//   node bench/fanout_rounds.mjs [subs=10] [events=4000] [rounds=7]
//   node bench/ab.mjs /tmp/build-a /tmp/build-b --runs 12 --figure 'round [1-9]\d*: ([0-9]+) copies/s' -- node bench/fanout_rounds.mjs
//   node bench/ab.mjs … --figure 'round [1-9]\d*: .*, ([0-9.]+) µs' -- …   (CPU: moves less with the host's load)
//
// Not a benchmark with an aim (bench/peers.mjs fanout is); a steadier
// measure of one build against another than single runs: a round's rate
// moves ±10 % from the next on the 2-core machine.
import { startTributary, streamUrl } from "../tests/e2e/harness.mjs";
import { cpuSnapshot } from "./cpu.mjs";
import { envNumber } from "./lib.mjs";

const CONFIGURED = "events.iterate.com/stream/subscription-configured";
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// Each argument or its default (a missing one is not in argv, so map over the three positions).
const [subs, events, rounds] = [0, 1, 2].map((i) => process.argv[2 + i]).map((value, i) => {
  const number = Number(value ?? [10, 4000, 7][i]);
  if (!Number.isInteger(number) || number < 1) throw new Error(`argument ${i + 1} must be a positive integer, got ${value}`);
  return number;
});
/** How long one round may take before the bench fails. */
const ROUND_TIMEOUT_MS = envNumber("BENCH_ROUND_TIMEOUT_MS", 300_000, { integer: true });

const t = await startTributary({ bench: true, consoleAssets: false });
try {
  for (let round = 0; round < rounds; round++) {
    const source = `/rounds/source-${round}`;
    const targets = Array.from({ length: subs }, (_, i) => `/rounds/target-${round}-${i}`);
    for (let i = 0; i < subs; i++) {
      const receiver = { action: "copy-to-stream", receivingStreamPath: targets[i], delivery: { start: "now", onFailingEvent: "halt" } };
      const body = { type: CONFIGURED, payload: { subscriptionKey: `k${i}`, filter: { eventTypes: ["data"] }, receiver } };
      const configured = await t.request("POST", streamUrl(source, "events"), { body });
      if (configured.status !== 201) throw new Error(`configure: ${configured.status} ${JSON.stringify(configured.body)}`);
    }
    const started = performance.now();
    const before = cpuSnapshot();
    for (let i = 0; i < events; i += 100) {
      const batch = Array.from({ length: Math.min(100, events - i) }, (_, j) => ({ type: "data", payload: { n: i + j } }));
      const appended = await t.request("POST", streamUrl(source, "events"), { body: { events: batch } });
      if (appended.status !== 201) throw new Error(`append: ${appended.status} ${JSON.stringify(appended.body)}`);
    }
    for (;;) {
      const heads = await Promise.all(targets.map(async (target) => (await t.request("GET", streamUrl(target, ""))).body?.head ?? 0));
      if (heads.every((head) => head >= events)) break;
      if (performance.now() - started > ROUND_TIMEOUT_MS) throw new Error(`round ${round}: the copies did not arrive within ${ROUND_TIMEOUT_MS} ms`);
      await sleep(20);
    }
    const seconds = (performance.now() - started) / 1000;
    const cpuPerCopy = (1e6 * (cpuSnapshot().workerd - before.workerd)) / (subs * events);
    console.log(`round ${round}: ${Math.round((subs * events) / seconds)} copies/s, ${cpuPerCopy.toFixed(1)} µs workerd CPU a copy`);
  }
} finally {
  await t.cleanup();
}
