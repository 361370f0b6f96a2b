// An incoming request's headers read in one call (durable-objects/src/internal/incoming.js),
// as the Durable Streams face hands them to the engine: at most `max` pairs, names
// lower-case, values as sent (any character JSON can carry), in the platform's order.
import { test } from "node:test";
import assert from "node:assert/strict";
import { headerPairs } from "../../durable-objects/src/internal/incoming.js";

test("a request's headers are read as [name, value] pairs, names lower-case", () => {
  const headers = new Headers({ "Stream-Seq": "000042", "Content-Type": "application/json", "X-Note": 'a "quoted" value, é' });
  assert.deepEqual(JSON.parse(headerPairs(headers, 64)), [
    ["content-type", "application/json"],
    ["stream-seq", "000042"],
    ["x-note", 'a "quoted" value, é'],
  ]);
});

test("past `max` pairs the rest are not read", () => {
  const headers = new Headers(Array.from({ length: 100 }, (_, i) => [`x-h${String(i).padStart(3, "0")}`, `${i}`]));
  const pairs = JSON.parse(headerPairs(headers, 64));
  assert.equal(pairs.length, 64);
  assert.deepEqual(pairs[0], ["x-h000", "0"]);
  assert.deepEqual(pairs[63], ["x-h063", "63"]);
  assert.deepEqual(JSON.parse(headerPairs(new Headers(), 64)), []);
  assert.deepEqual(JSON.parse(headerPairs(headers, 0)), []);
});
