// Project metrics benchmark (docs/design.md §11): the project's one scrape
// (`GET /v1/metrics`, answered by the project object from the snapshots the
// streams reported) side by side with the baseline it replaces — asking
// every stream for its own page (`GET /v1/streams/{path}/-/metrics`, N
// requests, BENCH_CONCURRENCY in flight) — in one workerd started by the
// e2e harness (localhost only). Runs alternate (scrape, fan-out; fan-out,
// scrape; ...) so drift of the machine falls on both sides. Prints the
// milliseconds one whole-project view takes each way and the aims: the
// fan-out ÷ the scrape ≥ 5 at BENCH_METRICS_STREAMS streams (lowest of the
// pairs), and a scrape's p50 ≤ 50 ms.
//
// Settings (environment): BENCH_METRICS_STREAMS (100), BENCH_METRICS_PAIRS
// (3), BENCH_METRICS_VIEWS per run (20), BENCH_CONCURRENCY (8).
import os from "node:os";
import { startTributary, streamUrl, TOKEN } from "../tests/e2e/harness.mjs";
import { envNumber, checkedFetch, percentile, printTable, fmt, reportAim } from "./lib.mjs";

const streams = envNumber("BENCH_METRICS_STREAMS", 100, { integer: true });
const pairs = envNumber("BENCH_METRICS_PAIRS", 3, { integer: true });
const views = envNumber("BENCH_METRICS_VIEWS", 20, { integer: true });
const concurrency = envNumber("BENCH_CONCURRENCY", 8, { integer: true });
const auth = { authorization: `Bearer ${TOKEN}` };
const CONFIGURED = "events.iterate.com/stream/subscription-configured";

const pathOf = (i) => `/bench-metrics/s${String(i).padStart(4, "0")}`;

/** Milliseconds of each of `views` whole-project views made by `view()`. */
async function timeViews(view) {
  const times = [];
  for (let n = 0; n < views; n++) {
    const started = performance.now();
    await view();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

async function main() {
  const load = os.loadavg().map((v) => v.toFixed(2)).join(" ");
  console.log(`metrics bench: ${streams} streams, ${pairs} alternating pairs of ${views} views, concurrency ${concurrency}; load average ${load}`);
  const t = await startTributary({ allowInsecureWebhooks: true, consoleAssets: false });
  try {
    // Each stream: a subscription (to a closed port: it retries, so its
    // series move) and a few events.
    for (let i = 0; i < streams; i += concurrency) {
      await Promise.all(
        Array.from({ length: Math.min(concurrency, streams - i) }, async (_, k) => {
          const path = pathOf(i + k);
          const configure = { type: CONFIGURED, payload: { subscriptionKey: "hook", filter: { eventTypes: ["data"] },
            receiver: { action: "webhook-post", url: "http://127.0.0.1:9/hook", delivery: { start: "beginning", onFailingEvent: "skip" } } } };
          for (const body of [configure, { events: [{ type: "data" }, { type: "data" }] }]) {
            const res = await t.request("POST", streamUrl(path, "events"), { body });
            if (res.status !== 201) throw new Error(`append to ${path}: ${res.status} ${JSON.stringify(res.body)}`);
          }
        }),
      );
    }
    const scrapeUrl = `${t.url}/v1/metrics`;
    const reported = (text) => Number(/^tributary_metrics_streams_reported (\d+)$/m.exec(text)?.[1] ?? 0);
    for (let wait = 0; ; wait++) {
      const text = await (await fetch(scrapeUrl, { headers: auth })).text();
      if (reported(text) === streams) break;
      if (wait > 600) throw new Error(`only ${reported(text)} of ${streams} streams reported`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const scrape = async () => {
      const failure = await checkedFetch(scrapeUrl, { headers: auth }, 200, (text) =>
        reported(text) === streams ? null : "not every stream in the scrape");
      if (failure) throw new Error(failure);
    };
    const fanOut = async () => {
      let next = 0;
      const worker = async () => {
        for (let i = next++; i < streams; i = next++) {
          const failure = await checkedFetch(`${t.url}${streamUrl(pathOf(i), "metrics")}`, { headers: auth }, 200);
          if (failure) throw new Error(failure);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
    };
    await timeViews(scrape);
    await timeViews(fanOut);
    const table = [];
    const ratios = [];
    const scrapeP50s = [];
    for (let pair = 0; pair < pairs; pair++) {
      const order = pair % 2 === 0 ? [scrape, fanOut] : [fanOut, scrape];
      const [first, second] = [await timeViews(order[0]), await timeViews(order[1])];
      const [scraped, fanned] = pair % 2 === 0 ? [first, second] : [second, first];
      const ratio = percentile(fanned, 50) / percentile(scraped, 50);
      ratios.push(ratio);
      scrapeP50s.push(percentile(scraped, 50));
      table.push([pair + 1, fmt(percentile(scraped, 50), 1), fmt(percentile(scraped, 99), 1), fmt(percentile(fanned, 50), 1), fmt(percentile(fanned, 99), 1), fmt(ratio, 1)]);
    }
    console.log("");
    printTable(
      [{ title: "pair" }, { title: "scrape p50 ms" }, { title: "scrape p99 ms" }, { title: "fan-out p50 ms" }, { title: "fan-out p99 ms" }, { title: "fan-out ÷ scrape" }],
      table,
    );
    console.log(`load average after: ${os.loadavg().map((v) => v.toFixed(2)).join(" ")}`);
    console.log("");
    reportAim(`whole-project view of ${streams} streams: per-stream fan-out ÷ one scrape`, Math.min(...ratios), ">=", 5, `p50s, lowest of ${pairs} pairs`);
    reportAim(`one scrape of ${streams} streams`, Math.max(...scrapeP50s), "<=", 50, "ms p50, highest of the pairs");
  } finally {
    await t.cleanup();
  }
}

main().catch((error) => {
  console.error(`\n${error.stack ?? error}`);
  process.exit(1);
});
