// Hosted processors (docs/design.md §9): definitions are the project's, state
// is per stream. A stream wakes one through a `processor-wake` subscription.
import type { Http } from "./http.js";
import { paged } from "./pages.js";
import type { ProcessorDefinition, ProcessorDefinitionBody, ProcessorPage, ProcessorState, ProcessorSummary } from "./types.js";

export class Processors {
  constructor(private readonly http: Http) {}

  /** Defines or replaces a processor; a replacement is a new version. */
  async put(name: string, definition: ProcessorDefinitionBody): Promise<ProcessorDefinition> {
    return (await this.http.call("putProcessor", { path: { name }, body: definition })).body;
  }

  async get(name: string): Promise<ProcessorDefinition> {
    return (await this.http.call("getProcessor", { path: { name } })).body;
  }

  async delete(name: string): Promise<void> {
    await this.http.call("deleteProcessor", { path: { name } });
  }

  async page(query: { after?: string; limit?: number } = {}): Promise<ProcessorPage> {
    return (await this.http.call("listProcessors", { query })).body;
  }

  /** Every definition, by name. */
  list(query: { after?: string; limit?: number } = {}): AsyncGenerator<ProcessorSummary, void, undefined> {
    return paged(
      (after: string | undefined) => this.page({ ...query, ...(after !== undefined ? { after } : {}) }),
      (page) => page.processors,
      (page) => page.nextAfter,
      query.after,
    );
  }

  /** The processor's checkpoint and state on the stream `path`. */
  async state(path: string, name: string): Promise<ProcessorState> {
    return (await this.http.call("getProcessorState", { path: { path, name } })).body;
  }
}
