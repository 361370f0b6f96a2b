// The client: one object per base URL and token, one property per area of
// the API (docs/design.md §2), and the project-wide calls.
import { Catalog } from "./catalog.js";
import { DeadLetters } from "./dead_letters.js";
import { TributaryError } from "./errors.js";
import { Http, type ClientOptions, type Success } from "./http.js";
import { Processors } from "./processors.js";
import { Secrets } from "./secrets.js";
import { Sources } from "./sources.js";
import { Streams } from "./streams.js";
import { Subscriptions } from "./subscriptions.js";
import { tail, type Tail, type TailOptions } from "./tail/index.js";

export type TokenGrant = Success<"getToken">;

export interface JsonataEvaluation {
  /** Absent when the expression yields nothing. */
  result?: unknown;
}

export class Tributary {
  readonly streams: Streams;
  readonly subscriptions: Subscriptions;
  readonly deadLetters: DeadLetters;
  readonly processors: Processors;
  readonly sources: Sources;
  readonly secrets: Secrets;
  readonly catalog: Catalog;
  private readonly http: Http;

  constructor(options: ClientOptions) {
    this.http = new Http(options);
    this.streams = new Streams(this.http);
    this.subscriptions = new Subscriptions(this.http, this.streams);
    this.deadLetters = new DeadLetters(this.http);
    this.processors = new Processors(this.http);
    this.sources = new Sources(this.http);
    this.secrets = new Secrets(this.http);
    this.catalog = new Catalog(this.http);
  }

  /**
   * The events of `path` as they commit, as an async iterator that resumes
   * across disconnects with no gap and no duplicate (§10). `break` or
   * `close()` ends it.
   */
  tail(path: string, options: TailOptions = {}): Tail {
    const resolveHead = async () => {
      try {
        return (await this.streams.get(path)).head;
      } catch (error) {
        if (error instanceof TributaryError && error.code === "stream_not_found") return 0;
        throw error;
      }
    };
    return tail(this.http, resolveHead, path, options);
  }

  /** Prometheus text for the whole project (§11), narrowed to `prefix` (and to a prefix token's prefix). */
  async metrics(options: { prefix?: string } = {}): Promise<string> {
    return (await this.http.call("getProjectMetrics", { query: options })).body;
  }

  /** What the token grants: its project, scopes and prefix (§2). */
  async token(): Promise<TokenGrant> {
    return (await this.http.call("getToken")).body;
  }

  /** Tries a JSONata filter or transform under the delivery budgets. */
  async evaluateJsonata(expression: string, input?: unknown, bindings?: Record<string, unknown>): Promise<JsonataEvaluation> {
    const body: { expression: string; input?: unknown; bindings?: Record<string, unknown> } = { expression };
    if (input !== undefined) body.input = input;
    if (bindings !== undefined) body.bindings = bindings;
    return (await this.http.call("evaluateJsonata", { body })).body;
  }

  /** The OpenAPI document the server serves. */
  async openapi(): Promise<Success<"getOpenApiDocument">> {
    return (await this.http.call("getOpenApiDocument")).body;
  }
}
