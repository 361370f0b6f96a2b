// The project's streams (docs/design.md §14), narrowed to a prefix token's prefix.
import type { Http } from "./http.js";
import { paged } from "./pages.js";
import type { CatalogEntry, CatalogPage } from "./types.js";

export interface CatalogQuery {
  /** Only paths starting with this (e.g. `/app/`). */
  prefix?: string;
  after?: string;
  limit?: number;
  /** Soft-deleted streams (§18: deleted while forks read them): left out (`exclude`, the default), listed too (`include`), or alone (`only`). */
  softDeleted?: "exclude" | "include" | "only";
}

export class Catalog {
  constructor(private readonly http: Http) {}

  async page(query: CatalogQuery = {}): Promise<CatalogPage> {
    return (await this.http.call("listStreams", { query })).body;
  }

  /** Every stream, in path order. */
  streams(query: CatalogQuery = {}): AsyncGenerator<CatalogEntry, void, undefined> {
    return paged(
      (after: string | undefined) => this.page({ ...query, ...(after !== undefined ? { after } : {}) }),
      (page) => page.streams,
      (page) => page.nextAfter,
      query.after,
    );
  }
}
