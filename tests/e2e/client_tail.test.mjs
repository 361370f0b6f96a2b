// The TypeScript client's live tail (clients/typescript/src/tail, issue 22;
// docs/design.md §10, §16) against the built worker in workerd: over a
// WebSocket, SSE and long-polls it replays then follows, resumes across a
// cut connection with no gap and no duplicate, acknowledges as the caller
// takes events, survives a slow-consumer close, filters by type, starts
// at "now", replays no ephemeral event appended before it opened but
// delivers those after (on every transport), reports retention gaps,
// falls back to long-polls behind a proxy that refuses upgrades, and ends
// on `replaced`, `stream_deleted`, 401, `close()` and `break`. Connections
// are cut through a TCP proxy (tests/e2e/client_helpers.mjs); every wait
// is on something observable.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary, TOKEN } from "./harness.mjs";
import { eventually } from "./delivery_helpers.mjs";
import { parsePrometheus, sample } from "./prometheus_text.mjs";
import { client, startProxy, rejectsWith } from "./client_helpers.mjs";

const { Tributary } = client;
const TRANSPORTS = ["websocket", "sse", "long-poll"];
let t;
let proxy;
/** Talks to workerd directly (appends, card, metrics). */
let direct;
/** Talks through the proxy (the tails whose connections get cut). */
let viaProxy;
let counter = 0;
const fresh = (name) => `client-tail/${name}-${++counter}`;
const data = (n, from = 0, type = "data") => Array.from({ length: n }, (_, i) => ({ type, payload: { i: from + i } }));
const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

before(async () => {
  t = await startTributary();
  proxy = await startProxy(t.url);
  direct = new Tributary({ baseUrl: t.url, token: TOKEN });
  viaProxy = new Tributary({ baseUrl: proxy.url, token: TOKEN });
});

after(async () => {
  await proxy?.close();
  await t?.cleanup();
});

async function streamMetric(path, name) {
  return sample(parsePrometheus(await direct.streams.metrics(path)), name, {}) ?? 0;
}

/** Resolves once the tail is connected and waiting: its connection on the card, or a long-poll waiting. */
async function connected(path, transport, connectionKey) {
  await eventually(async () => {
    if (transport === "long-poll") {
      assert.ok((await streamMetric(path, "tributary_live_long_poll_waiters")) >= 1, "a long-poll is waiting");
    } else {
      const card = await direct.subscriptions.card(path);
      assert.ok(card.connections.some((c) => c.connectionKey === connectionKey), `${connectionKey} is open`);
    }
  }, { what: `${transport} tail connected` });
}

for (const transport of TRANSPORTS) {
  test(`${transport}: replays, follows, and resumes across a cut connection with no gap and no duplicate`, { timeout: 60_000 }, async () => {
    const path = fresh(transport);
    const connectionKey = `tail-${counter}`;
    await direct.streams.appendBatch(path, data(50));
    const reconnects = [];
    const tail = viaProxy.tail(path, { transport, connectionKey, longPollWaitMs: 10_000, onReconnect: (info) => reconnects.push(info) });
    assert.equal(tail.transport, transport);
    const got = [];
    let cutAndAppend;
    for await (const event of tail) {
      got.push(event.offset);
      if (got.length === 50) {
        // Once the tail is caught up and waiting: cut its connection, then append more.
        cutAndAppend = (async () => {
          await connected(path, transport, connectionKey);
          proxy.cut();
          await direct.streams.appendBatch(path, data(50, 50));
        })();
      }
      if (got.length === 100) break;
    }
    await cutAndAppend;
    assert.deepEqual(got, range(1, 100), "every offset once, in order");
    assert.ok(reconnects.length >= 1, "the cut connection was reopened");
    assert.equal(reconnects[0].transport, transport);
    assert.equal(tail.position, 100);
    // `break` closed the connection: the card shows a WebSocket gone at once
    // (an SSE response stays registered until the server's next write finds it gone, §10).
    if (transport === "websocket") {
      await eventually(async () => assert.ok(!(await direct.subscriptions.card(path)).connections.some((c) => c.connectionKey === connectionKey)));
    }
  });
}

test("websocket: acknowledges once per 64 KiB the caller took, and is never closed as a slow consumer while it keeps up (§10, §12)", { timeout: 60_000 }, async () => {
  const path = fresh("acks");
  const big = Array.from({ length: 40 }, (_, i) => ({ type: "big", payload: { i, pad: "x".repeat(10_000) } }));
  await direct.streams.appendBatch(path, big);
  const tail = direct.tail(path, { transport: "websocket" });
  const got = [];
  for await (const event of tail) {
    got.push(event.offset);
    if (got.length === 40) break;
  }
  assert.deepEqual(got, range(1, 40));
  const acks = await eventually(async () => {
    const n = await streamMetric(path, "tributary_live_acks_total");
    assert.ok(n >= 5, `about 400 KB taken in 64 KiB windows: ${n} acks`);
    return n;
  });
  assert.ok(acks <= 7, `one ack per window, not per frame: ${acks}`);
  assert.equal(await streamMetric(path, "tributary_live_slow_consumer_closes_total"), 0);
});

test("websocket: a caller that stops taking events is closed slow_consumer, and the tail resumes after what it took (§12)", { timeout: 90_000 }, async () => {
  const path = fresh("slow");
  await direct.streams.append(path, { type: "first" });
  const reconnects = [];
  const tail = direct.tail(path, { transport: "websocket", connectionKey: "slow", onReconnect: (info) => reconnects.push(info) });
  const iterator = tail[Symbol.asyncIterator]();
  assert.equal((await iterator.next()).value.offset, 1);
  await connected(path, "websocket", "slow");
  // 8 × ~200 KB while the caller takes nothing: no ack goes out, the backlog passes 1 MiB.
  for (let i = 0; i < 8; i++) await direct.streams.append(path, { type: "big", payload: { i, pad: "y".repeat(200_000) } });
  await eventually(async () => assert.equal(await streamMetric(path, "tributary_live_slow_consumer_closes_total"), 1), { what: "slow_consumer close" });
  await direct.streams.appendBatch(path, data(3));
  const got = [1];
  while (got.length < 12) got.push((await iterator.next()).value.offset);
  await iterator.return();
  assert.deepEqual(got, range(1, 12), "what arrived before the close, then the rest after the reconnect");
  assert.ok(reconnects.some((r) => /slow_consumer/.test(r.reason)), JSON.stringify(reconnects));
});

for (const transport of TRANSPORTS) {
  test(`${transport}: after "now" and a types filter`, { timeout: 30_000 }, async () => {
    const path = fresh(`filter-${transport}`);
    await direct.streams.appendBatch(path, [{ type: "a" }, { type: "b" }]);
    const tail = direct.tail(path, { transport, after: "now", types: ["b"], connectionKey: `filter-${counter}`, longPollWaitMs: 10_000 });
    const iterator = tail[Symbol.asyncIterator]();
    const first = iterator.next();
    await connected(path, transport, `filter-${counter}`);
    await direct.streams.appendBatch(path, [{ type: "a" }, { type: "b", payload: { n: 1 } }, { type: "a" }, { type: "b", payload: { n: 2 } }]);
    const second = (await first).value;
    const third = (await iterator.next()).value;
    tail.close();
    assert.deepEqual([second.offset, third.offset], [4, 6], "only the b events after the head at the call");
    assert.deepEqual([second.payload, third.payload], [{ n: 1 }, { n: 2 }]);
  });
}

for (const transport of TRANSPORTS) {
  test(`${transport}: replays no ephemeral event appended before the tail opened, and delivers those appended after it (§10)`, { timeout: 30_000 }, async () => {
    const path = fresh(`ephemeral-${transport}`);
    const connectionKey = `ephemeral-${counter}`;
    await direct.streams.appendBatch(path, [{ type: "d", payload: { n: 1 } }, { type: "e", ephemeral: true, payload: { n: 2 } }, { type: "d", payload: { n: 3 } }]);
    const tail = direct.tail(path, { transport, connectionKey, longPollWaitMs: 10_000 });
    const iterator = tail[Symbol.asyncIterator]();
    const seen = (event) => [event.offset, event.type, event.ephemeral ?? false];
    const replayed = [(await iterator.next()).value, (await iterator.next()).value];
    assert.deepEqual(replayed.map(seen), [[1, "d", false], [3, "d", false]], "the replay holds no ephemeral event");
    const third = iterator.next();
    // Caught up and waiting: what is appended now is appended after the open.
    await connected(path, transport, connectionKey);
    await direct.streams.appendBatch(path, [{ type: "e", ephemeral: true, payload: { n: 4 } }, { type: "d", payload: { n: 5 } }]);
    const followed = [(await third).value, (await iterator.next()).value];
    tail.close();
    assert.deepEqual(followed.map(seen), [[4, "e", true], [5, "d", false]], "an ephemeral event appended after the open arrives");
  });
}

test("retention gaps are never silent: without onTrimmed the tail throws 410 trimmed, with it the gap is reported and the tail goes on (§16)", { timeout: 60_000 }, async () => {
  const path = fresh("trimmed");
  await direct.streams.appendBatch(path, data(60));
  await direct.streams.configureRetention(path, { maxEvents: 10 });
  const { firstOffset } = await eventually(async () => {
    const info = await direct.streams.get(path);
    assert.ok(info.firstOffset > 1, `trimmed: firstOffset ${info.firstOffset}`);
    return info;
  }, { timeoutMs: 30_000 });
  for (const transport of TRANSPORTS) {
    const refused = await rejectsWith((async () => {
      for await (const _ of direct.tail(path, { transport, after: 0 })) break;
    })(), "trimmed", 410);
    assert.equal(refused.details.firstOffset, firstOffset, `${transport}: details.firstOffset`);

    const gaps = [];
    const tail = direct.tail(path, { transport, after: 0, onTrimmed: (gap) => gaps.push(gap) });
    let firstTaken;
    for await (const event of tail) {
      firstTaken = event.offset;
      break;
    }
    assert.deepEqual(gaps, [{ afterOffset: 0, firstOffset }], `${transport}: the gap reported`);
    assert.equal(firstTaken, firstOffset, `${transport}: it went on from firstOffset`);
    const earliest = direct.tail(path, { transport });
    for await (const event of earliest) {
      assert.equal(event.offset, firstOffset, `${transport}: the default start is the first retained event`);
      break;
    }
  }
});

test("auto: behind a proxy that refuses WebSocket upgrades the tail falls back to long-polls and loses nothing", { timeout: 60_000 }, async () => {
  const refusing = await startProxy(t.url, { refuseUpgrades: true });
  try {
    const path = fresh("fallback");
    await direct.streams.appendBatch(path, data(5));
    const reconnects = [];
    const tail = new Tributary({ baseUrl: refusing.url, token: TOKEN }).tail(path, { onReconnect: (r) => reconnects.push(r), longPollWaitMs: 5_000 });
    assert.equal(tail.transport, "websocket", "auto starts with a WebSocket where the runtime has one");
    const got = [];
    for await (const event of tail) {
      got.push(event.offset);
      if (got.length === 5) await direct.streams.appendBatch(path, data(5, 5));
      if (got.length === 10) break;
    }
    assert.deepEqual(got, range(1, 10));
    assert.equal(tail.transport, "long-poll");
    assert.deepEqual(reconnects.map((r) => r.transport), ["websocket", "long-poll"], "one retry, then the fallback");
  } finally {
    await refusing.close();
  }
});

for (const transport of ["websocket", "sse"]) {
  test(`${transport}: ends with replaced when another connection takes its key, stream_deleted on DELETE, unauthorized for a bad token, 400 for bad options`, { timeout: 60_000 }, async () => {
    const path = fresh(`ends-${transport}`);
    await direct.streams.append(path, { type: "x" });
    const first = direct.tail(path, { transport, connectionKey: "shared" });
    const firstIterator = first[Symbol.asyncIterator]();
    assert.equal((await firstIterator.next()).value.offset, 1);
    await connected(path, transport, "shared");
    const second = direct.tail(path, { transport, connectionKey: "shared" });
    const secondIterator = second[Symbol.asyncIterator]();
    assert.equal((await secondIterator.next()).value.offset, 1);
    await rejectsWith(firstIterator.next(), "replaced");

    const deleted = rejectsWith(secondIterator.next(), "stream_deleted");
    await direct.streams.delete(path);
    await deleted;

    const stranger = new Tributary({ baseUrl: t.url, token: "not-a-token" });
    await rejectsWith((async () => {
      for await (const _ of stranger.tail(path, { transport })) break;
    })(), "unauthorized", 401);
    const tooManyTypes = Array.from({ length: 200 }, (_, i) => `type-${i}`);
    await rejectsWith((async () => {
      for await (const _ of direct.tail(path, { transport, types: tooManyTypes })) break;
    })(), "invalid_parameter", 400);
  });
}

test("close() ends a tail that is waiting for events, and an aborted signal ends it too", { timeout: 30_000 }, async () => {
  const path = fresh("close");
  await direct.streams.append(path, { type: "x" });
  for (const transport of TRANSPORTS) {
    const tail = direct.tail(path, { transport, after: 1, connectionKey: `close-${transport}`, longPollWaitMs: 10_000 });
    const pending = tail[Symbol.asyncIterator]().next();
    await connected(path, transport, `close-${transport}`);
    tail.close();
    assert.deepEqual(await pending, { done: true, value: undefined }, `${transport}: close() ended the iteration`);

    const controller = new AbortController();
    controller.abort();
    const aborted = direct.tail(path, { transport, after: 0, signal: controller.signal });
    const items = [];
    for await (const event of aborted) items.push(event);
    assert.deepEqual(items, [], `${transport}: an aborted signal yields nothing`);
  }
});
