// The OpenAPI document against the built worker (docs/design.md §2, issue 22):
// `GET /v1/openapi.json` serves the committed document without a token;
// every documented operation answers (never `route_not_found` or
// `method_not_allowed`) with a documented status and body; and the real
// answers of each route — successes, and the errors §2 and §16 name
// (401, 404, 405, 410 `trimmed`, 422, 502, 507 `stream_full`) — validate
// against the document's schemas with ajv, as do the webhook bodies
// (`event`, `digest`, `retracted`) a real local receiver gets.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary } from "./harness.mjs";
import { startReceiver } from "./webhook_receiver.mjs";
import { eventually, CONFIGURED, CONTROL } from "./delivery_helpers.mjs";
import { startAnvil, CHAIN_ID, TRANSFER } from "./anvil.mjs";
import { DOCUMENT, assertDocumented, assertSchema, documentedOperations, headOnly, urlOf } from "./openapi_helpers.mjs";

const STREAM = "/v1/streams/{path}";
const EVENTS = "/v1/streams/{path}/-/events";
const EVENT = "/v1/streams/{path}/-/events/{offset}";
const DEAD_LETTERS = "/v1/streams/{path}/-/dead-letters";
const DEAD_LETTER = "/v1/streams/{path}/-/dead-letters/{id}";
const REPLAY = "/v1/streams/{path}/-/dead-letters/{id}/replay";
const CARD = "/v1/streams/{path}/-/subscriptions";
const SECRET = "/v1/streams/{path}/-/subscriptions/{subscriptionKey}/signing-secret";
const PROCESSOR = "/v1/processors/{name}";
const SOURCE = "/v1/sources/{name}";

let t;
let receiver;
before(async () => {
  [t, receiver] = await Promise.all([startTributary({ allowInsecureWebhooks: true }), startReceiver()]);
});
after(async () => {
  await t?.cleanup();
  await receiver?.close();
});

let counter = 0;
const fresh = (name) => `openapi/${name}-${++counter}`;

/** Calls `method template` with `values` in its path and checks the answer against the document. */
async function call(method, template, { values = {}, query = "", expect, ...options } = {}) {
  const res = await t.request(method, `${urlOf(template, method.toLowerCase(), values)}${query}`, options);
  assertDocumented(method, template, res);
  if (expect !== undefined) assert.equal(res.status, expect, JSON.stringify(res.body));
  return res;
}

const appendOk = (path, body) => call("POST", EVENTS, { values: { path }, body, expect: 201 });

test("§2: GET /v1/openapi.json serves the committed document, without a token", async () => {
  const res = await call("GET", "/v1/openapi.json", { token: null, expect: 200 });
  assert.deepEqual(res.body, DOCUMENT);
  const refused = await t.request("POST", "/v1/openapi.json");
  assert.equal(refused.status, 405);
  assertSchema("Error", refused.body);
});

test("§2: every documented operation answers with a documented status and body", async () => {
  for (const { method, template } of documentedOperations()) {
    const url = urlOf(template, method.toLowerCase());
    const res = template.endsWith("/-/live")
      ? await headOnly(t.url, method, url, { accept: "text/event-stream" })
      : await t.request(method, url, { body: ["POST", "PUT"].includes(method) ? {} : undefined });
    const code = res.body?.error?.code;
    assert.ok(!["route_not_found", "method_not_allowed"].includes(code), `${method} ${url}: ${code}`);
    assertDocumented(method, template, res);
  }
  // Any method reaches the project object, which refuses the undocumented ones.
  const refused = await t.request("POST", "/v1/processors/totals");
  assert.equal(refused.status, 405);
  assertSchema("Error", refused.body);
});

test("§2, §3: appends, reads, stream info and their errors match the document", async () => {
  const path = fresh("streams");
  await appendOk(path, { type: "a", payload: { x: 1 }, idempotencyKey: "k1" });
  const again = await call("POST", EVENTS, { values: { path }, body: { type: "a", payload: { x: 1 }, idempotencyKey: "k1" } });
  assert.equal(again.status, 200);
  assert.equal(again.body.deduplicated, true);
  await appendOk(path, { events: [{ type: "b" }, { type: "c", metadata: { m: 1 }, ephemeral: true }] });
  await call("POST", EVENTS, { values: { path }, body: { type: "a", payload: { x: 2 }, idempotencyKey: "k1" }, expect: 409 });
  await call("POST", EVENTS, { values: { path }, rawBody: "{", expect: 400 });
  await call("POST", EVENTS, { values: { path }, body: { type: "a", idempotencyKey: "copy:x" }, expect: 403 });
  await call("POST", EVENTS, { values: { path }, body: { type: `${CONTROL}nope` }, expect: 422 });
  await call("POST", EVENTS, { values: { path }, body: { type: "big", payload: "x".repeat(300_000) }, expect: 413 });
  const info = await call("GET", STREAM, { values: { path }, expect: 200 });
  assert.equal(info.body.head, 3);
  await call("GET", EVENTS, { values: { path }, query: "?after=0&limit=2&includeEphemeral=true", expect: 200 });
  await call("GET", EVENTS, { values: { path }, query: "?after=3&waitMs=10", expect: 200 });
  await call("GET", EVENTS, { values: { path }, query: "?after=x", expect: 400 });
  await call("GET", EVENT, { values: { path, offset: 1 }, expect: 200 });
  await call("GET", EVENT, { values: { path, offset: 99 }, expect: 404 });
  const metrics = await call("GET", "/v1/streams/{path}/-/metrics", { values: { path }, expect: 200 });
  assert.match(metrics.body, /# TYPE tributary_appends_total counter/);
  await call("GET", STREAM, { values: { path }, token: null, expect: 401 });
  await call("DELETE", STREAM, { values: { path }, expect: 204 });
  await call("GET", STREAM, { values: { path }, expect: 404 });
  await call("GET", "/v1/streams", { query: `?prefix=${encodeURIComponent("/openapi/")}&limit=2`, expect: 200 });
});

test("§17: the Durable Streams face and the stream info it shapes match the document", async () => {
  const PROTOCOL = "/v1/stream/{path}";
  const path = fresh("protocol");
  const text = { "content-type": "text/plain" };
  await call("PUT", PROTOCOL, { values: { path }, rawBody: "one", headers: { ...text, "stream-ttl": "3600" }, expect: 201 });
  await call("PUT", PROTOCOL, { values: { path }, headers: { ...text, "stream-ttl": "3600" }, expect: 200 });
  await call("PUT", PROTOCOL, { values: { path }, headers: { "content-type": "application/json" }, expect: 409 });
  await call("POST", PROTOCOL, { values: { path }, rawBody: "two", headers: text, expect: 204 });
  await call("POST", PROTOCOL, { values: { path }, rawBody: "{}", headers: { "content-type": "application/json" }, expect: 409 });
  const read = await call("GET", PROTOCOL, { values: { path }, query: "?offset=-1", expect: 200 });
  assert.equal(read.body, "onetwo");
  assert.match(read.headers.get("stream-next-offset"), /^\d{16}_\d{16}$/);
  await call("GET", PROTOCOL, { values: { path }, query: "?offset=bogus", expect: 400 });
  await call("GET", PROTOCOL, { values: { path }, token: null, expect: 401 });
  const open = await call("GET", STREAM, { values: { path }, expect: 200 });
  assert.deepEqual([open.body.contentType, open.body.closed, open.body.expiry], ["text/plain", false, { ttlSeconds: 3600 }]);
  assert.ok(open.body.expiresAt, "a sliding TTL has a deadline");
  await call("POST", PROTOCOL, { values: { path }, headers: { ...text, "stream-closed": "true" }, expect: 204 });
  const closed = await call("GET", STREAM, { values: { path }, expect: 200 });
  assert.equal(closed.body.closed, true);
  assert.ok(closed.body.closedAtOffset > open.body.head);
  const page = await call("GET", EVENTS, { values: { path }, query: "?after=0", expect: 200 });
  assert.equal(page.body.closed, true);
  assert.deepEqual(page.body.events.filter((e) => e.type === "message").map((e) => [e.payload, e.encoding]), [["one", "utf-8"], ["two", "utf-8"]]);
  await call("DELETE", PROTOCOL, { values: { path }, expect: 204 });
  await call("POST", PROTOCOL, { values: { path }, rawBody: "x", headers: text, expect: 404 });
});

test("§16: a trimmed offset is 410 `trimmed` and stream info shows the retention fields", async () => {
  const path = fresh("trimmed");
  await appendOk(path, { type: `${CONTROL}retention-configured`, payload: { maxEvents: 2 } });
  await appendOk(path, { events: Array.from({ length: 10 }, (_, i) => ({ type: "data", payload: { i } })) });
  const info = await eventually(
    async () => {
      const res = await call("GET", STREAM, { values: { path }, expect: 200 });
      assert.ok(res.body.firstOffset > 1, `trimmed: ${res.body.firstOffset}`);
      return res.body;
    },
    { what: `${path} trimmed`, timeoutMs: 30_000 },
  );
  assert.deepEqual(info.retention, { maxEvents: 2, trimPastSubscribers: false });
  assertSchema("RetentionConfigured", info.retention);
  const gone = await call("GET", EVENT, { values: { path, offset: 1 }, expect: 410 });
  assert.equal(gone.body.error.details.firstOffset, info.firstOffset);
  await call("GET", EVENTS, { values: { path }, query: "?after=0", expect: 410 });
  await call("GET", EVENTS, { values: { path }, query: "?after=earliest", expect: 200 });
  await call("GET", CARD, { values: { path }, expect: 200 });
});

test("§16: past the storage budget a data append is 507 `stream_full`", { timeout: 120_000 }, async () => {
  const small = await startTributary({ storageBudgetBytes: 300_000 });
  try {
    const path = fresh("full");
    const pad = "x".repeat(2000);
    let full;
    for (let i = 0; i < 2000 && !full; i++) {
      const res = await small.request("POST", urlOf(EVENTS, "post", { path }), { body: { type: "data", payload: { i, pad } } });
      if (res.status !== 201) full = res;
    }
    assert.equal(full?.status, 507, JSON.stringify(full?.body));
    assertDocumented("POST", EVENTS, full);
  } finally {
    await small.cleanup();
  }
});

/** A webhook-post subscription (skip mode, small retries) of `data` events to the receiver's `hookPath`. */
function webhook(key, hookPath, delivery = {}) {
  const policy = { start: "beginning", onFailingEvent: "skip", retry: { maxAttempts: 1, initialBackoffMs: 10, maxBackoffMs: 10 } };
  return {
    type: CONFIGURED,
    payload: {
      subscriptionKey: key,
      filter: { eventTypes: ["data"] },
      receiver: { action: "webhook-post", url: receiver.url(hookPath), delivery: { ...policy, ...delivery } },
    },
  };
}

test("§8, §9, §11, §13: webhook bodies, the card, signing secrets and dead letters match the document", async () => {
  const path = fresh("hooks");
  const hook = `/openapi/${path}/ok`;
  const failing = `/openapi/${path}/fail`;
  receiver.script(failing, { status: 500 });
  await appendOk(path, webhook("plain", hook)); // 1
  await appendOk(path, webhook("digest", `${hook}/digest`, { aggregate: { windowMs: 60_000, maxBatch: 2 } })); // 2
  await appendOk(path, webhook("failing", failing)); // 3
  await appendOk(path, { events: [{ type: "data", payload: { n: 4 } }, { type: "data", payload: { n: 5 } }] });
  const secret = await call("GET", SECRET, { values: { path, subscriptionKey: "plain" }, expect: 200 });
  receiver.setSecret(hook, secret.body.secret);
  await call("GET", SECRET, { values: { path, subscriptionKey: "nope" }, expect: 404 });
  await appendOk(path, { type: `${CONTROL}events-invalidated`, payload: { offsets: [4], reason: "corrected" } }); // 6
  const bodies = await eventually(
    async () => {
      const got = receiver.all().filter((record) => record.path.startsWith(hook));
      const types = new Set(got.map((record) => record.body?.type));
      assert.ok(types.has("event") && types.has("digest") && types.has("retracted"), `seen ${[...types]}`);
      return got;
    },
    { what: "event, digest and retracted bodies" },
  );
  for (const record of bodies) {
    assertSchema("WebhookBody", record.body);
    for (const header of ["webhook-id", "webhook-timestamp", "webhook-signature"]) assert.ok(record.headers[header], header);
    if (record.body.type !== "retracted") assert.equal(record.headers["webhook-id"], record.body.deliveryId);
  }
  assert.ok(bodies.filter((record) => record.path === hook).every((record) => record.verified), "signatures verify");
  const card = await call("GET", CARD, { values: { path }, expect: 200 });
  assert.deepEqual(card.body.subscriptions.map((entry) => entry.subscriptionKey).sort(), ["digest", "failing", "plain"]);
  for (const entry of card.body.subscriptions) assertSchema("SubscriptionConfigured", entry.configuration);
  const letters = await eventually(
    async () => {
      const res = await call("GET", DEAD_LETTERS, { values: { path }, query: "?subscriptionKey=failing", expect: 200 });
      assert.ok(res.body.deadLetters.length >= 2, `${res.body.deadLetters.length} letters`);
      return res.body.deadLetters;
    },
    { what: "dead letters" },
  );
  const invalidated = letters.find((letter) => letter.offset === 4);
  const valid = letters.find((letter) => letter.offset === 5);
  await call("POST", REPLAY, { values: { path, id: invalidated.id }, expect: 409 });
  await call("POST", REPLAY, { values: { path, id: valid.id }, expect: 502 });
  await call("DELETE", DEAD_LETTER, { values: { path, id: valid.id }, expect: 204 });
  await call("DELETE", DEAD_LETTER, { values: { path, id: valid.id }, expect: 404 });
  await call("DELETE", DEAD_LETTERS, { values: { path }, query: "?subscriptionKey=failing", expect: 200 });
  await call("GET", DEAD_LETTERS, { values: { path }, query: "?limit=x", expect: 400 });
});

test("§5: subscribe-from and its errors match the document", async () => {
  const source = fresh("source");
  const receiving = fresh("receiving");
  await appendOk(source, { type: "a" });
  const subscribed = await call("POST", "/v1/streams/{path}/-/subscribe-from", {
    values: { path: receiving },
    body: { sourcePath: `/${source}`, subscriptionKey: "copy" },
    expect: 201,
  });
  assertSchema("SubscriptionConfigured", subscribed.body.subscriptionConfiguredEvent.payload);
  await call("POST", "/v1/streams/{path}/-/subscribe-from", { values: { path: receiving }, body: { sourcePath: `/${source}` }, expect: 400 });
  await call("POST", "/v1/streams/{path}/-/subscribe-from", { values: { path: receiving }, body: { sourcePath: `/${receiving}`, subscriptionKey: "self" }, expect: 422 });
});

test("§9: processor definitions, their list and a stream's processor state match the document", async () => {
  const name = `openapi-totals-${++counter}`;
  const body = { kind: "jsonata-reducer", initialState: {}, reducer: "$state", description: "a fold" };
  await call("PUT", PROCESSOR, { values: { name }, body, expect: 200 });
  await call("GET", PROCESSOR, { values: { name }, expect: 200 });
  await call("GET", "/v1/processors", { query: "?limit=5", expect: 200 });
  const path = fresh("processed");
  await appendOk(path, { type: "a" });
  await call("GET", "/v1/streams/{path}/-/processors/{name}", { values: { path, name }, expect: 200 });
  await call("PUT", PROCESSOR, { values: { name }, body: { kind: "nope" }, expect: 422 });
  await call("DELETE", PROCESSOR, { values: { name }, expect: 204 });
  await call("GET", PROCESSOR, { values: { name }, expect: 404 });
});

test("§9: secrets, a webhook naming them, and their errors match the document", async () => {
  const SECRET_ROUTE = "/v1/secrets/{name}";
  const name = `OPENAPI_TOKEN_${++counter}`;
  const written = await call("PUT", SECRET_ROUTE, { values: { name }, body: { value: "Bearer openapi" }, expect: 200 });
  assertSchema("SecretSummary", written.body);
  const listed = await call("GET", "/v1/secrets", { expect: 200 });
  assert.ok(listed.body.secrets.some((secret) => secret.name === name));
  await call("PUT", SECRET_ROUTE, { values: { name }, body: { value: "" }, expect: 422 });
  await call("PUT", SECRET_ROUTE, { values: { name: "bad%20name" }, body: { value: "x" }, expect: 400 });
  await call("PUT", SECRET_ROUTE, { values: { name }, body: { value: "v".repeat(30_000) }, expect: 413 });
  const path = fresh("secret-hook");
  const payload = { subscriptionKey: "hook", receiver: { action: "webhook-post", url: receiver.url("/openapi-secret"), headers: { authorization: { secret: name }, "x-team": "a" }, delivery: { start: "now", onFailingEvent: "skip" } } };
  assertSchema("SubscriptionConfigured", payload);
  await appendOk(path, { type: CONFIGURED, payload });
  const missing = await call("POST", EVENTS, { values: { path }, body: { type: CONFIGURED, payload: { ...payload, receiver: { ...payload.receiver, url: { secret: "NO_SUCH_SECRET" } } } }, expect: 422 });
  assert.equal(missing.body.error.code, "unknown_secret");
  await call("DELETE", SECRET_ROUTE, { values: { name }, expect: 204 });
  await call("DELETE", SECRET_ROUTE, { values: { name }, expect: 404 });
});

test("§15, §15.1: evm and evm-mempool sources, the directory and their errors match the document", { timeout: 60_000 }, async () => {
  const anvil = await startAnvil();
  try {
    const common = { rpcUrls: [anvil.url], chainId: CHAIN_ID, pollMs: 250 };
    const chain = { kind: "evm", ...common, targetStream: `/${fresh("chain")}`, filters: [{ event: TRANSFER }], startBlock: 0 };
    const mempool = { kind: "evm-mempool", ...common, targetStream: `/${fresh("mempool")}`, filters: [{}] };
    await call("PUT", SOURCE, { values: { name: "openapi-chain" }, body: chain, expect: 201 });
    await call("PUT", SOURCE, { values: { name: "openapi-chain" }, body: { ...chain, pollMs: 500 }, expect: 200 });
    await call("PUT", SOURCE, { values: { name: "openapi-mempool" }, body: mempool, expect: 201 });
    await call("GET", SOURCE, { values: { name: "openapi-chain" }, expect: 200 });
    await call("GET", SOURCE, { values: { name: "openapi-mempool" }, expect: 200 });
    const page = await call("GET", "/v1/sources", { expect: 200 });
    assert.ok(page.body.sources.length >= 2);
    await call("PUT", SOURCE, { values: { name: "openapi-bad" }, body: { ...chain, chainId: 0 }, expect: 422 });
    await call("PUT", SOURCE, { values: { name: "bad name" }, body: chain, expect: 400 });
    for (const name of ["openapi-chain", "openapi-mempool"]) await call("DELETE", SOURCE, { values: { name }, expect: 204 });
    await call("GET", SOURCE, { values: { name: "openapi-chain" }, expect: 404 });
  } finally {
    await anvil.stop();
  }
});

test("JSONata evaluate matches the document", async () => {
  await call("POST", "/v1/jsonata/evaluate", { body: { expression: "a + 1", input: { a: 1 } }, expect: 200 });
  await call("POST", "/v1/jsonata/evaluate", { body: { expression: "a +" }, expect: 422 });
});

test("§4, §5, §9: every receiver kind is configured by a body the document's SubscriptionConfigured describes", async () => {
  const path = fresh("receivers");
  const name = `openapi-wake-${++counter}`;
  await call("PUT", PROCESSOR, { values: { name }, body: { kind: "jsonata-reducer", initialState: 0, reducer: "$state + 1" }, expect: 200 });
  const now = { start: "now" };
  const payloads = [
    { subscriptionKey: "copy", receiver: { action: "copy-to-stream", receivingStreamPath: `/${fresh("copies")}`, delivery: { ...now, onFailingEvent: "halt" } } },
    { subscriptionKey: "hook", filter: { eventTypes: ["data"] }, receiver: { action: "webhook-post", url: receiver.url("/openapi/kinds"), delivery: { ...now, timeoutMs: 5000, concurrency: 2, onFailingEvent: "skip" } } },
    { subscriptionKey: "itx", receiver: { action: "itx-call", expression: ["services", "X", "m"], delivery: { ...now, onFailingEvent: "skip", throttle: { maxDeliveries: 5, windowMs: 1000 } } } },
    { subscriptionKey: "wake", receiver: { action: "processor-wake", expression: ["processors", name, "wake"] } },
    { subscriptionKey: "log", filter: { jsonataCondition: "type = 'data'" }, receiver: { action: "log", delivery: { ...now, onFailingEvent: "skip" } } },
  ];
  for (const payload of payloads) {
    assertSchema("SubscriptionConfigured", payload);
    await appendOk(path, { type: CONFIGURED, payload });
  }
  await appendOk(path, { type: `${CONTROL}subscription-cursor-set`, payload: { subscriptionKey: "log", afterOffset: 1 } });
  await appendOk(path, { type: `${CONTROL}subscription-removed`, payload: { subscriptionKey: "itx" } });
  const card = await call("GET", CARD, { values: { path }, expect: 200 });
  assert.deepEqual(card.body.subscriptions.map((entry) => entry.subscriptionKey).sort(), ["copy", "hook", "log", "wake"]);
  for (const entry of card.body.subscriptions) assertSchema("SubscriptionConfigured", entry.configuration);
  await call("POST", EVENTS, { values: { path }, body: { type: `${CONTROL}subscription-delivery-resumed`, payload: { subscriptionKey: "log" } }, expect: 409 });
  await call("POST", EVENTS, { values: { path }, body: { type: `${CONTROL}error-occurred`, payload: {} }, expect: 403 });
});
