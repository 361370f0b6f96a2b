// What a browser reads on every answer of a stream, on both faces (docs/design.md §17
// "Browsers"): the security headers, CORS as the deployment sets it, and no internal
// `x-tributary-` header (a successful append's lifetime header is a source's alone, §15).
// Asserted under both settings a deployment starts with, none and `*`, on the stream object's
// answers, its refusals, a read of a stream that does not exist and a fork's inherited page
// (which the fork's object reads from its source's). The CORS grant for a list of origins is
// asserted in durable_streams_hostile.test.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary, streamUrl } from "./harness.mjs";

const SETTINGS = { "without CORS_ALLOWED_ORIGINS": undefined, "with CORS_ALLOWED_ORIGINS=*": "*" };
const ORIGIN = "https://page.example";
const servers = {};
before(async () => {
  for (const [name, corsAllowedOrigins] of Object.entries(SETTINGS)) servers[name] = await startTributary({ corsAllowedOrigins });
});
after(async () => {
  await Promise.all(Object.values(servers).map((server) => server.cleanup()));
});

let counter = 0;
const fresh = (name) => `/browser-headers/${name}-${process.pid}-${++counter}`;

/** The answers a browser gets from one stream, native and protocol, refusals and a fork's inherited page included. */
async function answers(t) {
  const native = fresh("native");
  const protocol = fresh("protocol");
  const fork = fresh("fork");
  const request = (method, path, options = {}) => t.request(method, path, { ...options, headers: { origin: ORIGIN, ...(options.headers ?? {}) } });
  const text = { "content-type": "text/plain" };
  return [
    ["native append", 201, await request("POST", streamUrl(native, "events"), { body: { type: "a", payload: { n: 1 } } })],
    ["native read", 200, await request("GET", streamUrl(native, "events"))],
    ["native refusal by the stream (a type with a space)", 400, await request("POST", streamUrl(native, "events"), { body: { type: "a b" } })],
    ["native read of no stream", 404, await request("GET", streamUrl(fresh("missing"), "events"))],
    ["protocol create", 201, await request("PUT", `/v1/stream${protocol}`, { rawBody: "x", headers: text })],
    ["protocol append", 204, await request("POST", `/v1/stream${protocol}`, { rawBody: "y", headers: text })],
    ["protocol read", 200, await request("GET", `/v1/stream${protocol}?offset=-1`)],
    ["protocol fork", 201, await request("PUT", `/v1/stream${fork}`, { headers: { ...text, "stream-forked-from": `/v1/stream${protocol}` } })],
    ["protocol read of the fork's inherited data", 200, await request("GET", `/v1/stream${fork}?offset=-1`)],
  ];
}

for (const [name, cors] of Object.entries(SETTINGS)) {
  test(`§17 ${name}: every stream answer carries the security headers${cors ? " and the CORS grant" : ""} and no internal header, on both faces`, async () => {
    for (const [what, status, answer] of await answers(servers[name])) {
      assert.equal(answer.status, status, `${what}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.headers.get("x-content-type-options"), "nosniff", what);
      assert.equal(answer.headers.get("cross-origin-resource-policy"), "cross-origin", what);
      assert.equal(answer.headers.get("access-control-allow-origin"), cors ?? null, what);
      for (const [header] of answer.headers) assert.ok(!header.startsWith("x-tributary-"), `${what}: ${header} leaked`);
    }
  });
}
