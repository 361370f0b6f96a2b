// A live connection over a hibernatable WebSocket (docs/design.md §10): the
// token goes as the subprotocol `bearer.<token>` beside `tributary.v1`.
// Frames are `{"type":"events","events":[…],"head"}`, `{"type":"ping"}`,
// `{"type":"trimmed",…}` and, before a close with a reason,
// `{"type":"error","code","message"}`. Acknowledgements follow the README's
// rule, counted in what the caller has taken rather than what arrived: once
// the events taken since the last ack reach 64 KiB of frames, ack the last
// offset taken. An ack therefore paces the server to the caller, and a
// caller that stops taking is closed as a slow consumer (then resumed).
import { TributaryError, isRecord } from "../errors.js";
import type { Http } from "../http.js";
import type { Event } from "../types.js";
import { Disconnected, type Connection, type ConnectionSpec, type LiveItem } from "./items.js";
import { Queue } from "./queue.js";
import { endedBy, openFailure } from "./sse.js";

/** What a client may take before it acks (LIVE_ACK_WINDOW_BYTES, src/limits.rs). */
export const ACK_WINDOW_CHARS = 64 * 1024;

const CLOSE_REASONS: Record<number, string> = { 1013: "slow_consumer", 4409: "replaced", 4410: "stream_deleted" };

export async function* webSocketConnection(http: Http, spec: ConnectionSpec): Connection {
  const WebSocketClass = http.WebSocket;
  if (!WebSocketClass) throw new Disconnected("no WebSocket in this runtime", false);
  const url = spec.liveUrl.replace(/^http/, "ws");
  const queue = new Queue<LiveItem>();
  let opened = false;
  let unacknowledged = 0;
  const socket = new WebSocketClass(url, ["tributary.v1", `bearer.${http.token}`]);
  const abort = () => socket.close(1000, "closed by the client");
  spec.signal.addEventListener("abort", abort, { once: true });

  socket.addEventListener("open", () => {
    opened = true;
  });
  socket.addEventListener("message", (message: MessageEvent) => {
    if (typeof message.data !== "string") return;
    const chars = message.data.length;
    let frame: unknown;
    try {
      frame = JSON.parse(message.data);
    } catch {
      queue.close(new TributaryError("unexpected_response", "a WebSocket frame is not JSON", { frame: message.data.slice(0, 200) }));
      return;
    }
    if (!isRecord(frame)) return;
    if (frame.type === "events" && Array.isArray(frame.events) && frame.events.length > 0) {
      const events = frame.events as Event[];
      // Each event taken counts for its share of the frame.
      const share = Math.ceil(chars / events.length);
      queue.push({ kind: "events", events, taken: (event) => acknowledge(event.offset, share) });
    } else if (frame.type === "trimmed" && typeof frame.afterOffset === "number" && typeof frame.firstOffset === "number") {
      queue.push({ kind: "trimmed", afterOffset: frame.afterOffset, firstOffset: frame.firstOffset });
    } else if (frame.type === "error") {
      // The server closes right after this frame; its close code may reach us only when the TCP connection ends.
      queue.close(frame.code === "unauthorized" ? unauthorized() : endedBy(frame));
      socket.close(1000, "closed by the client");
    }
  });
  socket.addEventListener("close", (event: CloseEvent) => {
    if (!opened) {
      queue.close(new Disconnected(`the WebSocket did not open (close ${event.code})`, false));
      return;
    }
    if (event.code === 4401) {
      queue.close(unauthorized());
      return;
    }
    const reason = CLOSE_REASONS[event.code];
    queue.close(reason ? endedBy({ code: reason, message: event.reason || reason }) : new Disconnected(`WebSocket closed ${event.code}`, true));
  });
  socket.addEventListener("error", () => {
    if (!opened) queue.close(new Disconnected("the WebSocket did not open", false));
  });

  function acknowledge(offset: number, chars: number) {
    unacknowledged += chars;
    if (unacknowledged < ACK_WINDOW_CHARS || socket.readyState !== socket.OPEN) return;
    socket.send(JSON.stringify({ type: "ack", offset }));
    unacknowledged = 0;
  }

  try {
    for (;;) {
      let item: LiveItem | undefined;
      try {
        item = await queue.take();
      } catch (error) {
        if (spec.signal.aborted) return;
        // A refused upgrade says nothing about why: the same URL over SSE answers the API's error (401, 409, 410, …).
        if (error instanceof Disconnected && !error.opened) throw await whyNotOpened(http, spec, error);
        throw error;
      }
      if (item === undefined) return;
      yield item;
    }
  } finally {
    spec.signal.removeEventListener("abort", abort);
    if (socket.readyState === socket.CONNECTING || socket.readyState === socket.OPEN) socket.close(1000, "closed by the client");
  }
}

const unauthorized = () => new TributaryError("unauthorized", "the server closed the WebSocket: the token is no longer accepted", {}, 401);

/** Asks the live route over plain HTTP why the upgrade failed; a 200 means the API is fine and WebSockets are not. */
async function whyNotOpened(http: Http, spec: ConnectionSpec, original: Disconnected): Promise<Error> {
  const controller = new AbortController();
  try {
    const response = await http.send(spec.liveUrl, {
      headers: { authorization: `Bearer ${http.token}`, accept: "text/event-stream" },
      signal: controller.signal,
    });
    if (!response.ok) return await openFailure(response);
    return original;
  } catch {
    return original;
  } finally {
    controller.abort();
  }
}
