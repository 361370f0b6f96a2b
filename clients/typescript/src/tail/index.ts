// `tail(path, options)`: a stream's events as an async iterator, live
// (docs/design.md §10). One connection at a time over a WebSocket, SSE, or
// long-polls; when a connection ends for any reason reconnecting may cure,
// the next one resumes after the last offset taken, so the caller sees no
// gap and no duplicate (durable events; an ephemeral event committed while
// no connection was open is not replayed, §3). Retention gaps (§16) are
// never silent: `onTrimmed` hears them, or the iterator throws `trimmed`.
import { TributaryError } from "../errors.js";
import type { Http } from "../http.js";
import type { Event } from "../types.js";
import { Disconnected, type Connection, type ConnectionSpec } from "./items.js";
import { longPollConnection } from "./long_poll.js";
import { sleep } from "./queue.js";
import { sseConnection } from "./sse.js";
import { webSocketConnection } from "./websocket.js";

export type Transport = "websocket" | "sse" | "long-poll";

export interface TailOptions {
  /** Start after this offset; `"earliest"` (the default) from the first retained event; `"now"` after the current head. */
  after?: number | "earliest" | "now";
  /** Only these event types. */
  types?: string[];
  /** Names the connection on the debug card; a new connection with the same key replaces it (§10). */
  connectionKey?: string;
  /**
   * `"auto"` (the default): a WebSocket where the runtime has one, else SSE;
   * after two connections in a row fail to open, long-polls.
   */
  transport?: "auto" | Transport;
  /** Ends the iteration (as `close()` does). */
  signal?: AbortSignal;
  /** Called when retention trimmed events before they were sent; the tail goes on from `firstOffset`. Without it the iterator throws `trimmed`. */
  onTrimmed?: (gap: { afterOffset: number; firstOffset: number }) => void;
  /** Called before each reconnect, with why. */
  onReconnect?: (info: { transport: Transport; attempt: number; reason: string }) => void;
  /** How long each long-poll waits (ms, ≤ 30000). */
  longPollWaitMs?: number;
}

export interface Tail extends AsyncIterable<Event> {
  /** Ends the iteration and closes the connection. */
  close(): void;
  /** The last offset taken or scanned past (where a reconnect resumes). */
  readonly position: number | undefined;
  /** The transport in use. */
  readonly transport: Transport;
}

/** How many failed opens in a row make `auto` fall back to long-polls. */
const FALLBACK_AFTER_FAILED_OPENS = 2;
const RECONNECT_MS = 250;
const MAX_BACKOFF_MS = 5_000;

export function tail(http: Http, resolveHead: () => Promise<number>, path: string, options: TailOptions = {}): Tail {
  const controller = new AbortController();
  const close = () => controller.abort();
  options.signal?.addEventListener("abort", close, { once: true });
  if (options.signal?.aborted) close();
  const auto = (options.transport ?? "auto") === "auto";
  const state = {
    position: undefined as number | undefined,
    transport: (auto ? (http.WebSocket ? "websocket" : "sse") : options.transport) as Transport,
  };

  async function* run(): AsyncGenerator<Event, void, undefined> {
    let start: number | "earliest" = options.after === "now" ? await resolveHead() : (options.after ?? "earliest");
    let failedOpens = 0;
    let attempt = 0;
    try {
      while (!controller.signal.aborted) {
        const after = state.position ?? start;
        let reason: string;
        try {
          for await (const item of open(state.transport, after)) {
            failedOpens = 0;
            attempt = 0;
            if (item.kind === "events") {
              for (const event of item.events) {
                if (state.position !== undefined && event.offset <= state.position) continue;
                state.position = event.offset;
                yield event;
                item.taken?.(event);
              }
            } else if (item.kind === "progress") {
              state.position = Math.max(state.position ?? 0, item.through);
            } else {
              trimmed(item.afterOffset, item.firstOffset);
            }
          }
          return;
        } catch (error) {
          if (controller.signal.aborted) return;
          if (error instanceof TributaryError && error.code === "trimmed") {
            const firstOffset = Number(error.details.firstOffset);
            if (!options.onTrimmed || !Number.isSafeInteger(firstOffset)) throw error;
            trimmed(typeof after === "number" ? after : 0, firstOffset);
            start = Math.max(0, firstOffset - 1);
            continue;
          }
          if (!(error instanceof Disconnected)) throw error;
          reason = error.message;
          failedOpens = error.opened ? 0 : failedOpens + 1;
        }
        attempt += 1;
        if (auto && state.transport !== "long-poll" && failedOpens >= FALLBACK_AFTER_FAILED_OPENS) {
          state.transport = "long-poll";
          failedOpens = 0;
        }
        options.onReconnect?.({ transport: state.transport, attempt, reason });
        const backoff = attempt <= 1 ? RECONNECT_MS : Math.min(MAX_BACKOFF_MS, RECONNECT_MS * 2 ** (attempt - 1));
        await sleep(backoff * (0.8 + Math.random() * 0.4), controller.signal);
      }
    } finally {
      options.signal?.removeEventListener("abort", close);
      controller.abort();
    }
  }

  function trimmed(afterOffset: number, firstOffset: number) {
    const gap = { afterOffset, firstOffset };
    if (!options.onTrimmed) {
      throw new TributaryError("trimmed", `retention trimmed events after ${afterOffset} before ${firstOffset} before this tail received them`, gap, 410);
    }
    options.onTrimmed(gap);
    state.position = Math.max(state.position ?? 0, firstOffset - 1);
  }

  function open(transport: Transport, after: number | "earliest"): Connection {
    const query = new URLSearchParams({ after: String(after) });
    if (options.types) query.set("types", options.types.join(","));
    if (options.connectionKey !== undefined) query.set("connectionKey", options.connectionKey);
    const spec: ConnectionSpec = {
      liveUrl: `${http.url("tailStream", { path })}?${query}`,
      path,
      after,
      types: options.types,
      signal: controller.signal,
    };
    if (transport === "websocket") return webSocketConnection(http, spec);
    if (transport === "sse") return sseConnection(http, spec);
    return longPollConnection(http, spec, options.longPollWaitMs);
  }

  const iterator = run();
  return {
    [Symbol.asyncIterator]: () => iterator,
    close,
    get position() {
      return state.position;
    },
    get transport() {
      return state.transport;
    },
  };
}
