// Concurrent delivery benchmark (docs/design.md §8 `concurrency`): one
// webhook-post subscription with `delivery.concurrency` 16 against the same
// subscription with concurrency 1 (the ordered default, the baseline), in
// one run, on one local Node receiver on 127.0.0.1 that answers each request
// after a fixed delay — 20 ms (a realistic remote receiver) and 0 ms.
//
// Per scenario: a fresh stream gets BENCH_CONCURRENCY_EVENTS data events
// (100-event batches) first; then the subscription is configured with
// `start: "beginning"`, so the measured span — the configure request sent →
// the last delivery received — holds delivery only. Scenarios run one after
// another, never overlapping. deliveries/s = events ÷ that span; the ratio
// is concurrency N's deliveries/s ÷ concurrency 1's at the same delay.
// Concurrency 6 is printed too: a deployed invocation opens at most 6
// connections at once (further fetches queue inside the platform), so that is
// what one alarm turn gets deployed; locally workerd has no such cap.
//
// Correctness after each scenario, fatal if broken: every event arrived
// (deduplicated by webhook-id, duplicates counted), each under its own
// webhook-id, and the debug card settles at lag 0 with nothing in flight. The
// machine's load average is printed next to every figure.
//
// Settings (environment): BENCH_CONCURRENCY_EVENTS (400 per scenario),
// BENCH_CONCURRENCY_WAIT_SECONDS (300 per scenario), BENCH_RECEIVER_DELAY_MS
// (20, the slow receiver's delay).
import http from "node:http";
import os from "node:os";
import { startTributary, streamUrl } from "../tests/e2e/harness.mjs";
import { envNumber, printTable, fmt, reportAim } from "./lib.mjs";

const BATCH = 100;
const CONFIGURED = "events.iterate.com/stream/subscription-configured";
const events = envNumber("BENCH_CONCURRENCY_EVENTS", 400, { integer: true });
const waitSeconds = envNumber("BENCH_CONCURRENCY_WAIT_SECONDS", 300);
const slowMs = envNumber("BENCH_RECEIVER_DELAY_MS", 20);
const SCENARIOS = [
  { delayMs: slowMs, concurrency: 1 },
  { delayMs: slowMs, concurrency: 16 },
  { delayMs: slowMs, concurrency: 6 },
  { delayMs: 0, concurrency: 1 },
  { delayMs: 0, concurrency: 16 },
];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const fail = (message) => {
  throw new Error(`BENCH FAILED: concurrency: ${message}`);
};
const loadavgText = () => os.loadavg().map((v) => v.toFixed(2)).join(" / ");

/** path → {delayMs, byId: Map(webhook-id → offset), duplicates, last, maxOpen, open} */
const receivers = new Map();

function startReceiver() {
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const receiver = receivers.get(request.url);
      if (!receiver) return void response.writeHead(404).end("unknown path");
      receiver.open++;
      receiver.maxOpen = Math.max(receiver.maxOpen, receiver.open);
      const answer = () => {
        receiver.open--;
        response.writeHead(200, { "content-type": "text/plain" }).end("ok");
        let body;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        } catch {
          return void receiver.problems.push("a body that is not JSON");
        }
        const id = request.headers["webhook-id"];
        if (body?.type !== "event" || body.deliveryId !== id) receiver.problems.push(`unexpected delivery ${id}`);
        if (receiver.byId.has(id)) receiver.duplicates++;
        else receiver.byId.set(id, body?.event?.offset);
        receiver.last = Date.now();
      };
      if (receiver.delayMs > 0) setTimeout(answer, receiver.delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 30_000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

async function card(t, stream) {
  const response = await t.request("GET", streamUrl(stream, "subscriptions"));
  if (response.status !== 200) fail(`card of ${stream}: ${response.status}`);
  return response.body.subscriptions;
}

/** One scenario on a fresh stream: append, configure, wait for every delivery, check, measure. */
async function scenario(t, receiverBase, { delayMs, concurrency }) {
  const stream = `/bench/conc-${delayMs}ms-c${concurrency}`;
  const path = `/conc-${delayMs}ms-c${concurrency}`;
  const receiver = { delayMs, byId: new Map(), duplicates: 0, last: 0, maxOpen: 0, open: 0, problems: [] };
  receivers.set(path, receiver);
  for (let sent = 0; sent < events; sent += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, events - sent) }, (_, i) => ({ type: "data", payload: { i: sent + i } }));
    const response = await t.request("POST", streamUrl(stream, "events"), { body: { events: batch } });
    if (response.status !== 201) fail(`append to ${stream}: ${response.status}`);
  }
  const delivery = { start: "beginning", onFailingEvent: "skip", ...(concurrency > 1 ? { concurrency } : {}) };
  const started = Date.now();
  const configured = await t.request("POST", streamUrl(stream, "events"), {
    body: {
      type: CONFIGURED,
      payload: { subscriptionKey: "hook", filter: { eventTypes: ["data"] }, receiver: { action: "webhook-post", url: `${receiverBase}${path}`, delivery } },
    },
  });
  if (configured.status !== 201) fail(`configure ${stream}: ${configured.status} ${JSON.stringify(configured.body).slice(0, 300)}`);
  const deadline = started + waitSeconds * 1000;
  while (receiver.byId.size < events) {
    if (receiver.problems.length) fail(`${stream}: ${receiver.problems.slice(0, 5).join("; ")}`);
    if (Date.now() > deadline) fail(`${stream}: ${receiver.byId.size}/${events} delivered within ${waitSeconds}s`);
    await sleep(5);
  }
  const seconds = (receiver.last - started) / 1000;
  const offsets = new Set(receiver.byId.values());
  if (offsets.size !== events) fail(`${stream}: ${offsets.size} distinct offsets under ${receiver.byId.size} webhook-ids`);
  for (let settled = false, tries = 0; !settled; tries++) {
    const [sub] = await card(t, stream);
    settled = sub?.runtime?.lag === 0 && (sub.runtime.window?.inFlight ?? []).length === 0;
    if (!settled && tries > 1500) fail(`${stream}: the card did not settle: ${JSON.stringify(sub?.runtime).slice(0, 800)}`);
    if (!settled) await sleep(10);
  }
  return { delayMs, concurrency, seconds, rate: events / seconds, duplicates: receiver.duplicates, maxOpen: receiver.maxOpen, load: os.loadavg()[0] };
}

function report(results) {
  const rateOf = (delayMs, concurrency) => results.find((r) => r.delayMs === delayMs && r.concurrency === concurrency)?.rate ?? NaN;
  console.log("");
  printTable(
    ["receiver delay", "concurrency", "events", "seconds", "deliveries/s", "x concurrency 1", "max open at receiver", "dups", "load 1m"].map(
      (title) => ({ title }),
    ),
    results.map((r) => [
      `${r.delayMs} ms`,
      r.concurrency,
      fmt(events),
      fmt(r.seconds, 2),
      fmt(r.rate),
      fmt(r.rate / rateOf(r.delayMs, 1), 2),
      r.maxOpen,
      r.duplicates,
      r.load.toFixed(2),
    ]),
  );
  console.log(
    "(seconds = configure request sent → last delivery received, delivery only; x concurrency 1 = deliveries/s ÷ the same " +
      "delay's concurrency-1 deliveries/s; max open = most requests the receiver held at once)",
  );
  console.log(`machine: load average (1/5/15 min) at end ${loadavgText()}`);
  reportAim(`webhook concurrency 16 ÷ concurrency 1 (${slowMs} ms receiver)`, rateOf(slowMs, 16) / rateOf(slowMs, 1), ">=", 8, "ratio in one run");
}

async function main() {
  console.log(
    `concurrency bench: one webhook-post subscription, ${events} events per scenario, receiver on 127.0.0.1 answering after ` +
      `${slowMs} ms and after 0 ms; concurrency 1 (the baseline) vs 16 (and 6) in one run`,
  );
  console.log(`machine: ${os.cpus().length} CPUs, load average (1/5/15 min) at start ${loadavgText()}`);
  const server = await startReceiver();
  const receiverBase = `http://127.0.0.1:${server.address().port}`;
  const t = await startTributary({ bench: true, allowInsecureWebhooks: true, consoleAssets: false });
  const results = [];
  try {
    for (const spec of SCENARIOS) results.push(await scenario(t, receiverBase, spec));
  } finally {
    await t.cleanup();
    server.close();
  }
  report(results);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
