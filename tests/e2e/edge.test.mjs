// The HTTP edge end to end (docs/design.md §2, §3, §12): request bodies are read
// with a streaming cap at their route's limit, chunked or not, and refused
// with 413 without the server reading the rest (the client counts what it
// managed to send: a server that stops reading stops the upload through TCP
// back-pressure) — except a body at most 4 MiB past its cap, read to its
// end first so the client is never reset before it reads its 413; the
// engine's idempotency-key namespace is reserved; a malformed API_TOKENS
// answers 500 `misconfigured` on every request, and an empty bearer never
// matches.
//
// Every hostile request ends with a request to ANOTHER stream that must
// answer (an append and a read of a fresh path).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { rmSync } from "node:fs";
import { Miniflare } from "miniflare";
import { freshStateDir, startTributary, streamUrl, TOKEN, workerOptions } from "./harness.mjs";

let t;
before(async () => {
  t = await startTributary();
});
after(async () => {
  await t?.cleanup();
});

let counter = 0;
const fresh = (name) => `/e2e-edge/${name}-${++counter}`;

const MiB = 1024 * 1024;
const HUGE = 64 * MiB;
const CHUNK = 64 * 1024;
/** src/limits.rs OVERSIZED_BODY_DRAIN_BYTES: a body this much past its cap is still read to its end before the 413. */
const DRAIN = 12 * MiB;

/** Another stream still answers: an append, then a read of it. */
async function anotherStreamAnswers() {
  const path = fresh("after");
  const appended = await t.request("POST", streamUrl(path, "events"), { body: { type: "after", payload: 1 } });
  assert.equal(appended.status, 201, JSON.stringify(appended.body));
  const read = await t.request("GET", streamUrl(path, "events"));
  assert.equal(read.status, 200);
  assert.deepEqual(read.body.events.map((e) => e.type), ["after"]);
}

/** `promise`, or `fallback` after `ms` (the timer is cleared either way). */
async function within(ms, promise, fallback = null) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sends `HUGE` bytes of body on its own connection, chunk by chunk (each
 * written once the last one left), chunked unless `declared` sets a
 * Content-Length. Like curl, it gives the server a moment to answer after
 * the headers, and again once it has sent more than `limit` and the drain
 * (a pause that costs nothing when the server answers, so it is long): a server
 * that stops reading at its cap answers in that pause, while nothing is in
 * flight (so the connection it closes with the rest unread cannot reset the
 * answer away unseen); a server that reads everything makes the client send
 * it all. Resolves to {status, body, sent}.
 */
async function hugeUpload(method, path, { declared = false, limit }) {
  const u = new URL(t.url);
  const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
  if (declared) headers["content-length"] = String(HUGE);
  const req = http.request({ host: u.hostname, port: u.port, method, path, headers, agent: false });
  let failure = null;
  let answered = false;
  const answer = new Promise((resolve) => {
    req.on("response", (res) => {
      answered = true;
      const parts = [];
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        const text = Buffer.concat(parts).toString("utf8");
        let parsed = text;
        try {
          parsed = JSON.parse(text);
        } catch {}
        resolve({ status: res.statusCode, body: parsed });
      };
      res.on("data", (c) => parts.push(c));
      res.on("end", finish);
      res.on("close", finish);
      res.on("error", finish);
    });
  });
  // After the answer, the server may close with the body unread: expected.
  const errored = new Promise((resolve) =>
    req.on("error", (error) => {
      if (!answered) failure = error;
      resolve();
    }),
  );
  req.flushHeaders();
  const deadline = Date.now() + 45_000;
  let sent = 0;
  let paused = false;
  const settled = (ms) => within(ms, answer.then(() => true), false);
  // A declared length can be refused on the headers alone; a chunked body cannot.
  if (!(await settled(declared ? 5000 : 300))) {
    const chunk = Buffer.alloc(CHUNK, "x");
    Buffer.from('{"expression": "').copy(chunk);
    while (sent < HUGE && !answered && !failure && Date.now() < deadline) {
      const piece = sent + CHUNK <= HUGE ? chunk : chunk.subarray(0, HUGE - sent);
      await Promise.race([new Promise((resolve) => req.write(piece, resolve)), errored]);
      sent += piece.length;
      // Let the event loop poll the socket between writes.
      await new Promise((resolve) => setImmediate(resolve));
      if (!paused && sent > limit + DRAIN) {
        paused = true;
        await settled(10_000);
      }
    }
    if (!answered && !failure) req.end();
  }
  // An error before any answer ends the wait (an answer, once begun, is read to its end).
  const answered_ = await within(
    Math.max(0, deadline - Date.now()),
    Promise.race([answer, errored.then(() => (answered ? answer : null))]),
  );
  req.destroy();
  if (answered_) return { ...answered_, sent };
  throw failure ?? new Error(`no answer to ${method} ${path} within 45 s (sent ${sent} bytes)`);
}

const HUGE_ROUTES = [
  ["POST", "/v1/jsonata/evaluate", "body_too_large", 256 * 1024],
  ["POST", () => streamUrl(fresh("append"), "events"), "batch_too_large", 2 * MiB],
  ["POST", () => streamUrl(fresh("subscribe-from"), "subscribe-from"), "body_too_large", 256 * 1024],
  ["PUT", "/v1/processors/huge", "body_too_large", 256 * 1024 + 16 * 1024],
  ["PUT", "/v1/sources/huge", "source_too_large", 64 * 1024],
  ["POST", () => streamUrl(fresh("replay"), "dead-letters/1/replay"), "body_too_large", 64 * 1024],
];
// workerd gives a GET no body stream: only a declared length can be refused.
const DECLARED_ONLY = [["GET", () => streamUrl(fresh("read"), "events"), "body_too_large", 64 * 1024]];

for (const declared of [false, true]) {
  const how = declared ? "with Content-Length" : "chunked";
  for (const [method, route, code, limit] of declared ? [...HUGE_ROUTES, ...DECLARED_ONLY] : HUGE_ROUTES) {
    const path = typeof route === "function" ? route() : route;
    const name = path.replace(/\/e2e-edge\/[a-z-]+-\d+/, "/{path}");
    test(`§12: a 64 MiB body ${how} to ${method} ${name} → 413 ${code}, the rest unread; another stream answers`, async () => {
      const answer = await hugeUpload(method, path, { declared, limit });
      assert.equal(answer.status, 413, JSON.stringify(answer.body)?.slice(0, 300));
      assert.equal(answer.body.error.code, code);
      assert.equal(answer.body.error.details.limitBytes, limit);
      // The server stopped reading at the cap: far less than the body went out.
      assert.ok(answer.sent < HUGE / 2, `the client sent ${answer.sent} of ${HUGE} bytes`);
      await anotherStreamAnswers();
    });
  }
}

test("§12: bodies a little past their cap, declared or chunked, are read to their end before the 413: 20 in a row per route and framing, every one answered, none reset", { timeout: 120_000 }, async () => {
  const cases = [
    ["PUT", "/v1/sources/over", 64 * 1024, 70_000],
    ["POST", "/v1/jsonata/evaluate", 256 * 1024, 300_000],
    ["POST", streamUrl(fresh("over"), "events"), 2 * MiB, 2 * MiB + 300_000],
    ["POST", "/v1/jsonata/evaluate", 256 * 1024, 256 * 1024 + DRAIN],
  ];
  const problems = [];
  for (const [method, path, limit, size] of cases) {
    for (const chunked of [false, true]) {
      const body = Buffer.alloc(size, " ");
      for (let i = 0; i < 20; i++) {
        const answer = await fetch(`${t.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
          body: chunked ? new Blob([body]).stream() : body,
          duplex: "half",
        }).then(
          async (res) => ({ status: res.status, body: await res.json() }),
          (error) => ({ status: `fetch failed: ${error.cause?.code ?? error.message}` }),
        );
        if (answer.status !== 413 || answer.body.error.details.limitBytes !== limit) {
          problems.push(`${method} ${path} ${size} ${chunked ? "chunked" : "declared"} #${i}: ${answer.status}`);
        }
      }
    }
  }
  assert.deepEqual(problems, []);
  await anotherStreamAnswers();
});

test("§12: a chunked body one byte over the append cap → 413 and nothing committed; at the cap it is read", async () => {
  const path = fresh("cap");
  const event = (size) => JSON.stringify({ type: "x", payload: "y".repeat(size) });
  // A body of exactly 2 MiB + 1 whose JSON is an otherwise valid event list.
  const over = Buffer.alloc(2 * MiB + 1, " ");
  Buffer.from(event(10)).copy(over);
  const res = await fetch(`${t.url}${streamUrl(path, "events")}`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: new Blob([over]).stream(),
    duplex: "half",
  }).catch((error) => ({ status: `fetch failed: ${error.message}` }));
  assert.equal(res.status, 413);
  assert.equal((await t.request("GET", streamUrl(path))).status, 404, "nothing was committed");
  // Exactly at the cap, chunked: read whole and parsed by the engine.
  const at = Buffer.alloc(2 * MiB, " ");
  Buffer.from(event(10)).copy(at);
  const ok = await fetch(`${t.url}${streamUrl(path, "events")}`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: new Blob([at]).stream(),
    duplex: "half",
  });
  assert.equal(ok.status, 201, await ok.text());
  await anotherStreamAnswers();
});

test("§12: a keep-alive client's small bodies on a route that takes none are read, so its next request answers", async () => {
  const path = fresh("keep-alive");
  await t.request("POST", streamUrl(path, "events"), { body: { type: "a" } });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const u = new URL(t.url);
  const send = (method, p, payload) =>
    new Promise((resolve, reject) => {
      const body = Buffer.from(JSON.stringify(payload));
      const req = http.request(
        {
          host: u.hostname,
          port: u.port,
          method,
          path: p,
          agent,
          headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", "content-length": body.length },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode, socket: req.socket }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  try {
    const first = await send("POST", streamUrl(path, "nope"), { type: "a", payload: "z".repeat(10_000) });
    assert.equal(first.status, 404);
    const second = await send("GET", streamUrl(path, "events"), { ignored: true });
    assert.equal(second.status, 200);
    const third = await send("POST", streamUrl(path, "events"), { type: "b" });
    assert.equal(third.status, 201);
    assert.equal(first.socket, third.socket, "one connection carried all three requests");
  } finally {
    agent.destroy();
  }
  await anotherStreamAnswers();
});

// ---------------------------------------------------------------------------
// §3 rule 4: the engine's idempotency-key namespace is reserved
// ---------------------------------------------------------------------------

const RESERVED_PREFIXES = ["copy:", "copy-dropped:", "invalidated-copies:", "skipped:", "journal-gap:", "trimmed:", "evm:", "evm-mempool:", "subscribe-from:"];

test("§3 rule 4: a public append with a key the engine derives → 403 reserved_idempotency_key, nothing committed", async () => {
  const path = fresh("reserved");
  assert.equal((await t.request("POST", streamUrl(path, "events"), { body: { type: "seed" } })).status, 201);
  for (const prefix of RESERVED_PREFIXES) {
    const key = `${prefix}0123456789abcdef`;
    const single = await t.request("POST", streamUrl(path, "events"), { body: { type: "x", idempotencyKey: key } });
    assert.equal(single.status, 403, `${prefix}: ${JSON.stringify(single.body)}`);
    assert.equal(single.body.error.code, "reserved_idempotency_key");
    assert.equal(single.body.error.details.prefix, prefix);
    const batch = await t.request("POST", streamUrl(path, "events"), {
      body: { events: [{ type: "ok", idempotencyKey: "mine" }, { type: "x", idempotencyKey: key }] },
    });
    assert.equal(batch.status, 403, `${prefix} in a batch`);
    assert.equal(batch.body.error.details.index, 1);
  }
  const info = await t.request("GET", streamUrl(path));
  assert.equal(info.body.head, 1, "the head did not move");
  const read = await t.request("GET", streamUrl(path, "events"));
  assert.deepEqual(read.body.events.map((e) => e.type), ["seed"]);
  // A key merely containing a prefix is the caller's own.
  const own = await t.request("POST", streamUrl(path, "events"), { body: { type: "x", idempotencyKey: "order:copy:1" } });
  assert.equal(own.status, 201);
  await anotherStreamAnswers();
});

test("§5: subscribe-from still derives its own subscribe-from: key on the source", async () => {
  const source = fresh("sf-source");
  const receiving = fresh("sf-receiving");
  await t.request("POST", streamUrl(source, "events"), { body: { type: "data" } });
  const body = { sourcePath: source, idempotencyKey: "edge-1" };
  const first = await t.request("POST", streamUrl(receiving, "subscribe-from"), { body });
  assert.equal(first.status, 201, JSON.stringify(first.body));
  assert.match(first.body.subscriptionConfiguredEvent.idempotencyKey, /^subscribe-from:/);
  const again = await t.request("POST", streamUrl(receiving, "subscribe-from"), { body });
  assert.equal(again.status, 200, "a retried call is deduplicated");
  await anotherStreamAnswers();
});

// ---------------------------------------------------------------------------
// §2: API_TOKENS
// ---------------------------------------------------------------------------

/** Tributary on `dir` with `bindings` changed (a value of `undefined` removes the binding). */
async function withBindings(dir, bindings, body) {
  const options = workerOptions({ persistDir: dir });
  for (const [name, value] of Object.entries(bindings)) {
    if (value === undefined) delete options.bindings[name];
    else options.bindings[name] = value;
  }
  const mf = new Miniflare(options);
  try {
    await body((await mf.ready).toString().replace(/\/$/, ""));
  } finally {
    await mf.dispose();
  }
}

/** A second Tributary whose API_TOKENS binding is `tokens` (undefined: unset). */
async function withTokens(tokens, body) {
  const dir = freshStateDir("tributary-e2e-edge-tokens-");
  try {
    await withBindings(dir, { API_TOKENS: tokens }, body);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each request is answered 500 `misconfigured`, its message naming `setting`; their answers. */
async function expectMisconfigured(url, requests, setting) {
  const answers = [];
  for (const [method, path, headers, body] of requests) {
    const response = await fetch(`${url}${path}`, { method, headers, body, signal: AbortSignal.timeout(10_000) });
    const answer = await json(response);
    assert.equal(response.status, 500, `${method} ${path}: ${JSON.stringify(answer)}`);
    assert.equal(answer.error.code, "misconfigured");
    assert.match(answer.error.message, setting);
    answers.push(answer);
  }
  return answers;
}

async function json(response) {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

for (const [what, tokens] of [
  ["not JSON", "tok=project-a"],
  ["a JSON array", '["tok", "project-a"]'],
  ["a non-string project", '{"tok": 7}'],
  ["a scoped value with an unknown scope", '{"tok": {"project": "project-a", "scopes": ["admin"]}}'],
  ["unset", undefined],
]) {
  test(`§2: API_TOKENS ${what} → every request 500 misconfigured, never a silent 401`, async () => {
    await withTokens(tokens, async (url) => {
      const requests = [
        ["GET", "/v1/streams/a", { authorization: "Bearer tok" }],
        ["POST", "/v1/streams/a/-/events", { authorization: "Bearer tok", "content-type": "application/json" }, '{"type":"a"}'],
        ["GET", "/v1/streams", {}],
        ["POST", "/v1/jsonata/evaluate", { authorization: "Bearer tok" }, '{"expression":"1"}'],
        ["GET", "/v1/streams/a/-/live", { "sec-websocket-protocol": "bearer.tok" }],
        ["GET", "/v1/nothing", {}],
      ];
      for (const answer of await expectMisconfigured(url, requests, /API_TOKENS/)) {
        assert.doesNotMatch(answer.error.message, /tok=|project-a/, "the message names no token or project");
      }
    });
    await anotherStreamAnswers();
  });
}

test("§17 Browsers: CORS_ALLOWED_ORIGINS malformed → every API request 500 misconfigured before it runs, preflights included; nothing is committed", async () => {
  const dir = freshStateDir("tributary-e2e-edge-cors-");
  const bearer = { authorization: `Bearer ${TOKEN}` };
  try {
    await withBindings(dir, { CORS_ALLOWED_ORIGINS: "https://ok.example, not an origin" }, async (url) => {
      const requests = [
        ["POST", "/v1/streams/cors-a/-/events", { ...bearer, "content-type": "application/json" }, '{"type":"a"}'],
        ["PUT", "/v1/stream/cors-b", { ...bearer, "content-type": "application/json" }, '[{"x":1}]'],
        ["GET", "/v1/streams/cors-a", bearer],
        ["OPTIONS", "/v1/streams/cors-a/-/events", { origin: "https://ok.example", "access-control-request-method": "POST" }],
      ];
      await expectMisconfigured(url, requests, /CORS_ALLOWED_ORIGINS/);
    });
    // The same storage under a valid setting: neither write happened.
    await withBindings(dir, { CORS_ALLOWED_ORIGINS: "https://ok.example" }, async (url) => {
      for (const path of ["/v1/streams/cors-a", "/v1/stream/cors-b"]) {
        const method = path.startsWith("/v1/stream/") ? "HEAD" : "GET";
        const response = await fetch(`${url}${path}`, { method, headers: bearer, signal: AbortSignal.timeout(10_000) });
        assert.equal(response.status, 404, `${method} ${path}: nothing was created`);
        await response.arrayBuffer();
      }
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("§2 §10: an empty bearer never matches, even with an empty token configured", async () => {
  await withTokens(JSON.stringify({ "": "project-empty", tok: "project-t" }), async (url) => {
    const get = (headers) => fetch(`${url}/v1/streams/a`, { headers, signal: AbortSignal.timeout(10_000) });
    assert.equal((await get({ authorization: "Bearer " })).status, 401, "Authorization: Bearer (empty)");
    assert.equal((await get({ authorization: "Bearer" })).status, 401, "Authorization: Bearer (no token)");
    assert.equal((await get({ "sec-websocket-protocol": "bearer." })).status, 401, "bearer. subprotocol (empty)");
    // The WebSocket upgrade itself, offering only `bearer.`.
    const u = new URL(url);
    const upgrade = await new Promise((resolve, reject) => {
      const req = http.request({
        host: u.hostname,
        port: u.port,
        path: "/v1/streams/a/-/live",
        agent: false,
        headers: {
          connection: "Upgrade",
          upgrade: "websocket",
          "sec-websocket-version": "13",
          "sec-websocket-key": Buffer.from("0123456789abcdef").toString("base64"),
          "sec-websocket-protocol": "bearer.",
        },
      });
      req.on("upgrade", (res, socket) => {
        socket.destroy();
        resolve(res.statusCode);
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on("error", reject);
      req.end();
    });
    assert.equal(upgrade, 401, "a WebSocket offering an empty bearer. is refused");
    // The real token still works.
    const ok = await fetch(`${url}/v1/streams/a/-/events`, {
      method: "POST",
      headers: { authorization: "Bearer tok", "content-type": "application/json" },
      body: '{"type":"a"}',
    });
    assert.equal(ok.status, 201);
  });
  await anotherStreamAnswers();
});

// ---------------------------------------------------------------------------
// §9 §15: an EVM source's RPC URLs are re-checked before every call
// ---------------------------------------------------------------------------

/** A local JSON-RPC endpoint that counts requests: chainId 31337, block 0, no logs. */
async function fakeRpc() {
  const server = http.createServer((req, res) => {
    const parts = [];
    req.on("data", (c) => parts.push(c));
    req.on("end", () => {
      fake.requests += 1;
      let call = {};
      try {
        call = JSON.parse(Buffer.concat(parts).toString("utf8"));
      } catch {}
      const block = { number: "0x0", hash: `0x${"11".repeat(32)}`, parentHash: `0x${"00".repeat(32)}`, timestamp: "0x0" };
      const result =
        call.method === "eth_chainId" ? "0x7a69" : call.method === "eth_blockNumber" ? "0x0" : call.method === "eth_getLogs" ? [] : block;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ jsonrpc: "2.0", id: call.id ?? null, result }));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const fake = { requests: 0, url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
  return fake;
}

test("§9 §15: ALLOW_INSECURE_WEBHOOKS turned off → the source's local RPC URL is never called again, and its status says why", async () => {
  const rpc = await fakeRpc();
  const dir = freshStateDir("tributary-e2e-edge-rpc-");
  const start = async (allowInsecureWebhooks) => {
    const mf = new Miniflare(workerOptions({ persistDir: dir, allowInsecureWebhooks }));
    return { mf, url: (await mf.ready).toString().replace(/\/$/, "") };
  };
  const call = (url, method, path, body) =>
    fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    }).then(async (res) => ({ status: res.status, body: await json(res) }));
  let running = await start(true);
  try {
    const config = {
      kind: "evm",
      rpcUrls: [rpc.url],
      chainId: 31337,
      targetStream: fresh("rpc-target"),
      filters: [{ address: ["0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"], event: "Transfer(address indexed from, address indexed to, uint256 value)" }],
      startBlock: 0,
      pollMs: 250,
    };
    const put = await call(running.url, "PUT", "/v1/sources/local", config);
    assert.equal(put.status, 201, JSON.stringify(put.body));
    // Running against the local node: it is called beyond the PUT's chainId check.
    const deadline = Date.now() + 20_000;
    while (rpc.requests < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.ok(rpc.requests >= 3, `the source called its node (${rpc.requests} requests)`);
    await running.mf.dispose();
    // The deployment turns insecure URLs off; the source's alarm runs on.
    const before = rpc.requests;
    running = await start(false);
    let status;
    const until = Date.now() + 20_000;
    for (;;) {
      status = await call(running.url, "GET", "/v1/sources/local");
      if (/refused by this deployment/.test(status.body.lastError ?? "") || Date.now() > until) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status.status, 200);
    assert.match(status.body.lastError, /rpcUrls\[0\]: not sent, the URL is refused by this deployment's URL rules: must use https/);
    assert.equal(status.body.status, "retrying");
    assert.doesNotMatch(status.body.lastError, /127\.0\.0\.1/, "the URL itself is never in the status");
    assert.equal(rpc.requests, before, "no request reached the node after the rules changed");
    // A request to another stream answers.
    const other = await call(running.url, "POST", streamUrl(fresh("rpc-after"), "events"), { type: "after" });
    assert.equal(other.status, 201);
  } finally {
    await running.mf.dispose();
    await rpc.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
