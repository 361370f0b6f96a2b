// The Durable Streams protocol through its official TypeScript client
// (@durable-streams/client, pinned in tests/durable-streams/package.json) for
// bench/peers.mjs (issue 30 "Performance"): the same workloads against any
// server speaking the protocol — Tributary's protocol face
// (`/v1/stream/{path}`, with the bearer token) and the reference server — so
// the two are compared through the same client, in one run.
//
// Streams are JSON-mode (`application/json`); each value is `eventAt(seq)`.
// - single: `append(JSON.stringify(value))`, client batching off, so each
//   append is one POST (BENCH_CONCURRENCY in flight, as the other systems).
// - batch: 100 `append`s fired together on a handle with the client's
//   batching on, awaited together: the client sends what overlaps as one POST
//   (a JSON array the server flattens, PROTOCOL §9.1). One `append` of a
//   100-value array would be ONE message: the client wraps each append's JSON
//   in an array itself.
// - catch-up: `stream({offset: "-1"}).json()`: the client follows
//   `Stream-Next-Offset` until `Stream-Up-To-Date` (`json()` stops there).
//   Not `live: false`: 0.2.7 then makes one request only, whatever
//   `Stream-Up-To-Date` says, and Tributary's pages hold at most 1,000
//   messages (§12) where the reference server answers the whole tail.
// - live: `stream({live: "sse" | "long-poll", offset: <tail>}).subscribeJson`.
import * as ds from "../../tests/durable-streams/client.mjs";
import { eventAt } from "./common.mjs";

const JSON_TYPE = "application/json";

/**
 * Workloads over `streamUrl(name)` with `headers` on every request (the
 * shape bench/peers.mjs runs: single, batch, catchUp, live).
 */
export function clientWorkloads({ streamUrl, headers = {} }) {
  let counter = 0;
  async function freshStream(prefix) {
    const url = streamUrl(`bench-client/${prefix}-${process.pid}-${++counter}`);
    const handle = await ds.DurableStream.create({ url, headers, contentType: JSON_TYPE, batching: false });
    const batching = new ds.DurableStream({ url, headers, contentType: JSON_TYPE, batching: true });
    return { url, handle, batching };
  }

  /** One append; null on success, else what went wrong (the runner counts failures). */
  async function append(handle, body) {
    try {
      await handle.append(body);
      return null;
    } catch (error) {
      return `append: ${error.message ?? error}`;
    }
  }

  /** `size` appends fired together on a batching handle; null when every one succeeded. */
  async function appendBatch(batching, first, size) {
    const outcomes = await Promise.all(Array.from({ length: size }, (_, k) => append(batching, JSON.stringify(eventAt(first + k)))));
    return outcomes.find((outcome) => outcome !== null) ?? null;
  }

  return {
    async single() {
      const { handle } = await freshStream("single");
      return { send: (i) => append(handle, JSON.stringify(eventAt(i))), verify: async () => {} };
    },

    async batch(size) {
      const { batching } = await freshStream("batch");
      return { send: (i) => appendBatch(batching, i * size, size), verify: async () => {} };
    },

    async catchUp(count, { fill }) {
      const { url, batching } = await freshStream("catchup");
      await fill((i, size) => appendBatch(batching, i * size, size));
      return async () => {
        const begin = performance.now();
        const values = await (await ds.stream({ url, headers, offset: "-1" })).json();
        const seconds = (performance.now() - begin) / 1000;
        if (values.length !== count) throw new Error(`client catch-up: read ${values.length} of ${count}`);
        const seen = new Set(values.map((v) => v.payload.seq));
        if (seen.size !== count) throw new Error(`client catch-up: ${count - seen.size} duplicate values`);
        return { events: values.length, seconds, requests: NaN };
      };
    },

    async live(runLive) {
      const results = [];
      for (const transport of ["sse", "long-poll"]) {
        const { url, handle } = await freshStream(`live-${transport}`);
        let onEvent = () => {};
        const { offset } = await handle.head();
        const controller = new AbortController();
        const reader = await ds.stream({ url, headers, live: transport, offset, signal: controller.signal });
        reader.subscribeJson((batch) => {
          const at = performance.now();
          for (const value of batch.items) onEvent(value, at);
        });
        try {
          const result = await runLive({
            setReceiver: (fn) => {
              onEvent = fn;
            },
            append: (event) => append(handle, JSON.stringify(event)),
          });
          results.push({ variant: `client ${transport === "sse" ? "SSE" : "long-poll"}`, ...result });
        } finally {
          controller.abort();
          await reader.closed?.catch(() => {});
        }
      }
      return results;
    },
  };
}
