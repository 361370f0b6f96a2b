// One SQL statement (docs/design.md §1), run on JavaScript's side of the
// instance: `sql.exec` with its bindings, every row read, and the answer
// handed back as two arrays, so the wasm instance crosses a few times per
// statement instead of once per binding, row, value and type test
// (docs/benchmarks.md, issue 33, seventeenth round).
//
// Values travel both ways as `numbers` (a Float64Array, two entries a
// value: its kind, then its number or its length) and `bytes`.
// Kinds: 0 null, 1 an integer (a safe one), 2 any other number, 3 a
// string, 4 bytes.
// - The bindings: a string's length in UTF-16 units, a blob's in bytes,
//   and one more number after the values, the strings' length in bytes;
//   `bytes` holds every string's UTF-8, then every blob. The strings are
//   decoded in one call and sliced: each call into the platform's
//   decoder costs more than the few bytes of a key or a date
//   (docs/benchmarks.md, issue 33, twenty-eighth round).
// - The rows: a string's or a blob's length in bytes, and their bytes one
//   after the other, in order.
//
// The answer is always one number, so a write crosses back as the call's
// own result: the rows written (≥ 0) when no row was read. When rows were
// read it is negative, −(numbers × 2^32 + bytes) − 1: the sizes of the two
// arrays `sqlTake` then copies into the instance's memory, `numbers`
// starting with the row width, the rows written and the rows read.
// A value of another kind throws, as `sql.exec`'s own errors do.
//
// A statement whose rows are not wanted (`wantRows` false: an INSERT, an
// UPDATE, a DELETE without RETURNING) ran to its end inside `exec`; one
// `next()` tells the cursor so, which hands the statement back to the
// platform's statement cache, instead of a row iterator made and asked
// (docs/benchmarks.md, issue 33, twenty-eighth round).

const NULL = 0;
const INTEGER = 1;
const REAL = 2;
const TEXT = 3;
const BLOB = 4;
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
const encoder = new TextEncoder();
/** Sizes past these do not fit the answer's one number (2^53). */
const MAX_NUMBERS = 2 ** 21;
const MAX_BYTES = 2 ** 32;

/** The rows of the last statement that read some, until `sqlTake` takes them. */
let taken = null;

/**
 * @param {SqlStorage} sql
 * @param {string} query
 * @param {Float64Array} numbers  the bindings' kinds and numbers (a view of the instance's memory)
 * @param {Uint8Array} bytes      the bindings' strings and blobs (a view of the instance's memory)
 * @param {boolean} wantRows      whether the caller reads the rows
 * @returns {number} the rows written, or the negative sizes of the rows read (see above)
 */
export function sqlExec(sql, query, numbers, bytes, wantRows) {
  const cursor = sql.exec(query, ...bindingsOf(numbers, bytes));
  if (!wantRows) {
    // Rows no caller reads (a RETURNING run as a plain write) are read past, unkept.
    if (!cursor.next().done) for (const _row of cursor.raw());
    return cursor.rowsWritten;
  }
  const answer = [0, 0, 0];
  const texts = [];
  let width = 0;
  let rows = 0;
  let size = 0;
  for (const row of cursor.raw()) {
    width = row.length;
    rows++;
    for (const value of row) {
      if (value === null || value === undefined) {
        answer.push(NULL, 0);
      } else if (typeof value === "number") {
        answer.push(Number.isSafeInteger(value) ? INTEGER : REAL, value);
      } else if (typeof value === "string") {
        answer.push(TEXT, 0);
        texts.push(value);
        size += value.length * 3;
      } else if (typeof value === "boolean") {
        answer.push(INTEGER, value ? 1 : 0);
      } else if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
        const view = value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
        answer.push(BLOB, 0);
        texts.push(view);
        size += view.byteLength;
      } else {
        throw new TypeError(`a SQL value of kind ${typeof value}`);
      }
    }
  }
  if (rows === 0) return cursor.rowsWritten;
  answer[0] = width;
  answer[1] = cursor.rowsWritten;
  answer[2] = rows;
  // Each string's UTF-8 and each blob, in order; their lengths go in the
  // second entry of their value.
  const out = new Uint8Array(size);
  let at = 0;
  let next = 0;
  for (let slot = 3; slot < answer.length; slot += 2) {
    if (answer[slot] !== TEXT && answer[slot] !== BLOB) continue;
    const value = texts[next++];
    if (typeof value === "string") {
      const { written } = encoder.encodeInto(value, out.subarray(at));
      answer[slot + 1] = written;
      at += written;
    } else {
      out.set(value, at);
      answer[slot + 1] = value.byteLength;
      at += value.byteLength;
    }
  }
  if (answer.length >= MAX_NUMBERS || at >= MAX_BYTES) throw new RangeError(`a statement's answer of ${answer.length} numbers and ${at} bytes`);
  taken = [answer, out.subarray(0, at)];
  return -(answer.length * MAX_BYTES + at) - 1;
}

/**
 * Copies the rows the last `sqlExec` read into `numbers` and `bytes` (views
 * of the instance's memory of the sizes its answer gave), and forgets them.
 * @param {Float64Array} numbers
 * @param {Uint8Array} bytes
 */
export function sqlTake(numbers, bytes) {
  if (taken === null) throw new Error("no rows to take");
  const [answer, out] = taken;
  taken = null;
  numbers.set(answer);
  bytes.set(out);
}

/** The bindings `numbers` and `bytes` carry, as `sql.exec` takes them. */
function bindingsOf(numbers, bytes) {
  const values = new Array((numbers.length - 1) / 2);
  const stringBytes = numbers[numbers.length - 1];
  const strings = stringBytes > 0 ? decoder.decode(bytes.subarray(0, stringBytes)) : "";
  let at = 0;
  let blobAt = stringBytes;
  for (let i = 0; i < values.length; i++) {
    const kind = numbers[2 * i];
    const number = numbers[2 * i + 1];
    if (kind === TEXT) {
      values[i] = strings.slice(at, at + number);
      at += number;
    } else if (kind === BLOB) {
      // A copy: the view is the instance's memory, which `exec` may outlive.
      values[i] = bytes.slice(blobAt, blobAt + number);
      blobAt += number;
    } else {
      values[i] = kind === NULL ? null : number;
    }
  }
  return values;
}
