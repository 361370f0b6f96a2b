// The answers made and finished in one call (durable-objects/src/internal/answers.js):
// an answer's headers, a stream object's whole answer, and the entry's last step on every API answer, which hands an
// object's answer on untouched only when it already carries all §17 asks of it.
// What a browser reads in workerd is asserted in browser_headers.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { answerHeaders, configureAnswers, decorateAnswer, respond, respondWith } from "../../durable-objects/src/internal/answers.js";

const SECURITY = [
  ["X-Content-Type-Options", "nosniff"],
  ["Cross-Origin-Resource-Policy", "cross-origin"],
];
const INTERNAL = "x-tributary-stream-id";

test("answers.js refuses to make or pass an answer before it knows the header names", () => {
  assert.throws(() => answerHeaders("application/json"), /configureAnswers was not called/);
  assert.throws(() => decorateAnswer(new Response("{}"), ""), /configureAnswers was not called/);
  assert.throws(() => respond(200, "application/json", new Uint8Array(0), "", ""), /configureAnswers was not called/);
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

test("a stream object's whole answer: status, body, content type and the security headers, which the entry hands on as it is", async () => {
  configureAnswers(JSON.stringify(SECURITY), INTERNAL);
  const body = new TextEncoder().encode('{"event":{"offset":1}}');
  const answer = respond(201, "application/json", body, "", "");
  assert.equal(answer.status, 201);
  assert.deepEqual([...answer.headers], [
    ["content-type", "application/json"],
    ["cross-origin-resource-policy", "cross-origin"],
    ["x-content-type-options", "nosniff"],
  ]);
  assert.equal(decorateAnswer(answer, ""), answer);
  assert.equal(await answer.text(), '{"event":{"offset":1}}');
});

test("the answer's body is copied out of the view it is handed (the instance's memory moves on)", async () => {
  configureAnswers(JSON.stringify(SECURITY), INTERNAL);
  const memory = new TextEncoder().encode('{"n":1}');
  const answer = respond(200, "application/json", memory, "", "");
  memory.fill(0x20);
  assert.equal(await answer.text(), '{"n":1}');
});

test("one more header goes on that answer only; a 204 has no body", async () => {
  configureAnswers(JSON.stringify(SECURITY), INTERNAL);
  const body = new TextEncoder().encode("{}");
  const named = respond(201, "application/json", body, INTERNAL, "str_7");
  assert.equal(named.headers.get(INTERNAL), "str_7");
  assert.notEqual(decorateAnswer(named, ""), named, "the internal header is taken off at the entry");
  const next = respond(201, "application/json", body, "", "");
  assert.equal(next.headers.get(INTERNAL), null, "the kept headers are not changed by one answer's extra header");
  const empty = respond(204, "application/json", body, "", "");
  assert.equal(empty.status, 204);
  assert.equal(empty.body, null);
  assert.equal(empty.headers.get("x-content-type-options"), "nosniff");
});

test("past the content types it keeps, each answer still carries its own content type and the security headers", () => {
  configureAnswers(JSON.stringify(SECURITY), INTERNAL);
  const body = new Uint8Array(0);
  for (let i = 0; i < 40; i++) {
    const type = `application/x-kind-${i}`;
    const answer = respond(200, type, body, "", "");
    assert.equal(answer.headers.get("content-type"), type);
    assert.equal(answer.headers.get("cross-origin-resource-policy"), "cross-origin");
  }
  assert.equal(respond(200, "application/x-kind-3", body, "", "").headers.get("content-type"), "application/x-kind-3");
});

test("header names told again replace the kept ones", () => {
  configureAnswers(JSON.stringify(SECURITY), INTERNAL);
  respond(200, "application/json", new Uint8Array(0), "", "");
  configureAnswers(JSON.stringify([["X-Content-Type-Options", "nosniff"]]), INTERNAL);
  const answer = respond(200, "application/json", new Uint8Array(0), "", "");
  assert.equal(answer.headers.get("cross-origin-resource-policy"), null);
  configureAnswers(JSON.stringify(SECURITY), INTERNAL);
});

test("an answer whose headers the engine made: each pair appended in order, repeats kept; no body when told so", async () => {
  const body = new TextEncoder().encode("[1,2]");
  const headers = JSON.stringify([
    ["Content-Type", "application/json"],
    ["Stream-Next-Offset", "0000000000000002"],
    ["Link", "<a>; rel=one"],
    ["Link", "<b>; rel=two"],
  ]);
  const answer = respondWith(200, headers, body, true);
  assert.equal(answer.status, 200);
  assert.equal(answer.headers.get("stream-next-offset"), "0000000000000002");
  assert.equal(answer.headers.get("link"), "<a>; rel=one, <b>; rel=two");
  assert.equal(await answer.text(), "[1,2]");
  const head = respondWith(200, headers, body, false);
  assert.equal(head.body, null);
  assert.equal(head.headers.get("content-type"), "application/json");
  const notModified = respondWith(304, "[]", new Uint8Array(0), false);
  assert.equal(notModified.status, 304);
  assert.equal(notModified.body, null);
});
