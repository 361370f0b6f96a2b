// What one live connection yields to the tail (docs/design.md §10), whatever its
// transport, and how it ends.
import type { Event } from "../types.js";

export type LiveItem =
  /** Events in offset order; `taken(event)` runs once the caller has taken `event` (a WebSocket acks then). */
  | { kind: "events"; events: Event[]; taken?: (event: Event) => void }
  /** The connection scanned through `through` (SSE `progress`, a long-poll's `nextAfter`). */
  | { kind: "progress"; through: number }
  /** Retention trimmed `(afterOffset, firstOffset)` before it was sent (§16); it goes on from `firstOffset`. */
  | { kind: "trimmed"; afterOffset: number; firstOffset: number };

/** A connection ended in a way that reconnecting may cure. `opened`: it got as far as receiving. */
export class Disconnected extends Error {
  override readonly name = "Disconnected";
  constructor(
    message: string,
    readonly opened: boolean,
  ) {
    super(message);
  }
}

/** Where and how to open one connection. */
export interface ConnectionSpec {
  /** The live URL (`…/-/live?after=N&types=…&connectionKey=…`) for SSE and WebSocket. */
  liveUrl: string;
  path: string;
  after: number | "earliest";
  types: readonly string[] | undefined;
  signal: AbortSignal;
}

export type Connection = AsyncGenerator<LiveItem, void, undefined>;
