// The TypeScript client (clients/typescript, issue 22) against the built
// worker in workerd, as an integrator would use it: streams, subscriptions
// of every receiver kind with their policies, dead letters, processors,
// sources, the catalog, metrics, the token, JSONata, and one typed error
// class. Every documented operation but the live tail (client_tail.test.mjs)
// is called through the client here, and the last test checks that.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary, TOKEN, READ_TOKEN } from "./harness.mjs";
import { eventually } from "./delivery_helpers.mjs";
import { startReceiver } from "./webhook_receiver.mjs";
import { startAnvil, CHAIN_ID, TRANSFER } from "./anvil.mjs";
import { client, recordingFetch, closedPort, rejectsWith } from "./client_helpers.mjs";

const { Tributary, TributaryError, CONTROL, FACTS } = client;
const recorder = recordingFetch();
let t;
let receiver;
let anvil;
/** The client every test uses (full-access token, recording fetch). */
let tributary;
let counter = 0;
const fresh = (name) => `client/${name}-${++counter}`;
const SMALL_RETRY = { maxAttempts: 2, initialBackoffMs: 20, maxBackoffMs: 100 };

before(async () => {
  [t, receiver, anvil] = await Promise.all([startTributary({ allowInsecureWebhooks: true, itx: true }), startReceiver(), startAnvil()]);
  tributary = new Tributary({ baseUrl: t.url, token: TOKEN, fetch: recorder.fetch });
});

after(async () => {
  await Promise.all([t?.cleanup(), receiver?.close(), anvil?.stop()]);
});

async function collect(iterable) {
  const items = [];
  for await (const item of iterable) items.push(item);
  return items;
}

test("streams: single and batch appends with idempotency keys, pages as an async iterator, info, point read, metrics, delete (§3)", async () => {
  const path = fresh("orders");
  const first = await tributary.streams.append(path, { type: "order-placed", payload: { id: 1 }, idempotencyKey: "order-1" });
  assert.equal(first.deduplicated, false);
  assert.equal(first.event.offset, 1);
  const again = await tributary.streams.append(`/${path}`, { type: "order-placed", payload: { id: 1 }, idempotencyKey: "order-1" });
  assert.deepEqual(again, { ...first, deduplicated: true }, "a repeat answers the committed event");

  const batch = Array.from({ length: 250 }, (_, i) => ({ type: "line", payload: { i }, idempotencyKey: `line-${i}` }));
  const appended = await tributary.streams.appendBatch(path, batch);
  assert.equal(appended.events.length, 250);
  assert.deepEqual(appended.events.map((e) => e.offset), Array.from({ length: 250 }, (_, i) => i + 2));
  assert.ok(appended.deduplicated.every((d) => d === false));
  const partlyRepeated = await tributary.streams.appendBatch(path, [batch[0], { type: "line", payload: { i: 250 } }]);
  assert.deepEqual(partlyRepeated.deduplicated, [true, false]);

  const pages = await collect(tributary.streams.pages(path, { limit: 100 }));
  assert.equal(pages.length, 3, "252 events in pages of 100");
  const events = await collect(tributary.streams.events(path, { limit: 100 }));
  assert.deepEqual(events.map((e) => e.offset), Array.from({ length: 252 }, (_, i) => i + 1), "every event once, in order");
  const tailOnly = await collect(tributary.streams.events(path, { after: 250 }));
  assert.deepEqual(tailOnly.map((e) => e.offset), [251, 252]);

  const info = await tributary.streams.get(path);
  assert.equal(info.head, 252);
  assert.equal(info.path, `/${path}`);
  const point = await tributary.streams.event(path, 2);
  assert.deepEqual(point.event.payload, { i: 0 });
  assert.match(await tributary.streams.metrics(path), /^# (HELP|TYPE) /m);

  await tributary.streams.delete(path);
  const gone = await rejectsWith(tributary.streams.get(path), "stream_not_found", 404);
  assert.ok(gone instanceof TributaryError && gone instanceof Error);
});

test("streams.protocolUrl / protocol: the Durable Streams face of the same stream, for @durable-streams/client (§17)", async () => {
  const path = fresh("protocol");
  assert.equal(tributary.streams.protocolUrl(path), `${t.url}/v1/stream/${path}`);
  assert.equal(tributary.streams.protocolUrl(`/${path}`), `${t.url}/v1/stream/${path}`);
  assert.deepEqual(tributary.streams.protocol(path), { url: `${t.url}/v1/stream/${path}`, headers: { Authorization: `Bearer ${TOKEN}` } });
  assert.throws(() => tributary.streams.protocolUrl("a/../b"), (error) => error instanceof TributaryError && error.code === "invalid_path");

  // What the official client writes through that URL is the stream this client reads.
  const { DurableStream } = await import("../durable-streams/client.mjs");
  const stream = await DurableStream.create({ ...tributary.streams.protocol(path), contentType: "application/json", ttlSeconds: 3600 });
  await stream.append(JSON.stringify({ n: 1 }));
  const open = await tributary.streams.get(path);
  assert.equal(open.contentType, "application/json");
  assert.equal(open.closed, false);
  assert.equal(open.closedAtOffset, undefined);
  assert.deepEqual(open.expiry, { ttlSeconds: 3600 });
  assert.ok(Date.parse(open.expiresAt) > Date.now(), `expires in the future: ${open.expiresAt}`);
  await stream.close();
  const closed = await tributary.streams.get(path);
  assert.equal(closed.closed, true);
  assert.equal(closed.closedAtOffset, closed.head, "the stream-closed event is the last one");
  const events = await collect(tributary.streams.events(path));
  assert.deepEqual(
    events.map((e) => [e.type, e.payload]),
    [
      ["events.iterate.com/stream/expiry-configured", { ttlSeconds: 3600 }],
      ["message", { n: 1 }],
      ["events.iterate.com/stream/stream-closed", {}],
    ],
    "the create's expiry, the message and the closure are events of the log",
  );
  await rejectsWith(tributary.streams.append(path, { type: "late" }), "stream_closed", 409);

  // A fork (§18) of the closed stream: its prefix is the source's, its own lifetime open.
  const forked = fresh("protocol-fork");
  const fork = await tributary.streams.fork(forked, { from: path, at: 2 });
  assert.deepEqual([fork.forkedFrom.path, fork.forkedFrom.forkPoint, fork.closed], [`/${path}`, 2, false]);
  assert.ok(fork.head >= 2, `the fork's head is at or past its fork point: ${fork.head}`);
  assert.deepEqual(await tributary.streams.fork(forked, { from: `/${path}`, at: 2 }), fork, "the same fork again");
  assert.equal((await tributary.streams.get(path)).forks, 1);
  await rejectsWith(tributary.streams.fork(fresh("fork-missing"), { from: fresh("nowhere") }), "stream_not_found", 404);

  // A stream first written natively is JSON, open, with no expiry.
  const native = fresh("native-info");
  await tributary.streams.append(native, { type: "a" });
  const info = await tributary.streams.get(native);
  assert.deepEqual([info.contentType, info.closed, info.expiry, info.expiresAt], ["application/json", false, {}, undefined]);
});

test("errors: the API's code, message, details and status in one class; client-side refusals send nothing", async () => {
  const path = fresh("errors");
  await tributary.streams.append(path, { type: "a", idempotencyKey: "k" });
  const reused = await rejectsWith(tributary.streams.append(path, { type: "b", idempotencyKey: "k" }), "idempotency_key_reused", 409);
  assert.match(reused.message, /idempotency/i);
  const oversized = await rejectsWith(tributary.streams.append(path, { type: "big", payload: "x".repeat(300 * 1024) }), "event_too_large", 413);
  assert.equal(oversized.details.index, 0, "names the event of the batch");
  const badControl = await rejectsWith(
    tributary.streams.configureRetention(path, { maxAgeMs: 5 }),
    "invalid_control_event",
    422,
  );
  assert.equal(badControl.details.field, "maxAgeMs");
  await rejectsWith(tributary.streams.event(path, 99), "event_not_found", 404);
  await rejectsWith(tributary.streams.append(path, { type: FACTS.errorOccurred }), "trusted_only_type", 403);

  const reader = new Tributary({ baseUrl: t.url, token: READ_TOKEN });
  const forbidden = await rejectsWith(reader.streams.append(path, { type: "a" }), "forbidden_scope", 403);
  assert.equal(forbidden.details.scope, "append");
  assert.equal((await reader.streams.get(path)).head, 1, "the read scope reads");
  await rejectsWith(new Tributary({ baseUrl: t.url, token: "no-such-token" }).streams.get(path), "unauthorized", 401);

  // Hostile and malformed paths never leave the client (a URL parser would resolve `..`).
  const before = recorder.calls.length;
  for (const bad of ["../x", "a/../../b", "a/%2E%2E/b", "a/-/b", "a b", "a//b", "", "/", `a/${"x".repeat(600)}`, Array(17).fill("s").join("/")]) {
    await rejectsWith(tributary.streams.get(bad), "invalid_path", 0);
  }
  assert.equal(recorder.calls.length, before, "no request was sent for an invalid path");

  const nowhere = new Tributary({ baseUrl: `http://127.0.0.1:${await closedPort()}`, token: TOKEN });
  const network = await rejectsWith(nowhere.streams.get(path), "network_error", 0);
  assert.ok(network.cause, "the fetch failure is kept as the cause");

  receiver.script("/foreign/v1/token", { status: 502, headers: { "content-type": "text/html" }, body: "<h1>Bad gateway</h1>" });
  const proxy = new Tributary({ baseUrl: receiver.url("/foreign"), token: TOKEN });
  const foreign = await rejectsWith(proxy.token(), "unexpected_response", 502);
  assert.match(String(foreign.details.body), /Bad gateway/);
  assert.throws(() => new Tributary({ baseUrl: t.url }), TypeError);
});

test("subscriptions: every receiver kind with its policies, the card, cursor-set, halt and resume, remove, subscribe-from (§4, §5, §8, §9)", async () => {
  const path = fresh("source");
  const copies = fresh("copies");
  await tributary.processors.put("client-counter", { kind: "jsonata-reducer", initialState: { n: 0 }, reducer: "{'n': $state.n + 1}" });
  const hookPath = `/client-hooks/${counter}`;
  receiver.script(hookPath, { status: 200 });
  const configurations = {
    copy: { receiver: { action: "copy-to-stream", receivingStreamPath: `/${copies}`, delivery: { start: "beginning", onFailingEvent: "halt", retry: SMALL_RETRY } } },
    hook: {
      filter: { eventTypes: ["data"], jsonataCondition: "payload.i >= 0" },
      receiver: {
        action: "webhook-post",
        url: receiver.url(hookPath),
        jsonataTransform: "{'i': payload.i}",
        delivery: { start: "beginning", onFailingEvent: "skip", retry: SMALL_RETRY, throttle: { maxDeliveries: 1000, windowMs: 1000 }, journalDepth: 10, timeoutMs: 5000 },
      },
    },
    itx: { receiver: { action: "itx-call", expression: ["services", "ITX_TEST", "deliver"], delivery: { start: "now", onFailingEvent: "halt", aggregate: { windowMs: 50, maxBatch: 10 } } } },
    counter: { filter: { eventTypes: ["data"] }, receiver: { action: "processor-wake", expression: ["processors", "client-counter", "wake"] } },
    log: { receiver: { action: "log", delivery: { start: "now", onFailingEvent: "skip" } } },
  };
  for (const [subscriptionKey, configuration] of Object.entries(configurations)) {
    const { event } = await tributary.subscriptions.configure(path, { subscriptionKey, ...configuration }, `configure-${subscriptionKey}`);
    assert.equal(event.type, CONTROL.subscriptionConfigured);
  }
  const replayed = await tributary.subscriptions.configure(path, { subscriptionKey: "log", ...configurations.log }, "configure-log");
  assert.equal(replayed.deduplicated, true, "a configure under the same idempotency key commits once");

  const invalid = await rejectsWith(
    tributary.subscriptions.configure(path, { subscriptionKey: "bad", receiver: { action: "webhook-post", url: receiver.url("/x"), delivery: { start: "beginning", onFailingEvent: "skip", concurrency: 99 } } }),
    "invalid_subscription",
    422,
  );
  assert.match(String(invalid.details.field), /concurrency/);

  await tributary.streams.appendBatch(path, [0, 1, 2].map((i) => ({ type: "data", payload: { i } })));
  const card = await eventually(async () => {
    const c = await tributary.subscriptions.card(path);
    const hook = c.subscriptions.find((s) => s.subscriptionKey === "hook");
    assert.equal(hook?.runtime.lag, 0, "the webhook caught up");
    return c;
  });
  assert.deepEqual(card.subscriptions.map((s) => s.subscriptionKey).sort(), ["copy", "counter", "hook", "itx", "log"]);
  const secret = await tributary.subscriptions.signingSecret(path, "hook");
  assert.match(secret, /^whsec_/);
  receiver.setSecret(hookPath, secret);
  assert.ok(receiver.received(hookPath).every((r) => r.verified), "every delivery verified with the secret the client fetched");
  await eventually(async () => {
    const copied = (await collect(tributary.streams.events(copies))).filter((e) => e.type === "data");
    assert.deepEqual(copied.map((e) => e.payload.i), [0, 1, 2], "the copy carried the data events in order");
  });
  await eventually(async () => assert.deepEqual((await tributary.processors.state(path, "client-counter")).state, { n: 3 }));

  await tributary.subscriptions.setCursor(path, "hook", 1);
  await eventually(() => assert.equal(receiver.received(hookPath).length >= 6, true, "cursor-set redelivers after offset 1"));

  // Halt and resume: a halt-mode webhook at a receiver that refuses.
  const haltPath = `/client-halt/${counter}`;
  receiver.script(haltPath, { status: 400 });
  await tributary.subscriptions.configure(path, { subscriptionKey: "halting", receiver: { action: "webhook-post", url: receiver.url(haltPath), delivery: { start: "beginning", onFailingEvent: "halt", retry: SMALL_RETRY } } });
  await eventually(async () => {
    const entry = (await tributary.subscriptions.card(path)).subscriptions.find((s) => s.subscriptionKey === "halting");
    assert.ok(entry?.deliveryHalted, "halted");
  });
  await rejectsWith(tributary.subscriptions.resume(path, "hook"), "subscription_not_halted", 409);
  receiver.script(haltPath, { status: 200 });
  await tributary.subscriptions.resume(path, "halting");
  await eventually(async () => {
    const entry = (await tributary.subscriptions.card(path)).subscriptions.find((s) => s.subscriptionKey === "halting");
    assert.equal(entry?.deliveryHalted, undefined, "resumed");
    assert.equal(entry?.runtime.lag, 0);
  });

  await tributary.subscriptions.remove(path, "halting");
  assert.ok(!(await tributary.subscriptions.card(path)).subscriptions.some((s) => s.subscriptionKey === "halting"), "removed");

  const receiving = fresh("receiving");
  const subscribed = await tributary.subscriptions.subscribeFrom(receiving, { sourcePath: `/${path}`, subscriptionKey: "pull", filter: { eventTypes: ["data"] } });
  assert.equal(subscribed.subscriptionKey, "pull");
  await eventually(async () => assert.equal((await tributary.streams.get(receiving)).head, 3, "subscribe-from copied the data events"));
});

test("dead letters: list as an async iterator, replay under the original delivery id, discard one, discard all (§8)", async () => {
  const path = fresh("letters");
  const hookPath = `/client-letters/${counter}`;
  receiver.script(hookPath, { status: 400 });
  await tributary.subscriptions.configure(path, {
    subscriptionKey: "hook",
    filter: { eventTypes: ["data"] },
    receiver: { action: "webhook-post", url: receiver.url(hookPath), delivery: { start: "beginning", onFailingEvent: "skip", retry: SMALL_RETRY } },
  });
  await tributary.streams.appendBatch(path, [0, 1, 2, 3, 4].map((i) => ({ type: "data", payload: { i } })));
  const letters = await eventually(async () => {
    const all = await collect(tributary.deadLetters.list(path, { limit: 2 }));
    assert.equal(all.length, 5, "five letters, read two per page");
    return all;
  });
  assert.deepEqual(letters.map((l) => l.offset), [2, 3, 4, 5, 6]);
  assert.equal((await tributary.deadLetters.page(path, { subscriptionKey: "hook", limit: 1 })).deadLetters.length, 1);

  receiver.script(hookPath, { status: 200 });
  const [first, second] = letters;
  await tributary.deadLetters.replay(path, first.id);
  const resent = receiver.received(hookPath).filter((r) => r.headers["webhook-id"] === first.deliveryId);
  assert.ok(resent.length >= 2, "the replay was sent under the original delivery id");
  await tributary.deadLetters.discard(path, second.id);
  await rejectsWith(tributary.deadLetters.discard(path, second.id), "dead_letter_not_found", 404);
  assert.equal(await tributary.deadLetters.discardAll(path, { subscriptionKey: "hook" }), 3);
  assert.deepEqual(await collect(tributary.deadLetters.list(path)), []);
});

test("processors: put (versions), get, list, state on a stream, delete (§9)", async () => {
  const name = `client-sum-${++counter}`;
  const v1 = await tributary.processors.put(name, { kind: "jsonata-reducer", initialState: { total: 0 }, reducer: "{'total': $state.total + $event.payload.n}", description: "sums n" });
  assert.equal(v1.version, 1);
  const v2 = await tributary.processors.put(name, { kind: "jsonata-reducer", initialState: { total: 0 }, reducer: "{'total': $state.total + $event.payload.n}", description: "sums payload.n" });
  assert.equal(v2.version, 2);
  assert.equal((await tributary.processors.get(name)).version, 2);
  const listed = await collect(tributary.processors.list({ limit: 1 }));
  assert.ok(listed.some((p) => p.name === name && p.version === 2), "listed, one per page");
  await rejectsWith(tributary.processors.put(name, { kind: "jsonata-reducer", initialState: {}, reducer: "{{" }), "invalid_jsonata", 422);

  const path = fresh("sums");
  await tributary.subscriptions.configure(path, { subscriptionKey: "sum", filter: { eventTypes: ["n"] }, receiver: { action: "processor-wake", expression: ["processors", name, "wake"] } });
  await tributary.streams.appendBatch(path, [1, 2, 3].map((n) => ({ type: "n", payload: { n } })));
  await eventually(async () => assert.deepEqual((await tributary.processors.state(path, name)).state, { total: 6 }));
  await tributary.subscriptions.remove(path, "sum");
  await tributary.processors.delete(name);
  await rejectsWith(tributary.processors.get(name), "processor_not_found", 404);
});

test("sources: put (created, then replaced), get, list, delete (§15)", async () => {
  const name = `client-chain-${++counter}`;
  const config = { kind: "evm", rpcUrls: [anvil.url], chainId: CHAIN_ID, targetStream: `/client/chain-${counter}`, filters: [{ event: TRANSFER }], pollMs: 250 };
  const created = await tributary.sources.put(name, config);
  assert.equal(created.created, true);
  assert.equal(created.source.name, name);
  const replaced = await tributary.sources.put(name, { ...config, confirmations: 1 });
  assert.equal(replaced.created, false);
  assert.equal((await tributary.sources.get(name)).config.kind, "evm");
  assert.ok((await collect(tributary.sources.list({ limit: 1 }))).some((s) => s.name === name));
  const wrongChain = await rejectsWith(tributary.sources.put(`${name}-x`, { ...config, chainId: CHAIN_ID + 1 }), "invalid_source", 422);
  assert.equal(typeof wrongChain.details.field, "string");
  await tributary.sources.delete(name);
  await rejectsWith(tributary.sources.get(name), "source_not_found", 404);
});

test("the catalog, project metrics, the token, JSONata and the OpenAPI document (§2, §11, §14)", async () => {
  const prefix = `/client-catalog-${++counter}/`;
  for (const leaf of ["a", "b", "c"]) await tributary.streams.append(`${prefix}${leaf}`, { type: "x" });
  const streams = await collect(tributary.catalog.streams({ prefix, limit: 2 }));
  assert.deepEqual(streams.map((s) => s.path), ["a", "b", "c"].map((leaf) => `${prefix}${leaf}`));
  assert.equal((await tributary.catalog.page({ prefix, limit: 1 })).streams.length, 1);

  const metrics = await eventually(async () => {
    const text = await tributary.metrics({ prefix });
    assert.match(text, new RegExp(`stream="${prefix}a"`), "the streams reported to the project");
    return text;
  }, { timeoutMs: 20_000 });
  assert.match(metrics, /^# TYPE /m);

  assert.deepEqual(await tributary.token(), { project: "project-a", scopes: ["read", "append", "manage"], prefix: null });
  assert.deepEqual(await tributary.evaluateJsonata("a + b", { a: 1, b: 2 }), { result: 3 });
  assert.deepEqual(await tributary.evaluateJsonata("nothing", {}), {});
  await rejectsWith(tributary.evaluateJsonata("(("), "jsonata_syntax_error", 422);
  const document = await tributary.openapi();
  assert.equal(document.openapi, "3.1.0");
});

test("hostile keys and names are one percent-encoded segment: they reach their own route or its 400, never another", async () => {
  const path = fresh("odd-keys");
  const key = "hook/with?odd#chars&x=1 %2F..";
  receiver.script("/odd", { status: 200 });
  await tributary.subscriptions.configure(path, {
    subscriptionKey: key,
    receiver: { action: "webhook-post", url: receiver.url("/odd"), delivery: { start: "now", onFailingEvent: "skip" } },
  });
  assert.match(await tributary.subscriptions.signingSecret(path, key), /^whsec_/);
  await rejectsWith(tributary.subscriptions.signingSecret(path, "../hook"), "subscription_not_found", 404);
  await rejectsWith(tributary.processors.get("../../streams/x"), "invalid_processor_name", 400);
  await rejectsWith(tributary.sources.get("a/b"), "invalid_source_name", 400);
  await rejectsWith(tributary.deadLetters.discard(path, "1/../../x"), "invalid_parameter", 400);
});

test("secrets: put (versions), list without values, a webhook authenticated from a secret, delete (§9)", async () => {
  const name = `CLIENT_TOKEN_${++counter}`;
  const v1 = await tributary.secrets.put(name, "Bearer client-v1");
  assert.deepEqual([v1.name, v1.version], [name, 1]);
  assert.equal((await tributary.secrets.put(name, "Bearer client-v2")).version, 2);
  const listed = await tributary.secrets.list();
  assert.equal(listed.find((s) => s.name === name)?.version, 2);
  assert.doesNotMatch(JSON.stringify(listed), /client-v/);
  const path = fresh("secret-hook");
  const hookPath = `/client-secret/${counter}`;
  await tributary.subscriptions.configure(path, {
    subscriptionKey: "hook",
    receiver: { action: "webhook-post", url: receiver.url(hookPath), headers: { authorization: { secret: name } }, delivery: { start: "beginning", onFailingEvent: "skip" } },
  });
  await tributary.streams.append(path, { type: "x" });
  await eventually(() => assert.ok(receiver.received(hookPath).some((r) => r.headers.authorization === "Bearer client-v2")));
  await tributary.secrets.delete(name);
  await rejectsWith(tributary.secrets.delete(name), "secret_not_found", 404);
  await rejectsWith(
    tributary.subscriptions.configure(path, { subscriptionKey: "hook", receiver: { action: "webhook-post", url: { secret: name }, delivery: { start: "now", onFailingEvent: "skip" } } }),
    "unknown_secret",
    422,
  );
});

test("every documented operation but the live tail and the protocol face was called through the client, and nothing undocumented was", () => {
  const called = new Set(recorder.calls.map((c) => c.operationId));
  assert.ok(!called.has(undefined), `a request matched no operation: ${JSON.stringify(recorder.calls.find((c) => !c.operationId))}`);
  // `/v1/stream/{path}` (§17) is spoken by Durable Streams clients; this
  // client only names its URL (`protocolUrl`, tested above).
  const protocol = (id) => client.OPERATIONS[id].path.startsWith("/v1/stream/");
  const missing = Object.keys(client.OPERATIONS).filter((id) => id !== "tailStream" && !protocol(id) && !called.has(id));
  assert.deepEqual(missing, [], "operations the client tests never called");
});
