-- Concurrent delivery (docs/design.md §8 `concurrency`): the window of one
-- itx-call or webhook-post subscription whose deliveries run concurrently.
-- One row per event planned past the cursor and not yet passed by it, under
-- its own delivery id: in flight (`in_flight_deadline_at_ms`), waiting for
-- its retry (`next_attempt_at_ms`, `attempt` failures so far), or completed
-- (delivered or dead-lettered, journaled) ahead of an offset still open.
-- Written when an event is planned; marked completed when its send
-- completes; deleted once the cursor passes it (the cursor moves only past
-- the longest completed run from the front) and when the run ends.
CREATE TABLE IF NOT EXISTS delivery_window (
  subscription_key TEXT NOT NULL,
  run_offset INTEGER NOT NULL,
  event_offset INTEGER NOT NULL,
  delivery_id TEXT NOT NULL,
  attempt INTEGER NOT NULL DEFAULT 0,
  next_attempt_at_ms INTEGER,
  in_flight_deadline_at_ms INTEGER,
  last_error TEXT,
  completed INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (subscription_key, event_offset)
);
-- How far a concurrent subscription's scans have looked past its cursor
-- (NULL: not past it), and the offset of the events-invalidated its window
-- waits at (§13: nothing after it is planned until everything before it is
-- done and retracted).
ALTER TABLE subscription_runtime ADD COLUMN window_scanned_through INTEGER;
ALTER TABLE subscription_runtime ADD COLUMN window_barrier_at INTEGER;
