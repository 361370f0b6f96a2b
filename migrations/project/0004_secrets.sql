-- Project secrets (docs/design.md §9 "Receiver secrets and headers"): values a
-- webhook takes its URL or a header value from. Write-only: PUT writes a
-- row, DELETE removes it, GET /v1/secrets lists names and versions; only
-- the internal resolution a stream makes at send time reads `value`.
-- Documented in src/records/secret_row.rs (SecretRow).
CREATE TABLE IF NOT EXISTS secrets (
  name TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  value TEXT NOT NULL,
  updated_at_ms INTEGER NOT NULL
);

-- Survives DELETE: the last version each name had, so a name written again
-- continues from the next version and no stream's cache, keyed by version,
-- keeps an older value (§9).
CREATE TABLE IF NOT EXISTS secret_versions (
  name TEXT PRIMARY KEY,
  last_version INTEGER NOT NULL
);
