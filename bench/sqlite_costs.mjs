// What a Durable Object's SQLite writes cost on this platform, with no
// Tributary code at all (issue 33): a bare JS Durable Object in workerd
// (Miniflare, local SQLite), timed from Node, in one run, rounds interleaved,
// the first round a warm-up. It says which of Tributary's costs are the
// platform's and which are ours, before anyone optimizes the wrong one.
//
//   node bench/sqlite_costs.mjs
//
// (a) Per commit: each iteration awaits a macrotask (so every iteration is
//     its own implicit transaction and commit), then writes. `µs/commit` is
//     wall time per iteration; `÷ one UPDATE` compares each shape with the
//     plainest write. Shapes: no write; one SELECT and no write; one
//     UPDATE; one UPDATE and three more of the same row; one SELECT then
//     the UPDATE; a journal row INSERT and the UPDATE; the same plus
//     deleting the oldest journal row every commit; the same with the
//     oldest 64 deleted every 64th commit.
// (b) Per row, 1,000 rows in one transaction (a copy batch): a small row (the
//     floor's), a row of Tributary's size without an idempotency key, with a
//     random 64-hex key under a unique index (blake3-like), and with a key
//     ordered within its run (a run prefix, then the offset). Each round
//     adds 10,000 rows to each table, so the last rounds write into larger
//     indexes: a random key's cost grows with its index, an ordered one's
//     does not.
// (c) One point SELECT outside a transaction and inside `transactionSync`,
//     back to back in one turn: what a statement pays for running on its own.
// (d) A catch-up page's rows written as JSON by SQLite (src/stream/page_json.rs),
//     10 pages of 1,000 five times a request, with `createdAt` written three ways: by
//     `strftime` and `printf` (before issue 33's nineteenth round), by
//     `datetime` with `subsec`, and as a mark and the milliseconds' digits,
//     which the engine writes as the date; each concatenated sorted by
//     SQLite (`group_concat ... ORDER BY`), the mark also in the scan's
//     order, which the engine checks (now: src/stream/page_json.rs).
//
// Settings: BENCH_SQLITE_ROUNDS (4, the first not counted).
import { Miniflare } from "miniflare";
import { envNumber, printTable } from "./lib.mjs";

const rounds = envNumber("BENCH_SQLITE_ROUNDS", 4, { integer: true });
const COMMITS = 500; // per request in (a)
const BATCHES = 10; // of 1,000 rows per request in (b)
const PAGE_PASSES = 5; // over (d)'s 10 pages per request

const script = `
const JOURNAL = "CREATE TABLE IF NOT EXISTS journal (subscription_key TEXT NOT NULL, event_offset INTEGER NOT NULL, " +
  "delivery_id TEXT NOT NULL, PRIMARY KEY (subscription_key, event_offset))";
const EVENTS = "CREATE TABLE IF NOT EXISTS events (event_offset INTEGER PRIMARY KEY, type TEXT NOT NULL, payload TEXT NOT NULL, " +
  "metadata TEXT NOT NULL, idempotency_key TEXT, ephemeral INTEGER NOT NULL, created_at_ms INTEGER NOT NULL, source TEXT)";
const KEY = "sub-key-of-some-length";
const PAYLOAD = JSON.stringify({ i: 1, data: "x".repeat(40) });
/** src/stream/page_json.rs's EVENT_JSON, its createdAt text left as DATE. */
const EVENT_JSON = \`'{"offset":' || event_offset || ',"type":' || json_quote(type) || ',"payload":' || payload || ',"metadata":' || metadata
  || CASE WHEN idempotency_key IS NULL THEN '' ELSE ',"idempotencyKey":' || json_quote(idempotency_key) END
  || CASE WHEN ephemeral != 0 THEN ',"ephemeral":true' ELSE '' END || ',"createdAt":' || DATE
  || CASE WHEN source IS NULL THEN '' ELSE ',"source":' || source END || '}'\`;
const CREATED_AT = {
  "strftime and printf": "'\\"' || strftime('%Y-%m-%dT%H:%M:%S', created_at_ms / 1000, 'unixepoch') || '.' || printf('%03d', created_at_ms % 1000) || 'Z\\"'",
  "datetime with subsec": "'\\"' || replace(datetime(created_at_ms / 1000.0, 'unixepoch', 'subsec'), ' ', 'T') || 'Z\\"'",
  "a mark and its digits": "char(1) || created_at_ms",
};
/** (d)'s shapes: how createdAt is written, and whether SQLite sorts the concatenation. */
const PAGE_SHAPES = {
  "strftime and printf, sorted": ["strftime and printf", true],
  "datetime with subsec, sorted": ["datetime with subsec", true],
  "a mark and its digits, sorted": ["a mark and its digits", true],
  "a mark and its digits, in scan order": ["a mark and its digits", false],
};
const SOURCE = JSON.stringify({ copiedFrom: [{ projectId: "bench", path: "/bench/fanout-source", streamId: "str_0123456789abcdef0123456789",
  streamCreatedAt: "2026-12-04T20:00:00.000Z", offset: 12345, type: "data", createdAt: "2026-12-04T20:00:00.000Z",
  subscriptionKey: "copy-0", cursorChangedAtSourceOffset: 1 }] });
const hex = (n, width) => n.toString(16).padStart(width, "0");
export class Costs {
  constructor(ctx) {
    this.ctx = ctx;
    this.sql = ctx.storage.sql;
    this.sql.exec(JOURNAL);
    this.sql.exec(EVENTS);
    this.sql.exec("CREATE UNIQUE INDEX IF NOT EXISTS events_key ON events (idempotency_key) WHERE idempotency_key IS NOT NULL");
    this.sql.exec("CREATE TABLE IF NOT EXISTS cursor (k TEXT PRIMARY KEY, c INTEGER)");
    this.sql.exec("INSERT OR IGNORE INTO cursor VALUES (?, 0)", KEY);
    this.sql.exec("CREATE TABLE IF NOT EXISTS small (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, payload TEXT NOT NULL, created_at TEXT NOT NULL, src INTEGER)");
    this.n = 0;
  }
  update() { this.sql.exec("UPDATE cursor SET c = ? WHERE k = ?", this.n, KEY); }
  journal() { this.sql.exec("INSERT INTO journal VALUES (?, ?, 'dlv_0123456789abcdef')", KEY, this.n); }
  prune(count) {
    this.sql.exec("DELETE FROM journal WHERE subscription_key = ? AND event_offset IN (SELECT event_offset FROM journal " +
      "WHERE subscription_key = ? ORDER BY event_offset LIMIT ?)", KEY, KEY, count);
  }
  /** Tributary's prune (src/delivery/journal.rs): an unbounded planner, the deleted offsets returned. */
  pruneReturning(count) {
    [...this.sql.exec("DELETE FROM journal WHERE subscription_key = ? AND event_offset IN (SELECT event_offset FROM journal " +
      "WHERE subscription_key = ? ORDER BY event_offset LIMIT +?) RETURNING event_offset", KEY, KEY, count)];
  }
  /** The oldest row alone, found through its rowid (no ephemeral table for an IN list). */
  pruneOldestRow() {
    [...this.sql.exec("DELETE FROM journal WHERE rowid = (SELECT rowid FROM journal WHERE subscription_key = ? " +
      "ORDER BY event_offset LIMIT 1) RETURNING event_offset", KEY)];
  }
  async fetch(request) {
    const shape = new URL(request.url).searchParams.get("shape");
    if (shape.startsWith("rows:")) return this.rows(shape.slice(5));
    if (shape.startsWith("reads:")) return this.reads(shape.slice(6));
    if (shape.startsWith("pages:")) return this.pages(shape.slice(6));
    for (let i = 0; i < ${COMMITS}; i++) {
      this.n++;
      await scheduler.wait(0);
      if (shape === "no write") continue;
      if (shape === "SELECT, no write") {
        [...this.sql.exec("SELECT c FROM cursor WHERE k = ?", KEY)];
        continue;
      }
      if (shape === "SELECT, UPDATE") [...this.sql.exec("SELECT c FROM cursor WHERE k = ?", KEY)];
      if (shape.startsWith("journal INSERT")) this.journal();
      if (shape === "journal INSERT, DELETE oldest" && this.n > 1024) this.prune(1);
      if (shape === "journal INSERT, DELETE 64 every 64th" && this.n > 1088 && this.n % 64 === 0) this.prune(64);
      if (shape === "journal INSERT, DELETE oldest (IN, RETURNING)" && this.n > 1024) this.pruneReturning(1);
      if (shape === "journal INSERT, DELETE oldest (= rowid)" && this.n > 1024) this.pruneOldestRow();
      this.update();
      if (shape === "UPDATE ×4") for (let more = 0; more < 3; more++) this.update();
    }
    return new Response("ok");
  }
  reads(where) {
    const read = () => [...this.sql.exec("SELECT c FROM cursor WHERE k = ?", KEY)];
    for (let batch = 0; batch < ${BATCHES}; batch++) {
      if (where === "inside") this.ctx.storage.transactionSync(() => { for (let i = 0; i < 1000; i++) read(); });
      else for (let i = 0; i < 1000; i++) read();
    }
    return new Response("ok");
  }
  pages(kind) {
    const [date, sorted] = PAGE_SHAPES[kind];
    const sql = "SELECT CAST(group_concat(event, ','" + (sorted ? " ORDER BY event_offset" : "") + ") AS BLOB) AS page, COUNT(*) AS n FROM " +
      "(SELECT event_offset, " + EVENT_JSON.replace("DATE", CREATED_AT[date]) + " AS event FROM events WHERE event_offset > ? AND event_offset <= ? ORDER BY event_offset)";
    let rows = 0;
    for (let pass = 0; pass < ${PAGE_PASSES}; pass++) {
      for (let page = 0; page < ${BATCHES}; page++) rows += this.sql.exec(sql, page * 1000, (page + 1) * 1000).one().n;
    }
    if (rows !== ${PAGE_PASSES * BATCHES} * 1000) throw new Error("pages: " + rows + " rows, not " + ${PAGE_PASSES * BATCHES} * 1000);
    return new Response("ok");
  }
  rows(kind) {
    for (let batch = 0; batch < ${BATCHES}; batch++) {
      this.ctx.storage.transactionSync(() => {
        for (let i = 0; i < 1000; i++) {
          this.n++;
          if (kind === "small") {
            this.sql.exec("INSERT INTO small VALUES (?, ?, ?, ?, ?)", this.n, "data", PAYLOAD, "2026-12-04T20:00:00.000Z", this.n);
            continue;
          }
          const key = kind === "no key" ? null
            : kind === "random key" ? "copy:" + hex(Math.floor(Math.random() * 2 ** 32), 8) + hex(this.n, 56)
            : "copy:" + hex(Math.floor(this.n / 20000) * 2654435761 % 2 ** 32, 32) + hex(this.n, 16);
          this.sql.exec("INSERT INTO events VALUES (?, ?, ?, '{}', ?, 0, 1796416973000, ?)", this.n, "data", PAYLOAD, key, SOURCE);
        }
      });
    }
    return new Response("ok");
  }
}
// (d)'s pages read the events (b)'s "no key" rows wrote, in that object.
const objectOf = (shape) => (shape.startsWith("pages:") ? "rows:no key" : shape);
export default { fetch(request, env) { return env.COSTS.get(env.COSTS.idFromName(objectOf(new URL(request.url).searchParams.get("shape")))).fetch(request); } };
`;

const commitShapes = [
  "no write",
  "SELECT, no write",
  "UPDATE",
  "UPDATE ×4",
  "SELECT, UPDATE",
  "journal INSERT, UPDATE",
  "journal INSERT, DELETE oldest",
  "journal INSERT, DELETE 64 every 64th",
  "journal INSERT, DELETE oldest (IN, RETURNING)",
  "journal INSERT, DELETE oldest (= rowid)",
];
const rowShapes = ["small", "no key", "random key", "run-ordered key"];
// (c): 10,000 a request; inside, 1,000 a transaction.
const readShapes = ["outside", "inside"];
// (d): after (b) has filled the events table.
const pageShapes = ["strftime and printf, sorted", "datetime with subsec, sorted", "a mark and its digits, sorted", "a mark and its digits, in scan order"];
const mf = new Miniflare({
  modules: true,
  script,
  compatibilityDate: "2025-01-01",
  durableObjects: { COSTS: { className: "Costs", useSQLite: true } },
});
const totals = new Map();
try {
  for (let round = 0; round < rounds; round++) {
    const shapes = [...commitShapes, ...rowShapes.map((kind) => `rows:${kind}`), ...readShapes.map((where) => `reads:${where}`)];
    // (d)'s shapes in a new order each round, so none is always first.
    const pages = pageShapes.map((_, i) => `pages:${pageShapes[(i + round) % pageShapes.length]}`);
    for (const shape of [...shapes, ...pages]) {
      const started = process.hrtime.bigint();
      const response = await mf.dispatchFetch(`http://costs/?shape=${encodeURIComponent(shape)}`);
      if (response.status !== 200) throw new Error(`${shape}: ${response.status} ${await response.text()}`);
      await response.text();
      const units = shape.startsWith("pages:") ? PAGE_PASSES * BATCHES * 1000 : /^(rows|reads):/.test(shape) ? BATCHES * 1000 : COMMITS;
      const us = Number(process.hrtime.bigint() - started) / 1e3 / units;
      if (round > 0) totals.set(shape, (totals.get(shape) ?? 0) + us / (rounds - 1));
    }
  }
} finally {
  await mf.dispose();
}
const update = totals.get("UPDATE");
console.log(`SQLite write costs in workerd (local), ${rounds - 1} rounds after a warm-up, means:`);
printTable(
  ["(a) each commit", "µs/commit", "÷ one UPDATE"].map((title) => ({ title })),
  commitShapes.map((shape) => [shape, totals.get(shape).toFixed(1), (totals.get(shape) / update).toFixed(2)]),
);
const small = totals.get("rows:small");
printTable(
  ["(b) 1,000 rows a transaction", "µs/row", "÷ small row"].map((title) => ({ title })),
  rowShapes.map((kind) => [kind, totals.get(`rows:${kind}`).toFixed(2), (totals.get(`rows:${kind}`) / small).toFixed(2)]),
);
console.log(`(each table held ${rounds * BATCHES * 1000} rows at the end)`);
const inside = totals.get("reads:inside");
printTable(
  ["(c) one point SELECT", "µs/statement", "÷ inside a transaction"].map((title) => ({ title })),
  readShapes.map((where) => [`${where} a transaction`, totals.get(`reads:${where}`).toFixed(2), (totals.get(`reads:${where}`) / inside).toFixed(2)]),
);
const before = totals.get("pages:strftime and printf, sorted");
printTable(
  ["(d) a catch-up page's rows as JSON, createdAt by", "µs/row", "÷ the first"].map((title) => ({ title })),
  pageShapes.map((kind) => [kind, totals.get(`pages:${kind}`).toFixed(2), (totals.get(`pages:${kind}`) / before).toFixed(2)]),
);
