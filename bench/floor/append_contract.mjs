// The floor of a single append with the work docs/design.md §2, §3 and §17
// ask of it, no more (issue 33; bench/append.mjs, bench/hops.mjs): what a
// bare JavaScript Worker and Durable Object pay to do what Tributary's
// append does, beside the plain floor (FloorInsert: the body inserted as
// it came, no token, no checks, a two-field answer).
//
//   the entry (contractAppend): the bearer token looked up in API_TOKENS,
//     parsed once per isolate (§2; 401 without a known one); the body read
//     under the append cap (§12: 413) and forwarded as bytes, with the
//     project, to the stream's object, named by project and path together;
//   the object (FloorAppend): the body's nesting measured before it is
//     parsed (§3 "Decided here": 413 past 64 levels), parsed, each field
//     checked (§3 rules 1, 2 and 7: the type's bytes and characters, no
//     unknown field, metadata an object, no `source`, no control type, the
//     event's 256 KiB), the offset and `createdAt` assigned, one INSERT in
//     Tributary's `events` shape (its two partial indexes included; an
//     idempotency key looked up first only when there is one, §3 rule 4),
//     and the answer `201 {event, deduplicated}` with the event whole and
//     §17's security headers.
//
// Single events only (the benches' shape); a batch is refused.
// Bench-only: never shipped.

/** §12's caps, as src/limits.rs sets them. */
const MAX_APPEND_BODY_BYTES = 2 * 1024 * 1024;
const MAX_EVENT_BYTES = 256 * 1024;
const MAX_EVENT_DEPTH = 64;
const MAX_TYPE_BYTES = 256;
const MAX_KEY_BYTES = 256;
/** §4: the control types' namespace (src/event.rs CONTROL_PREFIX). */
const CONTROL_PREFIX = "events.iterate.com/";
const FIELDS = new Set(["type", "payload", "metadata", "idempotencyKey", "ephemeral"]);
const ANSWER_HEADERS = {
  "content-type": "application/json",
  "x-content-type-options": "nosniff",
  "cross-origin-resource-policy": "cross-origin",
};
const encoder = new TextEncoder();

const error = (status, code, message) =>
  new Response(JSON.stringify({ error: { code, message } }), { status, headers: ANSWER_HEADERS });

/** API_TOKENS (a token → a project id, or {project, scopes}), parsed once per isolate. */
let tokens = null;
function projectOf(request, env) {
  if (tokens === null) {
    tokens = new Map(Object.entries(JSON.parse(env.API_TOKENS ?? "{}")).map(([token, grant]) => [token, typeof grant === "string" ? grant : grant.project]));
  }
  const presented = request.headers.get("authorization")?.match(/^Bearer (.+)$/)?.[1];
  return presented === undefined ? undefined : tokens.get(presented);
}

/** `POST /floor/append/{path...}`: the entry's part (`GET`: what the bench checks the stream holds). */
export async function contractAppend(request, env, path) {
  const project = projectOf(request, env);
  if (project === undefined) return error(401, "unauthorized", "missing or unknown bearer token");
  const stub = env.FLOOR_APPEND.get(env.FLOOR_APPEND.idFromName(JSON.stringify([project, path])));
  if (request.method === "GET") return stub.fetch("https://stream.internal/append");
  if (request.method !== "POST") return error(405, "method_not_allowed", "POST an event");
  if (Number(request.headers.get("content-length") ?? 0) > MAX_APPEND_BODY_BYTES) return error(413, "payload_too_large", "the body passes the append cap");
  const body = new Uint8Array(await request.arrayBuffer());
  if (body.length > MAX_APPEND_BODY_BYTES) return error(413, "payload_too_large", "the body passes the append cap");
  return stub.fetch("https://stream.internal/append", { method: "POST", headers: { "x-floor-project": project }, body });
}

/** The nesting of a JSON text, read before it is parsed (src/json_limits.rs raw_depth). */
function depthOf(text) {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 92) escaped = true;
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) deepest = Math.max(deepest, ++depth);
    else if (c === 125 || c === 93) depth = Math.max(0, depth - 1);
  }
  return deepest;
}

/** §3's checks of one input event; the refusal, or null. */
function refusal(event) {
  if (event === null || typeof event !== "object" || Array.isArray(event)) return error(400, "invalid_event", "an event is a JSON object");
  if ("events" in event) return error(400, "invalid_event", "the contract floor appends single events");
  if ("source" in event) return error(403, "forbidden", "public callers cannot append an event carrying source");
  for (const field of Object.keys(event)) if (!FIELDS.has(field)) return error(400, "invalid_event", `unknown field '${field}'`);
  const { type, metadata, idempotencyKey, ephemeral } = event;
  if (typeof type !== "string") return error(400, "invalid_event", "'type' must be a string");
  const typeBytes = encoder.encode(type).length;
  if (typeBytes < 1 || typeBytes > MAX_TYPE_BYTES || /[\s\p{Cc}]/u.test(type)) return error(400, "invalid_event", "'type' is 1–256 bytes without whitespace or control characters");
  if (type.startsWith(CONTROL_PREFIX)) return error(400, "invalid_event", "the contract floor appends data events only");
  if (metadata !== undefined && (metadata === null || typeof metadata !== "object" || Array.isArray(metadata))) return error(400, "invalid_event", "'metadata' must be an object");
  if (idempotencyKey !== undefined) {
    const keyBytes = typeof idempotencyKey === "string" ? encoder.encode(idempotencyKey).length : 0;
    if (keyBytes < 1 || keyBytes > MAX_KEY_BYTES) return error(400, "invalid_event", "'idempotencyKey' is 1–256 bytes");
  }
  if (ephemeral !== undefined && typeof ephemeral !== "boolean") return error(400, "invalid_event", "'ephemeral' must be a boolean");
  return null;
}

/** One stream of the contract floor: Tributary's `events` table, the head in memory. */
export class FloorAppend {
  constructor(ctx) {
    this.sql = ctx.storage.sql;
    this.sql.exec(
      "CREATE TABLE IF NOT EXISTS events (event_offset INTEGER PRIMARY KEY, type TEXT NOT NULL, payload TEXT NOT NULL, metadata TEXT NOT NULL, " +
        "idempotency_key TEXT, ephemeral INTEGER NOT NULL, created_at_ms INTEGER NOT NULL, source TEXT)",
    );
    this.sql.exec("CREATE UNIQUE INDEX IF NOT EXISTS events_by_idempotency_key ON events (idempotency_key) WHERE idempotency_key IS NOT NULL");
    this.sql.exec("CREATE INDEX IF NOT EXISTS events_ephemeral ON events (event_offset) WHERE ephemeral = 1");
    this.head = this.sql.exec("SELECT coalesce(max(event_offset), 0) AS head FROM events").one().head;
  }

  async fetch(request) {
    if (request.method === "GET") return new Response(`{"head":${this.head},"rows":${this.sql.exec("SELECT count(*) AS n FROM events").one().n}}`);
    const text = await request.text();
    if (depthOf(text) > MAX_EVENT_DEPTH) return error(413, "payload_too_large", "the event nests deeper than 64 levels");
    let event;
    try {
      event = JSON.parse(text);
    } catch {
      return error(400, "invalid_json", "the body is not JSON");
    }
    const refused = refusal(event);
    if (refused !== null) return refused;
    const payload = JSON.stringify(event.payload ?? {});
    const metadata = JSON.stringify(event.metadata ?? {});
    if (payload.length + metadata.length + event.type.length > MAX_EVENT_BYTES) return error(413, "payload_too_large", "the event passes 256 KiB");
    const key = event.idempotencyKey ?? null;
    if (key !== null) {
      const first = this.sql.exec("SELECT event_offset FROM events WHERE idempotency_key = ?", key).toArray();
      if (first.length) return error(409, "idempotency_key_reused", "the contract floor answers no duplicates");
    }
    const offset = this.head + 1;
    const createdAtMs = Date.now();
    this.sql.exec(
      "INSERT INTO events (event_offset, type, payload, metadata, idempotency_key, ephemeral, created_at_ms, source) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
      offset,
      event.type,
      payload,
      metadata,
      key,
      event.ephemeral ? 1 : 0,
      createdAtMs,
    );
    this.head = offset;
    const keyText = key === null ? "" : `,"idempotencyKey":${JSON.stringify(key)}`;
    const ephemeralText = event.ephemeral ? ',"ephemeral":true' : "";
    return new Response(
      `{"event":{"offset":${offset},"type":${JSON.stringify(event.type)},"payload":${payload},"metadata":${metadata}${keyText}${ephemeralText},` +
        `"createdAt":"${new Date(createdAtMs).toISOString()}"},"deduplicated":false}`,
      { status: 201, headers: ANSWER_HEADERS },
    );
  }
}
