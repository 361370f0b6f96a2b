// EVM chain and mempool sources (docs/design.md §15, §15.1).
import type { Http } from "./http.js";
import { paged } from "./pages.js";
import type { SourceConfig, SourcePage, SourceStatus, SourceSummary } from "./types.js";

export interface PutSource {
  /** `true` when the name was new (201), `false` when it replaced a source (200). */
  created: boolean;
  source: SourceStatus;
}

export class Sources {
  constructor(private readonly http: Http) {}

  /** Creates or replaces a source; validated (and every RPC URL asked `eth_chainId`) before anything is stored. */
  async put(name: string, config: SourceConfig): Promise<PutSource> {
    const answer = await this.http.call("putSource", { path: { name }, body: config });
    return { created: answer.status === 201, source: answer.body };
  }

  async get(name: string): Promise<SourceStatus> {
    return (await this.http.call("getSource", { path: { name } })).body;
  }

  /** Stops and deletes a source; what it appended stays. */
  async delete(name: string): Promise<void> {
    await this.http.call("deleteSource", { path: { name } });
  }

  async page(query: { after?: string; limit?: number } = {}): Promise<SourcePage> {
    return (await this.http.call("listSources", { query })).body;
  }

  /** Every source, by name. */
  list(query: { after?: string; limit?: number } = {}): AsyncGenerator<SourceSummary, void, undefined> {
    return paged(
      (after: string | undefined) => this.page({ ...query, ...(after !== undefined ? { after } : {}) }),
      (page) => page.sources,
      (page) => page.nextAfter,
      query.after,
    );
  }
}
