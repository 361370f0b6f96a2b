// A live connection over Server-Sent Events (docs/design.md §10), read with
// `fetch` so it can send the bearer header (an `EventSource` cannot). Each
// message is `id: <offset>` / `event: event` / `data: <Event>`; `progress`,
// `trimmed` and a final `error` say where the connection got to and why it
// ended. The server ends a response after 5 minutes or 1 MiB of replay; the
// tail reconnects from the last offset.
import { TributaryError, isRecord } from "../errors.js";
import type { Http } from "../http.js";
import type { Event } from "../types.js";
import { Disconnected, type Connection, type ConnectionSpec } from "./items.js";

/** A message's fields (the spec's `event`, `data`, `id`). */
export interface SseMessage {
  event: string;
  data: string;
  id: string | undefined;
}

/** The largest line the parser buffers: an event is at most 256 KiB of JSON (§12), escaped into one line. */
const MAX_LINE_CHARS = 4 * 1024 * 1024;

/** Splits an SSE byte stream into messages (the WHATWG event-stream rules, without `retry`). */
export class SseParser {
  private buffer = "";
  private event = "";
  private data: string[] = [];
  private id: string | undefined;
  private sawCarriageReturn = false;

  /** Feeds decoded text; returns the messages it completed. */
  feed(text: string): SseMessage[] {
    let chunk = text;
    // A `\r\n` split across chunks: the `\n` was already counted with its `\r`.
    if (this.sawCarriageReturn && chunk.startsWith("\n")) chunk = chunk.slice(1);
    this.sawCarriageReturn = chunk.endsWith("\r");
    this.buffer += chunk;
    const messages: SseMessage[] = [];
    const lines = this.buffer.split(/\r\n|\r|\n/);
    this.buffer = lines.pop() ?? "";
    if (this.buffer.length > MAX_LINE_CHARS) {
      throw new TributaryError("unexpected_response", `an SSE line passed ${MAX_LINE_CHARS} characters`, {});
    }
    for (const line of lines) {
      const message = this.line(line);
      if (message) messages.push(message);
    }
    return messages;
  }

  private line(line: string): SseMessage | undefined {
    if (line === "") {
      const message = this.data.length > 0 ? { event: this.event || "message", data: this.data.join("\n"), id: this.id } : undefined;
      this.event = "";
      this.data = [];
      return message;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
    else if (field === "id" && !value.includes("\0")) this.id = value;
    return undefined;
  }
}

export async function* sseConnection(http: Http, spec: ConnectionSpec): Connection {
  const controller = new AbortController();
  const abort = () => controller.abort();
  spec.signal.addEventListener("abort", abort, { once: true });
  try {
    const response = await http.send(spec.liveUrl, {
      headers: { authorization: `Bearer ${http.token}`, accept: "text/event-stream" },
      signal: controller.signal,
    });
    if (!response.ok) throw await openFailure(response);
    if (!response.body) throw new Disconnected("the SSE response has no body", false);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    const parser = new SseParser();
    for (;;) {
      let chunk: ReadableStreamReadResult<string>;
      try {
        chunk = await reader.read();
      } catch (cause) {
        if (spec.signal.aborted) return;
        throw new Disconnected(`the SSE stream broke: ${cause instanceof Error ? cause.message : String(cause)}`, true);
      }
      if (chunk.done) throw new Disconnected("the SSE response ended", true);
      for (const message of parser.feed(chunk.value)) {
        const item = itemOf(message);
        if (item) yield item;
      }
    }
  } catch (error) {
    if (error instanceof TributaryError && error.code === "network_error") throw new Disconnected(error.message, false);
    throw error;
  } finally {
    spec.signal.removeEventListener("abort", abort);
    controller.abort();
  }
}

function itemOf(message: SseMessage) {
  const data = parseJson(message.data);
  switch (message.event) {
    case "event":
      return { kind: "events" as const, events: [data as Event] };
    case "progress":
      return isRecord(data) && typeof data.deliveredThroughOffset === "number"
        ? { kind: "progress" as const, through: data.deliveredThroughOffset }
        : undefined;
    case "trimmed":
      return isRecord(data) && typeof data.afterOffset === "number" && typeof data.firstOffset === "number"
        ? { kind: "trimmed" as const, afterOffset: data.afterOffset, firstOffset: data.firstOffset }
        : undefined;
    case "error":
      throw endedBy(isRecord(data) ? data : {});
    default:
      return undefined;
  }
}

/** The reason the server gave for ending a connection (SSE `event: error`, or a WebSocket close code). */
export function endedBy(data: Record<string, unknown>): Error {
  const code = typeof data.code === "string" ? data.code : "unknown";
  const message = typeof data.message === "string" ? data.message : `the live connection ended: ${code}`;
  if (code === "replaced") return new TributaryError("replaced", message, {}, 0);
  if (code === "stream_deleted") return new TributaryError("stream_deleted", message, {}, 0);
  // slow_consumer, and anything newer: reconnect from the last offset.
  return new Disconnected(`${code}: ${message}`, true);
}

/** A live open that did not answer 200: 429 and 5xx may pass; any other API error ends the tail. */
export async function openFailure(response: Response): Promise<Error> {
  const error = await TributaryError.fromResponse(response);
  if (response.status === 429 || response.status >= 500) return new Disconnected(error.message, false);
  return error;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new TributaryError("unexpected_response", "an SSE message's data is not JSON", { data: text.slice(0, 200) });
  }
}
