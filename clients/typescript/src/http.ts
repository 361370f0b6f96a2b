// The one place requests are made. Every call names an operationId of the
// OpenAPI document; its method, path template, parameters, body and success
// body are the document's (generated/operations.ts, generated/schema.ts), so
// a call the document does not describe does not compile.
import { TributaryError, isRecord } from "./errors.js";
import { OPERATIONS, type OperationId } from "./generated/operations.js";
import type { operations } from "./generated/schema.js";
import { streamPath } from "./paths.js";

export interface ClientOptions {
  /** Where Tributary answers, e.g. `http://127.0.0.1:8787` (`bash scripts/dev`). */
  baseUrl: string;
  /** A token of `API_TOKENS` (§2): a project's, or a scoped one. */
  token: string;
  /** Defaults to `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Defaults to `globalThis.WebSocket`; live tails fall back to long-polls without one. */
  WebSocket?: typeof WebSocket;
}

type Operation<O extends OperationId> = operations[O];
type Parameters<O extends OperationId> = Operation<O>["parameters"];
export type PathParams<O extends OperationId> = Parameters<O> extends { path: infer P } ? P : never;
export type QueryParams<O extends OperationId> = Parameters<O> extends { query?: infer Q } ? Q : never;
export type RequestBody<O extends OperationId> = Operation<O> extends { requestBody: { content: { "application/json": infer B } } }
  ? B
  : never;

type ContentOf<R> = R extends { content: { "application/json": infer J } }
  ? J
  : R extends { content: { "text/plain": infer T } }
    ? T
    : undefined;
type Responses<O extends OperationId> = Operation<O>["responses"];
/** The body of the operation's 200, 201 or 204 answer. */
export type Success<O extends OperationId> = {
  [S in keyof Responses<O>]: S extends 200 | 201 | 204 ? ContentOf<Responses<O>[S]> : never;
}[keyof Responses<O>];

export interface CallArgs<O extends OperationId> {
  path?: PathParams<O>;
  query?: QueryParams<O>;
  body?: RequestBody<O>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface Answer<T> {
  status: number;
  body: T;
}

export class Http {
  readonly baseUrl: string;
  readonly token: string;
  readonly fetch: typeof fetch;
  readonly WebSocket: typeof WebSocket | undefined;

  constructor(options: ClientOptions) {
    if (!options || typeof options.baseUrl !== "string" || typeof options.token !== "string") {
      throw new TypeError("new Tributary({baseUrl, token}): both are strings");
    }
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.token = options.token;
    const fetcher = options.fetch ?? globalThis.fetch;
    if (typeof fetcher !== "function") throw new TypeError("no fetch: pass options.fetch");
    this.fetch = fetcher.bind(globalThis);
    this.WebSocket = options.WebSocket ?? globalThis.WebSocket;
  }

  /** The URL of an operation with its path parameters filled and its query. */
  url<O extends OperationId>(operationId: O, path?: PathParams<O>, query?: QueryParams<O>): string {
    const template: string = OPERATIONS[operationId].path;
    const values = (path ?? {}) as Record<string, unknown>;
    const filled = template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = values[name];
      if (value === undefined) throw new TypeError(`${operationId}: missing path parameter ${name}`);
      // The stream path is written as it is (its `/`s separate segments, §2);
      // every other parameter is one percent-encoded segment.
      return name === "path" ? streamPath(String(value)).slice(1) : encodeURIComponent(String(value));
    });
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
      if (value !== undefined && value !== null) search.set(name, String(value));
    }
    const suffix = search.size > 0 ? `?${search}` : "";
    return `${this.baseUrl}${filled}${suffix}`;
  }

  /** Calls an operation; a non-2xx answer throws its `TributaryError`. */
  async call<O extends OperationId>(operationId: O, args: CallArgs<O> = {}): Promise<Answer<Success<O>>> {
    const { method } = OPERATIONS[operationId];
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, ...args.headers };
    let body: string | undefined;
    if (args.body !== undefined) {
      body = JSON.stringify(args.body);
      headers["content-type"] = "application/json";
    }
    const url = this.url(operationId, args.path, args.query);
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = body;
    if (args.signal) init.signal = args.signal;
    const response = await this.send(url, init);
    if (!response.ok) throw await TributaryError.fromResponse(response);
    return { status: response.status, body: (await successBody(response)) as Success<O> };
  }

  /** `fetch`, with a failure to reach the API as `network_error` (or `aborted`). */
  async send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await this.fetch(url, init);
    } catch (cause) {
      if (init.signal?.aborted) throw new TributaryError("aborted", "the request was aborted", {}, 0, { cause });
      const message = cause instanceof Error ? cause.message : String(cause);
      throw new TributaryError("network_error", `could not reach ${url}: ${message}`, { url }, 0, { cause });
    }
  }
}

async function successBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const type = response.headers.get("content-type") ?? "";
  const text = await response.text();
  if (!type.includes("json")) return text;
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new TributaryError("unexpected_response", `HTTP ${response.status} with a body that is not JSON`, { body: text.slice(0, 1000) }, response.status, {
      cause,
    });
  }
}

export { isRecord };
