// Coalesced WebSocket acknowledgements end to end (docs/design.md §10, §12;
// issue 20) against the built worker in workerd, with Node's WebSocket
// (live_helpers.mjs): the client the README describes acks only once 64 KiB
// arrived since its last ack, and is never closed as a slow consumer, on a
// replay or live; a client that acks every frame still works and costs no
// attachment write per ack; an object evicted between coalesced acks (its
// sockets hibernating) goes on with no gap and no duplicate; malformed or
// hostile acks change nothing. Counters come from the stream's /-/metrics
// (the object's own since it started). Nothing is asserted absent after a
// sleep: every wait is for an observable (frames arriving, a counter).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary } from "./harness.mjs";
import { eventually, streamApi } from "./delivery_helpers.mjs";
import { fresh, offsets, bigEvents, receivedThrough, liveClients, ACK_WINDOW } from "./live_helpers.mjs";

let t;
let api;
before(async () => {
  t = await startTributary();
  api = streamApi(t);
});
after(async () => {
  for (const close of openClients) {
    try {
      close();
    } catch {}
  }
  await t?.cleanup();
});

const { openClients, openWs, connectionsOf, durable } = liveClients(() => t);

const MiB = 1024 * 1024;
const range = (from, to) => Array.from({ length: to - from + 1 }, (_, k) => from + k);
const frameBytes = (conn) => conn.frames.reduce((sum, f) => sum + JSON.stringify(f).length, 0);

/** Appends `batches` batches of `per` events of ~`bytes` bytes, waiting for `conn` to have each. */
async function appendWatched(path, conn, { batches, per, bytes }) {
  for (let b = 0; b < batches; b++) {
    await api.batchOk(path, bigEvents(per, bytes, "live", b * per));
    const all = offsets(await durable(path));
    await Promise.race([
      receivedThrough(conn, all, `batch ${b}`),
      conn.closed.then((info) => assert.fail(`closed after batch ${b}: ${JSON.stringify(info)}`)),
    ]);
  }
}

test("§10, §12: a WebSocket that acks once per 64 KiB follows a 2 MiB replay and 1.2 MiB live without a slow_consumer close, with one ack per window", { timeout: 60_000 }, async () => {
  const path = fresh("window-acks");
  for (let b = 0; b < 4; b++) await api.batchOk(path, bigEvents(100, 5000, "old", b * 100));
  const ws = openWs(path, "after=0", { ack: "window" });
  await ws.opened;
  const replayed = offsets(await durable(path));
  await receivedThrough(ws, replayed, "the replay, paced by coalesced acks", 30_000);
  // Live: 200 frames of ~6 KiB, more than the 1 MiB backlog if nothing were acknowledged.
  await appendWatched(path, ws, { batches: 200, per: 10, bytes: 500 });
  assert.equal(ws.closeInfo, null);
  assert.deepEqual(offsets(ws.events), range(1, 400 + 2000), "every offset once, in order");
  const bytes = frameBytes(ws);
  assert.ok(bytes > 3 * MiB, `${bytes} bytes received`);
  assert.ok(ws.acks <= Math.ceil(bytes / ACK_WINDOW), `${ws.acks} acks for ${bytes} bytes`);
  // The server handled each ack the client sent, and saved far fewer records than frames.
  await eventually(async () => assert.equal((await api.metricsOk(path)).tributary_live_acks_total, ws.acks), { what: "every ack handled" });
  const metrics = await api.metricsOk(path);
  assert.ok(metrics.tributary_live_attachment_writes_total < ws.frames.length / 4, JSON.stringify(metrics));
  ws.close();
});

test("§10: a WebSocket that acks every frame still works; its acks are engine calls, not attachment writes", { timeout: 30_000 }, async () => {
  const path = fresh("frame-acks");
  await api.appendOk(path, { type: "first" });
  const ws = openWs(path, "after=0");
  await ws.opened;
  await receivedThrough(ws, [1]);
  for (let k = 0; k < 100; k++) await api.appendOk(path, { type: "t", payload: k });
  await receivedThrough(ws, range(1, 101));
  await eventually(async () => assert.equal((await api.metricsOk(path)).tributary_live_acks_total, ws.frames.length), { what: "every ack handled" });
  const metrics = await api.metricsOk(path);
  // Small frames: no ack moves the record by 64 KiB; the sends save it every 32.
  assert.ok(metrics.tributary_live_attachment_writes_total <= 1 + Math.ceil(101 / 32), JSON.stringify(metrics));
  assert.equal(metrics.tributary_live_frames_serialized_total, metrics.tributary_live_frames_sent_total, "one reader: one frame each");
  ws.close();
});

test("§10: an object evicted between coalesced acks (sockets hibernating) goes on with no gap and no duplicate, and its reader is never slow", { timeout: 60_000 }, async () => {
  const path = fresh("evict-between-acks");
  await api.appendOk(path, { type: "t", payload: 0 });
  // Opened one after the other: local workerd cannot evict an object that
  // accepted two concurrent upgrades ("it still has active references").
  const a = openWs(path, "connectionKey=a", { ack: "window" });
  await a.opened;
  const b = openWs(path, "connectionKey=b", { ack: "window" });
  await b.opened;
  // 40 small frames: a record save at the 32nd send, no ack yet (far below 64 KiB).
  for (let k = 1; k < 40; k++) await api.appendOk(path, { type: "t", payload: k });
  await receivedThrough(a, range(1, 40));
  await receivedThrough(b, range(1, 40));
  assert.equal(a.acks + b.acks, 0, "nothing acknowledged before the eviction");
  assert.equal((await api.metricsOk(path)).tributary_live_connections_opened_total, 2);
  await t.miniflare.unsafeEvictDurableObject("tributary", "StreamObject", {
    name: JSON.stringify(["project-a", path]),
    webSockets: "hibernate",
  });
  // The woken object has the records as saved; the sockets go on exactly.
  for (let k = 0; k < 10; k++) await api.appendOk(path, { type: "t", payload: 40 + k });
  await receivedThrough(a, range(1, 50), "a after the eviction");
  await receivedThrough(b, range(1, 50), "b after the eviction");
  const metrics = await api.metricsOk(path);
  assert.equal(metrics.tributary_live_connections_opened_total, 0, "a new instance took over");
  assert.equal(metrics.tributary_live_connections, 2);
  const card = await connectionsOf(path);
  assert.equal(card.a.deliveredThroughOffset, 50);
  // ~1.2 MiB more: coalesced acks reach the woken object and keep both open.
  await appendWatched(path, a, { batches: 120, per: 10, bytes: 1000 });
  await receivedThrough(b, offsets(await durable(path)), "b after 1.2 MiB");
  assert.equal(a.closeInfo, null);
  assert.equal(b.closeInfo, null);
  assert.ok(a.acks > 0 && b.acks > 0);
  assert.deepEqual(a.events, await durable(path));
  assert.deepEqual(b.events, await durable(path));
  a.close();
  b.close();
});

test("§10: malformed and hostile acks are ignored or harmless: the socket keeps its order and the object stays up", { timeout: 30_000 }, async () => {
  const path = fresh("hostile-acks");
  await api.appendOk(path, { type: "first" });
  const ws = openWs(path, "after=0", { ack: false });
  await ws.opened;
  await receivedThrough(ws, [1]);
  for (const message of [
    "not json",
    "{}",
    JSON.stringify({ type: "ack" }),
    JSON.stringify({ type: "ack", offset: -1 }),
    JSON.stringify({ type: "ack", offset: "1" }),
    JSON.stringify({ type: "ack", offset: 2 ** 60 }),
    JSON.stringify({ type: "ack", offset: Number.MAX_SAFE_INTEGER }),
    JSON.stringify({ type: "ack", offset: 1, extra: "x".repeat(100_000) }),
    JSON.stringify({ type: "ping" }),
  ]) {
    ws.ws.send(message);
  }
  // The ping is answered after every ack before it was handled.
  await eventually(() => assert.equal(ws.pings, 1), { what: "pong after the acks" });
  const before = await api.metricsOk(path);
  assert.equal(before.tributary_live_acks_total, 3, "the well-formed acks: offsets 2^60, 2^53-1, and 1 with an extra field");
  for (let k = 0; k < 5; k++) await api.appendOk(path, { type: "t", payload: k });
  await receivedThrough(ws, range(1, 6));
  assert.equal(ws.closeInfo, null);
  ws.close();
});
