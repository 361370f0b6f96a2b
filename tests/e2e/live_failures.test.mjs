// Live connections' failure paths end to end (docs/design.md §10, §12; issue 18):
// filtered readers far behind the head, subprotocol selection, sockets open
// across a fact committed by an alarm-woken object, connections counted from
// acceptance, and long-poll waiters that time out. Real clients: the
// `eventsource` package (automatic reconnect with Last-Event-ID) and Node's
// built-in WebSocket, against the built worker in workerd (Miniflare).
// Nothing is asserted absent after a fixed sleep: every expectation waits
// for an observable (an event arriving, a close, the card or a gauge moving),
// and every test ends with a request to another stream that must answer.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { EventSource } from "eventsource";
import { startTributary, streamUrl, TOKEN } from "./harness.mjs";
import { CONFIGURED, HALTED, eventually, streamApi } from "./delivery_helpers.mjs";
import { startReceiver } from "./webhook_receiver.mjs";
import { liveClients } from "./live_helpers.mjs";

let t;
let api;
let receiver;
before(async () => {
  [t, receiver] = await Promise.all([startTributary({ allowInsecureWebhooks: true }), startReceiver()]);
  api = streamApi(t);
});
after(async () => {
  for (const close of openClients) {
    try {
      close();
    } catch {}
  }
  await receiver?.close();
  await t?.cleanup();
});

let counter = 0;
/** A stream path no other test uses. */
const fresh = (name) => `/e2e-live-failures/${name}-${++counter}`;
const offsets = (events) => events.map((e) => e.offset);

/** Every client a test opened, closed at the end whatever happened. */
const openClients = new Set();
const liveUrl = (path, query = "") => `${t.url}${streamUrl(path, "live")}${query ? `?${query}` : ""}`;
const wsUrl = (path, query) => liveUrl(path, query).replace(/^http/, "ws");
const { rawUpgrade } = liveClients(() => t);

/** Another stream answers: the isolate is healthy after what a test did. */
async function anotherStreamAnswers() {
  const other = fresh("other");
  const event = await api.appendOk(other, { type: "still-here" });
  assert.equal(event.offset, 1);
  assert.equal((await api.infoOk(other)).head, 1);
}

/**
 * A WebSocket live connection; `events` in arrival order, each events frame
 * acknowledged with its last offset. `closed` resolves to {code, reason}.
 */
function openWs(path, query = "", { protocols = ["tributary.v1", `bearer.${TOKEN}`], ack = true, init } = {}) {
  const ws = new WebSocket(wsUrl(path, query), init ?? protocols);
  const conn = { ws, events: [], frames: [], pings: 0, closeInfo: null };
  conn.opened = new Promise((resolve, reject) => {
    ws.addEventListener("open", () => resolve(ws.protocol), { once: true });
    ws.addEventListener("close", (e) => reject(new Error(`closed before open: ${e.code} ${e.reason}`)), { once: true });
    ws.addEventListener("error", (e) => reject(new Error(`closed before open: ${e.message ?? "error"}`)), { once: true });
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
      if (ack && ws.readyState === WebSocket.OPEN) {
        ws.send(JSON.stringify({ type: "ack", offset: frame.events.at(-1).offset }));
      }
    } else if (frame.type === "ping") conn.pings++;
  });
  conn.close = () => {
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(1000, "done");
  };
  openClients.add(conn.close);
  return conn;
}

/** An EventSource live connection; `requests` records each (re)connect's Last-Event-ID. */
function openSse(path, query = "") {
  const requests = [];
  const es = new EventSource(liveUrl(path, query), {
    fetch: (input, init) => {
      requests.push({ lastEventId: init.headers?.["Last-Event-ID"] ?? null });
      return fetch(input, { ...init, headers: { ...init.headers, authorization: `Bearer ${TOKEN}` } });
    },
  });
  const conn = { es, events: [], progress: [], requests };
  es.addEventListener("event", (message) => conn.events.push(JSON.parse(message.data)));
  es.addEventListener("progress", (message) => conn.progress.push(JSON.parse(message.data)));
  conn.close = () => es.close();
  openClients.add(conn.close);
  return conn;
}

function assertError(res, status, code) {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  assert.equal(res.body?.error?.code, code, JSON.stringify(res.body));
  assert.equal(typeof res.body.error.message, "string");
}

/** The live card entries of `path` by connection key. */
async function connectionsOf(path) {
  const card = await api.cardOk(path);
  return Object.fromEntries(card.connections.map((c) => [c.connectionKey, c]));
}

// ---------------------------------------------------------------------------
// Issue 18 item 8: a filtered reader behind 17,000 non-matching events
// ---------------------------------------------------------------------------

/** A stream of 17,000 `noise` events, then one `signal`. */
async function noisyStream() {
  const path = fresh("noisy");
  for (let b = 0; b < 17; b++) {
    await api.batchOk(path, Array.from({ length: 1000 }, (_, k) => ({ type: "noise", payload: { i: b * 1000 + k } })));
  }
  const signal = await api.appendOk(path, { type: "signal", payload: "first" });
  assert.equal(signal.offset, 17_001);
  return { path, signal };
}

test("§10 (issue 18 #8): a filtered SSE reader behind 17,000 non-matching events gets the signal; each reconnect resumes at the scanned position", { timeout: 60_000 }, async () => {
  const { path, signal } = await noisyStream();
  const sse = openSse(path, "after=0&types=signal&connectionKey=sse-signal");
  await eventually(() => assert.deepEqual(offsets(sse.events), [signal.offset]), {
    timeoutMs: 30_000,
    what: "the signal after 17,000 noise events",
  });
  // One catch-up scans at most 16 pages of 1000 rows: the first response
  // ends with its scanned position as an `id:` (event: progress), and the
  // reconnect resumes there — it never rescans from the start.
  assert.ok(sse.progress.length >= 1, "a progress message carried the scanned position");
  assert.ok(sse.requests.length >= 2 && sse.requests.length <= 3, `reconnects: ${JSON.stringify(sse.requests)}`);
  assert.equal(sse.requests[0].lastEventId, null);
  const resumedAt = Number(sse.requests[1].lastEventId);
  assert.ok(resumedAt >= 16_000 && resumedAt < signal.offset, `resumed at ${resumedAt}`);
  // Caught up, it stays open and gets the next signal live.
  const next = await api.appendOk(path, { type: "signal", payload: "live" });
  await eventually(() => assert.deepEqual(offsets(sse.events), [signal.offset, next.offset]), { what: "the live signal" });
  assert.ok(sse.requests.length <= 3, "no further reconnects");
  sse.close();
  await anotherStreamAnswers();
});

test("§10 (issue 18 #8): a filtered WebSocket behind 17,000 non-matching events keeps scanning without an ack and gets the signal", { timeout: 60_000 }, async () => {
  const { path, signal } = await noisyStream();
  const ws = openWs(path, "after=0&types=signal&connectionKey=ws-signal");
  await ws.opened;
  await eventually(() => assert.deepEqual(offsets(ws.events), [signal.offset]), {
    timeoutMs: 30_000,
    what: "the signal after 17,000 noise events, with nothing to ack before it",
  });
  const card = await eventually(
    async () => {
      const entry = (await connectionsOf(path))["ws-signal"];
      assert.equal(entry?.caughtUp, true, JSON.stringify(entry));
      return entry;
    },
    { what: "the WebSocket caught up" },
  );
  assert.ok(card.deliveredThroughOffset >= signal.offset);
  const next = await api.appendOk(path, { type: "signal", payload: "live" });
  await eventually(() => assert.deepEqual(offsets(ws.events), [signal.offset, next.offset]), { what: "the live signal" });
  assert.equal(ws.closeInfo, null);
  ws.close();
  await anotherStreamAnswers();
});

// ---------------------------------------------------------------------------
// Issue 18 item 11: subprotocol selection
// ---------------------------------------------------------------------------

test("§10 (issue 18 #11): the server selects tributary.v1 when offered, no subprotocol otherwise, and never echoes the bearer", { timeout: 30_000 }, async () => {
  const path = fresh("subprotocol");
  await api.appendOk(path, { type: "x" });
  // Raw handshakes show exactly what the server answers.
  const bearerOnly = await rawUpgrade(path, "", { "sec-websocket-protocol": `bearer.${TOKEN}` });
  assert.equal(bearerOnly.upgraded, true, JSON.stringify(bearerOnly.body));
  assert.equal(bearerOnly.headers["sec-websocket-protocol"], undefined, "no subprotocol selected, the bearer not echoed");
  for (const offered of [`bearer.${TOKEN}, tributary.v1`, `tributary.v1, bearer.${TOKEN}`, `x.other, tributary.v1,bearer.${TOKEN}`]) {
    const both = await rawUpgrade(path, "", { "sec-websocket-protocol": offered });
    assert.equal(both.upgraded, true);
    assert.equal(both.headers["sec-websocket-protocol"], "tributary.v1", offered);
  }
  // A WHATWG client (Node's WebSocket, browsers) that offered subprotocols
  // refuses an answer that selects none (fetch's "establish a WebSocket
  // connection": "Server did not respond with sent protocols"), and the
  // server never selects the bearer: a client offering only `bearer.<t>`
  // therefore cannot connect — §10 clients offer `tributary.v1` with it.
  const bare = openWs(path, "", { protocols: [`bearer.${TOKEN}`] });
  await assert.rejects(bare.opened, /did not respond with sent protocols/);
  // Node's WebSocket offering both, in either order, connects with tributary.v1.
  for (const protocols of [[`bearer.${TOKEN}`, "tributary.v1"], ["tributary.v1", `bearer.${TOKEN}`]]) {
    const ws = openWs(path, "", { protocols });
    assert.equal(await ws.opened, "tributary.v1");
    await eventually(() => assert.deepEqual(offsets(ws.events), [1]), { what: "the replay" });
    ws.close();
  }
  await anotherStreamAnswers();
});

test("§10: binary frames on a live WebSocket are dropped, a large one and one spelling an ack; the connection goes on", { timeout: 30_000 }, async () => {
  const path = fresh("binary");
  await api.appendOk(path, { type: "x" });
  const ws = openWs(path);
  assert.equal(await ws.opened, "tributary.v1");
  await eventually(() => assert.deepEqual(offsets(ws.events), [1]), { what: "the replay" });
  // A large binary frame, and one whose bytes spell a text ack.
  ws.ws.send(new Uint8Array(512 * 1024).fill(0x61));
  ws.ws.send(new TextEncoder().encode(JSON.stringify({ type: "ack", offset: 1 })));
  await api.appendOk(path, { type: "y" });
  await eventually(() => assert.deepEqual(offsets(ws.events), [1, 2]), { what: "the next event after the binary frames" });
  assert.equal(ws.ws.readyState, WebSocket.OPEN);
  assert.equal(ws.frames.filter((frame) => frame.type === "error").length, 0, JSON.stringify(ws.frames));
  ws.close();
  await anotherStreamAnswers();
});

// ---------------------------------------------------------------------------
// Found by reading: a fact committed by an alarm-woken object
// ---------------------------------------------------------------------------

test("§10: a WebSocket open across an eviction receives the halt an alarm-woken object commits, in order, with no gap", { timeout: 60_000 }, async () => {
  const path = fresh("alarm-halt");
  const hook = `/live-failures/halt-${counter}`;
  receiver.script(hook, { status: 500 });
  const configured = await api.appendOk(path, {
    type: CONFIGURED,
    payload: {
      subscriptionKey: "hook",
      filter: { eventTypes: ["data"] },
      receiver: {
        action: "webhook-post",
        url: receiver.url(hook),
        // The retry comes ~4 s after the first failure: long enough to evict
        // the object in between, so the retry (and the halt) run in an
        // instance woken by its alarm alone.
        delivery: { start: "now", onFailingEvent: "halt", retry: { maxAttempts: 2, initialBackoffMs: 4000, maxBackoffMs: 4000 } },
      },
    },
  });
  const ws = openWs(path, "after=0&connectionKey=across-alarm");
  await ws.opened;
  const data = await api.appendOk(path, { type: "data", payload: 1 });
  await eventually(() => assert.deepEqual(offsets(ws.events), [configured.offset, data.offset]), { what: "replay and live" });
  await eventually(() => assert.equal(receiver.received(hook).length, 1), { what: "the first (failing) attempt" });
  await eventually(async () => assert.ok((await api.cardEntry(path, "hook")).runtime.attempt >= 1), { what: "attempt recorded" });
  // The ack has been handled (a ping sent after it is answered), so nothing
  // from the socket needs the object before the alarm.
  ws.ws.send(JSON.stringify({ type: "ping" }));
  await eventually(() => assert.equal(ws.pings, 1), { what: "ping answered" });
  await t.miniflare.unsafeEvictDurableObject("tributary", "StreamObject", {
    name: JSON.stringify(["project-a", path]),
    webSockets: "hibernate",
  });
  // No request reaches the stream now: its alarm wakes it, the retry fails,
  // the subscription halts, and the socket gets the halt fact.
  await eventually(() => assert.equal(receiver.received(hook).length, 2), { timeoutMs: 20_000, what: "the retry from the alarm" });
  await eventually(() => assert.equal(ws.events.length, 3), { timeoutMs: 15_000, what: "the halt fact on the open socket" });
  const halted = ws.events[2];
  assert.equal(halted.type, HALTED);
  assert.equal(halted.offset, data.offset + 1);
  const later = await api.appendOk(path, { type: "data", payload: 2 });
  await eventually(() => assert.equal(ws.events.length, 4), { what: "a later event" });
  const durable = (await api.readAll(path)).events;
  assert.deepEqual(offsets(ws.events), offsets(durable), "every offset once, in order, no gap");
  assert.equal(ws.events[3].offset, later.offset);
  assert.equal(ws.closeInfo, null);
  ws.close();
  await anotherStreamAnswers();
});

// ---------------------------------------------------------------------------
// Found by reading: connections count from acceptance; long-poll waiters
// ---------------------------------------------------------------------------

test("§10, §11: a long-poll that times out leaves nothing queued (tributary_live_long_poll_waiters)", { timeout: 40_000 }, async () => {
  const path = fresh("long-poll-gauge");
  await api.appendOk(path, { type: "only" });
  const waiters = async () => (await api.metricsOk(path)).tributary_live_long_poll_waiters;
  assert.equal(await waiters(), 0);
  const long = api.range(path, "after=1&waitMs=20000");
  await eventually(async () => assert.equal(await waiters(), 1), { what: "the long wait queued" });
  const short = await api.range(path, "after=1&waitMs=300");
  assert.equal(short.status, 200);
  assert.deepEqual(short.body.events, []);
  // The timed-out waiter is gone at once; the other still waits.
  assert.equal(await waiters(), 1, "only the long wait is queued");
  const second = await api.appendOk(path, { type: "second" });
  const answered = await long;
  assert.deepEqual(offsets(answered.body.events), [second.offset]);
  await eventually(async () => assert.equal(await waiters(), 0), { what: "the answered wait gone" });
  await anotherStreamAnswers();
});

// ---------------------------------------------------------------------------
// Found by reading: re-authentication keeps a token hash in the attachment
// ---------------------------------------------------------------------------

// Removing a token from API_TOKENS needs a new workerd (Miniflare restarts
// the process, and every WebSocket with it), so the 4401 close itself is
// tested natively (tests/engine_live_auth.rs). What an e2e run can show is
// the other side: a woken object keeps every socket whose token is still
// configured — by subprotocol or by header — even at the largest record.
test("§10: sockets whose token is still configured pass re-authentication on wake; the largest record (key, filter, path, token hash) fits the 2 KiB attachment", { timeout: 60_000 }, async () => {
  // A 512-byte path of 16 segments, a 256-byte key, 1024 bytes of types.
  const prefix = `/e2e-live-failures/big-${++counter}`;
  const segment = "s".repeat(Math.floor((512 - prefix.length) / 14) - 1);
  let path = prefix + `/${segment}`.repeat(14);
  path += "x".repeat(512 - path.length);
  assert.equal(path.length, 512);
  const key = "k".repeat(256);
  const types = [];
  while (types.join(",").length + 65 <= 1024) types.push(`t${types.length}`.padEnd(64, "y"));
  types[types.length - 1] += "z".repeat(1024 - types.join(",").length);
  assert.equal(types.join(",").length, 1024);
  const wanted = types.at(-1);
  await api.appendOk(path, { type: wanted, payload: 1 });
  const big = openWs(path, `after=0&connectionKey=${key}&types=${encodeURIComponent(types.join(","))}`);
  await big.opened;
  const byHeader = openWs(path, "after=0&connectionKey=header", {
    init: { protocols: ["tributary.v1"], headers: { authorization: `Bearer ${TOKEN}` } },
  });
  assert.equal(await byHeader.opened, "tributary.v1");
  await eventually(() => {
    assert.deepEqual(offsets(big.events), [1]);
    assert.deepEqual(offsets(byHeader.events), [1]);
  }, { what: "both replays" });
  for (const conn of [big, byHeader]) conn.ws.send(JSON.stringify({ type: "ping" }));
  await eventually(() => assert.ok(big.pings === 1 && byHeader.pings === 1), { what: "acks handled" });
  await t.miniflare.unsafeEvictDurableObject("tributary", "StreamObject", {
    name: JSON.stringify(["project-a", path]),
    webSockets: "hibernate",
  });
  // The append wakes a new instance, which re-authenticates both sockets.
  const next = await api.appendOk(path, { type: wanted, payload: 2 });
  await eventually(() => {
    assert.deepEqual(offsets(big.events), [1, next.offset]);
    assert.deepEqual(offsets(byHeader.events), [1, next.offset]);
  }, { what: "both still live after the wake" });
  assert.equal(big.closeInfo, null);
  assert.equal(byHeader.closeInfo, null);
  const card = await connectionsOf(path);
  assert.deepEqual(Object.keys(card).sort(), ["header", key].sort());
  assert.ok(!JSON.stringify(card).includes(TOKEN), "the card never shows a token");
  big.close();
  byHeader.close();
  await anotherStreamAnswers();
});

test("§10, §12: at most 1000 long-polls wait on one stream: the next is 429 too_many_waiters; a commit answers them all and frees the queue", { timeout: 90_000 }, async () => {
  const path = fresh("long-poll-limit");
  await api.appendOk(path, { type: "only" });
  const waiters = async () => (await api.metricsOk(path)).tributary_live_long_poll_waiters;
  const polls = [];
  for (let k = 0; k < 1000; k += 100) {
    polls.push(...Array.from({ length: 100 }, () => api.range(path, "after=1&waitMs=30000")));
    await eventually(async () => assert.equal(await waiters(), k + 100), { timeoutMs: 30_000, what: `${k + 100} waiting` });
  }
  assertError(await api.range(path, "after=1&waitMs=30000"), 429, "too_many_waiters");
  // An ordinary read still answers at the limit.
  assert.equal((await api.range(path, "after=0")).status, 200);
  const second = await api.appendOk(path, { type: "second" });
  const answers = await Promise.all(polls);
  for (const answer of answers) {
    assert.equal(answer.status, 200);
    assert.deepEqual(offsets(answer.body.events), [second.offset]);
  }
  assert.equal(await waiters(), 0);
  const again = await api.range(path, "after=2&waitMs=200");
  assert.deepEqual(again.body.events, [], "room again: it waits and times out");
  await anotherStreamAnswers();
});
