-- Project-wide metrics (docs/design.md §11): the latest snapshot each stream
-- lifetime reported. Written by the project object when a stream reports
-- (only for a lifetime the catalog lists); deleted with the lifetime's
-- catalog row (destroy, or a newer lifetime at the path). Read by
-- GET /v1/metrics in path order. Documented in src/schema.rs
-- (StreamMetricsRow).
CREATE TABLE IF NOT EXISTS stream_metrics (
  path TEXT PRIMARY KEY,
  stream_id TEXT NOT NULL,
  reported_at_ms INTEGER NOT NULL,
  subscription_count INTEGER NOT NULL,
  snapshot TEXT NOT NULL
);

-- The latest progress each source reported (§11, §15): one row per source
-- name, replaced by each report, deleted when the source is deleted. Read
-- by GET /v1/metrics in name order. Documented in src/schema.rs
-- (SourceMetricsRow).
CREATE TABLE IF NOT EXISTS source_metrics (
  name TEXT PRIMARY KEY,
  reported_at_ms INTEGER NOT NULL,
  snapshot TEXT NOT NULL
);
