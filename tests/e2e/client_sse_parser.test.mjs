// The TypeScript client's SSE parser (clients/typescript/src/tail/sse.ts)
// on its own: the same messages however the byte stream is split (CRLF
// and CR line ends, comments, multi-line data, ids, a `\r\n` cut between
// chunks), and a line past its bound refused rather than buffered forever.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "./harness.mjs";
import "./client_helpers.mjs";

const { SseParser } = await import(join(ROOT, "clients", "typescript", "dist", "tail", "sse.js"));

const STREAM =
  "retry: 250\r\n\r\n" +
  ": keep-alive\n\n" +
  'id: 1\nevent: event\ndata: {"offset":1}\n\n' +
  'id: 2\r\nevent: event\r\ndata: {"offset":2,\r\ndata: "x":1}\r\n\r\n' +
  'id: 9\revent: progress\rdata: {"deliveredThroughOffset":9}\r\r' +
  "event: nothing-without-data\n\n" +
  'data:{"no":"space"}\n\n' +
  'event: error\ndata: {"code":"replaced","message":"m"}\n\n';

const EXPECTED = [
  { event: "event", data: '{"offset":1}', id: "1" },
  { event: "event", data: '{"offset":2,\n"x":1}', id: "2" },
  { event: "progress", data: '{"deliveredThroughOffset":9}', id: "9" },
  { event: "message", data: '{"no":"space"}', id: "9" },
  { event: "error", data: '{"code":"replaced","message":"m"}', id: "9" },
];

test("the SSE parser yields the same messages whatever the chunking", () => {
  const whole = new SseParser().feed(STREAM);
  assert.deepEqual(whole, EXPECTED);
  for (let cut = 1; cut < STREAM.length; cut++) {
    const parser = new SseParser();
    const messages = [...parser.feed(STREAM.slice(0, cut)), ...parser.feed(STREAM.slice(cut))];
    assert.deepEqual(messages, EXPECTED, `split at ${cut} (${JSON.stringify(STREAM.slice(cut - 2, cut + 2))})`);
  }
  const parser = new SseParser();
  const byChar = [...STREAM].flatMap((c) => parser.feed(c));
  assert.deepEqual(byChar, EXPECTED, "one character at a time");
});

test("the SSE parser refuses a line past 4 Mi characters instead of buffering it", () => {
  const parser = new SseParser();
  const chunk = "data: " + "x".repeat(1024 * 1024);
  assert.doesNotThrow(() => parser.feed(chunk));
  assert.throws(() => {
    for (let i = 0; i < 4; i++) parser.feed("x".repeat(1024 * 1024));
  }, (error) => error.code === "unexpected_response");
});
