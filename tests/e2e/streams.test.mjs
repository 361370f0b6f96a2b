// End-to-end capabilities of a stream (docs/design.md §2, §3, §11), against the
// built worker running in workerd. One Tributary per file; every test uses
// its own stream paths so tests are independent of each other's order.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary, streamUrl, TOKEN, OTHER_TOKEN } from "./harness.mjs";

let t;
before(async () => {
  t = await startTributary();
});
after(async () => {
  await t?.cleanup();
});

let counter = 0;
/** A stream path no other test uses. */
const fresh = (name) => `/e2e-streams/${name}-${++counter}`;

// RFC 3339, UTC, with exactly millisecond precision.
const RFC3339_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(Z|\+00:00)$/;
const STREAM_ID = /^\S+$/;

const append = (path, body, opts = {}) =>
  t.request("POST", streamUrl(path, "events"), { body, ...opts });
const info = (path, opts = {}) => t.request("GET", streamUrl(path), opts);
const range = (path, query = "", opts = {}) =>
  t.request("GET", `${streamUrl(path, "events")}${query ? `?${query}` : ""}`, opts);
const point = (path, offset, opts = {}) =>
  t.request("GET", `${streamUrl(path, "events")}/${offset}`, opts);

async function appendOk(path, event, opts) {
  const res = await append(path, event, opts);
  assert.equal(res.status, 201, `append should be 201: ${JSON.stringify(res.body)}`);
  return res.body;
}

async function batchOk(path, events, opts) {
  const res = await append(path, { events }, opts);
  assert.equal(res.status, 201, `batch append should be 201: ${JSON.stringify(res.body)}`);
  return res.body;
}

function assertError(res, status, code) {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  assert.equal(typeof res.body, "object", `error body must be JSON: ${res.body}`);
  assert.ok(res.body && res.body.error, `error body must have "error": ${JSON.stringify(res.body)}`);
  if (code) assert.equal(res.body.error.code, code);
  assert.equal(typeof res.body.error.message, "string");
  assert.equal(typeof res.body.error.details, "object");
}

async function infoOk(path, opts) {
  const res = await info(path, opts);
  assert.equal(res.status, 200, `info should be 200: ${JSON.stringify(res.body)}`);
  return res.body;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------
// Append: single and batch
// ---------------------------------------------------------------------------

test("§3: single append returns 201 {event, deduplicated:false} with offset 1 and the committed event shape", async () => {
  const path = fresh("single");
  const body = await appendOk(path, { type: "order.created", payload: { id: 7, items: ["a", "b"] } });
  assert.deepEqual(Object.keys(body).sort(), ["deduplicated", "event"]);
  assert.equal(body.deduplicated, false);
  const e = body.event;
  assert.equal(e.offset, 1);
  assert.equal(typeof e.offset, "number", "offsets are JSON numbers");
  assert.equal(e.type, "order.created");
  assert.deepEqual(e.payload, { id: 7, items: ["a", "b"] });
  assert.deepEqual(e.metadata, {}, "metadata defaults to {}");
  assert.match(e.createdAt, RFC3339_MILLIS);
  assert.ok(Math.abs(Date.parse(e.createdAt) - Date.now()) < 60_000, "createdAt is about now");
  assert.equal(e.source, undefined, "a public append carries no source");
});

test("§3: single appends get contiguous offsets 1, 2, 3, … and keep metadata", async () => {
  const path = fresh("contiguous");
  const offsets = [];
  for (let i = 0; i < 5; i++) {
    const { event } = await appendOk(path, { type: "tick", payload: i, metadata: { n: i } });
    offsets.push(event.offset);
    assert.equal(event.payload, i);
    assert.deepEqual(event.metadata, { n: i });
  }
  assert.deepEqual(offsets, [1, 2, 3, 4, 5]);
  const i = await infoOk(path);
  assert.equal(i.head, 5);
  assert.equal(i.eventCount, 5);
});

test("§3: batch append returns 201 {events, deduplicated:[...]} with contiguous offsets", async () => {
  const path = fresh("batch");
  await appendOk(path, { type: "first" });
  const body = await batchOk(path, [
    { type: "b1", payload: 1 },
    { type: "b2", payload: { x: true }, metadata: { m: 1 } },
    { type: "b3" },
  ]);
  assert.deepEqual(Object.keys(body).sort(), ["deduplicated", "events"]);
  assert.deepEqual(body.deduplicated, [false, false, false]);
  assert.deepEqual(body.events.map((e) => e.offset), [2, 3, 4]);
  assert.deepEqual(body.events.map((e) => e.type), ["b1", "b2", "b3"]);
  assert.deepEqual(body.events[1].payload, { x: true });
  assert.deepEqual(body.events[1].metadata, { m: 1 });
  assert.deepEqual(body.events[2].metadata, {});
  for (const e of body.events) assert.match(e.createdAt, RFC3339_MILLIS);
  const next = await appendOk(path, { type: "after" });
  assert.equal(next.event.offset, 5);
});

test("§3 rule 3: a batch whose 3rd event is invalid commits nothing (all-or-nothing)", async () => {
  const path = fresh("batch-atomic");
  await batchOk(path, [{ type: "seed1" }, { type: "seed2" }]);
  const res = await append(path, {
    events: [{ type: "ok1" }, { type: "ok2" }, { type: "has space" }, { type: "ok4" }],
  });
  assertError(res, 400, "invalid_event");
  const i = await infoOk(path);
  assert.equal(i.head, 2, "head unchanged");
  assert.equal(i.eventCount, 2, "eventCount unchanged");
  const r = await range(path);
  assert.equal(r.status, 200);
  assert.deepEqual(r.body.events.map((e) => e.type), ["seed1", "seed2"]);
  // The next good append continues right after the seed: no offsets were burnt.
  const next = await appendOk(path, { type: "ok" });
  assert.equal(next.event.offset, 3);
});

test("§3 rule 3: a failing batch on a never-written stream does not create it", async () => {
  const path = fresh("batch-atomic-new");
  const res = await append(path, { events: [{ type: "ok1" }, { type: "ok2" }, { type: "" }] });
  assertError(res, 400, "invalid_event");
  assertError(await info(path), 404, "stream_not_found");
});

// ---------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------

test("§3: range read returns {streamId, streamCreatedAt, path, head, events, nextAfter}", async () => {
  const path = fresh("range");
  await batchOk(path, [1, 2, 3, 4, 5].map((n) => ({ type: "n", payload: n })));
  const res = await range(path, "after=1&limit=2");
  assert.equal(res.status, 200);
  const b = res.body;
  assert.deepEqual(
    Object.keys(b).sort(),
    ["events", "head", "nextAfter", "path", "streamCreatedAt", "streamId"],
  );
  assert.equal(b.path, path);
  assert.match(b.streamId, STREAM_ID);
  assert.match(b.streamCreatedAt, RFC3339_MILLIS);
  assert.equal(b.head, 5);
  assert.deepEqual(b.events.map((e) => e.offset), [2, 3], "after is exclusive");
  assert.deepEqual(b.events.map((e) => e.payload), [2, 3]);
  assert.equal(b.nextAfter, 3);
  const i = await infoOk(path);
  assert.equal(b.streamId, i.streamId);
  assert.equal(b.streamCreatedAt, i.streamCreatedAt);
});

test("§3: paging with nextAfter walks every event exactly once", async () => {
  const path = fresh("paging");
  await batchOk(path, Array.from({ length: 23 }, (_, n) => ({ type: "p", payload: n + 1 })));
  const seen = [];
  let after = 0;
  for (let page = 0; page < 20; page++) {
    const res = await range(path, `after=${after}&limit=5`);
    assert.equal(res.status, 200);
    assert.ok(res.body.events.length <= 5);
    if (res.body.events.length === 0) break;
    seen.push(...res.body.events.map((e) => e.offset));
    assert.ok(res.body.nextAfter > after, "nextAfter advances");
    after = res.body.nextAfter;
  }
  assert.deepEqual(seen, Array.from({ length: 23 }, (_, n) => n + 1));
  const tail = await range(path, `after=${after}&limit=5`);
  assert.equal(tail.status, 200);
  assert.deepEqual(tail.body.events, []);
  assert.equal(tail.body.head, 23);
});

test("§3: range read defaults to after=0 and limit=100", async () => {
  const path = fresh("default-limit");
  await batchOk(path, Array.from({ length: 150 }, (_, n) => ({ type: "x", payload: n + 1 })));
  const res = await range(path);
  assert.equal(res.status, 200);
  assert.equal(res.body.head, 150);
  assert.equal(res.body.events.length, 100);
  assert.equal(res.body.events[0].offset, 1);
  assert.equal(res.body.events[99].offset, 100);
  assert.equal(res.body.nextAfter, 100);
  const rest = await range(path, `after=${res.body.nextAfter}`);
  assert.deepEqual(rest.body.events.map((e) => e.offset), Array.from({ length: 50 }, (_, n) => n + 101));
});

test("§3: point read returns {streamId, streamCreatedAt, path, event}", async () => {
  const path = fresh("point");
  const { events } = await batchOk(path, [
    { type: "a", payload: { v: 1 } },
    { type: "b", payload: { v: 2 }, metadata: { k: "m" } },
  ]);
  const res = await point(path, 2);
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(res.body).sort(), ["event", "path", "streamCreatedAt", "streamId"]);
  assert.equal(res.body.path, path);
  assert.match(res.body.streamCreatedAt, RFC3339_MILLIS);
  assert.deepEqual(res.body.event, events[1], "point read returns the committed event verbatim");
  const i = await infoOk(path);
  assert.equal(res.body.streamId, i.streamId);
});

test("§3 rule 5: point read includes ephemeral events", async () => {
  const path = fresh("point-ephemeral");
  await appendOk(path, { type: "durable" });
  const { event } = await appendOk(path, { type: "blip", payload: 1, ephemeral: true });
  assert.equal(event.offset, 2);
  const res = await point(path, 2);
  assert.equal(res.status, 200);
  assert.equal(res.body.event.type, "blip");
  assert.equal(res.body.event.ephemeral, true);
});

test("§3: point read of a missing offset is 404 event_not_found", async () => {
  const path = fresh("point-missing");
  await appendOk(path, { type: "only" });
  assertError(await point(path, 2), 404, "event_not_found");
  assertError(await point(path, 999999), 404, "event_not_found");
  // and the read changed nothing
  assert.equal((await infoOk(path)).head, 1);
});

test("§3, §11, §16, §17, §18: stream info returns {streamId, streamCreatedAt, path, head, eventCount, firstOffset, retention, bytes, trimmedEvents, inboundFenceCount, contentType, closed, expiry, forks, state}", async () => {
  const path = fresh("info");
  const first = await appendOk(path, { type: "one" });
  await appendOk(path, { type: "two" });
  const i = await infoOk(path);
  assert.deepEqual(
    Object.keys(i).sort(),
    ["bytes", "closed", "contentType", "eventCount", "expiry", "firstOffset", "forks", "head", "inboundFenceCount", "path", "retention", "state", "streamCreatedAt", "streamId", "trimmedEvents"],
  );
  assert.equal(i.inboundFenceCount, 0);
  // A stream first written natively (§17): JSON, open, never expiring; not a fork and not forked (§18).
  assert.equal(i.contentType, "application/json");
  assert.equal(i.closed, false);
  assert.deepEqual(i.expiry, {});
  assert.equal(i.forks, 0);
  // Nothing trimmed (§16): the log starts at 1, keeps everything, and counts the bytes of both rows.
  assert.equal(i.firstOffset, 1);
  assert.equal(i.retention, null);
  assert.equal(i.trimmedEvents, 0);
  assert.ok(Number.isInteger(i.bytes) && i.bytes >= "one".length + "two".length, `bytes: ${i.bytes}`);
  assert.equal(i.path, path);
  assert.match(i.streamId, STREAM_ID);
  assert.match(i.streamCreatedAt, RFC3339_MILLIS);
  assert.ok(Date.parse(i.streamCreatedAt) <= Date.parse(first.event.createdAt) + 1);
  assert.equal(i.head, 2);
  assert.equal(i.eventCount, 2);
  assert.deepEqual(i.state, { subscriptions: { inbound: { bySourcePath: {} }, outbound: { byKey: {} } } });
});

// ---------------------------------------------------------------------------
// Idempotency (§3 rule 4)
// ---------------------------------------------------------------------------

test("§3 rule 4: same idempotencyKey and same content → 200 deduplicated:true with the original event", async () => {
  const path = fresh("idem-same");
  const event = { type: "pay", payload: { amount: 10 }, idempotencyKey: "k-1" };
  const first = await appendOk(path, event);
  assert.equal(first.event.offset, 1);
  assert.equal(first.event.idempotencyKey, "k-1");
  await appendOk(path, { type: "other" });
  const again = await append(path, event);
  assert.equal(again.status, 200);
  assert.equal(again.body.deduplicated, true);
  assert.deepEqual(again.body.event, first.event, "the originally committed event (same offset, createdAt)");
  const i = await infoOk(path);
  assert.equal(i.head, 2, "no offset assigned to the retry");
  assert.equal(i.eventCount, 2);
});

test("§3 rule 4: same idempotencyKey with different payload → 409 idempotency_key_reused", async () => {
  const path = fresh("idem-conflict");
  await appendOk(path, { type: "pay", payload: { amount: 10 }, idempotencyKey: "k-1" });
  const res = await append(path, { type: "pay", payload: { amount: 11 }, idempotencyKey: "k-1" });
  assertError(res, 409, "idempotency_key_reused");
  const i = await infoOk(path);
  assert.equal(i.head, 1);
  const r = await point(path, 1);
  assert.deepEqual(r.body.event.payload, { amount: 10 }, "the original is untouched");
});

test("§3 rule 4: a batch mixing a duplicate and a new event → 201 with deduplicated [true,false]", async () => {
  const path = fresh("idem-batch-mixed");
  const original = await appendOk(path, { type: "a", payload: 1, idempotencyKey: "dup" });
  const res = await append(path, {
    events: [
      { type: "a", payload: 1, idempotencyKey: "dup" },
      { type: "b", payload: 2, idempotencyKey: "new" },
    ],
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.deepEqual(res.body.deduplicated, [true, false]);
  assert.deepEqual(res.body.events[0], original.event);
  assert.equal(res.body.events[1].offset, 2);
  assert.equal(res.body.events[1].type, "b");
  assert.equal((await infoOk(path)).head, 2);
});

test("§3 rule 4: a batch that is all duplicates → 200", async () => {
  const path = fresh("idem-batch-all");
  const first = await batchOk(path, [
    { type: "a", idempotencyKey: "x" },
    { type: "b", idempotencyKey: "y" },
  ]);
  const res = await append(path, {
    events: [
      { type: "a", idempotencyKey: "x" },
      { type: "b", idempotencyKey: "y" },
    ],
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.body.deduplicated, [true, true]);
  assert.deepEqual(res.body.events, first.events);
  assert.equal((await infoOk(path)).head, 2);
});

test("§3 rule 4: a batch with one conflicting key commits nothing", async () => {
  const path = fresh("idem-batch-conflict");
  await appendOk(path, { type: "a", payload: 1, idempotencyKey: "dup" });
  const res = await append(path, {
    events: [
      { type: "new", idempotencyKey: "fresh" },
      { type: "a", payload: 2, idempotencyKey: "dup" },
    ],
  });
  assertError(res, 409, "idempotency_key_reused");
  assert.equal((await infoOk(path)).head, 1);
  // "fresh" was not consumed by the failed batch
  const ok = await appendOk(path, { type: "other-content", idempotencyKey: "fresh" });
  assert.equal(ok.event.offset, 2);
});

test("§3 rule 4: idempotency keys are per stream", async () => {
  const a = fresh("idem-per-stream-a");
  const b = fresh("idem-per-stream-b");
  await appendOk(a, { type: "x", payload: 1, idempotencyKey: "shared" });
  const other = await appendOk(b, { type: "y", payload: 2, idempotencyKey: "shared" });
  assert.equal(other.deduplicated, false);
  assert.equal(other.event.type, "y");
});

// ---------------------------------------------------------------------------
// Ephemeral (§3 rule 5)
// ---------------------------------------------------------------------------

test("§3 rule 5: ephemeral events get offsets but range reads skip them unless includeEphemeral=true", async () => {
  const path = fresh("ephemeral");
  await appendOk(path, { type: "d1" });
  const eph = await appendOk(path, { type: "e", payload: "blip", ephemeral: true });
  assert.equal(eph.event.offset, 2);
  assert.equal(eph.event.ephemeral, true);
  await appendOk(path, { type: "d2" });

  const plain = await range(path);
  assert.equal(plain.status, 200);
  assert.deepEqual(plain.body.events.map((e) => e.offset), [1, 3]);
  assert.equal(plain.body.head, 3);

  const all = await range(path, "includeEphemeral=true");
  assert.equal(all.status, 200);
  assert.deepEqual(all.body.events.map((e) => e.offset), [1, 2, 3]);
  assert.equal(all.body.events[1].ephemeral, true);
  assert.equal(all.body.events[1].payload, "blip");

  const pt = await point(path, 2);
  assert.equal(pt.status, 200);
  assert.equal(pt.body.event.ephemeral, true);
});

test("§3 rule 5: paging without includeEphemeral still walks past ephemeral rows", async () => {
  const path = fresh("ephemeral-paging");
  await batchOk(path, [
    { type: "d", payload: 1 },
    { type: "e", ephemeral: true },
    { type: "e", ephemeral: true },
    { type: "d", payload: 4 },
  ]);
  const seen = [];
  let after = 0;
  for (let i = 0; i < 10; i++) {
    const res = await range(path, `after=${after}&limit=1`);
    assert.equal(res.status, 200);
    if (res.body.events.length === 0) break;
    seen.push(...res.body.events.map((e) => e.offset));
    after = res.body.nextAfter;
  }
  assert.deepEqual(seen, [1, 4]);
});

test("§3 rule 5: a control event (subscription-removed) with ephemeral:true → 400 and nothing committed", async () => {
  const path = fresh("ephemeral-control");
  await appendOk(path, { type: "seed" });
  const res = await append(path, {
    type: "events.iterate.com/stream/subscription-removed",
    payload: { subscriptionKey: "k", reason: "requested" },
    ephemeral: true,
  });
  assertError(res, 400);
  const i = await infoOk(path);
  assert.equal(i.head, 1);
  assert.equal(i.eventCount, 1);
});

// ---------------------------------------------------------------------------
// Lifetime (§3 rule 6)
// ---------------------------------------------------------------------------

test("§3 rule 6: DELETE destroys the stream; the next write starts a new lifetime", async () => {
  const path = fresh("lifetime");
  await batchOk(path, [{ type: "a" }, { type: "b" }, { type: "c", idempotencyKey: "key" }]);
  const before = await infoOk(path);

  const del = await t.request("DELETE", streamUrl(path));
  assert.equal(del.status, 204);
  assertError(await info(path), 404, "stream_not_found");
  assertError(await range(path), 404, "stream_not_found");
  assert.equal((await point(path, 1)).status, 404);

  const again = await appendOk(path, { type: "c", idempotencyKey: "key" });
  assert.equal(again.event.offset, 1, "offsets restart at 1");
  assert.equal(again.deduplicated, false, "idempotency keys died with the old lifetime");
  const after = await infoOk(path);
  assert.notEqual(after.streamId, before.streamId, "new streamId");
  assert.ok(
    Date.parse(after.streamCreatedAt) > Date.parse(before.streamCreatedAt),
    `streamCreatedAt strictly later: ${before.streamCreatedAt} → ${after.streamCreatedAt}`,
  );
  assert.equal(after.head, 1);
  assert.equal(after.eventCount, 1);
  const r = await range(path);
  assert.deepEqual(r.body.events.map((e) => e.type), ["c"]);
});

// ---------------------------------------------------------------------------
// Persistence
// ---------------------------------------------------------------------------

test("§3 rule 3: committed events survive a restart of the runtime", async () => {
  const path = fresh("persist");
  await batchOk(path, [
    { type: "a", payload: { n: 1 } },
    { type: "b", payload: [1, 2, 3], metadata: { m: "x" }, idempotencyKey: "idem-b" },
    { type: "e", ephemeral: true },
  ]);
  const beforeInfo = await infoOk(path);
  const beforeEvents = (await range(path, "includeEphemeral=true")).body.events;
  assert.equal(beforeEvents.length, 3);

  await t.restart();

  const afterInfo = await infoOk(path);
  assert.equal(afterInfo.streamId, beforeInfo.streamId);
  assert.equal(afterInfo.streamCreatedAt, beforeInfo.streamCreatedAt);
  assert.equal(afterInfo.head, 3);
  const afterEvents = (await range(path, "includeEphemeral=true")).body.events;
  assert.deepEqual(afterEvents, beforeEvents);

  const next = await appendOk(path, { type: "c" });
  assert.equal(next.event.offset, 4, "offsets continue after restart");
  const dup = await append(path, { type: "b", payload: [1, 2, 3], metadata: { m: "x" }, idempotencyKey: "idem-b" });
  assert.equal(dup.status, 200, "idempotency keys survive restart");
  assert.equal(dup.body.event.offset, 2);
});

// ---------------------------------------------------------------------------
// Isolation (§2)
// ---------------------------------------------------------------------------

test("§2: the same path under another project's token is a different stream", async () => {
  const path = fresh("isolation");
  await batchOk(path, [{ type: "a" }, { type: "b" }]);
  const mine = await infoOk(path);

  assertError(await info(path, { token: OTHER_TOKEN }), 404, "stream_not_found");
  assertError(await range(path, "", { token: OTHER_TOKEN }), 404, "stream_not_found");
  assert.equal((await point(path, 1, { token: OTHER_TOKEN })).status, 404);

  const theirs = await appendOk(path, { type: "z" }, { token: OTHER_TOKEN });
  assert.equal(theirs.event.offset, 1);
  const theirInfo = await infoOk(path, { token: OTHER_TOKEN });
  assert.notEqual(theirInfo.streamId, mine.streamId);
  assert.equal(theirInfo.head, 1);

  const mineAfter = await infoOk(path);
  assert.equal(mineAfter.head, 2, "the other project's write did not touch this stream");
  assert.equal(mineAfter.streamId, mine.streamId);

  // Deleting under one project leaves the other intact.
  assert.equal((await t.request("DELETE", streamUrl(path), { token: OTHER_TOKEN })).status, 204);
  assert.equal((await infoOk(path)).head, 2);
});

// ---------------------------------------------------------------------------
// Reads create nothing (§3 rule 6)
// ---------------------------------------------------------------------------

test("§3 rule 6: a read of a never-written stream is 404 stream_not_found and writes nothing", async () => {
  const path = fresh("never-written");
  for (let i = 0; i < 3; i++) {
    assertError(await info(path), 404, "stream_not_found");
    assertError(await range(path), 404, "stream_not_found");
    assertError(await range(path, "after=5&limit=10&includeEphemeral=true"), 404, "stream_not_found");
    assertError(await point(path, 1), 404, "stream_not_found");
    // Metrics of a never-written stream may be 404 or zeros, but must not create it.
    const m = await t.request("GET", streamUrl(path, "metrics"));
    assert.ok([200, 404].includes(m.status), `metrics of nothing: ${m.status}`);
  }
  assertError(await info(path), 404, "stream_not_found");
  const first = await appendOk(path, { type: "first" });
  assert.equal(first.event.offset, 1);
  const i = await infoOk(path);
  assert.equal(i.eventCount, 1);
  assert.equal(i.head, 1);
});

test("§3 rule 6: DELETE of a never-written stream creates nothing", async () => {
  const path = fresh("never-written-delete");
  const del = await t.request("DELETE", streamUrl(path));
  assert.ok([204, 404].includes(del.status), `DELETE of nothing: ${del.status}`);
  assertError(await info(path), 404, "stream_not_found");
});

// ---------------------------------------------------------------------------
// Metrics (§11)
// ---------------------------------------------------------------------------

test("§11: metrics are Prometheus text containing tributary_events_appended_total", async () => {
  const path = fresh("metrics");
  await batchOk(path, [{ type: "a" }, { type: "b" }, { type: "c" }]);
  const res = await t.request("GET", streamUrl(path, "metrics"));
  assert.equal(res.status, 200);
  assert.equal(typeof res.body, "string");
  assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
  assert.ok(res.body.includes("tributary_events_appended_total"), res.body);
  // A sample line for the counter carries a number >= the 3 appended events.
  const sample = res.body
    .split("\n")
    .find((l) => l.startsWith("tributary_events_appended_total") && !l.startsWith("#"));
  assert.ok(sample, `a sample line for the counter: ${res.body}`);
  const value = Number(sample.trim().split(/\s+/).pop());
  assert.ok(value >= 3, `counter value ${value} >= 3`);
});
