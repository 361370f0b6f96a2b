// End-to-end copy fan-in (issue 20, docs/design.md §7 rule 2, §5 inbound, §11)
// against the built worker running in workerd: 320 source streams, each with
// a copy-to-stream subscription (subscribe-from) into one target (the fence
// records are rows of their own table; tests/engine_fanin.rs takes 10,000
// sources natively, bench/fanin.mjs 1,000 and 10,000 here). Every event is
// delivered, in order per source, once; no subscription halts;
// stream info counts the fence records and shows the first page; the debug
// card pages them (inboundLimit, inboundAfter ← nextInboundAfter) and refuses
// malformed paging parameters with 400, changing nothing.
//
// Delivery is asynchronous, so delivered state is polled for with a bounded
// wait (`eventually`), never asserted after a fixed sleep. One Tributary per
// file; every test uses its own stream paths.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary } from "./harness.mjs";
import { lastHop, eventually, streamApi } from "./delivery_helpers.mjs";

let t;
let api;
before(async () => {
  t = await startTributary();
  api = streamApi(t);
});
after(async () => {
  await t?.cleanup();
});

const SOURCES = 320;
const EVENTS_PER_SOURCE = 3;
const KEY = "fanin";
const IN_FLIGHT = 8;

/** Runs `job(i)` for i in 0..count, `IN_FLIGHT` at a time. */
async function inPool(count, job) {
  let next = 0;
  const worker = async () => {
    while (next < count) await job(next++);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

/** Every inbound record of the card's pages, following nextInboundAfter (bounded). */
async function cardRecords(target, limit) {
  const records = [];
  let query = `inboundLimit=${limit}`;
  for (let page = 0; page <= SOURCES / limit + 1; page++) {
    const res = await api.request("GET", `/v1/streams${target}/-/subscriptions?${query}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.inboundFenceCount, SOURCES);
    const onPage = Object.entries(res.body.inbound.bySourcePath).flatMap(([path, byKey]) =>
      Object.entries(byKey).map(([key, record]) => ({ path, key, record })),
    );
    assert.ok(onPage.length <= limit, `a page holds at most ${limit}: ${onPage.length}`);
    records.push(...onPage);
    if (res.body.nextInboundAfter === null) return records;
    assert.equal(onPage.length, limit, "only a full page has a next one");
    query = `inboundLimit=${limit}&inboundAfter=${encodeURIComponent(res.body.nextInboundAfter)}`;
  }
  assert.fail("more pages than the records need");
}

test("§7 rule 2, §5 inbound, §11: 320 sources copy into one stream — all delivered, none halted; stream info counts the fence records, the debug card pages them, malformed paging is 400", async () => {
  const root = "/e2e-fanin/run";
  const target = `${root}/target`;
  const sources = Array.from({ length: SOURCES }, (_, i) => `${root}/s${String(i).padStart(3, "0")}`);

  await inPool(SOURCES, (i) => api.subscribeFromOk(target, { sourcePath: sources[i], subscriptionKey: KEY, filter: { eventTypes: ["data"] } }));
  await inPool(SOURCES, (i) =>
    api.batchOk(
      sources[i],
      Array.from({ length: EVENTS_PER_SOURCE }, (_, k) => ({ type: "data", payload: { source: i, k } })),
    ),
  );

  const total = SOURCES * EVENTS_PER_SOURCE;
  const { events } = await eventually(
    async () => {
      const read = await api.readAll(target);
      assert.equal(read.events.length, total, `${read.events.length} of ${total} copies`);
      return read;
    },
    { what: `${total} copies on the target`, timeoutMs: 45_000 },
  );
  // Each source's events once, in its order.
  const next = new Array(SOURCES).fill(0);
  for (const copy of events) {
    const { source, k } = copy.payload;
    assert.equal(lastHop(copy).path, sources[source]);
    assert.equal(lastHop(copy).subscriptionKey, KEY);
    assert.equal(k, next[source], `source ${source}: in order, once`);
    next[source]++;
  }
  assert.ok(next.every((n) => n === EVENTS_PER_SOURCE));

  // No subscription halted; each caught up with its source.
  await inPool(SOURCES, (i) => api.caughtUp(sources[i], KEY));

  // Stream info: the count, and the first page of records in the reduced state's §5 shape.
  const info = await api.infoOk(target);
  assert.equal(info.inboundFenceCount, SOURCES);
  const shown = Object.keys(info.state.subscriptions.inbound.bySourcePath);
  assert.deepEqual(shown, sources.slice(0, 100), "the first 100 records, in path order");
  const first = info.state.subscriptions.inbound.bySourcePath[sources[0]][KEY];
  const sourceInfo = await api.infoOk(sources[0]);
  assert.deepEqual(Object.keys(first).sort(), ["cursorChangedAtSourceOffset", "lastEventReceivedAt", "numEventsReceived", "streamCreatedAt", "streamId"]);
  assert.equal(first.streamId, sourceInfo.streamId);
  assert.equal(first.streamCreatedAt, sourceInfo.streamCreatedAt);
  assert.equal(first.cursorChangedAtSourceOffset, 1);
  assert.equal(first.numEventsReceived, EVENTS_PER_SOURCE);

  // The card pages every record once, in order.
  const paged = await cardRecords(target, 100);
  assert.deepEqual(
    paged.map((r) => r.path),
    sources,
  );
  assert.ok(paged.every((r) => r.key === KEY && r.record.numEventsReceived === EVENTS_PER_SOURCE));
  const card = await api.cardOk(target);
  assert.equal(Object.keys(card.inbound.bySourcePath).length, 100, "the default page is 100");
  assert.equal(card.nextInboundAfter, `${sources[99]}:${KEY}`);
  assert.deepEqual(card.subscriptions, []);

  // Malformed paging: 400 invalid_parameter naming it; nothing changes.
  for (const [query, parameter] of [
    ["inboundLimit=0", "inboundLimit"],
    ["inboundLimit=1001", "inboundLimit"],
    ["inboundLimit=x", "inboundLimit"],
    [`inboundAfter=${encodeURIComponent(sources[0])}`, "inboundAfter"],
    ["inboundAfter=not-a-path%3Afanin", "inboundAfter"],
    ["inboundAfter=%E0%A4%A", "inboundAfter"],
    ["bogus=1", "query"],
  ]) {
    const res = await api.request("GET", `/v1/streams${target}/-/subscriptions?${query}`);
    assert.equal(res.status, 400, `${query}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.error.code, "invalid_parameter", query);
    assert.equal(res.body.error.details.parameter, parameter, query);
  }
  assert.deepEqual(await api.cardOk(target), card, "the refused requests changed nothing");
  assert.equal((await api.infoOk(target)).head, total);
});
