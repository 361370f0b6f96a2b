-- Delivery progress per durable subscription (docs/design.md §6): storage, not facts.
-- One row per subscription key in the reduced state. Created, dropped and moved
-- by the runtime repair (src/stream/runtime.rs) after every commit and on open;
-- advanced by the delivery loop.
CREATE TABLE IF NOT EXISTS subscription_runtime (
  subscription_key TEXT PRIMARY KEY,
  run_offset INTEGER NOT NULL,
  acknowledged_offset INTEGER NOT NULL,
  attempt INTEGER NOT NULL DEFAULT 0,
  next_attempt_at_ms INTEGER,
  in_flight_deadline_at_ms INTEGER,
  last_error TEXT,
  bytes_sent INTEGER NOT NULL DEFAULT 0,
  -- 1 after a failed batch: the next read takes one event (§6 rule 4).
  isolating INTEGER NOT NULL DEFAULT 0
);
