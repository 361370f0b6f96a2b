// Long-polls as a live connection (DESIGN.md §10): `GET /-/events?after=N&
// waitMs=W` answers at once when something is after N, else when something
// commits or W passes. Filtering by type happens here, since the range read
// takes no `types`; ephemeral events are included, as a live tail would.
import { TributaryError } from "../errors.js";
import type { Http } from "../http.js";
import { Disconnected, type Connection, type ConnectionSpec } from "./items.js";
import { sleep } from "./queue.js";

/** How long one poll waits (the route allows up to 30 s). */
export const LONG_POLL_WAIT_MS = 25_000;
/** How long to wait before asking again for a stream that does not exist yet. */
const ABSENT_STREAM_RETRY_MS = 1_000;

export async function* longPollConnection(http: Http, spec: ConnectionSpec, waitMs = LONG_POLL_WAIT_MS): Connection {
  let after = spec.after;
  const wanted = spec.types ? new Set(spec.types) : undefined;
  while (!spec.signal.aborted) {
    let page;
    try {
      page = await http.call("readEvents", {
        path: { path: spec.path },
        query: { after, waitMs, includeEphemeral: true },
        signal: spec.signal,
      });
    } catch (error) {
      if (!(error instanceof TributaryError)) throw error;
      if (error.code === "aborted") return;
      if (error.code === "stream_not_found") {
        await sleep(ABSENT_STREAM_RETRY_MS, spec.signal);
        continue;
      }
      if (error.code === "network_error" || error.status === 429 || error.status >= 500) throw new Disconnected(error.message, false);
      throw error;
    }
    const { events, nextAfter } = page.body;
    const matching = wanted ? events.filter((event) => wanted.has(event.type)) : events;
    if (matching.length > 0) yield { kind: "events", events: matching };
    if (after === "earliest" || nextAfter > after) yield { kind: "progress", through: nextAfter };
    after = nextAfter;
  }
}
