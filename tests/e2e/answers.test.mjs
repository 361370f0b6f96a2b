// The answers made and finished in one call (durable-objects/src/internal/answers.js):
// an answer's headers, and the entry's last step on every API answer, which hands an
// object's answer on untouched only when it already carries all §17 asks of it.
// What a browser reads in workerd is asserted in browser_headers.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { answerHeaders, configureAnswers, decorateAnswer } from "../../durable-objects/src/internal/answers.js";

const SECURITY = [
  ["X-Content-Type-Options", "nosniff"],
  ["Cross-Origin-Resource-Policy", "cross-origin"],
];
const INTERNAL = "x-tributary-stream-id";

test("answers.js refuses to make or pass an answer before it knows the header names", () => {
  assert.throws(() => answerHeaders("application/json"), /configureAnswers was not called/);
  assert.throws(() => decorateAnswer(new Response("{}"), ""), /configureAnswers was not called/);
});

test("an answer's headers are its content type and the security headers", () => {
  configureAnswers(JSON.stringify(SECURITY), INTERNAL);
  const headers = answerHeaders("text/plain; version=0.0.4");
  assert.deepEqual([...headers], [
    ["content-type", "text/plain; version=0.0.4"],
    ["cross-origin-resource-policy", "cross-origin"],
    ["x-content-type-options", "nosniff"],
  ]);
});

test("an answer that already carries the security headers, no internal header and needs no CORS is handed on as it is", () => {
  configureAnswers(JSON.stringify(SECURITY), INTERNAL);
  const answer = new Response('{"event":{}}', { status: 201, headers: answerHeaders("application/json") });
  assert.equal(decorateAnswer(answer, ""), answer);
});

test("an answer is made again, same status and body, when it needs CORS, lacks a security header or carries the internal header", async () => {
  configureAnswers(JSON.stringify(SECURITY), INTERNAL);
  const cors = JSON.stringify([
    ["Vary", "Origin"],
    ["Access-Control-Allow-Origin", "https://page.example"],
  ]);
  const cases = [
    ["CORS to add", answerHeaders("application/json"), cors],
    ["no security headers", new Headers({ "content-type": "application/json" }), ""],
    ["one security header only", new Headers({ "content-type": "application/json", "x-content-type-options": "nosniff" }), ""],
    ["the internal header", (() => {
      const headers = answerHeaders("application/json");
      headers.set(INTERNAL, "str_1");
      return headers;
    })(), ""],
  ];
  for (const [what, headers, corsJson] of cases) {
    const answer = new Response('{"n":1}', { status: 409, headers });
    const decorated = decorateAnswer(answer, corsJson);
    assert.notEqual(decorated, answer, what);
    assert.equal(decorated.status, 409, what);
    assert.equal(await decorated.text(), '{"n":1}', what);
    assert.equal(decorated.headers.get("content-type"), "application/json", what);
    assert.equal(decorated.headers.get("x-content-type-options"), "nosniff", what);
    assert.equal(decorated.headers.get("cross-origin-resource-policy"), "cross-origin", what);
    assert.equal(decorated.headers.get(INTERNAL), null, what);
    assert.equal(decorated.headers.get("access-control-allow-origin"), corsJson ? "https://page.example" : null, what);
  }
});

test("a security header the answer sets itself is kept, not overwritten", () => {
  configureAnswers(JSON.stringify(SECURITY), INTERNAL);
  const answer = new Response(null, { status: 204, headers: { "cross-origin-resource-policy": "same-origin" } });
  const decorated = decorateAnswer(answer, "");
  assert.equal(decorated.headers.get("cross-origin-resource-policy"), "same-origin");
  assert.equal(decorated.headers.get("x-content-type-options"), "nosniff");
  assert.equal(decorated.status, 204);
});
