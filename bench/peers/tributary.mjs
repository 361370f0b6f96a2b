// Tributary for bench/peers.mjs: the built worker (durable-objects/build) in
// workerd through the e2e harness (Miniflare, SQLite persisted in a temp dir,
// 127.0.0.1), with insecure (http, loopback) webhooks allowed for the
// webhook fan-out. Durability: each append is one SQLite transaction of the
// stream's Durable Object; locally workerd's SQLite is in WAL mode and
// fsyncs the WAL at every commit (one fsync per acknowledged append, checked
// with strace: docs/peers.md).
import http from "node:http";
import { execFileSync } from "node:child_process";
import { startTributary, streamUrl, TOKEN } from "../../tests/e2e/harness.mjs";
import { checkedFetch } from "../lib.mjs";
import { appendThenAwaitHeads, eventAt, fail, readSse, waitUntil, summary, trackDir, removeDir } from "./common.mjs";

export const TRIBUTARY_SYNC = "SQLite (WAL) commit per append, fsync of the WAL per commit (workerd, local)";

const CONFIGURED = "events.iterate.com/stream/subscription-configured";
const authJson = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
const auth = { authorization: `Bearer ${TOKEN}`, "accept-encoding": "identity" };
const PAGE = 1000;

function parse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function startTributaryPeer() {
  const t = await startTributary({ bench: true, allowInsecureWebhooks: true, consoleAssets: false });
  trackDir(t.persistDir);
  const url = t.url;
  let stopped = false;
  const handle = {
    label: "Tributary (workerd + SQLite, local)",
    url,
    /** workerd, started by Miniflare as this process's child. */
    pid: () => {
      const pids = execFileSync("pgrep", ["-P", String(process.pid), "-x", "workerd"], { encoding: "utf8" }).trim().split("\n");
      if (pids.length !== 1) fail(`expected one workerd child, found ${pids.join(", ")}`);
      return Number(pids[0]);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await t.cleanup();
      removeDir(t.persistDir);
    },
  };

  let counter = 0;
  const freshPath = (prefix) => `/peers/${prefix}-${++counter}`;
  const eventsUrl = (path) => `${url}${streamUrl(path, "events")}`;

  async function getJson(path, allow404 = false) {
    const response = await t.request("GET", path);
    if (allow404 && response.status === 404) return null;
    if (response.status !== 200) fail(`GET ${path}: status ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`);
    return response.body;
  }

  /** Append check: `expected` committed data events. */
  const committed = (expected) => (text) => {
    const body = parse(text);
    const events = body?.events ?? (body?.event ? [body.event] : []);
    if (events.length !== expected || events.some((e) => !Number.isInteger(e.offset))) return `expected ${expected} committed events`;
    return null;
  };

  const appendBatch = (path, first, size, eventFn) =>
    checkedFetch(eventsUrl(path), { method: "POST", headers: authJson, body: JSON.stringify({ events: Array.from({ length: size }, (_, k) => eventFn(first + k)) }) }, 201, committed(size));

  async function verifyCount(path, expected, label) {
    const info = await getJson(streamUrl(path));
    if (info.eventCount !== expected) fail(`Tributary ${label}: ${expected} events acknowledged but the stream counts ${info.eventCount}`);
  }

  /** Every event after `after`, in pages of 1000; returns {events, requests}. */
  async function readAll(path, after = 0, into = []) {
    let cursor = after;
    let requests = 0;
    for (;;) {
      const response = await fetch(`${eventsUrl(path)}?after=${cursor}&limit=${PAGE}`, { headers: auth });
      requests++;
      if (response.status !== 200) fail(`read ${path}: status ${response.status}`);
      const body = await response.json();
      for (const event of body.events) {
        if (event.offset !== cursor + 1) fail(`read ${path}: offset ${event.offset} after ${cursor}`);
        into.push(event);
        cursor = event.offset;
      }
      if (body.events.length === 0 || cursor >= body.head) return { events: into, requests };
    }
  }

  /** Creates the stream with one `setup` event; returns its head. */
  async function createStream(path) {
    const problem = await checkedFetch(eventsUrl(path), { method: "POST", headers: authJson, body: JSON.stringify({ type: "setup", payload: {} }) }, 201, committed(1));
    if (problem) fail(problem);
    return (await getJson(streamUrl(path))).head;
  }

  // Live readers: onEvent(event, at) per delivered event.
  function wsReader(path, after, onEvent) {
    const ws = new WebSocket(`${url.replace(/^http/, "ws")}${streamUrl(path, "live")}?after=${after}`, ["tributary.v1", `bearer.${TOKEN}`]);
    const opened = new Promise((resolve, reject) => {
      ws.addEventListener("open", resolve, { once: true });
      ws.addEventListener("error", () => reject(new Error(`WebSocket ${path}: error before open`)), { once: true });
    });
    ws.addEventListener("message", (message) => {
      const at = performance.now();
      const frame = JSON.parse(message.data);
      if (frame.type !== "events") return;
      for (const event of frame.events) onEvent(event, at);
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ack", offset: frame.events.at(-1).offset }));
    });
    return { opened, close: () => ws.close(1000, "done") };
  }

  function sseReader(path, after, onEvent) {
    const controller = new AbortController();
    const opened = fetch(`${url}${streamUrl(path, "live")}?after=${after}`, { headers: { ...auth, accept: "text/event-stream" }, signal: controller.signal }).then((response) => {
      if (response.status !== 200) fail(`SSE ${path}: status ${response.status}`);
      readSse(response, ({ event, data }) => {
        if (event === "event") onEvent(JSON.parse(data), performance.now());
      }).catch(() => {});
    });
    return { opened, close: () => controller.abort() };
  }

  function longPollReader(path, after, onEvent) {
    const controller = new AbortController();
    let closed = false;
    (async () => {
      let cursor = after;
      while (!closed) {
        const response = await fetch(`${eventsUrl(path)}?after=${cursor}&limit=${PAGE}&waitMs=30000`, { headers: auth, signal: controller.signal });
        if (response.status !== 200) fail(`long-poll ${path}: status ${response.status}`);
        const body = await response.json();
        const at = performance.now();
        for (const event of body.events) {
          onEvent(event, at);
          cursor = event.offset;
        }
      }
    })().catch(() => {});
    return {
      opened: Promise.resolve(),
      close: () => {
        closed = true;
        controller.abort();
      },
    };
  }

  async function card(path) {
    const body = await getJson(streamUrl(path, "subscriptions"));
    if (!Array.isArray(body?.subscriptions)) fail(`unexpected debug card of ${path}`);
    return body.subscriptions;
  }

  async function configure(path, key, receiver) {
    const response = await t.request("POST", streamUrl(path, "events"), {
      body: { type: CONFIGURED, payload: { subscriptionKey: key, filter: { eventTypes: ["data"] }, receiver } },
    });
    if (response.status !== 201) fail(`configure ${path} ${key}: status ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`);
  }

  /** Bounded wait for lag 0 and nothing in flight on every subscription of `path`. */
  async function settle(path, label) {
    await waitUntil(
      async () => {
        const subs = await card(path);
        const halted = subs.filter((s) => s.deliveryHalted);
        if (halted.length) fail(`${label}: halted: ${JSON.stringify(halted.map((s) => [s.subscriptionKey, s.deliveryHalted]))}`);
        return subs.every((s) => s.runtime?.lag === 0 && !s.runtime?.inFlightDeadlineAt);
      },
      { seconds: 30, everyMs: 50, describe: async () => JSON.stringify((await card(path)).map((s) => [s.subscriptionKey, s.runtime?.lag])) },
    );
  }

  handle.workloads = {
    async single() {
      const path = freshPath("single");
      return {
        send: (i) => checkedFetch(eventsUrl(path), { method: "POST", headers: authJson, body: JSON.stringify(eventAt(i)) }, 201, committed(1)),
        verify: (acked) => verifyCount(path, acked, "single"),
      };
    },

    async batch(size) {
      const path = freshPath("batch");
      return {
        send: (i) => appendBatch(path, i * size, size, (seq) => eventAt(seq)),
        verify: (acked) => verifyCount(path, acked * size, "batch"),
      };
    },

    async catchUp(count, { fill }) {
      const path = freshPath("catchup");
      await fill((i, size) => appendBatch(path, i * size, size, (seq) => eventAt(seq)));
      await verifyCount(path, count, "catch-up fill");
      return async () => {
        const begin = performance.now();
        const { events, requests } = await readAll(path);
        const seconds = (performance.now() - begin) / 1000;
        if (events.length !== count) fail(`Tributary catch-up: read ${events.length} of ${count}`);
        if (new Set(events.map((e) => e.payload.seq)).size !== count) fail("Tributary catch-up: duplicate events");
        return { events: events.length, seconds, requests };
      };
    },

    async live(runLive) {
      const results = [];
      const transports = [
        ["WebSocket (acks per frame)", wsReader],
        ["SSE", sseReader],
        ["long-poll (waitMs)", longPollReader],
      ];
      for (const [variant, open] of transports) {
        const path = freshPath("live");
        const head = await createStream(path);
        let onEvent = () => {};
        const reader = open(path, head, (event, at) => {
          if (event.type === "data") onEvent(event, at);
        });
        try {
          await reader.opened;
          const result = await runLive({
            setReceiver: (fn) => {
              onEvent = fn;
            },
            append: (event) => checkedFetch(eventsUrl(path), { method: "POST", headers: authJson, body: JSON.stringify(event) }, 201, committed(1)),
          });
          results.push({ variant, ...result });
        } finally {
          reader.close();
        }
      }
      return results;
    },

    async fanout({ consumers, waitSeconds, appendConcurrency, appendAll, webhook = true }) {
      const results = [];
      const keys = Array.from({ length: consumers }, (_, k) => `s${k}`);

      // (a) copy-to-stream: one subscription per receiving stream.
      {
        const source = freshPath("fan-copy");
        const receiving = keys.map((key) => `${source}-to-${key}`);
        for (let k = 0; k < keys.length; k++) {
          await configure(source, keys[k], { action: "copy-to-stream", receivingStreamPath: receiving[k], delivery: { start: "now", onFailingEvent: "halt" } });
        }
        const { appends, total, firstAppendAt, workerdCpu } = await appendThenAwaitHeads({
          receiving,
          headOf: async (path) => (await getJson(streamUrl(path), true))?.head ?? 0,
          append: (first, size) => appendBatch(source, first, size, (seq) => eventAt(seq, Date.now())),
          appendAll,
          appendConcurrency,
          waitSeconds,
        });
        let lastAt = 0;
        const latencies = [];
        let duplicates = 0;
        for (const path of receiving) {
          const { events } = await readAll(path);
          const hops = events.map((e) => e.source?.copiedFrom?.at(-1)?.offset);
          if (events.length !== total) fail(`copy fan-out: ${path} holds ${events.length} of ${total}`);
          for (let i = 1; i < hops.length; i++) if (!(hops[i] > hops[i - 1])) duplicates++;
          for (const event of events) {
            const at = Date.parse(event.createdAt);
            latencies.push(at - event.payload.sentAt);
            lastAt = Math.max(lastAt, at);
          }
        }
        if (duplicates) fail(`copy fan-out: ${duplicates} copies out of order or repeated`);
        await settle(source, "copy fan-out");
        results.push({
          variant: `${consumers} copy-to-stream subscriptions (→ ${consumers} streams)`,
          events: total,
          deliveries: total * consumers,
          duplicates: 0,
          seconds: (lastAt - firstAppendAt) / 1000,
          appendSeconds: appends.seconds,
          latency: summary(latencies),
          workerdCpu,
          note: "delivered = committed on the receiving stream (its createdAt)",
        });
      }

      // (b) webhook-post to a local receiver, one path per subscription
      // (skipped when `webhook` is false: bench/peers.mjs runs it in one round).
      if (webhook) {
        const source = freshPath("fan-webhook");
        const receivers = new Map(keys.map((key) => [`/${key}`, { key, count: 0, ids: new Set(), duplicates: 0, lastOffset: 0, latencies: [], lastAt: 0, problem: null }]));
        const server = http.createServer((request, response) => {
          const arrivedAt = Date.now();
          const chunks = [];
          request.on("data", (chunk) => chunks.push(chunk));
          request.on("end", () => {
            response.writeHead(200, { "content-type": "text/plain" }).end("ok");
            const r = receivers.get(request.url);
            const body = parse(Buffer.concat(chunks).toString("utf8"));
            const id = request.headers["webhook-id"];
            if (!r || !body?.event) return;
            if (r.ids.has(id)) {
              r.duplicates++;
              return;
            }
            r.ids.add(id);
            if (!(body.event.offset > r.lastOffset) && !r.problem) r.problem = `${r.key}: offset ${body.event.offset} after ${r.lastOffset}`;
            r.lastOffset = body.event.offset;
            r.count++;
            r.lastAt = arrivedAt;
            r.latencies.push(arrivedAt - body.event.payload.sentAt);
          });
        });
        server.keepAliveTimeout = 30_000;
        await new Promise((resolve, reject) => {
          server.once("error", reject);
          server.listen(0, "127.0.0.1", resolve);
        });
        try {
          const base = `http://127.0.0.1:${server.address().port}`;
          for (const key of keys) {
            await configure(source, key, { action: "webhook-post", url: `${base}/${key}`, delivery: { start: "now", onFailingEvent: "halt" } });
          }
          const firstAppendAt = Date.now();
          const appends = await appendAll((i, size) => appendBatch(source, i * size, size, (seq) => eventAt(seq, Date.now())), appendConcurrency);
          const total = appends.requests * appends.size;
          const list = [...receivers.values()];
          let lastHaltCheck = Date.now();
          await waitUntil(
            async () => {
              if (Date.now() - lastHaltCheck > 1000) {
                lastHaltCheck = Date.now();
                const halted = (await card(source)).filter((s) => s.deliveryHalted);
                if (halted.length) fail(`webhook fan-out: halted: ${JSON.stringify(halted.map((s) => [s.subscriptionKey, s.deliveryHalted]))}`);
              }
              return list.every((r) => r.count >= total || r.problem);
            },
            { seconds: waitSeconds, describe: () => list.map((r) => `${r.key} ${r.count}/${total}`).join(", ") },
          );
          const problems = list.filter((r) => r.problem).map((r) => r.problem);
          if (problems.length) fail(`webhook fan-out: ${problems.join("; ")}`);
          await settle(source, "webhook fan-out");
          results.push({
            variant: `${consumers} webhook-post subscriptions (local receiver)`,
            events: total,
            deliveries: list.reduce((n, r) => n + r.count, 0),
            duplicates: list.reduce((n, r) => n + r.duplicates, 0),
            seconds: (Math.max(...list.map((r) => r.lastAt)) - firstAppendAt) / 1000,
            appendSeconds: appends.seconds,
            latency: summary(list.flatMap((r) => r.latencies)),
            note: "delivered = POST arrived at the receiver; one event per POST, one in flight per subscription",
          });
        } finally {
          server.closeAllConnections();
          await new Promise((resolve) => server.close(resolve));
        }
      }
      return results;
    },
  };
  return handle;
}

