// The SQL driver's one call a statement (durable-objects/src/platform/sql_exec.js):
// its encoding of bindings and rows, against a stand-in `SqlStorage`, and
// the values it carries round-tripped through a real stream in workerd.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sqlExec, sqlTake } from "../../durable-objects/src/platform/sql_exec.js";
import { startTributary, streamUrl } from "./harness.mjs";

/**
 * A stand-in `SqlStorage` whose one statement answers `rows`, and which keeps
 * what it was bound and each cursor: as workerd's, `next()` and the `raw()`
 * iterator read the same rows, and a cursor read to its end is `ended`
 * (its statement back in the platform's cache).
 */
function storage(rows, rowsWritten = 0) {
  const bound = [];
  const cursors = [];
  return {
    bound,
    cursors,
    exec(query, ...bindings) {
      bound.push({ query, bindings });
      const remaining = rows[Symbol.iterator]();
      const cursor = { rowsWritten, ended: false, calls: [] };
      const step = () => {
        const next = remaining.next();
        if (next.done) cursor.ended = true;
        return next;
      };
      cursor.next = () => {
        cursor.calls.push("next");
        return step();
      };
      cursor.raw = () => {
        cursor.calls.push("raw");
        return { [Symbol.iterator]() { return this; }, next: step };
      };
      cursors.push(cursor);
      return cursor;
    },
  };
}

/**
 * Bindings as the Rust side writes them: two numbers a value (a string's
 * length in UTF-16 units, a blob's in bytes), then the strings' length in
 * bytes; every string's UTF-8, then every blob.
 */
function encode(values) {
  const numbers = [];
  const strings = [];
  const blobs = [];
  for (const value of values) {
    if (value === null) numbers.push(0, 0);
    else if (typeof value === "number") numbers.push(Number.isSafeInteger(value) ? 1 : 2, value);
    else if (typeof value === "string") {
      numbers.push(3, value.length);
      strings.push(new TextEncoder().encode(value));
    } else {
      numbers.push(4, value.length);
      blobs.push(value);
    }
  }
  const stringBytes = strings.reduce((sum, chunk) => sum + chunk.length, 0);
  numbers.push(stringBytes);
  const bytes = new Uint8Array(stringBytes + blobs.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of [...strings, ...blobs]) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return [new Float64Array(numbers), bytes];
}

/** The rows an answer says were read, taken at the sizes it gives and decoded, as the Rust side does. */
function decode(answer) {
  assert.ok(answer < 0, `an answer with rows is negative: ${answer}`);
  const sizes = -answer - 1;
  const numbers = new Float64Array(Math.floor(sizes / 2 ** 32));
  const bytes = new Uint8Array(sizes % 2 ** 32);
  sqlTake(numbers, bytes);
  const [width, written, count] = numbers;
  const values = [];
  let at = 0;
  for (let slot = 3; slot < numbers.length; slot += 2) {
    const [kind, number] = [numbers[slot], numbers[slot + 1]];
    if (kind === 3) values.push(new TextDecoder().decode(bytes.subarray(at, (at += number))));
    else if (kind === 4) values.push([...bytes.subarray(at, (at += number))]);
    else values.push(kind === 0 ? null : { kind: kind === 1 ? "integer" : "real", number });
  }
  const rows = [];
  for (let i = 0; i < values.length; i += width) rows.push(values.slice(i, i + width));
  return { written, count, rows };
}

test("sql_exec: bindings reach sql.exec as the values they encode", () => {
  const sql = storage([], 1);
  const blob = new Uint8Array([0, 255, 7]);
  const values = [null, 42, "é 漢字 😀", -(2 ** 53 - 1), blob, 0.5, "", "plain", "\u{feff}leading mark", new Uint8Array([9])];
  const answer = sqlExec(sql, "INSERT ...", ...encode(values), true);
  assert.equal(answer, 1, "a statement that read no row answers its rows written");
  assert.equal(sql.bound[0].query, "INSERT ...");
  const bound = sql.bound[0].bindings;
  assert.deepEqual(bound.map((value) => (value instanceof Uint8Array ? [...value] : value)), values.map((value) => (value instanceof Uint8Array ? [...value] : value)));
});

test("sql_exec: strings decoded together keep their own ends, a leading byte order mark and surrogate pairs included", () => {
  const sql = storage([]);
  const values = ["\u{feff}first", "😀", "", "a😀b", "last"];
  sqlExec(sql, "INSERT ...", ...encode(values), false);
  assert.deepEqual(sql.bound[0].bindings, values);
});

test("sql_exec: no binding, no row", () => {
  const sql = storage([]);
  assert.equal(sqlExec(sql, "SELECT 1 WHERE 0", ...encode([]), true), 0);
  assert.deepEqual(sql.bound[0].bindings, []);
});

test("sql_exec: rows come back with each value's kind, strings as UTF-8", () => {
  const rows = [
    [1, "a", null],
    [2 ** 53 + 2, "é 漢字 😀", new Uint8Array([1, 2]).buffer],
    [0.25, "", true],
  ];
  const answer = decode(sqlExec(storage(rows, 3), "SELECT ...", ...encode([]), true));
  assert.equal(answer.written, 3);
  assert.equal(answer.count, 3);
  assert.deepEqual(answer.rows, [
    [{ kind: "integer", number: 1 }, "a", null],
    // Above 2^53 a number is not a safe integer: it is carried as a real.
    [{ kind: "real", number: 2 ** 53 + 2 }, "é 漢字 😀", [1, 2]],
    [{ kind: "real", number: 0.25 }, "", { kind: "integer", number: 1 }],
  ]);
});

test("sql_exec: the rows read are taken once, at exactly the sizes the answer gives", () => {
  const text = "é".repeat(1000);
  const answer = sqlExec(storage([[text, 1]], 0), "SELECT ...", ...encode([]), true);
  // Two numbers a value after the three leading ones; the string's UTF-8.
  assert.equal(answer, -(7 * 2 ** 32 + 2000) - 1);
  assert.deepEqual(decode(answer).rows, [[text, { kind: "integer", number: 1 }]]);
  assert.throws(() => sqlTake(new Float64Array(7), new Uint8Array(2000)), /no rows to take/);
});

test("sql_exec: a value of an unknown kind throws, as sql.exec's errors do", () => {
  assert.throws(() => sqlExec(storage([[{}]]), "SELECT ...", ...encode([]), true), /a SQL value of kind object/);
});

test("sql_exec: a statement whose rows are not wanted ends in one call and answers its rows written", () => {
  const sql = storage([], 2);
  assert.equal(sqlExec(sql, "UPDATE ...", ...encode(["k", 7]), false), 2);
  assert.deepEqual(sql.bound[0].bindings, ["k", 7]);
  assert.deepEqual(sql.cursors[0].calls, ["next"], "no row iterator made");
  assert.equal(sql.cursors[0].ended, true, "the statement went back to the cache");
});

test("sql_exec: rows no caller wants (a RETURNING run as a write) are read past, and the cursor ends", () => {
  const sql = storage([[1], [2], [3]], 3);
  assert.equal(sqlExec(sql, "DELETE ... RETURNING x", ...encode([]), false), 3);
  assert.deepEqual(sql.cursors[0].calls, ["next", "raw"]);
  assert.equal(sql.cursors[0].ended, true);
});

test("sql_exec in workerd: text, numbers and bytes round-trip through a stream", async (t) => {
  const tributary = await startTributary();
  t.after(() => tributary.stop());
  const path = "/sql-exec/round-trip";
  const payload = { text: "é 漢字 😀 \u0000 \"quoted\" \\", big: 2 ** 53 - 1, negative: -(2 ** 53 - 1), real: 0.1, empty: "" };
  const appended = await tributary.request("POST", streamUrl(path, "events"), {
    body: { type: "data", payload, metadata: { note: "ß" }, idempotencyKey: "ключ-1" },
  });
  assert.equal(appended.status, 201, JSON.stringify(appended.body));
  const read = await tributary.request("GET", `${streamUrl(path, "events")}?after=0`);
  assert.equal(read.status, 200);
  const event = read.body.events.find((candidate) => candidate.type === "data");
  assert.deepEqual(event.payload, payload);
  assert.deepEqual(event.metadata, { note: "ß" });
  assert.equal(event.idempotencyKey, "ключ-1");
  // The same key again finds the stored row by its text: a duplicate, nothing new.
  const again = await tributary.request("POST", streamUrl(path, "events"), {
    body: { type: "data", payload, metadata: { note: "ß" }, idempotencyKey: "ключ-1" },
  });
  assert.equal(again.status, 200, JSON.stringify(again.body));
  assert.equal(again.body.deduplicated, true);
  assert.deepEqual(again.body.event, event);
});
