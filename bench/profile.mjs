// Where the worker's time goes: a V8 CPU profile of workerd (its inspector,
// through Miniflare's `inspectorPort`) while one scenario runs, printed as
// the top functions by self time and by the wasm/JS/native split.
//
//   node bench/profile.mjs webhook [subs=10] [events=1000]
//   node bench/profile.mjs floor-webhook [subs=1] [events=1000] | floor-fanout [subs=10] [events=2000] | floor-append [requests=2000]
//                                     (the same on the platform floor, bench/floor/worker.mjs: its isolate profiled)
//                                     PROFILE_CONTRACT=1: the floor that does the contract's writes (§6, §7, §9, §13);
//                                     with floor-append, the floor doing §2/§3's work (bench/floor/append_contract.mjs)
//   node bench/profile.mjs webhooks [streams=10] [events=300]   (`streams` streams, one webhook subscription each, all appended to at once)
//   node bench/profile.mjs copy [events=2000]
//   node bench/profile.mjs fanout [subs=10] [events=2000]   (copy to `subs` streams, as bench/peers.mjs fanout)
//   node bench/profile.mjs catchup [events=50000] [reads=5]  (pages of 1000, as bench/peers.mjs catchup)
//   node bench/profile.mjs forkread [events=50000] [reads=5]  (the same read of a fork holding the last 1000 of them, as bench/fork.mjs)
//   node bench/profile.mjs append [requests=2000]
//   node bench/profile.mjs protocol [requests=2000]   (single JSON appends on the Durable Streams face, POST /v1/stream/{path}, 8 in flight)
//   node bench/profile.mjs create [streams=300]   (one single append to each of `streams` new streams, 8 in flight)
//   node bench/profile.mjs fanin [sources=1000] [rounds=1]   (20-event appends to each source copying into one target, as bench/fanin.mjs)
//   node bench/profile.mjs baseline [requests=2000]   (one INSERT per request: the Rust BenchBaseline behind the same entry)
//   node bench/profile.mjs retention [requests=2000] [single]   (100-event batches, maxEvents 1000: §16 trimming; `single`: single appends)
//   node bench/profile.mjs batch [requests=2000] [keyed]   (100-event batches; `keyed`: each event with an idempotencyKey)
//   node bench/profile.mjs live [readers=100] [requests=2000]   (single appends, 8 in flight, to a stream with
//                                                               `readers` WebSocket readers acking every 64 KiB, as bench/live.mjs)
//
// PROFILE_WARMUP=n: the scenario's work done n times, unmeasured, before the measured run (append, batch,
//   baseline, protocol, retention, webhook, copy, fanout and the floor's, whose work repeats), each time printed with workerd's CPU
//   a unit and its resident memory: how far a fresh isolate is from its steady state (V8 tiers the wasm up
//   from Liftoff to TurboFan as functions get hot). PROFILE_TIERS=1 adds how many wasm functions each tier has
//   compiled so far (read from V8's perf map: workerd runs with --perf-basic-prof).
// PROFILE_MARKS=1: a `GET /__calls/start` before the measured work and `/__calls/end` after it (bench/calls.mjs counts between them).
// PROFILE_CALLERS=regex (PROFILE_DEPTH=n frames): who calls the matching functions.
// PROFILE_UNDER=regex: where the time inside the matching function goes, callee by callee
//   (e.g. PROFILE_UNDER='stage_and_write$'; names are matched without their `::h…` hash).
//
// Not a benchmark (no figure from it is a claim); it says what to fix.
import http from "node:http";
import { startTributary, streamUrl, TOKEN } from "../tests/e2e/harness.mjs";
import { readFileSync, rmSync } from "node:fs";
import { cpuSnapshot, descendantsNamed } from "./cpu.mjs";

const [named = "webhook", a, b] = process.argv.slice(2);
/** `floor-webhook`, `floor-fanout`: the same scenario on the platform floor (bench/floor/worker.mjs), its isolate profiled. */
const FLOOR = named.startsWith("floor-");
const scenario = named.replace(/^floor-/, "");
if (FLOOR && !["webhook", "fanout", "append"].includes(scenario)) throw new Error(`the floor has webhook, fanout and append scenarios, not ${scenario}`);
const WARMUPS = Number(process.env.PROFILE_WARMUP ?? 0);
if (!Number.isInteger(WARMUPS) || WARMUPS < 0) throw new Error(`PROFILE_WARMUP must be a whole number, got ${process.env.PROFILE_WARMUP}`);
if (WARMUPS > 0 && !["append", "batch", "baseline", "protocol", "retention", "webhook", "copy", "fanout"].includes(scenario)) {
  throw new Error(`PROFILE_WARMUP repeats append, batch, baseline, protocol, retention, webhook, copy and fanout (and the floor's), not ${named}`);
}
// The perf map only: V8's own log, which the flag also turns on, goes nowhere (as in bench/perf_profile.sh).
if (process.env.PROFILE_TIERS) {
  process.env.MINIFLARE_WORKERD_V8_FLAGS = `${process.env.MINIFLARE_WORKERD_V8_FLAGS ?? ""} --perf-basic-prof --no-logfile-per-isolate --logfile=/dev/null`.trim();
}
const port = 9300 + Math.floor(Math.random() * 500);
process.env.TRIBUTARY_INSPECTOR_PORT = String(port);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const CONFIGURED = "events.iterate.com/stream/subscription-configured";

/** A minimal CDP session over Node 22's WebSocket. */
async function inspect() {
  let targets = [];
  for (let i = 0; i < 50 && targets.length === 0; i++) {
    try {
      targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
    } catch {
      await sleep(100);
    }
  }
  const wanted = FLOOR ? /floor/ : /tributary/;
  const target = targets.find((t) => wanted.test(t.title ?? t.url ?? "")) ?? targets[0];
  if (!target) throw new Error("no inspector target");
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let next = 1;
  const pending = new Map();
  socket.onmessage = (message) => {
    const data = JSON.parse(message.data);
    if (data.id && pending.has(data.id)) {
      pending.get(data.id)(data);
      pending.delete(data.id);
    }
  };
  const call = (method, params = {}) =>
    new Promise((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { call, close: () => socket.close() };
}

function report(profile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  const dt = profile.timeDeltas;
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = nodes.get(id);
    const frame = node.callFrame;
    const name = `${frame.functionName || "(anonymous)"} ${frame.url ? frame.url.split("/").pop() : ""}`.trim();
    const us = dt[i] ?? 0;
    total += us;
    self.set(name, (self.get(name) ?? 0) + us);
  });
  // Inclusive time per function name (each sample counted once per name on its stack).
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (node) => `${node.callFrame.functionName || "(anonymous)"}`;
  const inclusive = new Map();
  profile.samples.forEach((id, i) => {
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const name = label(nodes.get(at));
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + (dt[i] ?? 0));
    }
  });
  const top = [...inclusive.entries()].filter(([name]) => /tributary|worker::|senders|stream_object/.test(name)).sort((x, y) => y[1] - x[1]).slice(0, Number(process.env.PROFILE_INCLUSIVE ?? 40));
  console.log("inclusive (tributary functions):");
  for (const [name, us] of top) console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name.replace(/::h[0-9a-f]{16}/, "").slice(0, 150)}`);
  // PROFILE_CALLERS=regex: who calls the matching functions (three frames up from the
  // outermost match on a stack), by the time spent in them and below; names are matched
  // without their `::h…` hash, as PROFILE_UNDER's.
  if (process.env.PROFILE_CALLERS) {
    const wanted = new RegExp(process.env.PROFILE_CALLERS);
    const plain = (at) => label(nodes.get(at)).replace(/::h[0-9a-f]{16}/, "");
    const callers = new Map();
    profile.samples.forEach((id, i) => {
      let outermost;
      for (let at = id; at !== undefined; at = parent.get(at)) if (wanted.test(plain(at))) outermost = at;
      if (outermost === undefined) return;
      const chain = [];
      for (let at = parent.get(outermost); at !== undefined && chain.length < Number(process.env.PROFILE_DEPTH ?? 3); at = parent.get(at)) chain.push(plain(at).slice(0, 90));
      const key = chain.join(" < ");
      callers.set(key, (callers.get(key) ?? 0) + (dt[i] ?? 0));
    });
    console.log(`callers of /${process.env.PROFILE_CALLERS}/:`);
    for (const [key, us] of [...callers.entries()].sort((x, y) => y[1] - x[1]).slice(0, 12)) console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}`);
  }
  // PROFILE_UNDER=regex: where the time inside the matching function goes,
  // by the callee just below its innermost match (its own code: "(self)").
  if (process.env.PROFILE_UNDER) {
    const wanted = new RegExp(process.env.PROFILE_UNDER);
    const children = new Map();
    let under = 0;
    profile.samples.forEach((id, i) => {
      let below = "(self)";
      for (let at = id; at !== undefined; below = label(nodes.get(at)), at = parent.get(at)) {
        if (!wanted.test(label(nodes.get(at)).replace(/::h[0-9a-f]{16}/, ""))) continue;
        const key = below.replace(/::h[0-9a-f]{16}/, "").slice(0, 150);
        children.set(key, (children.get(key) ?? 0) + (dt[i] ?? 0));
        under += dt[i] ?? 0;
        return;
      }
    });
    console.log(`under /${process.env.PROFILE_UNDER}/: ${(under / 1000).toFixed(0)} ms`);
    for (const [key, us] of [...children.entries()].sort((x, y) => y[1] - x[1]).slice(0, 25)) console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`);
  }
  console.log("self:");
  const rows = [...self.entries()].sort((x, y) => y[1] - x[1]).slice(0, Number(process.env.PROFILE_SELF ?? 45));
  console.log(`profile: ${(total / 1000).toFixed(0)} ms sampled`);
  // The split: Rust compiled to wasm; JavaScript files (the wasm-bindgen glue and what is bundled
  // with it, or the floor's worker.mjs); V8's own entries ((idle), (program), (garbage collector));
  // and the platform's builtins and natives (fetch, exec, Request, ...: the rest).
  const split = { wasm: 0, js: 0, v8: 0, platform: 0 };
  for (const [name, us] of self) {
    if (/\.wasm/.test(name)) split.wasm += us;
    else if (/ \S+\.m?js$/.test(name)) split.js += us;
    else if (/^\(/.test(name)) split.v8 += us;
    else split.platform += us;
  }
  console.log(`split: ${Object.entries(split).map(([kind, us]) => `${kind} ${(us / 1000).toFixed(0)} ms`).join(", ")}`);
  for (const [name, us] of rows) console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name.slice(0, 140)}`);
}

/** Calls `send(0)` … `send(count - 1)`, 8 in flight (every scenario's load). */
async function inFlight(count, send) {
  let n = 0;
  await Promise.all(Array.from({ length: 8 }, async () => { while (n < count) await send(n++); }));
}

/** A WebSocket reader from offset 1 on that acks every 64 KiB (LIVE_ACK_WINDOW_BYTES), as bench/live.mjs's. */
async function openReader(baseUrl, path) {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, "ws")}${streamUrl(path, "live")}?after=1`, ["tributary.v1", `bearer.${TOKEN}`]);
  const reader = { ws, last: 1 };
  let unacknowledged = 0;
  ws.addEventListener("message", (message) => {
    const frame = JSON.parse(message.data);
    if (frame.type !== "events") return;
    reader.last = Math.max(reader.last, frame.events.at(-1).offset);
    unacknowledged += message.data.length;
    if (unacknowledged >= 64 * 1024) {
      ws.send(JSON.stringify({ type: "ack", offset: reader.last }));
      unacknowledged = 0;
    }
  });
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve, { once: true });
    ws.addEventListener("error", () => reject(new Error("a reader failed to open")), { once: true });
  });
  return reader;
}

async function main() {
  let received = 0;
  const server = http.createServer((request, response) => {
    request.on("data", () => {});
    request.on("end", () => {
      received++;
      response.writeHead(200).end("ok");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const receiverBase = `http://127.0.0.1:${server.address().port}`;
  const t = await startTributary({ bench: true, allowInsecureWebhooks: true, consoleAssets: false, floor: FLOOR });
  try {
    // PROFILE_NONE=1: the scenario without V8's sampler (whose signals cost the isolate time
    // of their own), for an outside profiler such as `perf record -p <workerd>`.
    const sampling = !process.env.PROFILE_NONE;
    const inspector = sampling ? await inspect() : null;
    if (sampling) {
      await inspector.call("Profiler.enable");
      await inspector.call("Profiler.setSamplingInterval", { interval: 200 });
    }
    const path = "/profile/s";
    const append = (events) => t.request("POST", streamUrl(path, "events"), { body: events.length === 1 ? events[0] : { events } });
    const appendOk = async (events) => {
      const r = await append(events);
      if (r.status !== 201 && r.status !== 200) throw new Error(`append ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    };
    /** `requests` appends of `batch` events each, 8 in flight. */
    const appendRequests = (requests, batch, keyed = false) =>
      inFlight(requests, async (i) => {
        const event = (k) => ({ type: "data", payload: { n: i + 1, k }, ...(keyed ? { idempotencyKey: `k-${i}-${k}` } : {}) });
        const r = await append(Array.from({ length: batch }, (_, k) => event(k)));
        if (r.status !== 201) throw new Error(`append ${r.status}`);
      });
    /** `requests` POSTs of one small JSON event each to `url`, 8 in flight, each answered with one of `ok`. */
    const posts = (requests, url, headers, ok) =>
      inFlight(requests, async (i) => {
        const r = await fetch(url, { method: "POST", headers, body: JSON.stringify({ type: "data", payload: { n: i + 1, k: 0 } }) });
        await r.text();
        if (!ok.includes(r.status)) throw new Error(`POST ${url}: ${r.status}`);
      });
    let expected = 0;
    let work;
    if (FLOOR && scenario === "append") {
      // The single-append floor of bench/append.mjs: one INSERT a request, bare JS entry and object;
      // with PROFILE_CONTRACT, its contract floor (the token, §3's checks, the event row, the whole answer).
      expected = Number(a ?? 2000);
      work = process.env.PROFILE_CONTRACT
        ? () => posts(expected, `${t.url}/floor/append/profile`, { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" }, [201])
        : () => posts(expected, `${t.url}/floor/insert/profile`, {}, [200]);
    } else if (FLOOR && (scenario === "webhook" || scenario === "fanout")) {
      const subs = Number(a ?? (scenario === "webhook" ? 1 : 10));
      const events = Number(b ?? (scenario === "fanout" ? 2000 : 1000));
      const base = `${t.url}/floor/stream/profile-s`;
      const floorCall = async (url, body) => {
        const r = await fetch(url, { method: "POST", body: JSON.stringify(body) });
        if (r.status !== 201 && r.status !== 200) throw new Error(`floor ${url}: ${r.status} ${await r.text()}`);
        return r.json();
      };
      for (let i = 0; i < subs; i++) {
        const contract = process.env.PROFILE_CONTRACT ? { contract: "/profile/s" } : {};
        await floorCall(`${base}/subscribe`, scenario === "webhook" ? { key: `k${i}`, webhook: `${receiverBase}/r${i}`, ...contract } : { key: `k${i}`, copyTo: `profile-target-${i}`, ...contract });
      }
      expected = subs * events;
      let runs = 0;
      work = async () => {
        runs++;
        for (let i = 0; i < events; i += 100) await floorCall(`${base}/events`, { events: Array.from({ length: Math.min(100, events - i) }, (_, j) => ({ type: "data", payload: { n: i + j } })) });
        const deadline = Date.now() + 300_000;
        for (;;) {
          if (scenario === "webhook" && received >= runs * expected) break;
          if (scenario === "fanout") {
            const rows = await (await fetch(`${base}/subscriptions`)).json();
            if (rows.every((row) => row.cursor >= runs * events)) break;
          }
          if (Date.now() > deadline) throw new Error("timed out");
          await sleep(20);
        }
      };
    } else if (scenario === "webhook" || scenario === "copy" || scenario === "fanout") {
      const copies = scenario !== "webhook";
      const subs = scenario === "copy" ? 1 : Number(a ?? 10);
      const events = Number((scenario === "copy" ? a : b) ?? (scenario === "fanout" ? 2000 : 1000));
      const targets = Array.from({ length: subs }, (_, i) => (scenario === "copy" ? "/profile/target" : `/profile/target-${i}`));
      for (let i = 0; i < subs; i++) {
        const receiver = copies
          ? { action: "copy-to-stream", receivingStreamPath: targets[i], delivery: { start: "now", onFailingEvent: "halt" } }
            : { action: "webhook-post", url: `${receiverBase}/r${i}`, delivery: { start: "now", onFailingEvent: "halt" } };
        const r = await t.request("POST", streamUrl(path, "events"), { body: { type: CONFIGURED, payload: { subscriptionKey: `k${i}`, filter: { eventTypes: ["data"] }, receiver } } });
        if (r.status !== 201) throw new Error(`configure: ${r.status} ${JSON.stringify(r.body)}`);
      }
      expected = subs * events;
      let runs = 0;
      work = async () => {
        runs++;
        for (let i = 0; i < events; i += 100) await appendOk(Array.from({ length: Math.min(100, events - i) }, (_, j) => ({ type: "data", payload: { n: i + j } })));
        const deadline = Date.now() + 300_000;
        for (;;) {
          if (scenario === "webhook" && received >= runs * expected) break;
          if (copies) {
            const heads = await Promise.all(targets.map(async (target) => (await t.request("GET", streamUrl(target, ""))).body?.head ?? 0));
            if (heads.every((head) => head >= runs * events)) break;
          }
          if (Date.now() > deadline) throw new Error("timed out");
          if (process.env.PROFILE_DEBUG) console.error("received", received, "of", expected);
          await sleep(20);
        }
      };
    } else if (scenario === "webhooks") {
      // `streams` streams in one isolate, each with one webhook subscription,
      // `events` appended to each in 100-event batches, every stream at once:
      // each object delivers while the others write (a deployment's shape).
      const streams = Number(a ?? 10);
      const events = Number(b ?? 300);
      const paths = Array.from({ length: streams }, (_, i) => `/profile/webhooks-${i}`);
      await inFlight(streams, async (i) => {
        const receiver = { action: "webhook-post", url: `${receiverBase}/w${i}`, delivery: { start: "now", onFailingEvent: "halt" } };
        const r = await t.request("POST", streamUrl(paths[i], "events"), { body: { type: CONFIGURED, payload: { subscriptionKey: "k", filter: { eventTypes: ["data"] }, receiver } } });
        if (r.status !== 201) throw new Error(`configure: ${r.status} ${JSON.stringify(r.body)}`);
      });
      expected = streams * events;
      work = async () => {
        await inFlight(streams, async (s) => {
          for (let i = 0; i < events; i += 100) {
            const batch = Array.from({ length: Math.min(100, events - i) }, (_, j) => ({ type: "data", payload: { n: i + j } }));
            const r = await t.request("POST", streamUrl(paths[s], "events"), { body: { events: batch } });
            if (r.status !== 201) throw new Error(`append ${r.status}`);
          }
        });
        const deadline = Date.now() + 300_000;
        while (received < expected) {
          if (Date.now() > deadline) throw new Error("timed out");
          await sleep(20);
        }
      };
    } else if (scenario === "catchup" || scenario === "forkread") {
      const events = Number(a ?? 50_000);
      const reads = Number(b ?? 5);
      /** Events `from .. to-1` appended to `target`, 10 batches of 100 in flight. */
      const fill = async (target, from, to) => {
        for (let i = from; i < to; i += 1000) {
          await Promise.all(
            Array.from({ length: 10 }, async (_, k) => {
              const batch = Array.from({ length: 100 }, (_, j) => ({ type: "data", payload: { seq: i + k * 100 + j, user: "user-000123", url: "/products/widget-42?ref=bench" } }));
              const r = await t.request("POST", streamUrl(target, "events"), { body: { events: batch } });
              if (r.status !== 201) throw new Error(`append ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
            }),
          );
        }
      };
      // forkread: `path` is a fork of a source holding all but its last 1,000 events (as bench/fork.mjs).
      const own = scenario === "forkread" ? Math.min(1000, events) : events;
      if (scenario === "forkread") {
        await fill("/profile/fork-source", 0, events - own);
        const forked = await t.request("POST", streamUrl(path, "fork"), { body: { from: "/profile/fork-source" } });
        if (forked.status !== 201) throw new Error(`fork ${forked.status} ${JSON.stringify(forked.body).slice(0, 300)}`);
      }
      await fill(path, events - own, events);
      expected = events * reads;
      work = async () => {
        for (let r = 0; r < reads; r++) {
          let after = 0;
          for (let page = 0; page <= events / 1000; page++) {
            const response = await t.request("GET", `${streamUrl(path, "events")}?after=${after}&limit=1000`);
            if (response.status !== 200) throw new Error(`read ${response.status}`);
            if (response.body.events.length === 0) break;
            after = response.body.events.at(-1).offset;
          }
          if (after < events) throw new Error(`read reached ${after} of ${events}`);
        }
      };
    } else if (scenario === "live") {
      const readers = Number(a ?? 100);
      const requests = Number(b ?? 2000);
      expected = requests;
      await appendOk([{ type: "data", payload: { n: 0 } }]);
      const sockets = await Promise.all(Array.from({ length: readers }, () => openReader(t.url, path)));
      work = async () => {
        await appendRequests(requests, 1);
        const deadline = Date.now() + 120_000;
        while (sockets.some((reader) => reader.last < requests + 1)) {
          if (Date.now() > deadline) throw new Error("readers did not catch up");
          await sleep(20);
        }
        for (const reader of sockets) reader.ws.close(1000, "profile done");
      };
    } else if (scenario === "fanin") {
      // `sources` streams copying into one target (subscribe-from, as bench/fanin.mjs), set up
      // and opened unprofiled; then `rounds` appends of 20 events to every source, 8 in flight.
      const sources = Number(a ?? 1000);
      const rounds = Number(b ?? 1);
      const target = "/profile/fanin-target";
      const paths = Array.from({ length: sources }, (_, i) => `/profile/fanin-s${i}`);
      const headOf = async () => (await t.request("GET", streamUrl(target))).body?.head ?? 0;
      const waitFor = async (count) => { for (let i = 0; i < 6000 && (await headOf()) < count; i++) await sleep(50); };
      await inFlight(sources, async (i) => {
        const r = await t.request("POST", streamUrl(target, "subscribe-from"), {
          body: { sourcePath: paths[i], subscriptionKey: "fanin", filter: { eventTypes: ["data"] }, start: "now" },
        });
        if (r.status !== 201) throw new Error(`subscribe-from ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
      });
      await inFlight(sources, async (i) => {
        const r = await t.request("POST", streamUrl(paths[i], "events"), { body: { type: "data", payload: { i } } });
        if (r.status !== 201) throw new Error(`append ${r.status}`);
      });
      await waitFor(sources);
      expected = sources * rounds * 20;
      work = async () => {
        await inFlight(sources * rounds, async (n) => {
          const events = Array.from({ length: 20 }, (_, k) => ({ type: "data", payload: { n, k } }));
          const r = await t.request("POST", streamUrl(paths[n % sources], "events"), { body: { events } });
          if (r.status !== 201) throw new Error(`append ${r.status}`);
        });
        await waitFor(sources + expected);
      };
    } else if (scenario === "create") {
      const streams = Number(a ?? 300);
      expected = streams;
      work = () =>
        inFlight(streams, async (i) => {
          const r = await t.request("POST", streamUrl(`/profile/new-${i + 1}`, "events"), { body: { type: "data", payload: { n: i + 1 } } });
          if (r.status !== 201) throw new Error(`create ${r.status}`);
        });
    } else if (scenario === "baseline") {
      expected = Number(a ?? 2000);
      work = () => posts(expected, `${t.url}/bench/baseline/profile`, {}, [200]);
    } else if (scenario === "protocol") {
      expected = Number(a ?? 2000);
      const url = `${t.url}/v1/stream/profile-protocol`;
      const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
      const created = await fetch(url, { method: "PUT", headers });
      await created.text();
      if (created.status !== 201) throw new Error(`protocol PUT ${created.status}`);
      work = () => posts(expected, url, headers, [200, 204]);
    } else {
      const requests = Number(a ?? 2000);
      expected = requests;
      const batch = (scenario === "retention" && b !== "single") || scenario === "batch" ? 100 : 1;
      if (scenario === "retention") {
        await appendOk([{ type: "events.iterate.com/stream/retention-configured", payload: { maxEvents: 1000 } }]);
      }
      work = async () => {
        await appendRequests(requests, batch, scenario === "batch" && b === "keyed");
      };
    }
    for (let round = 1; round <= WARMUPS; round++) {
      const [before, begun] = [cpuSnapshot().workerd, Date.now()];
      await work();
      const cpu = (1e6 * (cpuSnapshot().workerd - before)) / expected;
      console.log(`warm-up ${round}: ${(expected / ((Date.now() - begun) / 1000)).toFixed(0)}/s, ${cpu.toFixed(1)} µs workerd CPU a unit, ${workerdState()}`);
    }
    console.error("profiling");
    if (sampling) await inspector.call("Profiler.start");
    // PROFILE_MARKS=1 (bench/calls.mjs): a request whose URL marks where the measured work begins and ends.
    const mark = async (name) => {
      if (process.env.PROFILE_MARKS) await (await fetch(`${t.url}/__calls/${name}`)).arrayBuffer();
    };
    await mark("start");
    console.error("started");
    const started = Date.now();
    const cpuBefore = cpuSnapshot();
    await work();
    const seconds = (Date.now() - started) / 1000;
    // workerd's CPU a unit (/proc, bench/cpu.mjs): steadier than the rate under a drifting host.
    const cpuPerUnit = (1e6 * (cpuSnapshot().workerd - cpuBefore.workerd)) / expected;
    await mark("end");
    console.log(`${scenario}: ${expected} units in ${seconds.toFixed(2)} s = ${(expected / seconds).toFixed(0)}/s, ${cpuPerUnit.toFixed(1)} µs workerd CPU a unit`);
    if (sampling) {
      const { result } = await inspector.call("Profiler.stop");
      report(result.profile);
      inspector.close();
    }
  } finally {
    await t.cleanup();
    server.close();
    for (const map of perfMaps) rmSync(map, { force: true });
  }
}

/** V8's perf maps read for PROFILE_TIERS, removed when the run ends. */
const perfMaps = new Set();

/** workerd's resident memory and, with PROFILE_TIERS, how many wasm functions V8 has compiled with each tier. */
function workerdState() {
  const pids = descendantsNamed("workerd");
  /** A file's text, or nothing when it is gone (a process that ended). */
  const text = (path) => {
    try {
      return readFileSync(path, "utf8");
    } catch {
      return "";
    }
  };
  const kib = pids.reduce((sum, pid) => sum + Number(/VmRSS:\s+(\d+)/.exec(text(`/proc/${pid}/status`))?.[1] ?? 0), 0);
  let tiers = "";
  if (process.env.PROFILE_TIERS) {
    for (const pid of pids) perfMaps.add(`/tmp/perf-${pid}.map`);
    const map = pids.map((pid) => text(`/tmp/perf-${pid}.map`)).join("");
    const count = (tier) => (map.match(new RegExp(`^\\S+ \\S+ JS:.*-${tier}$`, "gm")) ?? []).length;
    tiers = `, wasm functions compiled: ${count("liftoff")} Liftoff, ${count("turbofan")} TurboFan`;
  }
  return `workerd resident ${(kib / 1024).toFixed(0)} MiB${tiers}`;
}

await main();
