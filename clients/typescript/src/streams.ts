// Streams (docs/design.md §3, §16): append, read, inspect, delete.
import type { Http } from "./http.js";
import type { AppendResult, Event, EventPage, EventsInvalidated, InputEvent, PointRead, Retention, StreamInfo } from "./types.js";
import { CONTROL } from "./types.js";
import { streamPath } from "./paths.js";

type SingleAppend = Extract<AppendResult, { event: unknown }>;
type BatchAppend = Extract<AppendResult, { events: unknown }>;

/** What a single append answers: the committed event, and whether it was already committed under its idempotency key. */
export interface Appended {
  event: Event;
  deduplicated: boolean;
}

/** What a batch append answers, in order. */
export interface AppendedBatch {
  events: Event[];
  deduplicated: boolean[];
}

export interface ReadOptions {
  /** Events after this offset (exclusive), or `"earliest"` (the default: the first retained event). */
  after?: number | "earliest";
  /** Page size (the route's maximum applies, §12). */
  limit?: number;
  includeEphemeral?: boolean;
  signal?: AbortSignal;
}

export class Streams {
  constructor(private readonly http: Http) {}

  /** Appends one event (§3). With an `idempotencyKey` a repeat answers the committed event (`deduplicated: true`). */
  async append(path: string, event: InputEvent, options: { signal?: AbortSignal } = {}): Promise<Appended> {
    const answer = await this.http.call("appendEvents", { path: { path }, body: event, ...options });
    return answer.body as SingleAppend as Appended;
  }

  /** Appends a batch, all or nothing (§3). */
  async appendBatch(path: string, events: InputEvent[], options: { signal?: AbortSignal } = {}): Promise<AppendedBatch> {
    const answer = await this.http.call("appendEvents", { path: { path }, body: { events }, ...options });
    return answer.body as BatchAppend as AppendedBatch;
  }

  /**
   * The Durable Streams protocol URL of `path` (§17): `{baseUrl}/v1/stream/{path}`,
   * the protocol face of the very stream this client appends to and reads.
   * Hand it to a Durable Streams client (`@durable-streams/client`, the
   * `durable-streams` Python package) with the token as a bearer header —
   * {@link Streams.protocol} returns both. The path is checked as every
   * other call checks it (400-like `invalid_path`, nothing sent).
   */
  protocolUrl(path: string): string {
    return this.http.url("readProtocolStream", { path });
  }

  /**
   * `{url, headers}` for a Durable Streams client (§17):
   * `await DurableStream.create({ ...tributary.streams.protocol("app/log"), contentType: "application/json" })`.
   */
  protocol(path: string): { url: string; headers: { Authorization: string } } {
    return { url: this.protocolUrl(path), headers: { Authorization: `Bearer ${this.http.token}` } };
  }

  /**
   * Creates `path` as a fork of `from` (§18): its log begins with `from`'s events
   * up to `at` (default `from`'s head) and continues with its own. Answers the
   * fork's stream info (`forkedFrom`); repeating the same fork is no error.
   * Needs `manage` on both paths.
   */
  async fork(path: string, options: { from: string; at?: number }): Promise<StreamInfo> {
    const body: { from: string; at?: number } = { from: streamPath(options.from) };
    if (options.at !== undefined) body.at = options.at;
    return (await this.http.call("forkStream", { path: { path }, body })).body;
  }

  /** Stream info and reduced state (content type, closure and expiry included, §17); 404 `stream_not_found` before its first write. */
  async get(path: string): Promise<StreamInfo> {
    return (await this.http.call("getStream", { path: { path } })).body;
  }

  /** Destroys the stream; the next write starts a new lifetime (§3). */
  async delete(path: string): Promise<void> {
    await this.http.call("deleteStream", { path: { path } });
  }

  /** One page of events. */
  async read(path: string, options: ReadOptions = {}): Promise<EventPage> {
    const { signal, ...query } = options;
    return (await this.http.call("readEvents", { path: { path }, query, ...(signal ? { signal } : {}) })).body;
  }

  /** Every page from `after` through the head (each page's `head` as it answers). */
  async *pages(path: string, options: ReadOptions = {}): AsyncGenerator<EventPage, void, undefined> {
    let after = options.after;
    for (;;) {
      const page = await this.read(path, { ...options, ...(after !== undefined ? { after } : {}) });
      yield page;
      const moved = after === undefined || after === "earliest" || page.nextAfter > after;
      if (page.nextAfter >= page.head || !moved) return;
      after = page.nextAfter;
    }
  }

  /** Every event from `after` through the head, page by page, as an async iterator. */
  async *events(path: string, options: ReadOptions = {}): AsyncGenerator<Event, void, undefined> {
    for await (const page of this.pages(path, options)) yield* page.events;
  }

  /** A point read (§3). */
  async event(path: string, offset: number): Promise<PointRead> {
    return (await this.http.call("readEvent", { path: { path, offset } })).body;
  }

  /** The stream's counters in the Prometheus text format (§11). */
  async metrics(path: string): Promise<string> {
    return (await this.http.call("getStreamMetrics", { path: { path } })).body;
  }

  /** Appends `events-invalidated` (§13): subscriptions retract what they delivered of those events. */
  async invalidate(path: string, invalidation: EventsInvalidated, idempotencyKey?: string): Promise<Appended> {
    return this.append(path, { type: CONTROL.eventsInvalidated, payload: invalidation, ...key(idempotencyKey) });
  }

  /** Appends `retention-configured` (§16); `{}` keeps everything again. */
  async configureRetention(path: string, retention: Retention, idempotencyKey?: string): Promise<Appended> {
    return this.append(path, { type: CONTROL.retentionConfigured, payload: retention, ...key(idempotencyKey) });
  }
}

export const key = (idempotencyKey: string | undefined) => (idempotencyKey === undefined ? {} : { idempotencyKey });
