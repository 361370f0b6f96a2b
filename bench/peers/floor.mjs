// The platform floor for bench/peers.mjs (issue 33): bare JS Durable Objects
// (bench/floor/worker.mjs) in the same workerd build as Tributary, started the
// same way (tests/e2e/harness.mjs, `floor: true`), doing only the I/O each
// workload needs: single and batch appends (one transaction each), catch-up
// (1000 rows a page, answered as JSON), and copy fan-out (from the source
// object's alarm, one fetch of up to 1000 events per receiving object, which
// inserts them in one transaction; then again with the I/O §6 and §7 ask of
// each copy batch: its in-flight mark and a timer over the exchange, each
// copy's provenance hop and key, stored as Tributary's row under a unique
// key index, the batch's stamp checked against a fence row that the batch
// writes). No live or durability probe here
// (bench/live.mjs has the live floor).
import { startTributary } from "../../tests/e2e/harness.mjs";
import { checkedFetch } from "../lib.mjs";
import { appendThenAwaitHeads, eventAt, fail, summary, trackDir, removeDir } from "./common.mjs";

export const FLOOR_SYNC = "SQLite (WAL) commit per append, as Tributary (the same workerd, local)";
const PAGE = 1000;
const jsonHeaders = { "content-type": "application/json" };

export async function startFloorPeer() {
  const t = await startTributary({ floor: true, consoleAssets: false });
  trackDir(t.persistDir);
  const url = t.url;
  let stopped = false;
  let counter = 0;
  const fresh = (prefix) => `peers-${prefix}-${++counter}`;
  const base = (name) => `${url}/floor/stream/${encodeURIComponent(name)}`;

  const committed = (expected) => (text) => {
    const body = JSON.parse(text);
    const events = body.events ?? (body.event ? [body.event] : []);
    return events.length === expected && events.every((e) => Number.isInteger(e.offset)) ? null : `expected ${expected} committed events`;
  };
  const appendBatch = (name, first, size, eventFn) =>
    checkedFetch(`${base(name)}/events`, { method: "POST", headers: jsonHeaders, body: JSON.stringify({ events: Array.from({ length: size }, (_, k) => eventFn(first + k)) }) }, 201, committed(size));

  /** Every event after `after`, 1000 a page, offsets checked contiguous. */
  async function readAll(name, after = 0) {
    const events = [];
    let cursor = after;
    let requests = 0;
    for (;;) {
      const response = await fetch(`${base(name)}/events?after=${cursor}&limit=${PAGE}`);
      requests++;
      if (response.status !== 200) fail(`floor read ${name}: status ${response.status}`);
      const body = await response.json();
      for (const event of body.events) {
        if (event.offset !== cursor + 1) fail(`floor read ${name}: offset ${event.offset} after ${cursor}`);
        events.push(event);
        cursor = event.offset;
      }
      if (body.events.length === 0 || cursor >= body.head) return { events, requests, head: body.head };
    }
  }

  async function head(name) {
    const response = await fetch(`${base(name)}/events?after=0&limit=1`);
    if (response.status !== 200) fail(`floor head of ${name}: status ${response.status}`);
    return (await response.json()).head;
  }

  /** The contract copies `name` holds: their head, or with `check` the rows, how many sit in order and their latencies. */
  async function copies(name, check = false) {
    const response = await fetch(`${base(name)}/copies${check ? "?check=1" : ""}`);
    if (response.status !== 200) fail(`floor copies of ${name}: status ${response.status}`);
    return response.json();
  }

  /**
   * Copy fan-out: `consumers` copy subscriptions of one source, the appends
   * as every system's. `contract`: each batch's in-flight mark and timer,
   * each copy with its provenance and key, and the receiver fences, inserts
   * Tributary's row under its unique key and writes its fence row
   * (bench/floor/worker.mjs, the contract copy path).
   */
  async function copyFanout({ consumers, waitSeconds, appendConcurrency, appendAll }, contract) {
    const source = fresh(contract ? "fan-contract" : "fan-copy");
    const receiving = Array.from({ length: consumers }, (_, k) => `${source}-to-s${k}`);
    for (let k = 0; k < consumers; k++) {
      const subscription = { key: `s${k}`, copyTo: receiving[k], ...(contract ? { contract: `/${source}` } : {}) };
      const problem = await checkedFetch(`${base(source)}/subscribe`, { method: "POST", headers: jsonHeaders, body: JSON.stringify(subscription) }, 201);
      if (problem) fail(`floor fan-out subscribe: ${problem}`);
    }
    const { appends, total, firstAppendAt, workerdCpu } = await appendThenAwaitHeads({
      receiving,
      headOf: async (name) => (contract ? (await copies(name)).head : head(name)),
      append: (first, size) => appendBatch(source, first, size, (seq) => eventAt(seq, Date.now())),
      appendAll,
      appendConcurrency,
      waitSeconds,
    });
    let lastAt = 0;
    const latencies = [];
    for (const name of receiving) {
      if (contract) {
        const held = await copies(name, true);
        if (held.rows !== total || held.inOrder !== total) fail(`floor contract copy fan-out: ${name} holds ${held.rows} of ${total}, ${held.inOrder} in order`);
        latencies.push(...held.latencies);
        lastAt = Math.max(lastAt, held.latestAtMs);
        continue;
      }
      const { events } = await readAll(name);
      if (events.length !== total) fail(`floor copy fan-out: ${name} holds ${events.length} of ${total}`);
      for (let i = 0; i < events.length; i++) {
        if (events[i].copiedFrom !== i + 1) fail(`floor copy fan-out: ${name} #${i + 1} copied from ${events[i].copiedFrom} (order, gap or repeat)`);
        const at = Date.parse(events[i].createdAt);
        latencies.push(at - events[i].payload.sentAt);
        lastAt = Math.max(lastAt, at);
      }
    }
    return {
      variant: contract ? `${consumers} copy floors with §6/§7's writes` : `${consumers} copy floors (→ ${consumers} objects)`,
      events: total,
      deliveries: total * consumers,
      duplicates: 0,
      seconds: (lastAt - firstAppendAt) / 1000,
      appendSeconds: appends.seconds,
      latency: summary(latencies),
      workerdCpu,
      note: contract
        ? "each batch's in-flight mark and timer; each copy with its provenance hop and run key; the receiver checks the stamp's fence row, inserts Tributary's events row (key under a unique index) and writes the fence row, one transaction a batch"
        : "delivered = committed on the receiving object (its createdAt); batches of ≤ 1000, one transaction each",
    };
  }

  const handle = {
    label: "floor: bare JS Durable Object (same workerd)",
    url,
    async stop() {
      if (stopped) return;
      stopped = true;
      await t.cleanup();
      removeDir(t.persistDir);
    },
    workloads: {
      async single() {
        const name = fresh("single");
        return {
          send: (i) => checkedFetch(`${base(name)}/events`, { method: "POST", headers: jsonHeaders, body: JSON.stringify(eventAt(i)) }, 201, committed(1)),
          verify: async (acked) => {
            if ((await head(name)) !== acked) fail(`floor single: ${acked} acknowledged, head ${await head(name)}`);
          },
        };
      },

      async batch(size) {
        const name = fresh("batch");
        return {
          send: (i) => appendBatch(name, i * size, size, (seq) => eventAt(seq)),
          verify: async (acked) => {
            if ((await head(name)) !== acked * size) fail(`floor batch: ${acked * size} acknowledged, head ${await head(name)}`);
          },
        };
      },

      async catchUp(count, { fill }) {
        const name = fresh("catchup");
        await fill((i, size) => appendBatch(name, i * size, size, (seq) => eventAt(seq)));
        if ((await head(name)) !== count) fail(`floor catch-up fill: head ${await head(name)}, expected ${count}`);
        return async () => {
          const begin = performance.now();
          const { events, requests } = await readAll(name);
          const seconds = (performance.now() - begin) / 1000;
          if (events.length !== count) fail(`floor catch-up: read ${events.length} of ${count}`);
          if (new Set(events.map((e) => e.payload.seq)).size !== count) fail("floor catch-up: duplicate events");
          return { events: events.length, seconds, requests };
        };
      },

      async fanout(options) {
        return [await copyFanout(options, false), await copyFanout(options, true)];
      },
    },
  };
  return handle;
}
