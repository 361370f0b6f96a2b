// The official Durable Streams TypeScript client (@durable-streams/client, pinned in
// tests/durable-streams/package.json) against Tributary's protocol face, /v1/stream/{path}
// (issue 30, docs/design.md §17), with the real bearer token: it creates streams, appends JSON and
// bytes, reads them back, follows live (long-poll and SSE) and resumes from its last offset
// after the connection drops (the reader aborted; the worker restarted on the same state), and
// writes through an IdempotentProducer (batches deduplicated, a stale epoch fenced).
// TRIBUTARY_DS_TARGET=reference runs the same tests against the reference server.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { ds, AUTH, startFace, freshPath, collector } from "./durable_streams_helpers.mjs";

let face;
before(async () => {
  face = await startFace();
});
after(async () => {
  await face?.cleanup();
});

const handle = (path, extra = {}) => new ds.DurableStream({ url: face.streamUrl(path), headers: AUTH, ...extra });
const create = (path, contentType) => ds.DurableStream.create({ url: face.streamUrl(path), headers: AUTH, contentType });
/** The client's append takes a JSON message as its text (0.2.7 serializes nothing itself). */
const json = (value) => JSON.stringify(value);
const readAll = async (path, opts = {}) => (await ds.stream({ url: face.streamUrl(path), headers: AUTH, live: false, ...opts })).json();

test("the TypeScript client creates a JSON stream, appends single and batched messages, and reads them back in order", async () => {
  const path = freshPath("ts-json");
  const stream = await create(path, "application/json");
  await stream.append(json({ n: 1, text: "héllo" }));
  await Promise.all([stream.append(json({ n: 2 })), stream.append(json({ n: 3 })), stream.append(json([4, "a nested array is one message"]))]);
  const items = await readAll(path);
  assert.deepEqual(items[0], { n: 1, text: "héllo" });
  assert.deepEqual(new Set(items.slice(1, 3).map((i) => i.n)), new Set([2, 3]));
  assert.deepEqual(items[3], [4, "a nested array is one message"]);
  assert.equal(items.length, 4);

  const head = await stream.head();
  assert.equal(head.exists, true);
  assert.match(head.contentType, /^application\/json/);
  const tail = await readAll(path, { offset: head.offset });
  assert.deepEqual(tail, [], "nothing after the tail offset HEAD reports");
  const connected = await ds.DurableStream.connect({ url: face.streamUrl(path), headers: AUTH });
  assert.match(connected.contentType, /^application\/json/);
});

test("the TypeScript client round-trips every byte value through a binary stream", async () => {
  const path = freshPath("ts-bytes");
  const stream = await create(path, "application/octet-stream");
  const first = Uint8Array.from({ length: 256 }, (_, i) => i);
  const second = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) % 256);
  await stream.append(first);
  await stream.append(second);
  const body = await (await ds.stream({ url: face.streamUrl(path), headers: AUTH, live: false })).body();
  assert.deepEqual([...body], [...first, ...second]);
});

test("the TypeScript client follows a stream live by long-poll and resumes from its offset after aborting", async () => {
  const path = freshPath("ts-long-poll");
  const stream = await create(path, "application/json");
  await stream.append(json({ n: 1 }));
  const seen = collector();
  const controller = new AbortController();
  const live = await ds.stream({ url: face.streamUrl(path), headers: AUTH, live: "long-poll", signal: controller.signal });
  live.subscribeJson((batch) => seen.push(batch));
  await seen.until(1);
  await stream.append(json({ n: 2 })); // a live append, while the reader waits at the tail
  await seen.until(2);
  assert.deepEqual(seen.items, [{ n: 1 }, { n: 2 }]);

  controller.abort(); // the connection drops
  await live.closed.catch(() => {});
  await stream.append(json({ n: 3 }));
  await stream.append(json({ n: 4 }));

  const resumed = collector();
  const again = await ds.stream({ url: face.streamUrl(path), headers: AUTH, live: "long-poll", offset: seen.offset });
  again.subscribeJson((batch) => resumed.push(batch));
  await resumed.until(2);
  await stream.close(); // the end of the stream ends the live session
  await again.closed;
  assert.deepEqual(resumed.items, [{ n: 3 }, { n: 4 }], "exactly what was appended after the saved offset");
  assert.equal(again.streamClosed, true);
});

test("the TypeScript client follows by SSE and resumes from its offset after the worker restarts", async () => {
  const path = freshPath("ts-sse");
  await create(path, "application/json");
  const writer = () => handle(path, { contentType: "application/json" });
  const seen = collector();
  const live = await ds.stream({ url: face.streamUrl(path), headers: AUTH, live: "sse" });
  live.subscribeJson((batch) => seen.push(batch));
  await writer().append(json({ n: 1 }));
  await seen.until(1);
  await writer().append(json({ n: 2 }));
  await seen.until(2);
  assert.deepEqual(seen.items, [{ n: 1 }, { n: 2 }]);
  const saved = seen.offset;
  live.cancel();

  await face.restart(); // same state, new address: every connection dropped
  await writer().append(json({ n: 3 }));
  const resumed = collector();
  const again = await ds.stream({ url: face.streamUrl(path), headers: AUTH, live: "sse", offset: saved });
  again.subscribeJson((batch) => resumed.push(batch));
  await resumed.until(1);
  await writer().append(json({ n: 4 }));
  await resumed.until(2);
  again.cancel();
  assert.deepEqual(resumed.items, [{ n: 3 }, { n: 4 }]);
});

test("an IdempotentProducer's batches land once each, a retried batch is a duplicate, and a newer epoch fences the old producer", async () => {
  const path = freshPath("ts-producer");
  const stream = await create(path, "application/json");
  const errors = [];
  const producer = new ds.IdempotentProducer(stream, "ts-producer", { lingerMs: 1, onError: (e) => errors.push(e) });
  for (let i = 0; i < 25; i++) producer.append(JSON.stringify({ i }));
  await producer.flush();
  assert.deepEqual(errors, []);
  assert.deepEqual(await readAll(path), Array.from({ length: 25 }, (_, i) => ({ i })));

  // The first batch sent again, as a retry after a lost response: acknowledged, not appended.
  const retry = await fetch(face.streamUrl(path), {
    method: "POST",
    headers: { ...AUTH, "content-type": "application/json", "producer-id": "ts-producer", "producer-epoch": "0", "producer-seq": "0" },
    body: JSON.stringify([{ i: 0 }]),
  });
  await retry.text();
  assert.equal(retry.status, 204, "a duplicate is 204");
  assert.equal((await readAll(path)).length, 25);

  // A restarted producer claims epoch 1; the old one's next batch is refused (403, stale epoch).
  const successor = new ds.IdempotentProducer(stream, "ts-producer", { epoch: 1, lingerMs: 1 });
  successor.append(JSON.stringify({ from: "epoch 1" }));
  await successor.flush();
  producer.append(JSON.stringify({ from: "zombie" }));
  await producer.flush().catch((e) => errors.push(e));
  assert.ok(errors.some((e) => e instanceof ds.StaleEpochError), `a StaleEpochError, got ${errors.map((e) => `${e.name}: ${e.message}`).join("; ")}`);
  const items = await readAll(path);
  assert.deepEqual(items.at(-1), { from: "epoch 1" });
  assert.equal(items.length, 26, "the zombie's message is not in the stream");
});
