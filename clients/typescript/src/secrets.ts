// Project secrets (docs/design.md §9 "Receiver secrets and headers"): values a
// webhook takes its `url` or a header value from, as `{secret: NAME}`.
// Write-only: no call reads a value back.
import type { Http } from "./http.js";
import type { SecretSummary } from "./types.js";

export class Secrets {
  constructor(private readonly http: Http) {}

  /** Writes a secret; a changed value is a new version, used from the next send on. */
  async put(name: string, value: string): Promise<SecretSummary> {
    return (await this.http.call("putSecret", { path: { name }, body: { value } })).body;
  }

  /** Every secret's name, version and `updatedAt` (never a value). */
  async list(): Promise<SecretSummary[]> {
    return (await this.http.call("listSecrets")).body.secrets;
  }

  /** Deletes a secret; a webhook still naming it fails its next send as `secret_missing`. */
  async delete(name: string): Promise<void> {
    await this.http.call("deleteSecret", { path: { name } });
  }
}
