// The Durable Streams reference server for bench/peers.mjs: the
// @durable-streams/server npm package's DurableStreamTestServer in its
// file-backed mode, in its own Node process (bench/peers/ds-server.mjs), on a
// port of 127.0.0.1 the OS picks. Streams are JSON-mode
// (`content-type: application/json`): a POSTed value is one message, a POSTed
// array of N values one append of N messages. Reads return JSON arrays.
//
// Durability (file-backed store, 0.3.x): an append writes one frame to the
// stream's segment file, fdatasyncs it, then commits its metadata to LMDB
// (which fdatasyncs twice), then answers 204; appends to one stream are
// serialized.
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { ROOT } from "../../tests/e2e/harness.mjs";
import { eventAt, fail, tempDir, removeDir, spawnServer, readSse, sleep, waitUntil, summary } from "./common.mjs";

export function durableStreamsVersion() {
  try {
    return JSON.parse(readFileSync(join(ROOT, "node_modules", "@durable-streams", "server", "package.json"), "utf8")).version;
  } catch {
    return null;
  }
}

export const DS_SYNC = "file-backed: fdatasync of the segment file per append, then an LMDB commit (2 more fdatasyncs), then the ack";

const json = { "content-type": "application/json" };
// Reads ask for no compression (the server would gzip large responses; on
// loopback that only costs CPU, and Tributary's reads are not compressed).
const identity = { "accept-encoding": "identity" };

export async function startDurableStreams() {
  const version = durableStreamsVersion();
  if (!version) fail("@durable-streams/server is not installed: run bash scripts/bootstrap --peers");
  const dir = tempDir("tributary-peers-ds-");
  const dataDir = join(dir, "data");
  const logFile = join(dir, "ds-server.log");
  let resolveUrl;
  const ready = new Promise((resolve) => (resolveUrl = resolve));
  const server = spawnServer(process.execPath, [join(ROOT, "bench", "peers", "ds-server.mjs"), dataDir], {
    logFile,
    onLine: (line) => {
      if (line.startsWith("READY ")) resolveUrl(line.slice(6).trim());
    },
  });
  const url = await Promise.race([
    ready,
    server.exited.then(({ code, signal }) => fail(`durable streams server exited (${code ?? signal}); see ${logFile}`)),
    sleep(15_000).then(() => fail(`durable streams server not ready within 15 s; see ${logFile}`)),
  ]).catch(async (error) => {
    await server.stop();
    removeDir(dir);
    throw error;
  });

  let stopped = false;
  const handle = {
    label: `Durable Streams ${version} (reference server, file-backed)`,
    version,
    url,
    dir,
    pid: () => server.child.pid,
    async stop() {
      if (stopped) return;
      stopped = true;
      server.child.stdin.end();
      await server.stop();
      removeDir(dir);
    },
  };

  let counter = 0;
  async function freshStream(prefix) {
    const target = `${url}/v1/stream/bench/${prefix}-${++counter}`;
    const response = await fetch(target, { method: "PUT", headers: json });
    await response.text();
    if (response.status !== 201) fail(`create ${target}: status ${response.status}`);
    return target;
  }

  /** One append (a value or an array of values); null on success. */
  async function append(target, body) {
    let response;
    try {
      response = await fetch(target, { method: "POST", headers: json, body });
      await response.text();
    } catch (error) {
      return `POST ${target}: ${error.cause?.message ?? error.message}`;
    }
    if (response.status !== 204) return `POST ${target}: status ${response.status}`;
    if (!response.headers.get("stream-next-offset")) return `POST ${target}: no Stream-Next-Offset`;
    return null;
  }

  const batchBody = (first, size, eventFn) => JSON.stringify(Array.from({ length: size }, (_, k) => eventFn(first + k)));

  /** Every value from `offset` to the current tail (plain catch-up GETs, following Stream-Next-Offset). */
  async function readAll(target, offset = "-1", into = []) {
    let requests = 0;
    for (;;) {
      const response = await fetch(`${target}?offset=${offset}`, { headers: identity });
      requests++;
      if (response.status !== 200) fail(`GET ${target}: status ${response.status}`);
      const values = await response.json();
      for (const value of values) into.push(value);
      offset = response.headers.get("stream-next-offset");
      if (response.headers.get("stream-up-to-date") === "true") return { values: into, offset, requests };
    }
  }

  /** An SSE reader from `offset`; `onValue(value, at)` per value. Returns {close, opened}. */
  function sseReader(target, offset, onValue) {
    const controller = new AbortController();
    const opened = fetch(`${target}?offset=${offset}&live=sse`, { headers: { accept: "text/event-stream", ...identity }, signal: controller.signal }).then(
      (response) => {
        if (response.status !== 200) fail(`SSE ${target}: status ${response.status}`);
        readSse(response, ({ event, data }) => {
          if (event !== "data") return;
          const at = performance.now();
          for (const value of JSON.parse(data)) onValue(value, at);
        }).catch(() => {});
      },
    );
    return { opened, close: () => controller.abort() };
  }

  /** A long-poll reader loop from `offset`. */
  function longPollReader(target, offset, onValue) {
    const controller = new AbortController();
    let closed = false;
    const loop = (async () => {
      while (!closed) {
        let response;
        try {
          response = await fetch(`${target}?offset=${offset}&live=long-poll`, { headers: identity, signal: controller.signal });
        } catch (error) {
          if (closed) return;
          throw error;
        }
        if (response.status === 204) {
          offset = response.headers.get("stream-next-offset") ?? offset;
          await response.text();
          continue;
        }
        if (response.status !== 200) fail(`long-poll ${target}: status ${response.status}`);
        const values = await response.json();
        const at = performance.now();
        for (const value of values) onValue(value, at);
        offset = response.headers.get("stream-next-offset");
      }
    })();
    loop.catch(() => {});
    return {
      close: () => {
        closed = true;
        controller.abort();
      },
    };
  }

  /** The tail offset of a stream (HEAD). */
  async function tail(target) {
    const response = await fetch(target, { method: "HEAD" });
    if (response.status !== 200) fail(`HEAD ${target}: status ${response.status}`);
    return response.headers.get("stream-next-offset");
  }

  handle.workloads = {
    async single() {
      const target = await freshStream("single");
      return { send: (i) => append(target, JSON.stringify(eventAt(i))), verify: async () => {} };
    },

    async batch(size) {
      const target = await freshStream("batch");
      return { send: (i) => append(target, batchBody(i * size, size, (seq) => eventAt(seq))), verify: async () => {} };
    },

    async catchUp(count, { fill }) {
      const target = await freshStream("catchup");
      await fill((i, size) => append(target, batchBody(i * size, size, (seq) => eventAt(seq))));
      return async () => {
        const begin = performance.now();
        const { values, requests } = await readAll(target);
        const seconds = (performance.now() - begin) / 1000;
        if (values.length !== count) fail(`Durable Streams catch-up: read ${values.length} of ${count}`);
        // Order check (batches were appended concurrently: ordered within a batch, batches in any order).
        const seen = new Set(values.map((v) => v.payload.seq));
        if (seen.size !== count) fail(`Durable Streams catch-up: ${count - seen.size} duplicate values`);
        return { events: values.length, seconds, requests };
      };
    },

    async live(runLive) {
      const results = [];
      for (const transport of ["sse", "long-poll"]) {
        const target = await freshStream(`live-${transport}`);
        let onEvent = () => {};
        const offset = await tail(target);
        const reader =
          transport === "sse"
            ? sseReader(target, offset, (value, at) => onEvent(value, at))
            : longPollReader(target, offset, (value, at) => onEvent(value, at));
        try {
          await reader.opened;
          const result = await runLive({
            setReceiver: (fn) => {
              onEvent = fn;
            },
            append: (event) => append(target, JSON.stringify(event)),
          });
          results.push({ variant: transport === "sse" ? "SSE (live=sse)" : "long-poll (live=long-poll)", ...result });
        } finally {
          reader.close();
        }
      }
      return results;
    },

    /**
     * The protocol's consumers keep their own offsets: `consumers` SSE readers
     * from the start of a fresh stream, each must receive every value.
     */
    async fanout({ consumers, waitSeconds, appendConcurrency, appendAll }) {
      const target = await freshStream("fanout");
      const receivers = Array.from({ length: consumers }, (_, k) => ({ key: `r${k}`, count: 0, seen: new Set(), duplicates: 0, latencies: [], lastAt: 0 }));
      const readers = receivers.map((r) =>
        sseReader(target, "-1", (value) => {
          const now = Date.now();
          if (r.seen.has(value.payload.seq)) {
            r.duplicates++;
            return;
          }
          r.seen.add(value.payload.seq);
          r.count++;
          r.lastAt = now;
          r.latencies.push(now - value.payload.sentAt);
        }),
      );
      try {
        await Promise.all(readers.map((r) => r.opened));
        const firstAppendAt = Date.now();
        const appends = await appendAll((i, size) => append(target, batchBody(i * size, size, (seq) => eventAt(seq, Date.now()))), appendConcurrency);
        const total = appends.requests * appends.size;
        await waitUntil(() => receivers.every((r) => r.count >= total), {
          seconds: waitSeconds,
          describe: () => receivers.map((r) => `${r.key} ${r.count}/${total}`).join(", "),
        });
        const lastAt = Math.max(...receivers.map((r) => r.lastAt));
        return [
          {
            variant: `${consumers} SSE readers from offset -1 (client-held offsets)`,
            events: total,
            deliveries: receivers.reduce((n, r) => n + r.count, 0),
            duplicates: receivers.reduce((n, r) => n + r.duplicates, 0),
            seconds: (lastAt - firstAppendAt) / 1000,
            appendSeconds: appends.seconds,
            latency: summary(receivers.flatMap((r) => r.latencies)),
          },
        ];
      } finally {
        for (const r of readers) r.close();
      }
    },
  };
  return handle;
}
