// Dead letters of skip-mode subscriptions (docs/design.md §8).
import type { Http } from "./http.js";
import { paged } from "./pages.js";
import type { DeadLetter, DeadLetterPage } from "./types.js";

export interface DeadLetterQuery {
  subscriptionKey?: string;
  /** The `nextAfter` of the previous page (a dead-letter id). */
  after?: number;
  limit?: number;
}

export class DeadLetters {
  constructor(private readonly http: Http) {}

  /** One page, in insertion order. */
  async page(path: string, query: DeadLetterQuery = {}): Promise<DeadLetterPage> {
    return (await this.http.call("listDeadLetters", { path: { path }, query })).body;
  }

  /** Every dead letter (of one subscription, with `subscriptionKey`), page by page. */
  list(path: string, query: DeadLetterQuery = {}): AsyncGenerator<DeadLetter, void, undefined> {
    return paged(
      (after: number | undefined) => this.page(path, { ...query, ...(after !== undefined ? { after } : {}) }),
      (page) => page.deadLetters,
      (page) => page.nextAfter,
      query.after,
    );
  }

  /** Delivers one letter again under its original delivery id; success deletes it (409/502 otherwise). */
  async replay(path: string, id: number): Promise<void> {
    await this.http.call("replayDeadLetter", { path: { path, id } });
  }

  /** Discards one letter. */
  async discard(path: string, id: number): Promise<void> {
    await this.http.call("discardDeadLetter", { path: { path, id } });
  }

  /** Discards every letter of one subscription, or of the stream; answers how many. */
  async discardAll(path: string, query: { subscriptionKey?: string } = {}): Promise<number> {
    return (await this.http.call("discardDeadLetters", { path: { path }, query })).body.discarded;
  }
}
