// Long-polls as a live connection (docs/design.md §10): `GET /-/events?after=N&
// waitMs=W` answers at once when something is after N, else when something
// commits or W passes. Filtering by type happens here, since the range read
// takes no `types`.
//
// Ephemeral events as the other transports deliver them (§10: replay
// excludes them; those appended after the open are delivered). The first
// read answers at once and fixes the head at open; up to it the connection
// reads without ephemeral events and without waiting (the catch-up), past
// it it long-polls with them. A catch-up page that reaches past the head at
// open is cut there: the events after it are read again with the ephemeral
// ones between them.
import { TributaryError } from "../errors.js";
import type { Http, QueryParams, Success } from "../http.js";
import { Disconnected, type Connection, type ConnectionSpec } from "./items.js";
import { sleep } from "./queue.js";

/** How long one poll waits (the route allows up to 30 s). */
export const LONG_POLL_WAIT_MS = 25_000;
/** How long to wait before asking again for a stream that does not exist yet. */
const ABSENT_STREAM_RETRY_MS = 1_000;

type Page = Success<"readEvents">;

export async function* longPollConnection(http: Http, spec: ConnectionSpec, waitMs = LONG_POLL_WAIT_MS): Connection {
  let after = spec.after;
  /** The head when this connection opened (its first answer); unknown before it. */
  let openHead: number | undefined;
  const wanted = spec.types ? new Set(spec.types) : undefined;
  while (!spec.signal.aborted) {
    const live = openHead !== undefined && after !== "earliest" && after >= openHead;
    const query = live ? { after, waitMs, includeEphemeral: true } : { after };
    const page = await read(http, spec, query);
    if (page === undefined) continue; // aborted, or absent (after a pause)
    openHead ??= page.head;
    let { events, nextAfter } = page;
    if (!live) {
      // The catch-up stops at the head at open, never going back.
      events = events.filter((event) => event.offset <= openHead!);
      nextAfter = Math.max(after === "earliest" ? 0 : after, Math.min(nextAfter, openHead));
    }
    const matching = wanted ? events.filter((event) => wanted.has(event.type)) : events;
    if (matching.length > 0) yield { kind: "events", events: matching };
    if (after === "earliest" || nextAfter > after) yield { kind: "progress", through: nextAfter };
    after = nextAfter;
  }
}

/** One range read; `undefined` when aborted, or (after a pause) when the stream does not exist yet. */
async function read(http: Http, spec: ConnectionSpec, query: QueryParams<"readEvents">): Promise<Page | undefined> {
  try {
    return (await http.call("readEvents", { path: { path: spec.path }, query, signal: spec.signal })).body;
  } catch (error) {
    if (!(error instanceof TributaryError)) throw error;
    if (error.code === "aborted") return undefined;
    if (error.code === "stream_not_found") {
      await sleep(ABSENT_STREAM_RETRY_MS, spec.signal);
      return undefined;
    }
    if (error.code === "network_error" || error.status === 429 || error.status >= 500) throw new Disconnected(error.message, false);
    throw error;
  }
}
