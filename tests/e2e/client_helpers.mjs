// Shared by the TypeScript client's end-to-end tests (issue 22): the built
// client (clients/typescript/dist, built by `bash scripts/build-client`,
// which scripts/test runs), a fetch that records which documented operation
// each request was, and a TCP proxy in front of workerd whose connections a
// test can cut (a network blip) or whose upgrades it can refuse (a proxy
// without WebSocket support).
import { existsSync } from "node:fs";
import net from "node:net";
import { join } from "node:path";
import { ROOT } from "./harness.mjs";

const DIST = join(ROOT, "clients", "typescript", "dist", "index.js");
if (!existsSync(DIST)) throw new Error(`${DIST} is missing: run \`bash scripts/build-client\` first`);
export const client = await import(DIST);

/**
 * `fetch` that records `{operationId, method, url}` of every request (the
 * real fetch does the work). Most specific template first: a stream path
 * matches `.+`, so `/-/events/{offset}` is tried against its own template.
 */
export function recordingFetch() {
  const calls = [];
  const fetchAndRecord = async (url, init = {}) => {
    const { pathname } = new URL(url);
    const method = init.method ?? "GET";
    const candidates = Object.entries(client.OPERATIONS)
      .filter(([, op]) => op.method === method)
      .sort(([, a], [, b]) => b.path.length - a.path.length);
    let operationId;
    for (const [id, { path }] of candidates) {
      const pattern = path.replace("{path}", ".+").replace(/\{\w+\}/g, "[^/]+");
      if (new RegExp(`^${pattern}$`).test(pathname)) {
        operationId = id;
        break;
      }
    }
    calls.push({ operationId, method, url });
    return fetch(url, init);
  };
  return { fetch: fetchAndRecord, calls };
}

/**
 * A TCP proxy to `target` (host:port). `cut()` destroys every open
 * connection; with `refuseUpgrades` a request carrying `Upgrade:` is
 * answered 400 and closed (as some proxies do), everything else forwarded.
 */
export async function startProxy(targetUrl, { refuseUpgrades = false } = {}) {
  const target = new URL(targetUrl);
  const sockets = new Set();
  let connections = 0;
  const server = net.createServer((downstream) => {
    connections += 1;
    sockets.add(downstream);
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(upstream);
    const drop = () => {
      downstream.destroy();
      upstream.destroy();
      sockets.delete(downstream);
      sockets.delete(upstream);
    };
    downstream.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    if (!refuseUpgrades) {
      downstream.pipe(upstream);
      upstream.pipe(downstream);
      return;
    }
    let head = Buffer.alloc(0);
    const onData = (chunk) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end === -1 && head.length < 64 * 1024) return;
      downstream.off("data", onData);
      if (/\r\nupgrade:/i.test(head.subarray(0, end).toString("latin1"))) {
        downstream.end("HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
        upstream.destroy();
        return;
      }
      upstream.write(head);
      downstream.pipe(upstream);
      upstream.pipe(downstream);
    };
    downstream.on("data", onData);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    /** Connections accepted so far. */
    get connections() {
      return connections;
    },
    cut() {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    async close() {
      this.cut();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A port nothing listens on (listened on, then closed). */
export async function closedPort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Expects `promise` to reject with a TributaryError of `code` (and `status`); returns it. */
export async function rejectsWith(promise, code, status) {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof client.TributaryError)) throw new Error(`expected a TributaryError ${code}, got ${error?.stack ?? error}`);
    if (error.code !== code) throw new Error(`expected ${code}, got ${error.code}: ${error.message}`);
    if (status !== undefined && error.status !== status) throw new Error(`expected status ${status} for ${code}, got ${error.status}`);
    if (typeof error.message !== "string" || typeof error.details !== "object") throw new Error("error shape");
    return error;
  }
  throw new Error(`expected a TributaryError ${code}, but it resolved`);
}
