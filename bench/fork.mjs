// Fork benchmark (docs/design.md §18, issue 31), against the built worker in
// workerd started by the e2e harness (localhost only), in one run:
//
// (a) Catch-up read of a fork whose events lie mostly in its source: a source
//     of 49,000 events, forked at its tail, the fork then given 1,000 own
//     events (50,000 in all, 98 % inherited), read from the start ÷ the same
//     read of an unforked 50,000-event stream. Read through the native face
//     (`GET /v1/streams/{path}/-/events?after=&limit=1000`, page by page)
//     and through the protocol face (`GET /v1/stream/{path}?offset=`,
//     following `Stream-Next-Offset` until `Stream-Up-To-Date`); the reads
//     alternate (plain, fork; fork, plain; ...) and each side's median is
//     taken. Every read is checked: the count, and the offsets in order.
//     Aim: fork ÷ plain ≥ 0.8 on each face.
// (b) Creating a fork costs the same whatever the source holds (no copy):
//     the median time of the native fork route on a 1,000,000-event source,
//     on a 1-event source, and of creating an empty stream (protocol `PUT`),
//     the three interleaved; the protocol face's fork `PUT` is timed on both
//     sources too. Aim: fork of the large source ÷ fork of the 1-event
//     source ≤ 1.25; the ratio to an empty stream's creation is printed.
//
// Settings (environment): BENCH_FORK_EVENTS (50000: events read in (a)),
// BENCH_FORK_OWN_EVENTS (1000: the fork's own share of them),
// BENCH_FORK_READS (5 per side and face), BENCH_FORK_SOURCE_EVENTS (1000000:
// the large source of (b)), BENCH_FORK_CREATIONS (15 per kind),
// BENCH_FORK_FILL_CONCURRENCY (4 batch appends of 1,000 in flight).
import os from "node:os";
import { startTributary, streamUrl, TOKEN } from "../tests/e2e/harness.mjs";
import { envNumber, percentile, printTable, fmt, reportAim } from "./lib.mjs";

const PAGE = 1000;
const BATCH = 1000;
const totalEvents = envNumber("BENCH_FORK_EVENTS", 50_000, { integer: true });
const ownEvents = envNumber("BENCH_FORK_OWN_EVENTS", 1_000, { integer: true });
const reads = envNumber("BENCH_FORK_READS", 5, { integer: true });
const sourceEvents = envNumber("BENCH_FORK_SOURCE_EVENTS", 1_000_000, { integer: true });
const creations = envNumber("BENCH_FORK_CREATIONS", 15, { integer: true });
const fillConcurrency = envNumber("BENCH_FORK_FILL_CONCURRENCY", 4, { integer: true });
if (ownEvents >= totalEvents) throw new Error("BENCH_FORK_OWN_EVENTS must be below BENCH_FORK_EVENTS");

const auth = { authorization: `Bearer ${TOKEN}` };
const authJson = { ...auth, "content-type": "application/json" };
const load1 = () => os.loadavg()[0].toFixed(2);
const median = (values) => percentile([...values].sort((a, b) => a - b), 50);
const fail = (message) => {
  throw new Error(`BENCH FAILED: ${message}`);
};

// The same modest event as bench/append.mjs.
const eventAt = (i) => ({
  type: "t",
  payload: { seq: i, user: "user-000123", action: "page_view", url: "/products/widget-42?ref=bench" },
});

async function main() {
  console.log(
    `fork bench: (a) catch-up of ${fmt(totalEvents)} events (${fmt(totalEvents - ownEvents)} inherited + ${fmt(ownEvents)} own), ` +
      `${reads} reads per side and face; (b) fork creation on a ${fmt(sourceEvents)}-event source, ${creations} creations per kind; ` +
      `load average ${os.loadavg().map((v) => v.toFixed(2)).join(" ")}`,
  );
  const t = await startTributary({ bench: true, consoleAssets: false });
  try {
    const eventsUrl = (path) => `${t.url}${streamUrl(path, "events")}`;

    /** Appends events `first .. first+count-1` to `path` in batches of 1,000, `concurrency` in flight. */
    async function fill(path, first, count, concurrency) {
      let next = 0;
      const batches = Math.ceil(count / BATCH);
      async function worker() {
        // Each worker takes batches until none is left: at most `batches` rounds in all.
        for (let round = 0; round < batches; round++) {
          const index = next++;
          if (index >= batches) return;
          const size = Math.min(BATCH, count - index * BATCH);
          const body = JSON.stringify({ events: Array.from({ length: size }, (_, k) => eventAt(first + index * BATCH + k)) });
          const response = await fetch(eventsUrl(path), { method: "POST", headers: authJson, body });
          const text = await response.text();
          if (response.status !== 201) fail(`append to ${path}: ${response.status} ${text.slice(0, 300)}`);
        }
      }
      await Promise.all(Array.from({ length: concurrency }, worker));
    }

    async function info(path) {
      const res = await t.request("GET", streamUrl(path));
      if (res.status !== 200) fail(`info of ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    }

    /** The native fork route; resolves to the milliseconds it took. */
    async function nativeFork(path, from) {
      const began = performance.now();
      const response = await fetch(`${t.url}${streamUrl(path, "fork")}`, { method: "POST", headers: authJson, body: JSON.stringify({ from }) });
      const text = await response.text();
      const took = performance.now() - began;
      if (response.status !== 201) fail(`fork ${path} from ${from}: ${response.status} ${text.slice(0, 300)}`);
      return took;
    }

    /** A protocol `PUT` (a fork when `from` is given); resolves to the milliseconds it took. */
    async function protocolPut(path, from) {
      const headers = { ...auth, "content-type": "application/json" };
      if (from) headers["stream-forked-from"] = `/v1/stream${from}`;
      const began = performance.now();
      const response = await fetch(`${t.url}/v1/stream${path}`, { method: "PUT", headers });
      const text = await response.text();
      const took = performance.now() - began;
      if (response.status !== 201) fail(`PUT ${path}${from ? ` forked from ${from}` : ""}: ${response.status} ${text.slice(0, 300)}`);
      return took;
    }

    /** Native catch-up: every event from the start, pages of 1,000, offsets checked. */
    async function readNative(path, expected) {
      let cursor = 0;
      let requests = 0;
      const began = performance.now();
      // One page per request: at most expected / PAGE + 1 requests, and a margin for short pages.
      for (let page = 0; page <= 4 * Math.ceil(expected / PAGE) + 4; page++) {
        const response = await fetch(`${eventsUrl(path)}?after=${cursor}&limit=${PAGE}`, { headers: auth });
        requests++;
        if (response.status !== 200) fail(`read ${path}: ${response.status} ${(await response.text()).slice(0, 300)}`);
        const body = await response.json();
        for (const event of body.events) {
          if (event.offset !== cursor + 1) fail(`read ${path}: offset ${event.offset} after ${cursor}`);
          cursor = event.offset;
        }
        if (cursor >= expected || body.events.length === 0) break;
      }
      const seconds = (performance.now() - began) / 1000;
      if (cursor !== expected) fail(`read ${path}: ${cursor} of ${expected} events`);
      return { seconds, requests };
    }

    /** Protocol catch-up: `offset=-1`, then each `Stream-Next-Offset` until up to date; values checked. */
    async function readProtocol(path, expected) {
      let offset = "-1";
      let requests = 0;
      let count = 0;
      const began = performance.now();
      for (let page = 0; page <= 4 * Math.ceil(expected / PAGE) + 4; page++) {
        const response = await fetch(`${t.url}/v1/stream${path}?offset=${offset}`, { headers: auth });
        requests++;
        if (response.status !== 200) fail(`GET /v1/stream${path}: ${response.status} ${(await response.text()).slice(0, 300)}`);
        const values = await response.json();
        for (const value of values) {
          // A natively written event reads as one message: the committed event (docs/durable-streams.md).
          // (Batches appended concurrently land in any order: offsets are checked, not seq.)
          if (value.offset !== count + 1) fail(`GET /v1/stream${path}: offset ${value.offset} where ${count + 1} was due`);
          count++;
        }
        offset = response.headers.get("stream-next-offset");
        if (response.headers.get("stream-up-to-date") === "true") break;
      }
      const seconds = (performance.now() - began) / 1000;
      if (count !== expected) fail(`GET /v1/stream${path}: ${count} of ${expected} values`);
      return { seconds, requests };
    }

    // ---- (a) catch-up of a fork ÷ of a plain stream --------------------------------------------
    const plain = "/bench/fork/plain";
    const source = "/bench/fork/source";
    const forked = "/bench/fork/forked";
    const began = performance.now();
    await fill(plain, 0, totalEvents, fillConcurrency);
    await fill(source, 0, totalEvents - ownEvents, fillConcurrency);
    await nativeFork(forked, source);
    await fill(forked, totalEvents - ownEvents, ownEvents, 1);
    const [plainInfo, forkInfo] = [await info(plain), await info(forked)];
    if (plainInfo.head !== totalEvents || forkInfo.head !== totalEvents) fail(`heads ${plainInfo.head} / ${forkInfo.head}, ${totalEvents} due`);
    console.log(`(a) filled in ${fmt((performance.now() - began) / 1000, 1)} s; the fork holds ${fmt(forkInfo.eventCount)} own events of ${fmt(forkInfo.head)}`);

    const faces = [
      { name: "native (pages of 1,000)", read: readNative },
      { name: "protocol (/v1/stream, offset=-1)", read: readProtocol },
    ];
    // Natively, a fork's range read may not cross its fork point yet: then it starts at the
    // fork's own events, and the native face is left out (said so) rather than measured wrong.
    const firstPage = await fetch(`${eventsUrl(forked)}?after=0&limit=1`, { headers: auth }).then((response) => response.json());
    const nativeCrosses = firstPage.events?.[0]?.offset === 1;
    if (!nativeCrosses) {
      console.log(`native face: a fork's range read from the start begins at offset ${firstPage.events?.[0]?.offset} (its own events): not measured`);
      faces.splice(0, 1);
    }
    for (const face of faces) {
      face.runs = { plain: [], fork: [] };
      await face.read(plain, totalEvents); // warm both objects once, unmeasured
      await face.read(forked, totalEvents);
      for (let i = 0; i < reads; i++) {
        const order = i % 2 === 0 ? ["plain", "fork"] : ["fork", "plain"];
        for (const side of order) face.runs[side].push(await face.read(side === "plain" ? plain : forked, totalEvents));
      }
      face.plainSeconds = median(face.runs.plain.map((run) => run.seconds));
      face.forkSeconds = median(face.runs.fork.map((run) => run.seconds));
    }
    console.log("");
    printTable(
      [{ title: "face" }, { title: "plain: events/s" }, { title: "fork: events/s" }, { title: "fork ÷ plain" }, { title: "plain: requests" }, { title: "fork: requests" }, { title: "fork reads (s)" }],
      faces.map((face) => [
        face.name,
        fmt(totalEvents / face.plainSeconds),
        fmt(totalEvents / face.forkSeconds),
        fmt(face.plainSeconds / face.forkSeconds, 2),
        fmt(face.runs.plain[0].requests),
        fmt(face.runs.fork[0].requests),
        face.runs.fork.map((run) => fmt(run.seconds, 3)).join(", "),
      ]),
    );
    console.log(`(median of ${reads} reads per side, alternating; load ${load1()})`);

    // ---- (b) fork creation on a large source, a 1-event source, and an empty stream -------------
    const large = "/bench/fork/large";
    const small = "/bench/fork/small";
    const fillBegan = performance.now();
    await fill(large, 0, sourceEvents, fillConcurrency);
    await fill(small, 0, 1, 1);
    const fillSeconds = (performance.now() - fillBegan) / 1000;
    const largeInfo = await info(large);
    if (largeInfo.head !== sourceEvents) fail(`the large source's head is ${largeInfo.head}, ${sourceEvents} due`);
    console.log(`\n(b) the large source: ${fmt(sourceEvents)} events appended in ${fmt(fillSeconds, 1)} s (${fmt(sourceEvents / fillSeconds)} events/s, batches of ${BATCH}, ${fillConcurrency} in flight)`);

    const kinds = [
      { name: `native fork of the ${fmt(sourceEvents)}-event stream`, create: (i) => nativeFork(`/bench/fork/of-large-${i}`, large) },
      { name: "native fork of a 1-event stream", create: (i) => nativeFork(`/bench/fork/of-small-${i}`, small) },
      { name: "protocol PUT of an empty stream", create: (i) => protocolPut(`/bench/fork/empty-${i}`) },
      { name: `protocol fork PUT of the ${fmt(sourceEvents)}-event stream`, create: (i) => protocolPut(`/bench/fork/put-of-large-${i}`, large) },
      { name: "protocol fork PUT of a 1-event stream", create: (i) => protocolPut(`/bench/fork/put-of-small-${i}`, small) },
    ];
    for (const kind of kinds) kind.times = [];
    // One unmeasured round warms every path; then the kinds take turns, rotating who goes first.
    for (const kind of kinds) await kind.create("warm");
    for (let i = 0; i < creations; i++) {
      for (let k = 0; k < kinds.length; k++) {
        const kind = kinds[(i + k) % kinds.length];
        kind.times.push(await kind.create(i));
      }
    }
    for (const kind of kinds) kind.median = median(kind.times);
    const [forkLarge, forkSmall, empty, putLarge, putSmall] = kinds;
    const forked1 = await info(`/bench/fork/of-large-0`);
    if (forked1.head !== sourceEvents || forked1.eventCount !== 0) fail(`a fork of the large source: head ${forked1.head}, ${forked1.eventCount} own events`);
    console.log("");
    printTable(
      [{ title: "creation" }, { title: "median ms" }, { title: "p90 ms" }, { title: "÷ empty stream" }],
      kinds.map((kind) => [kind.name, fmt(kind.median, 2), fmt(percentile([...kind.times].sort((a, b) => a - b), 90), 2), fmt(kind.median / empty.median, 2)]),
    );
    console.log(`(${creations} creations per kind, interleaved; load ${load1()})`);
    console.log("");

    for (const face of faces) {
      reportAim(`fork catch-up read (${fmt(totalEvents - ownEvents)} inherited + ${fmt(ownEvents)} own) ÷ unforked, ${face.name.split(" ")[0]} face`, face.plainSeconds / face.forkSeconds, ">=", 0.8, "ratio in one run");
    }
    reportAim(`fork of a ${fmt(sourceEvents)}-event stream ÷ fork of a 1-event stream, native`, forkLarge.median / forkSmall.median, "<=", 1.25, "median ms, ratio in one run");
    reportAim(`fork of a ${fmt(sourceEvents)}-event stream ÷ fork of a 1-event stream, protocol PUT`, putLarge.median / putSmall.median, "<=", 1.25, "median ms, ratio in one run");
    console.log(
      `fork of the ${fmt(sourceEvents)}-event stream ÷ creating an empty stream: native ${fmt(forkLarge.median / empty.median, 2)}, protocol ${fmt(putLarge.median / empty.median, 2)} ` +
        "(a fork also asks its source for the grant: one more object round trip, whatever the source holds)",
    );
  } finally {
    await t.cleanup();
  }
}

main().catch((error) => {
  console.error(`\n${error.stack ?? error}`);
  process.exit(1);
});
