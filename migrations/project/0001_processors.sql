-- The project object's schema (docs/design.md §9, §14): one Durable Object per
-- project. Documented as Rust types in src/processor/store.rs.

-- Processor definitions (§9): one row per name, rewritten by PUT, deleted by
-- DELETE. `version` bumps whenever the definition changes.
CREATE TABLE IF NOT EXISTS processors (
  name TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  definition TEXT NOT NULL,
  defined_at_ms INTEGER NOT NULL
);

-- Survives DELETE: the last version each name had, so a name defined again
-- continues from the next version and every instance refolds (§9).
CREATE TABLE IF NOT EXISTS processor_versions (
  name TEXT PRIMARY KEY,
  last_version INTEGER NOT NULL
);
