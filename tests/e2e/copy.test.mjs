// End-to-end copy-to-stream (docs/design.md §4–§7, §11) against the built worker
// running in workerd: subscribe-from, the delivery spine (alarm-driven
// batches, acknowledgement, halts and resume), the copy hop and transform,
// chains and cycles, start positions, cursor-sets and recreated sources, and
// the runtime figures of the debug card. The product semantics are those of
// tests/engine_delivery.rs; here they run through HTTP, Durable Objects,
// alarms and stream-to-stream fetches.
//
// Delivery is asynchronous, so every expectation about delivered state is
// polled for with a bounded wait (`eventually`), never asserted after a fixed
// sleep. One Tributary per file; every test uses its own stream paths.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary } from "./harness.mjs";
import {
  CONFIGURED,
  CURSOR_SET,
  RESUMED,
  HALTED,
  ERROR_OCCURRED,
  HOP_FIELDS,
  chainOf,
  lastHop,
  copyReceiver,
  dataEvents,
  eventually,
  streamApi,
} from "./delivery_helpers.mjs";

let t;
let api;
before(async () => {
  t = await startTributary();
  api = streamApi(t);
});
after(async () => {
  await t?.cleanup();
});

let counter = 0;
/** A stream path no other test uses. */
const fresh = (name) => `/e2e-copy/${name}-${++counter}`;

const PROJECT = "project-a";
/** The §5 bound on the retained reduced state, in bytes of compact JSON. */
const MAX_REDUCED_STATE_BYTES = 262_144;

/** The copies (events carrying source.copiedFrom) of a stream. */
const copiesOf = (events) => events.filter((e) => e.source !== undefined);
const originalsOf = (events) => events.filter((e) => e.source === undefined);
const offsetsOf = (events) => events.map((e) => e.offset);
const hopOffsets = (events) => events.map((e) => lastHop(e).offset);

/** The hop §7 says a copy of `original` (on stream `info`) carries. */
function expectedHop(info, original, subscriptionKey, cursorChangedAtSourceOffset) {
  return {
    projectId: PROJECT,
    path: info.path,
    streamId: info.streamId,
    streamCreatedAt: info.streamCreatedAt,
    offset: original.offset,
    type: original.type,
    createdAt: original.createdAt,
    subscriptionKey,
    cursorChangedAtSourceOffset,
  };
}

/** Polls until `receiving` holds `count` events of `type` (default: copies of any type). */
async function waitForCopies(receiving, count, { type, timeoutMs } = {}) {
  return eventually(
    async () => {
      const { events } = await api.readAll(receiving);
      const copies = copiesOf(events).filter((e) => type === undefined || e.type === type);
      assert.ok(copies.length >= count, `${copies.length} of ${count} copies on ${receiving}`);
      return copies;
    },
    { what: `${count} copies on ${receiving}`, timeoutMs },
  );
}

// ---------------------------------------------------------------------------
// 1. Copies in order, with the hop, verbatim or transformed
// ---------------------------------------------------------------------------

test("§5 subscribe-from, §6, §7: copies arrive in source order with their hop, verbatim or shaped by the transform; the card catches up (lag 0, acknowledgedOffset = head, completionLatencyMs.count > 0)", async () => {
  const A = fresh("a");
  const B = fresh("mirror");
  const T = fresh("shaped");

  // B mirrors every durable event of A (no filter): A's own control events are copied as data.
  const mirror = await api.subscribeFromOk(B, { sourcePath: A, subscriptionKey: "mirror" });
  assert.equal(mirror.subscriptionKey, "mirror");
  assert.equal(mirror.subscriptionConfiguredEvent.type, CONFIGURED);
  assert.equal(mirror.subscriptionConfiguredEvent.offset, 1);
  assert.deepEqual(mirror.subscriptionConfiguredEvent.payload.receiver, copyReceiver(B));

  // T gets data only, shaped by a transform that also tries (and fails) to forge provenance.
  const transform =
    "{'payload': {'doubled': payload.i * 2}, 'source': {'copiedFrom': [{'path': '/forged'}]}, 'idempotencyKey': 'forged', 'offset': 999}";
  const shaped = await api.subscribeFromOk(T, {
    sourcePath: A,
    idempotencyKey: "shaped-once",
    filter: { eventTypes: ["data"] },
    jsonataTransform: transform,
  });
  assert.equal(shaped.subscriptionKey, "subscription:2", "a generated key is derived from the configure offset");

  // Single appends and batches, plus events the mirror copies but T filters out,
  // and an ephemeral event nobody receives (§3 rule 5).
  await api.appendOk(A, dataEvents(1, 0)[0]);
  await api.batchOk(A, dataEvents(5, 1));
  await api.appendOk(A, { type: "other", payload: { note: "not data" } });
  await api.appendOk(A, { type: "data", payload: { i: -1 }, ephemeral: true });
  await api.batchOk(A, [...dataEvents(10, 6), { type: "other", payload: { note: "mixed" } }]);
  await api.appendOk(A, dataEvents(1, 16)[0]);

  const aInfo = await api.infoOk(A);
  const aEvents = (await api.readAll(A)).events; // durable events only
  const aData = aEvents.filter((e) => e.type === "data");
  assert.equal(aData.length, 17);
  assert.equal(aEvents.length, aInfo.head - 1, "everything but the ephemeral event is durable");

  await waitForCopies(B, aEvents.length);
  await waitForCopies(T, aData.length);
  const mirrorEntry = await api.caughtUp(A, "mirror");
  const shapedEntry = await api.caughtUp(A, "subscription:2");

  // --- B: every durable event of A, in order, exactly once, verbatim, with one hop.
  const bRead = await api.readAll(B);
  const bCopies = copiesOf(bRead.events);
  assert.equal(bCopies.length, bRead.events.length, "B holds copies only");
  assert.deepEqual(offsetsOf(bRead.events), bRead.events.map((_, n) => n + 1), "B's offsets are its own, contiguous");
  assert.deepEqual(hopOffsets(bCopies), offsetsOf(aEvents), "every durable event of A, once, in source order");
  const keys = new Set();
  for (let n = 0; n < aEvents.length; n++) {
    const [copy, original] = [bCopies[n], aEvents[n]];
    assert.equal(copy.type, original.type);
    assert.deepEqual(copy.payload, original.payload, "payload copied verbatim");
    assert.deepEqual(copy.metadata, original.metadata, "metadata copied verbatim");
    assert.deepEqual(Object.keys(copy.source), ["copiedFrom"]);
    assert.equal(chainOf(copy).length, 1);
    assert.deepEqual(Object.keys(lastHop(copy)).sort(), HOP_FIELDS);
    assert.deepEqual(lastHop(copy), expectedHop(aInfo, original, "mirror", 1));
    assert.equal(typeof copy.idempotencyKey, "string", "a copy carries its derived identity (§7 rule 4)");
    assert.notEqual(copy.idempotencyKey, original.idempotencyKey);
    keys.add(copy.idempotencyKey);
    assert.ok(Date.parse(copy.createdAt) >= Date.parse(original.createdAt));
  }
  assert.equal(keys.size, bCopies.length, "one derived identity per source event");

  // A copied control event is data on B: it configures nothing there (§4).
  const bInfo = await api.infoOk(B);
  assert.ok(bCopies.some((e) => e.type === CONFIGURED));
  assert.deepEqual(bInfo.state.subscriptions.outbound.byKey, {});
  // The fence record of the run (§5 inbound, §7 rule 2).
  const record = {
    streamId: aInfo.streamId,
    streamCreatedAt: aInfo.streamCreatedAt,
    cursorChangedAtSourceOffset: 1,
    numEventsReceived: bCopies.length,
    lastEventReceivedAt: bCopies.at(-1).createdAt,
  };
  assert.deepEqual(bInfo.state.subscriptions.inbound, { bySourcePath: { [A]: { mirror: record } } });
  const bCard = await api.cardOk(B);
  assert.deepEqual(bCard.inbound, { bySourcePath: { [A]: { mirror: record } } });
  assert.deepEqual(bCard.subscriptions, []);

  // --- T: data only, payload shaped, type and metadata verbatim, provenance unforgeable.
  const tCopies = copiesOf((await api.readAll(T)).events);
  assert.equal(tCopies.length, aData.length, "only data, each once");
  assert.deepEqual(hopOffsets(tCopies), offsetsOf(aData));
  for (let n = 0; n < aData.length; n++) {
    const [copy, original] = [tCopies[n], aData[n]];
    assert.equal(copy.type, "data", "omitted fields copy verbatim");
    assert.deepEqual(copy.payload, { doubled: original.payload.i * 2 });
    assert.deepEqual(copy.metadata, original.metadata);
    assert.deepEqual(copy.source, { copiedFrom: [expectedHop(aInfo, original, "subscription:2", 2)] }, "the transform cannot forge provenance");
    assert.notEqual(copy.idempotencyKey, "forged");
    assert.notEqual(copy.offset, 999);
  }

  // --- A's debug card (§11): caught up, nothing failing, figures recorded.
  for (const entry of [mirrorEntry, shapedEntry]) {
    assert.equal(entry.runtime.lag, 0);
    assert.equal(entry.runtime.acknowledgedOffset, aInfo.head);
    assert.equal(entry.runtime.attempt, 0);
    assert.equal(entry.runtime.lastError, null);
    assert.equal(entry.runtime.nextAttemptAt, null);
    assert.ok(entry.runtime.completionLatencyMs.count > 0, JSON.stringify(entry.runtime));
    assert.ok(entry.runtime.bytesSent > 0);
  }

  // --- Counters (§11).
  const bMetrics = await api.metricsOk(B);
  assert.equal(bMetrics.tributary_copies_accepted_total, bCopies.length, JSON.stringify(bMetrics));
  assert.equal(bMetrics.tributary_copies_dropped_total, 0);
  assert.equal(bMetrics.tributary_fence_rejections_total, 0);
  assert.equal((await api.metricsOk(A)).tributary_delivery_halts_total, 0);
});

// ---------------------------------------------------------------------------
// 2. Chains and cycles
// ---------------------------------------------------------------------------

test("§7: a chain A→B→C carries two hops [A, B] on C; C's fence record names its immediate source B", async () => {
  const [A, B, C] = [fresh("chain-a"), fresh("chain-b"), fresh("chain-c")];
  await api.subscribeFromOk(B, { sourcePath: A, subscriptionKey: "ab", filter: { eventTypes: ["data"] } });
  await api.subscribeFromOk(C, { sourcePath: B, subscriptionKey: "bc" }); // B:1 is this configure event
  await api.batchOk(A, dataEvents(3, 0));
  await api.appendOk(A, dataEvents(1, 3)[0]);
  await api.batchOk(A, dataEvents(4, 4));

  await waitForCopies(C, 8, { type: "data" });
  await api.caughtUp(A, "ab");
  await api.caughtUp(B, "bc");

  const aInfo = await api.infoOk(A);
  const bInfo = await api.infoOk(B);
  const aData = (await api.readAll(A)).events.filter((e) => e.type === "data");
  const bEvents = (await api.readAll(B)).events;
  const bData = bEvents.filter((e) => e.type === "data");
  const cEvents = (await api.readAll(C)).events;
  const cData = cEvents.filter((e) => e.type === "data");

  assert.equal(cData.length, 8, "each data event once");
  assert.deepEqual(hopOffsets(bData), offsetsOf(aData));
  assert.deepEqual(hopOffsets(cData), offsetsOf(bData), "C follows B's order");
  for (let n = 0; n < cData.length; n++) {
    const chain = chainOf(cData[n]);
    assert.deepEqual(chain.map((hop) => hop.path), [A, B], "last hop = the immediate source");
    assert.deepEqual(chain[0], expectedHop(aInfo, aData[n], "ab", 1), "the first hop is carried over unchanged");
    assert.deepEqual(chain[1], expectedHop(bInfo, bData[n], "bc", 1));
    assert.deepEqual(cData[n].payload, aData[n].payload);
    assert.deepEqual(cData[n].metadata, aData[n].metadata);
  }
  // B's own configure event (an original on B) reached C with one hop.
  const cConfigure = cEvents.filter((e) => e.type === CONFIGURED);
  assert.equal(cConfigure.length, 1);
  assert.deepEqual(chainOf(cConfigure[0]).map((hop) => [hop.path, hop.offset]), [[B, 1]]);

  const cInbound = (await api.infoOk(C)).state.subscriptions.inbound.bySourcePath;
  assert.deepEqual(Object.keys(cInbound), [B]);
  assert.deepEqual(Object.keys(cInbound[B]), ["bc"]);
  assert.equal(cInbound[B].bc.streamId, bInfo.streamId);
  assert.equal(cInbound[B].bc.numEventsReceived, cEvents.length);
});

/** Polls until the heads of `paths` have not moved for `stableMs` and every (source, key) is caught up. */
async function quiescent(paths, subscriptions, { stableMs = 1_000, timeoutMs = 20_000 } = {}) {
  let signature = null;
  let since = 0;
  return eventually(
    async () => {
      const heads = [];
      for (const path of paths) heads.push((await api.infoOk(path)).head);
      const now = JSON.stringify(heads);
      if (now !== signature) {
        signature = now;
        since = Date.now();
      }
      for (const [source, key] of subscriptions) {
        const entry = await api.cardEntry(source, key);
        assert.equal(entry.deliveryHalted, undefined, `${source} ${key} not halted: ${JSON.stringify(entry.deliveryHalted)}`);
        assert.equal(entry.runtime.lag, 0, `${source} ${key} lag: ${JSON.stringify(entry.runtime)}`);
        assert.equal(entry.runtime.inFlightDeadlineAt, null);
      }
      assert.ok(Date.now() - since >= stableMs, `heads ${now} stable for ${stableMs} ms`);
      return heads;
    },
    { what: `quiescence of ${paths.join(", ")}`, timeoutMs },
  );
}

/**
 * The §7 rule 3 bookkeeping of stream `x`, which receives from `y` under
 * `key`: every event `y` delivers (its durable events minus its own audits,
 * through the filter) either became exactly one copy on `x` or — when its
 * chain already contains `x` — was dropped and is named by exactly one
 * `error-occurred` audit on `x`.
 */
async function assertCycleBookkeeping({ x, y, key, types }) {
  const xEvents = (await api.readAll(x)).events;
  const yEvents = (await api.readAll(y)).events;
  const delivered = yEvents.filter(
    (e) => !(e.type === ERROR_OCCURRED && e.source === undefined) && (types === undefined || types.includes(e.type)),
  );
  const looping = delivered.filter((e) => chainOf(e).some((hop) => hop.path === x));
  const passing = delivered.filter((e) => !chainOf(e).some((hop) => hop.path === x));

  // Nothing loops: no copy on x has x in its chain, and each passing event is copied once, in order.
  const xCopies = copiesOf(xEvents);
  for (const copy of xCopies) {
    assert.ok(!chainOf(copy).some((hop) => hop.path === x), `no copy on ${x} came from ${x}: ${JSON.stringify(copy)}`);
    assert.notEqual(copy.type, ERROR_OCCURRED, "an audit is never copied onward");
  }
  assert.deepEqual(hopOffsets(xCopies), offsetsOf(passing), `copies on ${x}: each passing event of ${y} once, in order`);

  // One audit per dropped batch: together they name each dropped offset exactly once.
  const audits = xEvents.filter((e) => e.type === ERROR_OCCURRED);
  const named = [];
  for (const audit of audits) {
    assert.equal(audit.source, undefined, "the audit is the dropping stream's own fact");
    const p = audit.payload;
    assert.deepEqual(Object.keys(p).sort(), ["count", "kind", "offsets", "reason", "sourcePath", "subscriptionKey"]);
    assert.equal(p.kind, "copy-dropped");
    assert.equal(p.reason, "cycle");
    assert.equal(p.sourcePath, y);
    assert.equal(p.subscriptionKey, key);
    assert.ok(p.count > 0);
    assert.equal(p.count, p.offsets.length);
    named.push(...p.offsets);
  }
  assert.deepEqual(named, offsetsOf(looping), `the audits on ${x} name each dropped event of ${y} exactly once, in order`);

  const metrics = await api.metricsOk(x);
  return { xEvents, audits, looping, xCopies, metrics };
}

for (const filtered of [true, false]) {
  test(`§7 rule 3: a cycle A→B→A (${filtered ? "filtered to data" : "unfiltered"}) becomes quiescent; the stream that dropped records one audit per dropped batch; no data event loops`, async () => {
    const [A, B] = [fresh("cycle-a"), fresh("cycle-b")];
    const filter = filtered ? { filter: { eventTypes: ["data"] } } : {};
    await api.subscribeFromOk(B, { sourcePath: A, subscriptionKey: "ab", ...filter }); // A:1
    await api.subscribeFromOk(A, { sourcePath: B, subscriptionKey: "ba", ...filter }); // B:1
    await api.batchOk(A, dataEvents(5, 0));
    await api.appendOk(A, dataEvents(1, 5)[0]);
    await api.batchOk(A, dataEvents(4, 6));

    await quiescent([A, B], [[A, "ab"], [B, "ba"]]);

    const types = filtered ? ["data"] : undefined;
    const onA = await assertCycleBookkeeping({ x: A, y: B, key: "ba", types });
    const onB = await assertCycleBookkeeping({ x: B, y: A, key: "ab", types });

    // Data: A holds its 10 originals only; B holds one copy of each, with the one hop [A].
    const aData = onA.xEvents.filter((e) => e.type === "data");
    const bData = onB.xEvents.filter((e) => e.type === "data");
    assert.equal(aData.length, 10, "no data event came back to A");
    assert.ok(aData.every((e) => e.source === undefined));
    assert.equal(bData.length, 10, "each data event reached B once");
    assert.deepEqual(hopOffsets(bData), offsetsOf(aData));
    assert.ok(bData.every((e) => chainOf(e).length === 1 && lastHop(e).path === A));

    // The loops were dropped where they closed.
    assert.ok(onA.audits.length >= 1, "A dropped B's copies of its own events");
    assert.ok(onA.looping.length >= 10, "every data copy on B was dropped at A");
    if (filtered) {
      assert.equal(onB.audits.length, 0, "nothing on A carries B in its chain");
      assert.equal(onA.xCopies.length, 0, "B delivers only copies of A's data to A, all dropped");
      assert.equal(onA.looping.length, 10);
    } else {
      // B's own configure event (B:1) came to A as data, and its copy was dropped back at B.
      assert.deepEqual(onA.xCopies.map((e) => [e.type, chainOf(e).map((h) => h.path)]), [[CONFIGURED, [B]]]);
      assert.equal(onA.looping.length, 11, "A's configure copy and the ten data copies");
      assert.equal(onB.audits.length, 1);
      assert.deepEqual(onB.audits[0].payload.offsets, [onA.xCopies[0].offset]);
    }
    // The copied configure events configured nothing on the receiving side (§4).
    assert.deepEqual(Object.keys((await api.infoOk(A)).state.subscriptions.outbound.byKey), ["ab"]);
    assert.deepEqual(Object.keys((await api.infoOk(B)).state.subscriptions.outbound.byKey), ["ba"]);

    // Counters (§11): drops count dropped copies; accepted copies count copies only (not the audits).
    for (const side of [onA, onB]) {
      assert.equal(side.metrics.tributary_copies_dropped_total, side.looping.length, JSON.stringify(side.metrics));
      assert.equal(
        side.metrics.tributary_copies_accepted_total,
        side.xCopies.length,
        `copies_accepted_total counts the ${side.xCopies.length} committed copies, not the ${side.audits.length} drop audits: ${JSON.stringify(side.metrics)}`,
      );
    }
  });
}

// ---------------------------------------------------------------------------
// 3. Start positions
// ---------------------------------------------------------------------------

test("§5/§6: start \"beginning\" copies the source's history; start \"now\" copies only what comes after the configure event", async () => {
  const A = fresh("start-a");
  const [fromBeginning, fromNow] = [fresh("start-beginning"), fresh("start-now")];
  const history = await api.batchOk(A, dataEvents(3, 0));
  await api.subscribeFromOk(fromBeginning, { sourcePath: A, subscriptionKey: "b", filter: { eventTypes: ["data"] } });
  const now = await api.subscribeFromOk(fromNow, { sourcePath: A, subscriptionKey: "n", filter: { eventTypes: ["data"] }, start: "now" });
  assert.equal(now.subscriptionConfiguredEvent.payload.receiver.delivery.start, "now");
  const later = await api.batchOk(A, dataEvents(2, 3));

  await waitForCopies(fromBeginning, 5);
  await waitForCopies(fromNow, 2);
  await api.caughtUp(A, "b");
  await api.caughtUp(A, "n");

  const all = [...history, ...later];
  assert.deepEqual(hopOffsets(copiesOf((await api.readAll(fromBeginning)).events)), offsetsOf(all));
  assert.deepEqual(
    (await api.readAll(fromBeginning)).events.map((e) => e.payload.i),
    [0, 1, 2, 3, 4],
  );
  const nowCopies = copiesOf((await api.readAll(fromNow)).events);
  assert.deepEqual(hopOffsets(nowCopies), offsetsOf(later), "history skipped");
  assert.deepEqual(nowCopies.map((e) => e.payload.i), [3, 4]);
});

// ---------------------------------------------------------------------------
// 4. Halts and resume
// ---------------------------------------------------------------------------

test("§5 bounds, §7 rule 2: a receiving stream whose reduced state is just under its 256 KiB bound still takes copies from a new source — its fence records are rows of their own table, and the state document does not grow", async () => {
  const A = fresh("full-a");
  const B = fresh("full-b");
  const elsewhere = fresh("elsewhere");

  // Fill B's reduced state to just under the bound with its own (inert) outbound subscriptions.
  const inert = (key, description) => ({
    type: CONFIGURED,
    payload: { subscriptionKey: key, description, filter: { eventTypes: ["never"] }, receiver: copyReceiver(elsewhere, { start: "now" }) },
  });
  const stateBytes = async () => JSON.stringify((await api.infoOk(B)).state).length;
  const outboundOf = async () => (await api.infoOk(B)).state.subscriptions.outbound;
  await api.appendOk(B, inert("big-1", "x".repeat(120_000)));
  await api.appendOk(B, inert("big-2", "y".repeat(120_000)));
  await api.appendOk(B, inert("pad", ""));
  const withEmptyPad = await stateBytes();
  const padding = MAX_REDUCED_STATE_BYTES - 100 - withEmptyPad;
  assert.ok(padding > 0, `room to pad: ${withEmptyPad}`);
  await api.appendOk(B, inert("pad", "z".repeat(padding))); // replace: same key, same-width offset
  const full = await stateBytes();
  const room = MAX_REDUCED_STATE_BYTES - full;
  assert.ok(room >= 0 && room < 150, `B's state is just under the bound: ${full} bytes, ${room} left`);
  const outboundBefore = await outboundOf();

  // Subscribe B to A and append: every copy lands; the new fence record is a table row.
  await api.subscribeFromOk(B, { sourcePath: A, subscriptionKey: "k", filter: { eventTypes: ["data"] } }); // A:1
  const first = await api.batchOk(A, dataEvents(5, 0)); // A:2..6
  const copies = await waitForCopies(B, 5);
  assert.deepEqual(hopOffsets(copies), offsetsOf(first), "every event once, in order");
  const entry = await api.caughtUp(A, "k");
  assert.equal(entry.runtime.lastError, null);
  assert.equal((await api.eventsOfType(A, HALTED)).length, 0, "no halt");
  assert.deepEqual(await outboundOf(), outboundBefore, "B's own subscriptions are untouched");
  const bInfo = await api.infoOk(B);
  assert.equal(bInfo.inboundFenceCount, 1);
  assert.equal(bInfo.state.subscriptions.inbound.bySourcePath[A].k.numEventsReceived, 5);
});

test("§5 filter/transform, §6 rule 5: a transform error is permanent: delivery halts at that event after one attempt, with the offset in the error; the events before it were copied", async () => {
  const A = fresh("transform-a");
  const B = fresh("transform-b");
  await api.subscribeFromOk(B, {
    sourcePath: A,
    subscriptionKey: "k",
    filter: { eventTypes: ["data"] },
    jsonataTransform: "payload.i = 2 ? $error('bad event') : {'payload': payload}",
  }); // A:1
  const events = await api.batchOk(A, dataEvents(5, 0)); // A:2..6; i = 2 is A:4
  const failing = events[2];
  assert.equal(failing.payload.i, 2);

  const halted = await eventually(
    async () => {
      const facts = await api.eventsOfType(A, HALTED);
      assert.equal(facts.length, 1);
      return facts[0];
    },
    { what: "the halt fact on A" },
  );
  assert.equal(halted.payload.subscriptionKey, "k");
  assert.equal(halted.payload.reason, "delivery-failed");
  assert.equal(halted.payload.attempts, 1, "permanent: no retries");
  assert.equal(halted.payload.afterOffset, failing.offset - 1, "halted exactly at the failing event");
  assert.match(halted.payload.error, new RegExp(`offset ${failing.offset}\\b`));

  const copies = copiesOf((await api.readAll(B)).events);
  assert.deepEqual(hopOffsets(copies), offsetsOf(events.slice(0, 2)), "the events before it were copied, nothing after");
  const card = await api.cardEntry(A, "k");
  assert.equal(card.runtime.acknowledgedOffset, failing.offset - 1);
  assert.equal(card.deliveryHalted.afterOffset, failing.offset - 1);
  assert.match(card.runtime.lastError, new RegExp(`offset ${failing.offset}\\b`));

  // §6 rule 8: resume restarts after the halt's afterOffset with a fresh
  // attempt count — the same event fails again, alone, and halts again there.
  await api.appendOk(A, { type: RESUMED, payload: { subscriptionKey: "k" } });
  const again = await eventually(
    async () => {
      const facts = await api.eventsOfType(A, HALTED);
      assert.equal(facts.length, 2, "a second halt fact");
      return facts[1];
    },
    { what: "the second halt fact on A" },
  );
  assert.equal(again.payload.afterOffset, failing.offset - 1, "from the halt's afterOffset");
  assert.equal(again.payload.attempts, 1, "a fresh attempt count");
  assert.deepEqual(hopOffsets(copiesOf((await api.readAll(B)).events)), offsetsOf(events.slice(0, 2)), "still nothing after it");
});

// ---------------------------------------------------------------------------
// 5. New runs: cursor-set, recreated source
// ---------------------------------------------------------------------------

test("§4 cursor-set, §6 rule 7, §7: moving the cursor back starts a new run; B receives the history again with the new cursorChangedAtSourceOffset and its fence record moves to it", async () => {
  const A = fresh("cursor-a");
  const B = fresh("cursor-b");
  await api.subscribeFromOk(B, { sourcePath: A, subscriptionKey: "k", filter: { eventTypes: ["data"] } }); // A:1
  const firstRun = await api.batchOk(A, dataEvents(3, 0)); // A:2..4
  await waitForCopies(B, 3);
  await api.caughtUp(A, "k");
  const aInfo = await api.infoOk(A);

  const set = await api.appendOk(A, { type: CURSOR_SET, payload: { subscriptionKey: "k", afterOffset: firstRun[0].offset } }); // A:5
  const after = await api.appendOk(A, dataEvents(1, 3)[0]); // A:6
  await waitForCopies(B, 6);
  const entry = await api.caughtUp(A, "k");
  assert.equal(entry.runtime.runOffset, set.offset);

  const copies = copiesOf((await api.readAll(B)).events);
  assert.deepEqual(
    copies.map((e) => [lastHop(e).offset, lastHop(e).cursorChangedAtSourceOffset]),
    [
      [2, 1],
      [3, 1],
      [4, 1],
      [3, set.offset],
      [4, set.offset],
      [after.offset, set.offset],
    ],
    "the new run appends old offsets again (§7 rule 4) and continues",
  );
  assert.deepEqual(copies.slice(3).map((e) => e.payload.i), [1, 2, 3]);
  for (const copy of copies) {
    assert.equal(lastHop(copy).streamId, aInfo.streamId);
  }
  assert.equal(new Set(copies.map((e) => e.idempotencyKey)).size, copies.length, "a new run has new identities");

  const record = (await api.infoOk(B)).state.subscriptions.inbound.bySourcePath[A].k;
  assert.equal(record.cursorChangedAtSourceOffset, set.offset, "the fence record moved to the new run");
  assert.equal(record.streamId, aInfo.streamId);
  assert.equal(record.numEventsReceived, 6);
  assert.equal((await api.metricsOk(B)).tributary_fence_rejections_total, 0);
});

test("§3 rule 6, §7 rule 2: a deleted and recreated source starts a new lifetime; B accepts its copies (new streamId, later streamCreatedAt in the fence record) and keeps the old ones", async () => {
  const A = fresh("recreate-a");
  const B = fresh("recreate-b");
  await api.subscribeFromOk(B, { sourcePath: A, subscriptionKey: "k", filter: { eventTypes: ["data"] } });
  await api.batchOk(A, dataEvents(2, 0)); // A:2..3, first lifetime
  await waitForCopies(B, 2);
  await api.caughtUp(A, "k");
  const oldInfo = await api.infoOk(A);
  const oldRecord = (await api.infoOk(B)).state.subscriptions.inbound.bySourcePath[A].k;
  assert.equal(oldRecord.streamId, oldInfo.streamId);

  const deleted = await api.destroy(A);
  assert.ok(deleted.status >= 200 && deleted.status < 300, `delete: ${deleted.status} ${JSON.stringify(deleted.body)}`);
  assert.equal((await api.info(A)).status, 404);

  await api.subscribeFromOk(B, { sourcePath: A, subscriptionKey: "k", filter: { eventTypes: ["data"] } }); // new A:1
  await api.batchOk(A, dataEvents(2, 100)); // new A:2..3 — the same offsets as before
  const newInfo = await api.infoOk(A);
  assert.notEqual(newInfo.streamId, oldInfo.streamId);
  assert.ok(newInfo.streamCreatedAt > oldInfo.streamCreatedAt, `${newInfo.streamCreatedAt} after ${oldInfo.streamCreatedAt}`);

  await waitForCopies(B, 4);
  await api.caughtUp(A, "k");
  const copies = copiesOf((await api.readAll(B)).events);
  assert.deepEqual(
    copies.map((e) => [lastHop(e).streamId, lastHop(e).offset, e.payload.i]),
    [
      [oldInfo.streamId, 2, 0],
      [oldInfo.streamId, 3, 1],
      [newInfo.streamId, 2, 100],
      [newInfo.streamId, 3, 101],
    ],
    "old copies remain; the new lifetime's copies are accepted although their offsets repeat",
  );
  for (const copy of copies.slice(2)) assert.equal(lastHop(copy).streamCreatedAt, newInfo.streamCreatedAt);
  const record = (await api.infoOk(B)).state.subscriptions.inbound.bySourcePath[A].k;
  assert.equal(record.streamId, newInfo.streamId);
  assert.equal(record.streamCreatedAt, newInfo.streamCreatedAt);
  assert.ok(record.streamCreatedAt > oldRecord.streamCreatedAt, "the fence record moved to the later lifetime");
  assert.equal(record.numEventsReceived, 4);
  assert.equal((await api.metricsOk(B)).tributary_fence_rejections_total, 0);
});

// ---------------------------------------------------------------------------
// 6. Runtime figures
// ---------------------------------------------------------------------------

test("§6/§11 runtime figures: bytesSent grows with each delivery; deliveryDurationMs and completionLatencyMs count deliveries with consistent percentiles", async () => {
  const A = fresh("figures-a");
  const B = fresh("figures-b");
  await api.subscribeFromOk(B, { sourcePath: A, subscriptionKey: "k", filter: { eventTypes: ["data"] } });
  const idle = await api.cardEntry(A, "k");
  assert.equal(idle.runtime.bytesSent, 0);
  assert.deepEqual(idle.runtime.deliveryDurationMs, { count: 0, p50: null, p99: null, max: null });

  await api.batchOk(A, dataEvents(10, 0));
  await waitForCopies(B, 10);
  const first = (await api.caughtUp(A, "k")).runtime;
  assert.ok(first.bytesSent > 0, JSON.stringify(first));
  assert.ok(first.deliveryDurationMs.count > 0);
  assert.ok(first.completionLatencyMs.count > 0);

  await api.batchOk(A, dataEvents(10, 10, () => ({ payload: { i: 0, filler: "f".repeat(2_000) } })));
  await waitForCopies(B, 20);
  const second = (await api.caughtUp(A, "k")).runtime;
  assert.ok(second.bytesSent >= first.bytesSent + 20_000, `bytesSent grows: ${first.bytesSent} → ${second.bytesSent}`);
  assert.ok(second.deliveryDurationMs.count > first.deliveryDurationMs.count);
  assert.ok(second.completionLatencyMs.count > first.completionLatencyMs.count);
  for (const figures of [second.deliveryDurationMs, second.completionLatencyMs]) {
    assert.deepEqual(Object.keys(figures).sort(), ["count", "max", "p50", "p99"]);
    for (const name of ["p50", "p99", "max"]) assert.equal(typeof figures[name], "number", JSON.stringify(figures));
    assert.ok(0 <= figures.p50 && figures.p50 <= figures.p99 && figures.p99 <= figures.max, JSON.stringify(figures));
  }
});
