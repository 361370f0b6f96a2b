// End-to-end retention (docs/design.md §16) against the built worker in workerd:
// trimming from the stream's alarm in bounded steps, never past a durable
// subscription's cursor (a lagging webhook to a real local HTTP receiver
// still gets every event, in order), 410 `trimmed` for reads, live opens and
// cursor-sets before `firstOffset` (`after=earliest` reads from it),
// `trimPastSubscribers` and its `trimmed` fact, card entry and metrics, the
// storage budget's 507 `stream_full` and the way out, and bad input (422
// naming the field, nothing committed).
//
// Trimming is asynchronous (alarm-driven): every expectation about it is
// polled for on stream info with a bounded wait, never asserted after a
// fixed sleep.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary, streamUrl, TOKEN } from "./harness.mjs";
import { CURSOR_SET, ERROR_OCCURRED, dataEvents, eventually, streamApi } from "./delivery_helpers.mjs";
import { startReceiver } from "./webhook_receiver.mjs";
import { liveClients, receivedThrough, assertError } from "./live_helpers.mjs";
import { RETENTION, assertTrimmed, retentionHelpers, webhookSubscription, recordingHook } from "./retention_helpers.mjs";

let t;
let api;
let receiver;
let retention;
before(async () => {
  [t, receiver] = await Promise.all([startTributary({ allowInsecureWebhooks: true }), startReceiver()]);
  api = streamApi(t);
  retention = retentionHelpers(api);
});
const { openClients, openWs, openSse, rawUpgrade } = liveClients(() => t);
after(async () => {
  for (const close of openClients) close();
  await receiver?.close();
  await t?.cleanup();
});

let counter = 0;
/** A stream path no other test uses. */
const fresh = (name) => `/e2e-retention/${name}-${++counter}`;
const range = (from, through) => Array.from({ length: through - from + 1 }, (_, k) => from + k);

test("§16: maxEvents 1000 over 10 000 events keeps about 1000 rows, never past a lagging webhook, which still gets every event in order", { timeout: 300_000 }, async () => {
  const path = fresh("bounded");
  const hookPath = `/hook${path}`;
  // The first request is held until every event is appended (the webhook
  // lags the whole log), then it and the next four fail: retries.
  let requests = 0;
  const hook = recordingHook(receiver, hookPath, () => {
    requests++;
    if (requests === 1) return { gate: hookPath, status: 503 };
    return requests <= 5 ? { status: 503 } : null;
  });
  await api.appendOk(path, webhookSubscription("lagging", receiver.url(hookPath)));
  await retention.retain(path, { maxEvents: 1000 });
  const offsets = [];
  for (let batch = 0; batch < 10; batch++) {
    const committed = await api.batchOk(path, dataEvents(1000, batch * 1000));
    offsets.push(...committed.map((event) => event.offset));
  }
  assert.equal(offsets.length, 10_000);
  receiver.release(hookPath);

  // While it delivers, the log never starts after the webhook's cursor + 1
  // (info first: the cursor only moves forward).
  const pinned = [];
  const info = await eventually(
    async () => {
      const seen = await api.infoOk(path);
      const entry = await api.cardEntry(path, "lagging");
      if (seen.firstOffset > entry.runtime.acknowledgedOffset + 1) pinned.push({ firstOffset: seen.firstOffset, cursor: entry.runtime.acknowledgedOffset });
      assert.equal(entry.runtime.lag, 0, `lag 0: ${JSON.stringify(entry.runtime)}`);
      assert.ok(seen.firstOffset > 1 && seen.eventCount <= 1100, `trimming caught up: ${seen.firstOffset}, ${seen.eventCount} rows`);
      return seen;
    },
    { what: "the webhook caught up and trimming after it", timeoutMs: 240_000, intervalMs: 250 },
  );
  assert.deepEqual(pinned, [], "trimming never passed the subscription's cursor");
  assert.ok(info.eventCount >= 1000, `at least maxEvents rows kept: ${info.eventCount}`);
  assert.equal(info.eventCount, info.head - info.firstOffset + 1, "rows are the offsets from firstOffset to the head");
  assert.equal(info.trimmedEvents, info.firstOffset - 1);
  assert.deepEqual(info.retention, { maxEvents: 1000, trimPastSubscribers: false });
  assert.ok(info.bytes > 0);
  // Every one of the 10 000 events arrived, in order (retries may repeat one).
  assert.ok(hook.acknowledged.length >= 10_000);
  assert.deepEqual(hook.firstArrivals(), offsets, "every data event acknowledged, in offset order");
  const retained = await retention.readRetained(path);
  assert.equal(retained[0].offset, info.firstOffset);
  assert.equal(retained.length, info.eventCount);
  const card = await api.cardOk(path);
  assert.equal(card.firstOffset, info.firstOffset);
});

/** A stream of `n` data events under `maxEvents`, once its trim settled; its info. */
async function trimmedStream(path, { n = 200, maxEvents = 20 } = {}) {
  await retention.retain(path, { maxEvents });
  await api.batchOk(path, dataEvents(n));
  return retention.trimmedInfo(path, (info) => info.eventCount === maxEvents);
}

test("§16: range and point reads before firstOffset are 410 trimmed; after=earliest (or no after) reads from it", async () => {
  const path = fresh("reads");
  const info = await trimmedStream(path);
  const first = info.firstOffset;
  assert.equal(first, info.head - 19);
  for (const after of [0, 1, first - 2]) assertTrimmed(await api.range(path, `after=${after}`), first, `after=${after}`);
  for (const query of ["after=earliest", "", "after=earliest&limit=5", `after=${first - 1}`]) {
    const res = await api.range(path, query);
    assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.events[0].offset, first, `${query} starts at firstOffset`);
  }
  assertTrimmed(await t.request("GET", streamUrl(path, "events/1")), first, "point read of offset 1");
  assertTrimmed(await t.request("GET", streamUrl(path, `events/${first - 1}`)), first, "point read before firstOffset");
  const point = await t.request("GET", streamUrl(path, `events/${first}`));
  assert.equal(point.status, 200);
  assert.equal(point.body.event?.offset ?? point.body.offset, first);
});

test("§16 §10: long-poll, SSE and WebSocket before firstOffset are 410 before upgrading; after=earliest tails from it", async () => {
  const path = fresh("live");
  const info = await trimmedStream(path);
  const first = info.firstOffset;

  assertTrimmed(await api.range(path, "after=0&waitMs=10000"), first, "long-poll after=0");
  const polled = await api.range(path, "after=earliest&waitMs=10000");
  assert.equal(polled.status, 200);
  assert.equal(polled.body.events[0].offset, first, "long-poll after=earliest answers from firstOffset");

  const sse = { accept: "text/event-stream" };
  assertTrimmed(await t.request("GET", `${streamUrl(path, "live")}?after=0`, { headers: sse }), first, "SSE after=0");
  assertTrimmed(await t.request("GET", streamUrl(path, "live"), { headers: { ...sse, "last-event-id": "1" } }), first, "SSE Last-Event-ID 1");
  const refused = await rawUpgrade(path, `after=${first - 2}`, { authorization: `Bearer ${TOKEN}` });
  assert.equal(refused.upgraded, false, "no upgrade");
  assertTrimmed(refused, first, "WebSocket after=firstOffset-2");
  const never = openWs(path, "after=0");
  await assert.rejects(never.opened, /closed before open/);

  const expected = range(first, info.head);
  const es = openSse(path, "after=earliest");
  const ws = openWs(path, "after=earliest");
  assert.equal(await ws.opened, "tributary.v1");
  await receivedThrough(es, expected, "SSE after=earliest");
  await receivedThrough(ws, expected, "WebSocket after=earliest");
  // Both go on live.
  const live = await api.appendOk(path, { type: "data", payload: { live: true } });
  await receivedThrough(es, [...expected, live.offset], "SSE live");
  await receivedThrough(ws, [...expected, live.offset], "WebSocket live");
  es.close();
  ws.close();
  const card = await api.cardOk(path);
  assert.ok(card.firstOffset >= first);
});

test("§16: a cursor-set before firstOffset is 410 trimmed and commits nothing; firstOffset − 1 is accepted", async () => {
  const path = fresh("cursor");
  // A subscription whose filter matches nothing: its cursor passes every event, so it pins nothing for long.
  const subscription = webhookSubscription("idle", receiver.url(`/hook${path}`));
  subscription.payload.filter = { eventTypes: ["never"] };
  await api.appendOk(path, subscription);
  const info = await trimmedStream(path);
  const first = info.firstOffset;
  for (const body of [
    { type: CURSOR_SET, payload: { subscriptionKey: "idle", afterOffset: 0 } },
    { type: CURSOR_SET, payload: { subscriptionKey: "idle", afterOffset: first - 2 } },
    { events: [{ type: "data", payload: {} }, { type: CURSOR_SET, payload: { subscriptionKey: "idle", afterOffset: 1 } }] },
  ]) {
    const res = await api.append(path, body);
    assertTrimmed(res, first, `cursor-set ${JSON.stringify(body)}`);
    assert.equal(typeof res.body.error.details.afterOffset, "number");
  }
  const unchanged = await api.infoOk(path);
  assert.equal(unchanged.head, info.head, "nothing committed");
  assert.equal(unchanged.state.subscriptions.outbound.byKey.idle.cursorSet, undefined);
  const set = await api.appendOk(path, { type: CURSOR_SET, payload: { subscriptionKey: "idle", afterOffset: first - 1 } });
  assert.equal(set.offset, info.head + 1);
});

test("§16: trimPastSubscribers passes a down webhook with a trimmed fact, card entry and metrics; back up, it gets events from firstOffset on", async () => {
  const path = fresh("past");
  const hookPath = `/hook${path}`;
  let down = true;
  const hook = recordingHook(receiver, hookPath, () => (down ? { status: 503 } : null));
  await api.appendOk(path, webhookSubscription("down", receiver.url(hookPath), { maxAttempts: 1000, initialBackoffMs: 100, maxBackoffMs: 300 }));
  await retention.retain(path, { maxEvents: 10, trimPastSubscribers: true });
  await api.batchOk(path, dataEvents(100));

  const fact = await eventually(
    async () => {
      const facts = (await retention.readRetained(path)).filter((e) => e.type === ERROR_OCCURRED && e.payload.kind === "trimmed");
      assert.ok(facts.length >= 1, "a trimmed fact");
      return facts.at(-1);
    },
    { what: "the trimmed fact", timeoutMs: 30_000 },
  );
  assert.equal(fact.payload.subscriptionKey, "down");
  assert.ok(fact.payload.throughOffset > fact.payload.afterOffset, JSON.stringify(fact.payload));
  const info = await retention.trimmedInfo(path, (seen) => seen.firstOffset === fact.payload.throughOffset + 1);
  assert.ok(info.eventCount <= 12, `trimmed to maxEvents: ${info.eventCount}`);

  const entry = await api.cardEntry(path, "down");
  assert.deepEqual(entry.trimmed, {
    eventsPassed: fact.payload.throughOffset - fact.payload.afterOffset,
    lastAfterOffset: fact.payload.afterOffset,
    lastThroughOffset: fact.payload.throughOffset,
    lastFactOffset: fact.offset,
  });
  assert.ok(entry.runtime.acknowledgedOffset >= fact.payload.throughOffset, "the cursor moved to the trim point");
  const metrics = await api.metricsOk(path);
  assert.equal(metrics.tributary_retention_passes_total, 1);
  assert.equal(metrics.tributary_retention_events_passed_total, entry.trimmed.eventsPassed);
  assert.equal(metrics.tributary_retention_trimmed_events_total, info.trimmedEvents);
  assert.equal(metrics.tributary_stream_first_offset, info.firstOffset);
  assert.equal(metrics.tributary_stream_bytes, info.bytes);

  down = false;
  await api.caughtUp(path, "down", { timeoutMs: 30_000 });
  const retainedData = (await retention.readRetained(path)).filter((e) => e.type === "data").map((e) => e.offset);
  assert.ok(retainedData.length > 0 && retainedData[0] >= info.firstOffset);
  assert.deepEqual(hook.firstArrivals(), retainedData, "back up: every retained data event, in order, nothing trimmed");
});

test("§16: near the storage budget data appends are 507 stream_full naming retention-configured; a retention-configured commits and trimming lets appends in again", { timeout: 120_000 }, async () => {
  const budgetBytes = 300_000;
  const small = await startTributary({ storageBudgetBytes: budgetBytes });
  try {
    const smallApi = streamApi(small);
    const path = fresh("full");
    const pad = "x".repeat(2000);
    let full;
    let accepted = 0;
    let lastCommitted;
    for (let i = 0; i < 2000 && !full; i++) {
      const body = { type: "data", payload: { i, pad }, idempotencyKey: `fill-${i}` };
      const res = await smallApi.append(path, body);
      if (res.status === 201) {
        accepted++;
        lastCommitted = { body, event: res.body.event };
      } else full = res;
    }
    assert.ok(full, "the budget was reached within 2000 appends");
    assert.ok(accepted > 10, `some appends fit first: ${accepted}`);
    assertError(full, 507, "stream_full");
    assert.equal(full.body.error.details.budgetBytes, budgetBytes);
    assert.ok(full.body.error.details.databaseBytes > 0);
    assert.equal(full.body.error.details.retention, null);
    assert.match(full.body.error.message, /retention-configured/);

    // The check is the database's size plus the body's: the same event again, or a batch carrying it, is refused too.
    const before = await smallApi.infoOk(path);
    assertError(await smallApi.append(path, { type: "data", payload: { again: true, pad } }), 507, "stream_full");
    const mixed = { events: [{ type: RETENTION, payload: { maxEvents: 5 } }, { type: "data", payload: { pad } }] };
    assertError(await smallApi.append(path, mixed), 507, "stream_full");
    // Control events that cannot make room are refused too (a manage token cannot grow a full log).
    const invalidated = { type: "events.iterate.com/stream/events-invalidated", payload: { afterOffset: 0, reason: "r".repeat(200_000) } };
    assertError(await smallApi.append(path, invalidated), 507, "stream_full");
    assert.equal((await smallApi.infoOk(path)).head, before.head, "refused appends commit nothing");
    // A retry of what already committed answers its duplicate, full or not.
    const retried = await smallApi.append(path, lastCommitted.body);
    assert.equal(retried.status, 200, JSON.stringify(retried.body));
    assert.equal(retried.body.deduplicated, true);
    assert.equal(retried.body.event.offset, lastCommitted.event.offset);

    const configured = await smallApi.appendOk(path, { type: RETENTION, payload: { maxEvents: 5 } });
    assert.equal(configured.offset, before.head + 1, "a control event still commits");
    await retentionHelpers(smallApi).trimmedInfo(path, (info) => info.eventCount === 5);
    const reopened = await eventually(
      async () => {
        const res = await smallApi.append(path, { type: "data", payload: { after: "trim" } });
        assert.equal(res.status, 201, `accepted again: ${res.status} ${JSON.stringify(res.body)}`);
        return res.body.event;
      },
      { what: "appends accepted after trimming", timeoutMs: 30_000, intervalMs: 200 },
    );
    assert.equal(reopened.offset, configured.offset + 1, "the refused attempts committed nothing");
  } finally {
    await small.cleanup();
  }
});

test("§16: malformed, hostile and oversized retention payloads are 422 naming the field and commit nothing; bad after is 400", async () => {
  const path = fresh("bad");
  await api.appendOk(path, { type: "data", payload: {} });
  const cases = [
    [{ maxEvents: 0 }, "maxEvents"],
    [{ maxEvents: -1 }, "maxEvents"],
    [{ maxEvents: 1.5 }, "maxEvents"],
    [{ maxEvents: "10" }, "maxEvents"],
    [{ maxEvents: 2 ** 53 }, "maxEvents"],
    [{ maxEvents: [[[[[[[[[[10]]]]]]]]]] }, "maxEvents"],
    [{ maxBytes: null }, "maxBytes"],
    [{ maxBytes: 0 }, "maxBytes"],
    [{ maxAgeMs: 59_999 }, "maxAgeMs"],
    [{ maxAgeMs: { ms: 60_000 } }, "maxAgeMs"],
    [{ trimPastSubscribers: "true" }, "trimPastSubscribers"],
    [{ trimPastSubscribers: 1 }, "trimPastSubscribers"],
    [{ maxevents: 10 }, "payload"],
    [{ maxEvents: 10, pad: "p".repeat(200_000) }, "payload"],
    [[{ maxEvents: 10 }], "payload"],
    ["maxEvents=10", "payload"],
    [null, "payload"],
  ];
  const head = (await api.infoOk(path)).head;
  const refused = async (res, field, what) => {
    assertError(res, 422, "invalid_control_event");
    assert.equal(res.body.error.details.field, field, `${what}: ${JSON.stringify(res.body)}`);
  };
  for (const [payload, field] of cases) {
    await refused(await api.append(path, { type: RETENTION, payload }), field, JSON.stringify(payload).slice(0, 80));
  }
  // Own __proto__ and constructor keys arrive as fields (raw JSON).
  for (const raw of ['{"__proto__": {"maxEvents": 1}}', '{"maxEvents": 5, "constructor": {"prototype": {}}}']) {
    const res = await t.request("POST", streamUrl(path, "events"), {
      rawBody: `{"type": "${RETENTION}", "payload": ${raw}}`,
      headers: { "content-type": "application/json" },
    });
    await refused(res, "payload", raw);
  }
  // All or nothing: a valid event beside an invalid retention commits neither.
  await refused(await api.append(path, { events: [{ type: "data", payload: {} }, { type: RETENTION, payload: { maxEvents: 0 } }] }), "maxEvents", "batch");
  const info = await api.infoOk(path);
  assert.equal(info.head, head, "nothing committed");
  assert.equal(info.retention, null);

  for (const after of ["earliest1", "-1", "Earliest", "1e3", ""]) {
    assertError(await api.range(path, `after=${after}`), 400, "invalid_parameter");
    assertError(await api.range(path, `after=${after}&waitMs=1000`), 400, "invalid_parameter");
    assertError(await t.request("GET", `${streamUrl(path, "live")}?after=${after}`, { headers: { accept: "text/event-stream" } }), 400);
  }

  // A valid one applies; {} clears it.
  await retention.retain(path, { maxEvents: 100, maxAgeMs: 60_000, maxBytes: 1 << 20 });
  assert.deepEqual((await api.infoOk(path)).retention, { maxAgeMs: 60_000, maxEvents: 100, maxBytes: 1 << 20, trimPastSubscribers: false });
  await retention.retain(path, {});
  assert.equal((await api.infoOk(path)).retention, null);
});
