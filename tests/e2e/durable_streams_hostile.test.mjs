// Hostile and malformed input on the Durable Streams face (docs/design.md §17, §12; issue 30), over
// HTTP against the built worker: a 10 MB body is 413 and changes nothing; malformed, foreign and
// out-of-range offsets are 400 and a trimmed one 410; huge, negative and non-decimal
// `Stream-TTL` and both expiry headers are 400; producer headers out of range or incomplete are
// 400; a `Stream-Seq` regression is 409; odd but valid content-type parameters are normalized
// and compared by essence, malformed ones 400; a closed stream's append is 409 on both faces; a
// live read on an expired stream is 404; a CORS preflight from an allowed origin is answered and
// one from another origin is not; tokens and scopes hold. After each refusal the stream is as
// it was (its tail offset and content).
import { test, before, after } from "node:test";
import http from "node:http";
import assert from "node:assert/strict";
import { startTributary, streamUrl, TOKEN, READ_TOKEN, OTHER_TOKEN } from "./harness.mjs";
import { eventually, CONTROL } from "./delivery_helpers.mjs";

const ORIGIN = "https://app.example.com";
let t;
before(async () => {
  t = await startTributary({ dsLongPollTimeoutMs: 500, corsAllowedOrigins: `${ORIGIN}, http://localhost:5173` });
});
after(async () => {
  await t?.cleanup();
});

let counter = 0;
const fresh = (name) => `hostile-ds/${name}-${++counter}`;
const TEXT = { "content-type": "text/plain" };
const offsetAfter = (native) => `0000000000000000_${String(native).padStart(16, "0")}`;

/** One protocol request: {status, headers, text, json}. */
async function ds(method, path, { query = "", headers = {}, body, token = TOKEN } = {}) {
  const init = { method, headers: { ...headers } };
  if (token !== null) init.headers.authorization = `Bearer ${token}`;
  if (body !== undefined) init.body = body;
  const response = await fetch(`${t.url}/v1/stream/${path}${query}`, init);
  const text = method === "HEAD" ? "" : await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {}
  return { status: response.status, headers: response.headers, text, json };
}

/**
 * A request with a declared length of `bytes.length` and `Expect: 100-continue`: the body is sent
 * only if the server asks for it (node:http's `continue` event). The face refuses an oversized
 * body on its declared length, unread (a `fetch` of it fails with the connection reset).
 */
function declaredPost(method, path, bytes) {
  const u = new URL(t.url);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request({
      host: u.hostname,
      port: u.port,
      method,
      path: `/v1/stream/${path}`,
      agent: false,
      headers: { authorization: `Bearer ${TOKEN}`, ...TEXT, "content-length": String(bytes.length), expect: "100-continue" },
    });
    req.on("continue", () => req.end(bytes));
    req.on("response", (res) => {
      answered = true;
      const parts = [];
      res.on("data", (part) => parts.push(part));
      res.on("end", () => {
        const text = Buffer.concat(parts).toString("utf8");
        resolve({ status: res.statusCode, headers: res.headers, json: text ? JSON.parse(text) : null });
      });
    });
    // After the answer the server may close with the body unread: expected.
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    req.flushHeaders();
  });
}

/** Creates a text stream holding `content`. */
async function textStream(name, content = "abc", headers = {}) {
  const path = fresh(name);
  const created = await ds("PUT", path, { headers: { ...TEXT, ...headers }, body: content });
  assert.equal(created.status, 201, created.text);
  return path;
}

/** The stream's tail offset and content, to check a refusal changed nothing. */
async function snapshot(path) {
  const head = await ds("HEAD", path);
  const read = await ds("GET", path, { query: "?offset=-1" });
  return { status: head.status, tail: head.headers.get("stream-next-offset"), closed: head.headers.get("stream-closed"), content: read.text };
}

test("a 10 MB body is 413 without being stored: the stream keeps its tail and content, and a create makes nothing", async () => {
  const path = await textStream("huge");
  const before = await snapshot(path);
  const huge = new Uint8Array(10 * 1024 * 1024).fill(0x61);
  const refused = await declaredPost("POST", path, huge);
  assert.equal(refused.status, 413, JSON.stringify(refused.json));
  assert.equal(refused.json.error.code, "body_too_large");
  assert.equal(refused.json.error.details.limitBytes, 2 * 1024 * 1024);
  assert.deepEqual(await snapshot(path), before);
  assert.equal((await ds("POST", path, { headers: TEXT, body: "d" })).status, 204, "the next append is served");

  const never = fresh("huge-create");
  assert.equal((await declaredPost("PUT", never, huge)).status, 413);
  assert.equal((await ds("HEAD", never)).status, 404, "nothing was created");
});

test("malformed, foreign, repeated and past-the-tail offsets are 400; one retention trimmed is 410", async () => {
  const path = await textStream("offsets");
  const bad = [
    "abc",
    "-2",
    "NOW",
    "",
    "..%2Fx",
    "now%00",
    "a%2Cb",
    "0000000000000001_0000000000000000", // a first part that is not ours (reserved for forks)
    "000000000000000_0000000000000001", // 15 digits
    "0000000000000000_000000000000001x",
    "0000000000000000-0000000000000001",
    offsetAfter(99), // past the tail
    `${"9".repeat(300)}`,
  ];
  for (const offset of bad) {
    for (const live of ["", "&live=long-poll", "&live=sse"]) {
      const answer = await ds("GET", path, { query: `?offset=${offset}${live}` });
      assert.equal(answer.status, 400, `offset=${offset}${live}: ${answer.text}`);
    }
  }
  assert.equal((await ds("GET", path, { query: "?offset=-1&offset=-1" })).status, 400, "a repeated offset");
  assert.equal((await ds("GET", path, { query: "?offset=-1&live=bogus" })).status, 400, "an unknown live mode");
  assert.equal((await ds("GET", path, { query: `?offset=${offsetAfter(1)}` })).status, 200, "a real offset reads");

  // Retention (configured natively) trims the head of the log: reading before it is 410.
  const trimmed = await textStream("trimmed", "0");
  const retention = await t.request("POST", streamUrl(`/${trimmed}`, "events"), {
    body: { type: `${CONTROL}retention-configured`, payload: { maxEvents: 2 } },
  });
  assert.equal(retention.status, 201, JSON.stringify(retention.body));
  for (let i = 1; i <= 6; i++) assert.equal((await ds("POST", trimmed, { headers: TEXT, body: String(i) })).status, 204);
  const firstOffset = await eventually(
    async () => {
      const info = await t.request("GET", streamUrl(`/${trimmed}`));
      // Offsets: 1 "0", 2 the retention event, 3–8 "1"–"6"; the last two events kept.
      assert.ok(info.body.firstOffset >= 7, `firstOffset ${info.body.firstOffset}`);
      return info.body.firstOffset;
    },
    { what: "retention trimmed the stream", timeoutMs: 30_000 },
  );
  const gone = await ds("GET", trimmed, { query: `?offset=${offsetAfter(0)}` });
  assert.equal(gone.status, 410, gone.text);
  assert.equal(gone.json.error.code, "trimmed");
  assert.equal(gone.json.error.details.firstOffset, firstOffset);
  const fromStart = await ds("GET", trimmed, { query: "?offset=-1" });
  assert.equal(fromStart.status, 200, "-1 reads from the first retained message");
  assert.equal(fromStart.text, "56");
});

test("Stream-TTL that is huge, negative or not a plain decimal, and both expiry headers, are 400 and create nothing", async () => {
  const cases = [
    { "stream-ttl": "-5" },
    { "stream-ttl": "99999999999999" },
    { "stream-ttl": "315360001" }, // ten years and a second
    { "stream-ttl": "18446744073709551616" }, // 2^64
    { "stream-ttl": "+10" },
    { "stream-ttl": "010" },
    { "stream-ttl": "3600.0" },
    { "stream-ttl": "3.6e3" },
    { "stream-ttl": "" },
    { "stream-ttl": "60, 60" },
    { "stream-expires-at": "not a date" },
    { "stream-expires-at": "10000-01-01T00:00:00Z" },
    { "stream-expires-at": "2030-02-30T00:00:00Z" },
    { "stream-ttl": "60", "stream-expires-at": "2030-01-01T00:00:00Z" },
  ];
  for (const headers of cases) {
    const path = fresh("ttl");
    const refused = await ds("PUT", path, { headers: { ...TEXT, ...headers } });
    assert.equal(refused.status, 400, `${JSON.stringify(headers)}: ${refused.text}`);
    assert.equal(refused.json.error.code, "invalid_parameter", JSON.stringify(headers));
    assert.equal((await ds("HEAD", path)).status, 404, `${JSON.stringify(headers)} created nothing`);
  }
  const ok = fresh("ttl-ok");
  assert.equal((await ds("PUT", ok, { headers: { ...TEXT, "stream-ttl": "315360000" } })).status, 201, "ten years is the limit");
  assert.equal((await ds("HEAD", ok)).headers.get("stream-ttl"), "315360000");
});

test("producer headers out of range, malformed or incomplete are 400 and append nothing", async () => {
  const path = await textStream("producers");
  const before = await snapshot(path);
  const producer = (id, epoch, seq) => ({ ...TEXT, "producer-id": id, "producer-epoch": epoch, "producer-seq": seq });
  const cases = [
    producer("w", "-1", "0"),
    producer("w", "0", "-1"),
    producer("w", "9007199254740992", "0"), // 2^53
    producer("w", "0", "9007199254740992"),
    producer("w", "18446744073709551616", "0"),
    producer("w", "1.5", "0"),
    producer("w", "0", "1e3"),
    producer("w", "abc", "0"),
    producer("w", "0", ""),
    producer("", "0", "0"),
    producer("x".repeat(257), "0", "0"),
    { ...TEXT, "producer-id": "w" },
    { ...TEXT, "producer-id": "w", "producer-epoch": "0" },
    { ...TEXT, "producer-epoch": "0", "producer-seq": "0" },
  ];
  for (const headers of cases) {
    const refused = await ds("POST", path, { headers, body: "x" });
    assert.equal(refused.status, 400, `${JSON.stringify(headers).slice(0, 120)}: ${refused.text}`);
  }
  assert.deepEqual(await snapshot(path), before);
  const top = producer("w".repeat(256), "9007199254740991", "0");
  assert.equal((await ds("POST", path, { headers: top, body: "x" })).status, 200, "the largest values are accepted");
  const gap = await ds("POST", path, { headers: producer("w".repeat(256), "9007199254740991", "5"), body: "y" });
  assert.equal(gap.status, 409);
  assert.deepEqual([gap.headers.get("producer-expected-seq"), gap.headers.get("producer-received-seq")], ["1", "5"]);
});

test("a Stream-Seq regression or repeat is 409 stream_seq_conflict and appends nothing", async () => {
  const path = await textStream("seq", "");
  assert.equal((await ds("POST", path, { headers: { ...TEXT, "stream-seq": "0002" }, body: "a" })).status, 204);
  const before = await snapshot(path);
  for (const seq of ["0002", "0001", "000", "0001999999"]) {
    const refused = await ds("POST", path, { headers: { ...TEXT, "stream-seq": seq }, body: "b" });
    assert.equal(refused.status, 409, `Stream-Seq ${seq}: ${refused.text}`);
    assert.equal(refused.json.error.code, "stream_seq_conflict");
  }
  assert.equal((await ds("POST", path, { headers: { ...TEXT, "stream-seq": "x".repeat(10_000) }, body: "b" })).status, 400, "an oversized Stream-Seq");
  assert.deepEqual(await snapshot(path), before);
  assert.equal((await ds("POST", path, { headers: { ...TEXT, "stream-seq": "0003" }, body: "c" })).status, 204);
  assert.equal((await ds("GET", path, { query: "?offset=-1" })).text, "ac");
});

test("content types with odd parameters: normalized, compared by essence, malformed ones 400", async () => {
  const path = fresh("odd-type");
  const created = await ds("PUT", path, { headers: { "content-type": 'Text/Plain ; charset="utf-8" ;; format=flowed ;' }, body: "a" });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.headers.get("content-type"), "text/plain; charset=utf-8; format=flowed");
  assert.equal((await ds("PUT", path, { headers: { "content-type": "TEXT/PLAIN" } })).status, 200, "the same essence is the same stream");
  assert.equal((await ds("POST", path, { headers: { "content-type": "text/plain; charset=latin1; x=\"a;b\"" }, body: "b" })).status, 204);
  const html = await ds("POST", path, { headers: { "content-type": "text/html" }, body: "c" });
  assert.equal(html.status, 409);
  assert.equal(html.json.error.code, "content_type_mismatch");
  for (const malformed of ["text", "text/plain; charset", "text/plain; =x", 'text/plain; charset="open', "text/plain, text/html", `text/plain; p=${"x".repeat(300)}`]) {
    const refused = await ds("POST", path, { headers: { "content-type": malformed }, body: "d" });
    assert.equal(refused.status, 400, `${malformed.slice(0, 40)}: ${refused.text}`);
    assert.equal(refused.json.error.code, "invalid_parameter");
    assert.equal((await ds("PUT", fresh("malformed-type"), { headers: { "content-type": malformed } })).status, 400, malformed.slice(0, 40));
  }
  assert.equal((await ds("GET", path, { query: "?offset=-1" })).text, "ab");
  const info = await t.request("GET", streamUrl(`/${path}`));
  assert.equal(info.body.contentType, "text/plain; charset=utf-8; format=flowed");

  const json = fresh("json-params");
  assert.equal((await ds("PUT", json, { headers: { "content-type": "Application/JSON; charset=UTF-8" }, body: '[{"a":1},{"b":2}]' })).status, 201);
  const read = await ds("GET", json, { query: "?offset=-1" });
  assert.deepEqual(JSON.parse(read.text), [{ a: 1 }, { b: 2 }], "JSON mode by essence, whatever the parameters");
});

test("an append to a closed stream is 409 on both faces; closing again succeeds; control events still commit", async () => {
  const path = await textStream("closed", "a");
  const closing = await ds("POST", path, { headers: { ...TEXT, "stream-closed": "true" }, body: "z" });
  assert.equal(closing.status, 204);
  assert.equal(closing.headers.get("stream-closed"), "true");
  const before = await snapshot(path);
  const refused = await ds("POST", path, { headers: TEXT, body: "late" });
  assert.equal(refused.status, 409, refused.text);
  assert.equal(refused.json.error.code, "stream_closed");
  assert.equal(refused.headers.get("stream-closed"), "true");
  assert.equal(refused.headers.get("stream-next-offset"), before.tail);
  assert.equal((await ds("POST", path, { headers: { ...TEXT, "stream-closed": "true" }, body: "again" })).status, 409, "append-and-close after close");
  assert.equal((await ds("POST", path, { headers: { "stream-closed": "true" } })).status, 204, "closing twice succeeds");
  const native = await t.request("POST", streamUrl(`/${path}`, "events"), { body: { type: "late" } });
  assert.equal(native.status, 409);
  assert.equal(native.body.error.code, "stream_closed");
  const control = await t.request("POST", streamUrl(`/${path}`, "events"), { body: { type: `${CONTROL}retention-configured`, payload: { maxEvents: 100 } } });
  assert.equal(control.status, 201, "a control event still commits");
  assert.deepEqual({ ...(await snapshot(path)), tail: undefined }, { ...before, tail: undefined });
  assert.equal((await snapshot(path)).content, "az");
});

test("a live read on an expired stream is 404, and so is every other request", async () => {
  const past = fresh("expired-at");
  const created = await ds("PUT", past, { headers: { ...TEXT, "stream-expires-at": "2001-01-01T00:00:00Z" }, body: "a" });
  assert.equal(created.status, 201, created.text);
  for (const live of ["long-poll", "sse"]) {
    const read = await ds("GET", past, { query: `?offset=-1&live=${live}` });
    assert.equal(read.status, 404, `live=${live}: ${read.text}`);
    assert.equal(read.json.error.code, "stream_not_found");
  }
  assert.equal((await ds("HEAD", past)).status, 404);
  assert.equal((await ds("POST", past, { headers: TEXT, body: "b" })).status, 404);
  assert.equal((await t.request("GET", streamUrl(`/${past}`))).status, 404, "the native face sees it gone too");

  // A sliding TTL of one second, left alone (HEAD does not renew it): once expired, live reads are 404.
  const sliding = await textStream("expired-ttl", "a", { "stream-ttl": "1" });
  await eventually(async () => assert.equal((await ds("HEAD", sliding)).status, 404), { what: "the TTL ran out", timeoutMs: 15_000, intervalMs: 250 });
  for (const live of ["long-poll", "sse"]) assert.equal((await ds("GET", sliding, { query: `?offset=-1&live=${live}` })).status, 404);
});

test("CORS: a preflight from an allowed origin is answered without a token, another origin gets no grant; refusals carry the security headers", async () => {
  const path = await textStream("cors");
  const preflight = await fetch(`${t.url}/v1/stream/${path}`, {
    method: "OPTIONS",
    headers: { origin: ORIGIN, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type, producer-id, stream-ttl" },
  });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get("access-control-allow-origin"), ORIGIN);
  assert.match(preflight.headers.get("vary") ?? "", /Origin/i);
  const allowedHeaders = (preflight.headers.get("access-control-allow-headers") ?? "").toLowerCase();
  for (const name of ["authorization", "content-type", "producer-id", "producer-epoch", "producer-seq", "stream-ttl", "stream-expires-at", "stream-seq", "stream-closed", "if-none-match"]) {
    assert.ok(allowedHeaders.includes(name), `${name} in ${allowedHeaders}`);
  }
  assert.match(preflight.headers.get("access-control-allow-methods") ?? "", /POST/);
  assert.equal(preflight.headers.get("access-control-allow-credentials"), null, "never credentials");

  const other = await fetch(`${t.url}/v1/stream/${path}`, { method: "OPTIONS", headers: { origin: "https://evil.example", "access-control-request-method": "POST" } });
  assert.equal(other.headers.get("access-control-allow-origin"), null);

  const read = await ds("GET", path, { query: "?offset=-1", headers: { origin: ORIGIN } });
  assert.equal(read.headers.get("access-control-allow-origin"), ORIGIN);
  const exposed = (read.headers.get("access-control-expose-headers") ?? "").toLowerCase();
  for (const name of ["stream-next-offset", "stream-up-to-date", "stream-closed", "stream-cursor", "etag"]) assert.ok(exposed.includes(name), `${name} exposed`);
  assert.equal(read.headers.get("x-content-type-options"), "nosniff");
  assert.equal(read.headers.get("cross-origin-resource-policy"), "cross-origin");
  const missing = await ds("GET", fresh("cors-missing"), { headers: { origin: ORIGIN } });
  assert.equal(missing.status, 404);
  assert.equal(missing.headers.get("x-content-type-options"), "nosniff");
  assert.equal(missing.headers.get("access-control-allow-origin"), ORIGIN, "refusals are readable by the page too");
});

test("CORS on the native face: the stream object's answers and the router's own refusals carry the grant and the security headers; a stranger's origin gets no grant", async () => {
  const url = `${t.url}/v1/streams/${fresh("cors-native")}`;
  const call = async (method, suffix, { body, origin = ORIGIN, headers = {} } = {}) => {
    const response = await fetch(`${url}${suffix}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, origin, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text };
  };
  const granted = (answer, what) => {
    assert.equal(answer.headers.get("access-control-allow-origin"), ORIGIN, what);
    assert.match(answer.headers.get("access-control-expose-headers") ?? "", /etag/i, what);
    assert.match(answer.headers.get("vary") ?? "", /Origin/i, what);
    assert.equal(answer.headers.get("x-content-type-options"), "nosniff", what);
    assert.equal(answer.headers.get("cross-origin-resource-policy"), "cross-origin", what);
  };
  const appended = await call("POST", "/-/events", { body: { type: "a", payload: { n: 1 } } });
  assert.equal(appended.status, 201, appended.text);
  granted(appended, "an append the stream object answered");
  const read = await call("GET", "/-/events?after=0");
  assert.equal(read.status, 200, read.text);
  granted(read, "a read");
  const tooFar = await call("GET", "/-/events/99");
  assert.equal(tooFar.status, 404, tooFar.text);
  granted(tooFar, "the stream object's own refusal");
  const malformed = await call("POST", "/-/events", { body: "{\"type\": " });
  assert.equal(malformed.status, 400, malformed.text);
  granted(malformed, "a body the stream object refused");
  const sse = await fetch(`${url}/-/live?after=0`, { headers: { authorization: `Bearer ${TOKEN}`, origin: ORIGIN, accept: "text/event-stream" }, signal: AbortSignal.timeout(10_000) });
  assert.equal(sse.status, 200);
  granted(sse, "a live answer");
  await sse.body.cancel();
  const reserved = await call("POST", "/-/events", { body: { type: "a", idempotencyKey: "copy:1" } });
  assert.equal(reserved.status, 403, reserved.text);
  granted(reserved, "the router's own refusal");
  const stranger = await call("POST", "/-/events", { body: { type: "a" }, origin: "https://evil.example" });
  assert.equal(stranger.status, 201, stranger.text);
  assert.equal(stranger.headers.get("access-control-allow-origin"), null, "no grant for another origin");
  assert.equal(stranger.headers.get("x-content-type-options"), "nosniff");
  // Internal headers never reach the caller.
  for (const answer of [appended, read, stranger]) {
    for (const [name] of answer.headers) assert.ok(!name.startsWith("x-tributary-"), `${name} leaked`);
  }
});

test("tokens and scopes: no token is 401, a read token may read but not write, another project's token sees nothing", async () => {
  const path = await textStream("scopes");
  const anonymous = await ds("GET", path, { token: null });
  assert.equal(anonymous.status, 401);
  assert.equal(anonymous.headers.get("www-authenticate"), "Bearer");
  assert.equal((await ds("GET", path, { token: "no-such-token" })).status, 401);
  assert.equal((await ds("GET", path, { query: "?offset=-1", token: READ_TOKEN })).status, 200);
  const write = await ds("POST", path, { headers: TEXT, body: "x", token: READ_TOKEN });
  assert.equal(write.status, 403);
  assert.equal(write.json.error.code, "forbidden_scope");
  assert.equal((await ds("DELETE", path, { token: READ_TOKEN })).status, 403);
  assert.equal((await ds("PUT", fresh("scopes-new"), { headers: TEXT, token: READ_TOKEN })).status, 403);
  assert.equal((await ds("PATCH", path)).status, 405);
  assert.equal((await ds("GET", path, { query: "?offset=-1", token: OTHER_TOKEN })).status, 404, "another project has no such stream");
  assert.equal((await snapshot(path)).content, "abc");
});
