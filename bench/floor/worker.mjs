// The platform's floor (issue 33): bare JavaScript Durable Objects doing only
// the I/O each delivery path needs, run in the same workerd as Tributary in
// the same bench run (tests/e2e/harness.mjs `floor: true` adds this worker,
// routed at `/floor/*` on Tributary's own socket, so a request takes the
// same hops: Miniflare's entry worker, this worker, one Durable Object; the
// benches start Tributary without the console's assets, whose router worker
// Miniflare would put in front of every Tributary request only).
// Bench-only: never shipped, no auth, no validation beyond what the benches
// check from outside.
//
// Routes (every body JSON):
//   POST /floor/insert/{name}            one INSERT of the body (the twin of the Rust
//                                        BenchBaseline): {"rowsWritten":1}
//   GET  /floor/insert/{name}            {"rows": n}: what the bench checks it inserted
//   POST /floor/append/{path...}         one event, with the work §2, §3 and §17 ask of a single
//                                        append (./append_contract.mjs) → 201 {event, deduplicated}
//   GET  /floor/append/{path...}         {head, rows} (the same token)
//   POST /floor/stream/{name}/events     {type, payload} or {events: [...]}: one transaction;
//                                        one frame to every WebSocket; the alarm armed when
//                                        the stream has subscriptions → 201 {event} | {events}
//   GET  /floor/stream/{name}/events?after=&limit=   one page (≤ 1000 rows) as JSON {events, head}
//   GET  /floor/stream/{name}/live?after=            hibernatable WebSocket (ctx.acceptWebSocket):
//                                        events after `after` at once, then one frame per commit
//   POST /floor/stream/{name}/subscribe  {key, webhook: url, connections?} | {key, copyTo: name, contract?: sourcePath}
//   GET  /floor/stream/{name}/subscriptions          [{key, cursor, head}]
//   GET  /floor/stream/{name}/copies[?check=1]       the contract copies received: {head} (from memory), or
//                                        with check {head, rows, inOrder, latestAtMs, latencies}
//   POST /floor/stream/{name}/retain     {maxEvents}: §16's trimming from now on (bench/retention.mjs)
//   GET  /floor/stream/{name}/retention  {head, rows, trimmedThrough, trimmedEvents, bytesTrimmed}
//
// Subscriptions deliver from the object's alarm, as the platform asks of
// background work, at most 900 subrequests per alarm (the platform allows
// 1000 per invocation), re-armed while any lags:
//   webhook: one POST per event, each key in order (one in flight per key),
//            at most 6 in flight across keys (the platform's simultaneous
//            connections per invocation; `connections` raises it, to show what
//            local workerd, which does not enforce it, allows); the cursor
//            written after each answer;
//   copyTo:  up to 1000 events per fetch to the receiving stream's object,
//            which inserts them in one transaction; every receiver at once;
//            the cursor written after each answer (bench/peers' copy
//            fan-out, and bench/fanin.mjs: many sources into one stream).
//   webhook with `contract` (the floor of a webhook with the I/O §6, §9 and
//            §13 ask of each delivery, no more): the send's in-flight deadline
//            written first, and a timer over the whole exchange (§6 rule 10);
//            the body in §9's shape (the source's coordinates, the delivery
//            id, the event), signed per Standard Webhooks with the
//            subscription's secret (returned by subscribe); after a 2xx,
//            in one transaction, the journal row (offset, delivery id), the
//            journal pruned to 1024 rows, the cursor moved and the deadline
//            cleared.
//   copyTo with `contract` (the floor of copy fan-out with the I/O §6 and
//            §7 ask of a copy batch, no more): the batch's in-flight deadline
//            written first and a timer over the exchange, as any delivery;
//            each copy carries its provenance hop and its run's idempotency
//            key, as Tributary writes them; the receiving object, in one
//            transaction, checks the batch's stamp
//            against its fence row, inserts each copy as Tributary's
//            `events` row (its key under a unique index: a redelivered copy
//            inserts nothing) and writes the fence row once. Its tables are
//            made on first use, so the plain floor's objects never pay for them.
//
// Retention (bench/retention.mjs): FloorRetention in ./retention.mjs.

import { contractAppend } from "./append_contract.mjs";
import { FloorRetention } from "./retention.mjs";

export { FloorAppend } from "./append_contract.mjs";

/** Events per copy batch and per catch-up page. */
const PAGE = 1000;
/** A contract copy's lifetime and generation (§7): one run for the whole bench. */
const CONTRACT_CREATED_AT = "2026-01-01T00:00:00.000Z";
const CONTRACT_GENERATION = 0;
/** A contract webhook's send deadline (§6 in flight) and journal depth (§12, §13). */
const CONTRACT_SEND_TIMEOUT_MS = 30_000;
const CONTRACT_JOURNAL_DEPTH = 1024;
/** Subrequests one alarm may make (the platform allows 1000 per invocation). */
const ALARM_SUBREQUESTS = 900;
/** Simultaneous outgoing connections per invocation on the platform. */
const CONNECTIONS = 6;

const json = (body, status = 200) => new Response(body, { status, headers: { "content-type": "application/json" } });

/** One event as the readers see it; `payload` is stored JSON text. */
const eventJson = (row) =>
  `{"offset":${row.seq},"type":${JSON.stringify(row.type)},"createdAt":"${row.created_at}",` +
  `${row.src === null ? "" : `"copiedFrom":${row.src},`}"payload":${row.payload}}`;

/** A counting gate: at most `n` holders at once. */
function gate(n) {
  let free = n;
  const waiting = [];
  return {
    async acquire() {
      if (free > 0) {
        free--;
        return;
      }
      await new Promise((resolve) => waiting.push(resolve));
    },
    release() {
      const next = waiting.shift();
      if (next) next();
      else free++;
    },
  };
}

/** The JS twin of durable-objects/src/bench_baseline.rs: one INSERT per request. */
export class FloorInsert {
  constructor(ctx) {
    this.sql = ctx.storage.sql;
    this.sql.exec("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  }

  async fetch(request) {
    if (request.method === "GET") return new Response(`{"rows":${this.sql.exec("SELECT count(*) AS n FROM t").one().n}}`);
    const body = await request.text();
    const cursor = this.sql.exec("INSERT INTO t (body) VALUES (?)", body);
    return new Response(`{"rowsWritten":${cursor.rowsWritten}}`);
  }
}

/** One stream: an append-only table, live sockets, subscriptions. */
export class FloorStream {
  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
    this.sql = ctx.storage.sql;
    this.sql.exec(
      "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, payload TEXT NOT NULL, created_at TEXT NOT NULL, src INTEGER)",
    );
    this.sql.exec(
      "CREATE TABLE IF NOT EXISTS subs (key TEXT PRIMARY KEY, webhook TEXT, copy_to TEXT, connections INTEGER NOT NULL, cursor INTEGER NOT NULL, " +
        "contract_path TEXT, contract_run TEXT, in_flight_deadline_at_ms INTEGER)",
    );
    this.head = this.sql.exec("SELECT coalesce(max(seq), 0) AS head FROM events").one().head;
    this.subs = this.sql.exec(SELECT_SUBS).toArray();
    this.alarmArmed = false;
    /** The contract copies' head, once their tables exist (`contractTables`). */
    this.copyHead = null;
    /** Each contract webhook's signing key, imported once: key → CryptoKey. */
    this.signingKeys = new Map();
    /** Trimming by `maxEvents`, once `retain` configured it (bench/retention.mjs). */
    this.retention = new FloorRetention(ctx);
  }

  /** The contract paths' tables, made on first use: a copy's `events` row and fence row (§7), a webhook's journal (§13). */
  contractTables() {
    if (this.copyHead !== null) return;
    this.sql.exec(
      "CREATE TABLE IF NOT EXISTS copies (event_offset INTEGER PRIMARY KEY, type TEXT NOT NULL, payload TEXT NOT NULL, metadata TEXT NOT NULL, " +
        "idempotency_key TEXT, ephemeral INTEGER NOT NULL, created_at_ms INTEGER NOT NULL, source TEXT, body BLOB)",
    );
    this.sql.exec("CREATE UNIQUE INDEX IF NOT EXISTS copies_by_idempotency_key ON copies (idempotency_key)");
    this.sql.exec(
      "CREATE TABLE IF NOT EXISTS fences (source_path TEXT NOT NULL, subscription_key TEXT NOT NULL, stream_id TEXT NOT NULL, " +
        "stream_created_at TEXT NOT NULL, generation INTEGER NOT NULL, received INTEGER NOT NULL, last_received_at_ms INTEGER NOT NULL, " +
        "PRIMARY KEY (source_path, subscription_key)) WITHOUT ROWID",
    );
    this.sql.exec(
      "CREATE TABLE IF NOT EXISTS journal (subscription_key TEXT NOT NULL, event_offset INTEGER NOT NULL, delivery_id TEXT NOT NULL, " +
        "PRIMARY KEY (subscription_key, event_offset)) WITHOUT ROWID",
    );
    this.copyHead = this.sql.exec("SELECT coalesce(max(event_offset), 0) AS head FROM copies").one().head;
  }

  async fetch(request) {
    const url = new URL(request.url);
    const action = url.pathname.split("/").pop();
    if (action === "events" && request.method === "POST") return this.append(await request.json());
    if (action === "events") return this.read(Number(url.searchParams.get("after") ?? 0), Number(url.searchParams.get("limit") ?? PAGE));
    if (action === "live") return this.live(request, Number(url.searchParams.get("after") ?? this.head));
    if (action === "subscribe") return this.subscribe(await request.json());
    if (action === "subscriptions") return json(JSON.stringify(this.subs.map((s) => ({ key: s.key, cursor: s.cursor, head: this.head }))));
    if (action === "ingest") return this.ingest(await request.json());
    if (action === "ingest-contract") return this.ingestContract(await request.json());
    if (action === "copies") return this.copies(url.searchParams.has("check"));
    if (action === "retain") return this.retain(await request.json());
    if (action === "retention") return json(JSON.stringify(this.retention.info(this.head)));
    return json('{"error":"no such floor route"}', 404);
  }

  /** Inserts `events` ({type, payload, src?}) in one transaction; returns their rows. */
  insert(events) {
    const createdAt = new Date().toISOString();
    const rows = [];
    this.ctx.storage.transactionSync(() => {
      for (const e of events) {
        const row = { seq: this.head + 1, type: e.type, payload: JSON.stringify(e.payload), created_at: createdAt, src: e.src ?? null };
        this.sql.exec("INSERT INTO events (seq, type, payload, created_at, src) VALUES (?, ?, ?, ?, ?)", row.seq, row.type, row.payload, row.created_at, row.src);
        this.head = row.seq;
        rows.push(row);
      }
    });
    return rows;
  }

  append(body) {
    const single = !Array.isArray(body.events);
    const rows = this.insert(single ? [body] : body.events);
    const sockets = this.ctx.getWebSockets();
    if (sockets.length) {
      const frame = `{"type":"events","events":[${rows.map(eventJson).join(",")}]}`;
      for (const ws of sockets) {
        try {
          ws.send(frame);
        } catch {}
      }
    }
    if (this.subs.length && !this.alarmArmed) {
      this.alarmArmed = true;
      this.ctx.storage.setAlarm(Date.now());
    }
    this.armTrim();
    const acked = rows.map((r) => `{"offset":${r.seq},"createdAt":"${r.created_at}"}`);
    return json(single ? `{"event":${acked[0]}}` : `{"events":[${acked.join(",")}]}`, 201);
  }

  /** A copy batch from another floor stream: one transaction. */
  ingest(events) {
    const rows = this.insert(events);
    return json(`{"inserted":${rows.length}}`);
  }

  /** A contract copy batch ({stamp, events}): fence, rows, fence row, in one transaction; 409 when stale. */
  ingestContract({ stamp, events }) {
    this.contractTables();
    const head = this.copyHead;
    const now = Date.now();
    let inserted = 0;
    let stale = false;
    try {
      this.ctx.storage.transactionSync(() => {
        const fence = this.sql
          .exec("SELECT stream_created_at, generation FROM fences WHERE source_path = ? AND subscription_key = ?", stamp.sourcePath, stamp.subscriptionKey)
          .toArray()[0];
        const older =
          fence &&
          (Date.parse(stamp.streamCreatedAt) < Date.parse(fence.stream_created_at) ||
            (stamp.streamCreatedAt === fence.stream_created_at && stamp.cursorChangedAtSourceOffset < fence.generation));
        if (older) {
          stale = true;
          throw new Error("stale stamp");
        }
        for (const e of events) {
          const cursor = this.sql.exec(
            "INSERT INTO copies (event_offset, type, payload, metadata, idempotency_key, ephemeral, created_at_ms, source, body) " +
              "VALUES (?, ?, ?, ?, ?, 0, ?, ?, NULL) ON CONFLICT (idempotency_key) DO NOTHING",
            this.copyHead + 1,
            e.type,
            JSON.stringify(e.payload),
            JSON.stringify(e.metadata),
            e.idempotencyKey,
            now,
            JSON.stringify(e.source),
          );
          if (cursor.rowsWritten) {
            this.copyHead++;
            inserted++;
          }
        }
        this.sql.exec(
          "INSERT INTO fences (source_path, subscription_key, stream_id, stream_created_at, generation, received, last_received_at_ms) " +
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (source_path, subscription_key) DO UPDATE SET stream_id = excluded.stream_id, " +
            "stream_created_at = excluded.stream_created_at, generation = excluded.generation, received = received + excluded.received, " +
            "last_received_at_ms = excluded.last_received_at_ms",
          stamp.sourcePath,
          stamp.subscriptionKey,
          stamp.streamId,
          stamp.streamCreatedAt,
          stamp.cursorChangedAtSourceOffset,
          inserted,
          now,
        );
      });
    } catch (error) {
      this.copyHead = head;
      if (stale) return json('{"error":"stale_stamp"}', 409);
      throw error;
    }
    return json(`{"inserted":${inserted},"duplicates":${events.length - inserted}}`);
  }

  /** The contract copies' head; with `check`, what the bench verifies from outside. */
  copies(check) {
    this.contractTables();
    if (!check) return json(`{"head":${this.copyHead}}`);
    const summary = this.sql
      .exec(
        "SELECT count(*) AS rows, coalesce(sum(json_extract(source, '$.copiedFrom[0].offset') = event_offset), 0) AS in_order, " +
          "coalesce(max(created_at_ms), 0) AS latest FROM copies",
      )
      .one();
    const latencies = this.sql
      .exec("SELECT created_at_ms - json_extract(payload, '$.sentAt') AS ms FROM copies ORDER BY event_offset")
      .toArray()
      .map((row) => row.ms);
    return json(JSON.stringify({ head: this.copyHead, rows: summary.rows, inOrder: summary.in_order, latestAtMs: summary.latest, latencies }));
  }

  page(after, limit) {
    return this.sql.exec("SELECT seq, type, payload, created_at, src FROM events WHERE seq > ? ORDER BY seq LIMIT +?", after, limit).toArray();
  }

  read(after, limit) {
    const rows = this.page(after, Math.min(Math.max(1, limit), PAGE));
    return json(`{"events":[${rows.map(eventJson).join(",")}],"head":${this.head}}`);
  }

  live(request, after) {
    if (request.headers.get("upgrade") !== "websocket") return json('{"error":"expected a WebSocket upgrade"}', 426);
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    const rows = this.page(after, PAGE);
    if (rows.length) pair[1].send(`{"type":"events","events":[${rows.map(eventJson).join(",")}]}`);
    const protocol = request.headers.get("sec-websocket-protocol")?.split(",")[0]?.trim();
    return new Response(null, { status: 101, webSocket: pair[0], headers: protocol ? { "sec-websocket-protocol": protocol } : {} });
  }

  // Readers' acknowledgements: nothing to do (the floor keeps no reader state).
  webSocketMessage() {}
  webSocketClose(ws, code) {
    try {
      ws.close(code === 1005 ? 1000 : code, "closed");
    } catch {}
  }

  subscribe({ key, webhook = null, copyTo = null, connections = CONNECTIONS, contract = null }) {
    // A contract run's key prefix: 32 hex digits, as Tributary's ordered copy keys carry their run's hash.
    const run = contract === null ? null : crypto.randomUUID().replaceAll("-", "");
    this.sql.exec(
      "INSERT OR REPLACE INTO subs (key, webhook, copy_to, connections, cursor, contract_path, contract_run) VALUES (?, ?, ?, ?, ?, ?, ?)",
      key,
      webhook,
      copyTo,
      connections,
      this.head,
      contract,
      run,
    );
    this.subs = this.sql.exec(SELECT_SUBS).toArray();
    if (run !== null) this.contractTables();
    const secret = run === null ? "" : `,"secret":"whsec_${btoa(run)}"`;
    return json(`{"key":${JSON.stringify(key)},"cursor":${this.head}${secret}}`, 201);
  }

  setCursor(sub, cursor) {
    sub.cursor = cursor;
    this.sql.exec("UPDATE subs SET cursor = ? WHERE key = ?", cursor, sub.key);
  }

  async alarm() {
    this.alarmArmed = false;
    this.retention.run(this.head);
    const budget = { left: ALARM_SUBREQUESTS };
    const connections = gate(Math.max(1, ...this.subs.map((s) => s.connections)));
    await Promise.all(this.subs.map((sub) => (sub.webhook ? this.deliverWebhook(sub, budget, connections) : this.deliverCopy(sub, budget))));
    if (!this.alarmArmed && this.subs.some((s) => s.cursor < this.head)) {
      this.alarmArmed = true;
      await this.ctx.storage.setAlarm(Date.now());
    }
    this.armTrim();
  }

  retain({ maxEvents }) {
    this.retention.configure(maxEvents);
    return json(`{"maxEvents":${maxEvents}}`, 201);
  }

  armTrim() {
    if (this.alarmArmed) return;
    const at = this.retention.dueAt(this.head);
    if (at === null) return;
    this.alarmArmed = true;
    this.ctx.storage.setAlarm(at);
  }

  /** One POST per event, in order; `connections` bounds what is in flight across keys. */
  async deliverWebhook(sub, budget, connections) {
    while (budget.left > 0 && sub.cursor < this.head) {
      const rows = this.page(sub.cursor, Math.min(100, budget.left));
      if (rows.length === 0) return;
      for (const row of rows) {
        if (budget.left <= 0) return;
        budget.left--;
        await connections.acquire();
        const contract = sub.contract_path === null ? null : await this.contractSend(sub, row);
        // A contract send has a deadline over the whole exchange (§6 rule 10).
        const controller = contract ? new AbortController() : null;
        const timer = contract ? setTimeout(() => controller.abort(), CONTRACT_SEND_TIMEOUT_MS) : null;
        let status;
        try {
          const response = await fetch(sub.webhook, {
            method: "POST",
            headers: contract?.headers ?? { "content-type": "application/json" },
            body: contract?.body ?? `{"key":${JSON.stringify(sub.key)},"event":${eventJson(row)}}`,
            ...(controller ? { signal: controller.signal } : {}),
          });
          await response.arrayBuffer();
          status = response.status;
        } catch {
          status = 0;
        } finally {
          if (timer !== null) clearTimeout(timer);
          connections.release();
        }
        if (status < 200 || status > 299) return; // retried by the next alarm
        if (contract) this.contractDelivered(sub, row.seq, contract.id);
        else this.setCursor(sub, row.seq);
      }
    }
  }

  /** A contract webhook's send of `row`: its in-flight deadline written, its §9 body and its Standard Webhooks headers. */
  async contractSend(sub, row) {
    this.sql.exec("UPDATE subs SET in_flight_deadline_at_ms = ? WHERE key = ?", Date.now() + CONTRACT_SEND_TIMEOUT_MS, sub.key);
    let key = this.signingKeys.get(sub.key);
    if (!key) {
      key = await crypto.subtle.importKey("raw", new TextEncoder().encode(sub.contract_run), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
      this.signingKeys.set(sub.key, key);
    }
    const id = `dlv_${sub.contract_run}${row.seq.toString(16).padStart(16, "0")}`.slice(0, 36);
    const body =
      `{"type":"event","projectId":"floor","path":${JSON.stringify(sub.contract_path)},"streamId":"${this.ctx.id.toString()}",` +
      `"streamCreatedAt":"${CONTRACT_CREATED_AT}","subscriptionKey":${JSON.stringify(sub.key)},"cursorChangedAtSourceOffset":${CONTRACT_GENERATION},` +
      `"deliveryId":"${id}","attempt":1,"event":${eventJson(row)}}`;
    const timestamp = Math.floor(Date.now() / 1000);
    const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}.${timestamp}.${body}`));
    const signature = btoa(String.fromCharCode(...new Uint8Array(mac)));
    const headers = { "content-type": "application/json", "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": `v1,${signature}` };
    return { id, body, headers };
  }

  /** A contract webhook's delivery of `offset` completed: journal row, prune, cursor, deadline cleared, one transaction. */
  contractDelivered(sub, offset, id) {
    this.ctx.storage.transactionSync(() => {
      this.sql.exec("INSERT OR REPLACE INTO journal (subscription_key, event_offset, delivery_id) VALUES (?, ?, ?)", sub.key, offset, id);
      if (offset > CONTRACT_JOURNAL_DEPTH) this.sql.exec("DELETE FROM journal WHERE subscription_key = ? AND event_offset <= ?", sub.key, offset - CONTRACT_JOURNAL_DEPTH);
      this.sql.exec("UPDATE subs SET cursor = ?, in_flight_deadline_at_ms = NULL WHERE key = ?", offset, sub.key);
    });
    sub.cursor = offset;
  }

  /** A contract copy batch: the run's stamp, each copy with its provenance hop and key, as Tributary's source writes them (§7). */
  contractCopies(sub, rows) {
    const stamp = {
      sourceProjectId: "floor",
      sourcePath: sub.contract_path,
      subscriptionKey: sub.key,
      streamId: this.ctx.id.toString(),
      streamCreatedAt: CONTRACT_CREATED_AT,
      cursorChangedAtSourceOffset: CONTRACT_GENERATION,
    };
    const hopStart = `{"projectId":"floor","path":${JSON.stringify(stamp.sourcePath)},"streamId":"${stamp.streamId}","streamCreatedAt":"${CONTRACT_CREATED_AT}","offset":`;
    const hopEnd = `,"subscriptionKey":${JSON.stringify(sub.key)},"cursorChangedAtSourceOffset":${CONTRACT_GENERATION}}`;
    const events = rows.map(
      (r) =>
        `{"type":${JSON.stringify(r.type)},"payload":${r.payload},"metadata":{},` +
        `"source":{"copiedFrom":[${hopStart}${r.seq},"type":${JSON.stringify(r.type)},"createdAt":"${r.created_at}"${hopEnd}]},` +
        `"idempotencyKey":"copy:${sub.contract_run}${r.seq.toString(16).padStart(16, "0")}"}`,
    );
    return `{"stamp":${JSON.stringify(stamp)},"events":[${events.join(",")}]}`;
  }

  /** Batches of up to 1000 events to the receiving stream, one at a time. */
  async deliverCopy(sub, budget) {
    const stub = this.env.FLOOR_STREAM.get(this.env.FLOOR_STREAM.idFromName(sub.copy_to));
    while (budget.left > 0 && sub.cursor < this.head) {
      const rows = this.page(sub.cursor, PAGE);
      if (rows.length === 0) return;
      budget.left--;
      if (sub.contract_path === null) {
        const response = await stub.fetch("https://floor/ingest", { method: "POST", body: plainCopies(rows) });
        await response.arrayBuffer();
        if (response.status !== 200) return;
        this.setCursor(sub, rows[rows.length - 1].seq);
        continue;
      }
      // A contract batch, as any delivery (§6 rules 6 and 10): its in-flight
      // deadline written first, a timer over the exchange, the deadline
      // cleared with the cursor.
      this.sql.exec("UPDATE subs SET in_flight_deadline_at_ms = ? WHERE key = ?", Date.now() + CONTRACT_SEND_TIMEOUT_MS, sub.key);
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), CONTRACT_SEND_TIMEOUT_MS);
      let status;
      try {
        const response = await stub.fetch("https://floor/ingest-contract", { method: "POST", body: this.contractCopies(sub, rows), signal: controller.signal });
        await response.arrayBuffer();
        status = response.status;
      } catch {
        status = 0;
      } finally {
        clearTimeout(timer);
      }
      if (status !== 200) return;
      const through = rows[rows.length - 1].seq;
      this.sql.exec("UPDATE subs SET cursor = ?, in_flight_deadline_at_ms = NULL WHERE key = ?", through, sub.key);
      sub.cursor = through;
    }
  }
}

const SELECT_SUBS = "SELECT key, webhook, copy_to, connections, cursor, contract_path, contract_run FROM subs";

/** The plain floor's copy batch: type, source offset, payload. */
const plainCopies = (rows) => `[${rows.map((r) => `{"type":${JSON.stringify(r.type)},"src":${r.seq},"payload":${r.payload}}`).join(",")}]`;


export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const parts = url.pathname.split("/"); // ["", "floor", kind, name, action?]
    if (parts[1] !== "floor" || !parts[3]) return json('{"error":"no such floor route"}', 404);
    const name = decodeURIComponent(parts[3]);
    if (parts[2] === "insert") return env.FLOOR_INSERT.get(env.FLOOR_INSERT.idFromName(name)).fetch(request);
    if (parts[2] === "stream") return env.FLOOR_STREAM.get(env.FLOOR_STREAM.idFromName(name)).fetch(request);
    if (parts[2] === "js-entry") return jsEntry(request, env, parts, name);
    if (parts[2] === "append") return contractAppend(request, env, `/${parts.slice(3).map(decodeURIComponent).join("/")}`);
    return json('{"error":"no such floor route"}', 404);
  },
};

/**
 * Tributary's own objects behind a JS entry (bench/hops.mjs): what a request
 * costs without the Rust entry worker in front. Bound only when the harness
 * runs with `bench` (Tributary's BENCH_BASELINE exists then).
 *   POST /floor/js-entry/baseline/{name}              → Tributary's BenchBaseline `name`, the request as it came
 *   POST /floor/js-entry/append/{segment}/{...}       → the stream object of project-a's `/{segment}/...`,
 *                                                       the body unread, as the Rust entry forwards an append
 *   POST /floor/js-entry/append-read/{segment}/{...}  → the same, the body read first and forwarded as bytes
 *                                                       (as the Rust entry does, to check it)
 */
async function jsEntry(request, env, parts, name) {
  if (!env.TRIBUTARY_BASELINE || !env.TRIBUTARY_STREAM) return json('{"error":"no js-entry bindings"}', 404);
  if (!parts[4]) return json('{"error":"no such floor route"}', 404);
  if (name === "baseline") return env.TRIBUTARY_BASELINE.get(env.TRIBUTARY_BASELINE.idFromName(parts[4])).fetch(request);
  if (name !== "append" && name !== "append-read") return json('{"error":"no such floor route"}', 404);
  const path = `/${parts.slice(4).map(decodeURIComponent).join("/")}`;
  const body = name === "append-read" ? new Uint8Array(await request.arrayBuffer()) : request.body;
  const stub = env.TRIBUTARY_STREAM.get(env.TRIBUTARY_STREAM.idFromName(JSON.stringify(["project-a", path])));
  return stub.fetch(`https://stream.internal/v1/streams${path}/-/events`, {
    method: "POST",
    headers: { "x-tributary-project": "project-a" },
    body,
  });
}
