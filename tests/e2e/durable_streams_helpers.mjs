// Shared pieces of the Durable Streams client e2e tests (issue 30, docs/design.md §17): the
// official TypeScript client (pinned in tests/durable-streams/package.json), and the server
// the tests run against — the built worker in workerd with the e2e bearer token, or, with
// TRIBUTARY_DS_TARGET=reference, the Durable Streams reference server (file-backed, so a
// restart keeps its streams) to check the tests themselves.
import { rmSync } from "node:fs";
import { freshStateDir, startTributary, TOKEN } from "./harness.mjs";

export * as ds from "../durable-streams/client.mjs";

/** The bearer header every protocol request of these tests carries (scope of project-a). */
export const AUTH = { authorization: `Bearer ${TOKEN}` };

/**
 * A server speaking the protocol: {label, url (origin), streamUrl(path), restart(), cleanup(),
 * tributary (the harness handle, or null for the reference server)}. `options` go to
 * startTributary.
 */
export async function startFace(options = {}) {
  if (process.env.TRIBUTARY_DS_TARGET === "reference") return startReference();
  const t = await startTributary(options);
  return {
    label: "Tributary",
    get url() {
      return t.url;
    },
    streamUrl: (path) => `${t.url}/v1/stream/${path}`,
    restart: () => t.restart(),
    cleanup: () => t.cleanup(),
    tributary: t,
  };
}

async function startReference() {
  const { DurableStreamTestServer } = await import("@durable-streams/server");
  const dataDir = freshStateDir("tributary-ds-reference-");
  const start = async () => {
    const server = new DurableStreamTestServer({ host: "127.0.0.1", port: 0, dataDir, longPollTimeout: 2000 });
    return { server, url: (await server.start()).replace(/\/$/, "") };
  };
  let current = await start();
  return {
    label: "reference server",
    get url() {
      return current.url;
    },
    streamUrl: (path) => `${current.url}/v1/stream/${path}`,
    async restart() {
      await current.server.stop();
      current = await start();
    },
    async cleanup() {
      await current.server.stop().catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    },
    tributary: null,
  };
}

let counter = 0;
/** A stream path no other test uses (no leading slash: `/v1/stream/{path}`). */
export const freshPath = (name) => `e2e-ds/${name}-${process.pid}-${++counter}`;

/**
 * Collects what a live subscription delivers: `items` (every JSON item, in order), `offset`
 * (the last batch's offset), and `until(n)`, resolving when n items arrived (bounded).
 */
export function collector() {
  const state = { items: [], offset: undefined, batches: 0 };
  const waiters = [];
  state.push = (batch) => {
    state.items.push(...batch.items);
    state.offset = batch.offset;
    state.batches++;
    for (const w of [...waiters]) if (state.items.length >= w.n) w.resolve();
  };
  state.until = (n, timeoutMs = 15_000) =>
    new Promise((resolve, reject) => {
      if (state.items.length >= n) return resolve();
      const timer = setTimeout(() => reject(new Error(`received ${state.items.length} of ${n} items within ${timeoutMs} ms: ${JSON.stringify(state.items)}`)), timeoutMs);
      waiters.push({
        n,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  return state;
}
