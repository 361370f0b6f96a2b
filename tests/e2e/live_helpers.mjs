// Shared helpers of the live-connection tests (live_delivery.test.mjs,
// live_connections.test.mjs; docs/design.md §10, §12): real clients — the
// `eventsource` package (automatic reconnect with Last-Event-ID) and Node's
// built-in WebSocket — that record every event and frame they receive,
// bounded waits on what they received, and the debug card's connections.
import assert from "node:assert/strict";
import http from "node:http";
import { randomBytes } from "node:crypto";
import { EventSource } from "eventsource";
import { streamUrl, TOKEN } from "./harness.mjs";
import { eventually, streamApi } from "./delivery_helpers.mjs";

let counter = 0;
/** A stream path no other test uses. */
export const fresh = (name) => `/e2e-live/${name}-${++counter}`;

export const offsets = (events) => events.map((e) => e.offset);

/** What a client may hold unacknowledged before it acks (LIVE_ACK_WINDOW_BYTES, src/limits.rs; the README). */
export const ACK_WINDOW = 64 * 1024;

/** `n` events of about `bytes` bytes each (payload padding). */
export const bigEvents = (n, bytes, type = "big", from = 0) =>
  Array.from({ length: n }, (_, k) => ({ type, payload: { i: from + k, pad: "x".repeat(bytes) } }));

/** Waits until `conn` has received every offset through `head` (or the given list). */
export async function receivedThrough(conn, expected, what = "events", timeoutMs = 15_000) {
  return eventually(
    () => {
      assert.deepEqual(offsets(conn.events), expected, `${what}: offsets received`);
    },
    { timeoutMs, what },
  );
}

export function assertError(res, status, code) {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  assert.ok(res.body && typeof res.body === "object" && res.body.error, `JSON error body: ${JSON.stringify(res.body)}`);
  if (code) assert.equal(res.body.error.code, code, JSON.stringify(res.body));
  assert.equal(typeof res.body.error.message, "string");
  assert.equal(typeof res.body.error.details, "object");
}

/**
 * The live clients of one file's Tributary: `tributary()` returns that
 * file's harness handle (started in its `before`). `openClients` holds a
 * close function for every client opened, for the file's `after`.
 */
export function liveClients(tributary) {
  const api = streamApi({ request: (...args) => tributary().request(...args) });

  /** Every client a test opened, closed at the end whatever happened. */
  const openClients = new Set();

  const liveUrl = (path, query = "") => `${tributary().url}${streamUrl(path, "live")}${query ? `?${query}` : ""}`;
  const wsUrl = (path, query) => liveUrl(path, query).replace(/^http/, "ws");

  /**
   * A WebSocket live connection. `events` holds every event received, in
   * arrival order; with `ack` (default) each events frame is acknowledged with
   * its last offset as soon as it arrives; with `ack: "window"` the client
   * the README describes acknowledges only once ACK_WINDOW bytes arrived
   * since its last ack (`acks` counts what it sent). `closed` resolves to
   * {code, reason}.
   */
  function openWs(path, query = "", { token = TOKEN, protocols, ack = true, init } = {}) {
    const ws = init
      ? new WebSocket(wsUrl(path, query), init)
      : new WebSocket(wsUrl(path, query), protocols ?? ["tributary.v1", `bearer.${token}`]);
    const conn = { ws, events: [], frames: [], pings: 0, ack, acks: 0, unacknowledged: 0, closeInfo: null };
    conn.opened = new Promise((resolve, reject) => {
      ws.addEventListener("open", () => resolve(ws.protocol), { once: true });
      ws.addEventListener("close", (e) => reject(new Error(`closed before open: ${e.code} ${e.reason}`)), { once: true });
      // A refused upgrade (non-101) fires `error` (Node's WebSocket may not fire `close` then).
      ws.addEventListener("error", () => reject(new Error("closed before open: error")), { once: true });
    });
    conn.opened.catch(() => {});
    conn.closed = new Promise((resolve) =>
      ws.addEventListener("close", (e) => {
        conn.closeInfo = { code: e.code, reason: e.reason };
        resolve(conn.closeInfo);
      }),
    );
    ws.addEventListener("message", (message) => {
      const frame = JSON.parse(message.data);
      conn.frames.push(frame);
      if (frame.type === "events") {
        conn.events.push(...frame.events);
        conn.unacknowledged += message.data.length;
        const due = conn.ack === "window" ? conn.unacknowledged >= ACK_WINDOW : conn.ack;
        if (due && ws.readyState === WebSocket.OPEN) {
          ws.send(JSON.stringify({ type: "ack", offset: frame.events.at(-1).offset }));
          conn.acks++;
          conn.unacknowledged = 0;
        }
      } else if (frame.type === "ping") conn.pings++;
    });
    conn.close = () => {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(1000, "done");
    };
    openClients.add(conn.close);
    return conn;
  }

  /**
   * An EventSource live connection (token through a custom fetch). `events`
   * holds every event in arrival order, `serverErrors` the data of the server's
   * `event: error` messages, `opens` how many times a stream opened (it
   * reconnects by itself with Last-Event-ID).
   */
  function openSse(path, query = "", { token = TOKEN, onServerError } = {}) {
    const requests = [];
    const es = new EventSource(liveUrl(path, query), {
      fetch: (input, init) => {
        requests.push({ lastEventId: init.headers?.["Last-Event-ID"] ?? null });
        return fetch(input, { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } });
      },
    });
    const conn = { es, events: [], serverErrors: [], transportErrors: [], opens: 0, requests };
    conn.opened = new Promise((resolve) => es.addEventListener("open", () => resolve(), { once: true }));
    es.addEventListener("open", () => conn.opens++);
    es.addEventListener("event", (message) => conn.events.push(JSON.parse(message.data)));
    es.addEventListener("error", (error) => {
      if (typeof error.data === "string") {
        const data = JSON.parse(error.data);
        conn.serverErrors.push(data);
        onServerError?.(data, conn);
      } else conn.transportErrors.push(error);
    });
    conn.close = () => es.close();
    openClients.add(conn.close);
    return conn;
  }

  /** The live card entries of `path` by connection key. */
  async function connectionsOf(path) {
    const card = await api.cardOk(path);
    assert.ok(Array.isArray(card.connections), `card has connections: ${JSON.stringify(card)}`);
    return Object.fromEntries(card.connections.map((c) => [c.connectionKey, c]));
  }

  /** Durable events of `path` (a range read), in order. */
  const durable = async (path) => (await api.readAll(path)).events;


  /** A raw WebSocket upgrade request: {upgraded, status, body, headers}. */
  function rawUpgrade(path, query = "", headers = {}) {
    const url = new URL(liveUrl(path, query));
    return new Promise((resolve, reject) => {
      const request = http.request({
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: "GET",
        headers: {
          connection: "Upgrade",
          upgrade: "websocket",
          "sec-websocket-version": "13",
          "sec-websocket-key": randomBytes(16).toString("base64"),
          ...headers,
        },
      });
      request.on("upgrade", (response, socket) => {
        socket.destroy();
        resolve({ upgraded: true, status: response.statusCode, headers: response.headers, body: null });
      });
      request.on("response", (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => {
          let body = text;
          try {
            body = JSON.parse(text);
          } catch {}
          resolve({ upgraded: false, status: response.statusCode, headers: response.headers, body });
        });
      });
      request.on("error", reject);
      request.setTimeout(10_000, () => request.destroy(new Error("raw upgrade timed out")));
      request.end();
    });
  }

  return { openClients, liveUrl, openWs, openSse, connectionsOf, durable, rawUpgrade };
}
