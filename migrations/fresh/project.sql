-- Generated from this class's migrations: every table and index they leave, as
-- sqlite_master holds it. Do not edit; to regenerate, run
-- TRIBUTARY_WRITE_FRESH_SCHEMA=1 cargo test -p tributary fresh_scripts
CREATE TABLE IF NOT EXISTS processors (
  name TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  definition TEXT NOT NULL,
  defined_at_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS processor_versions (
  name TEXT PRIMARY KEY,
  last_version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS streams (
  path TEXT PRIMARY KEY,
  stream_id TEXT NOT NULL,
  stream_created_at_ms INTEGER NOT NULL
, soft_deleted_at_ms INTEGER);
CREATE TABLE IF NOT EXISTS stream_metrics (
  path TEXT PRIMARY KEY,
  stream_id TEXT NOT NULL,
  reported_at_ms INTEGER NOT NULL,
  subscription_count INTEGER NOT NULL,
  snapshot TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS source_metrics (
  name TEXT PRIMARY KEY,
  reported_at_ms INTEGER NOT NULL,
  snapshot TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS secrets (
  name TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  value TEXT NOT NULL,
  updated_at_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS secret_versions (
  name TEXT PRIMARY KEY,
  last_version INTEGER NOT NULL
);
