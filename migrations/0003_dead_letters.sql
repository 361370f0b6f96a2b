-- Dead letters (docs/design.md §8): events a skip-mode subscription gave up on, or
-- that its throttle refused. Written by the delivery spine *before* the cursor
-- moves past them (write-then-advance); deleted by a successful replay or by
-- a discard; updated (attempts, reason) by a failed replay.
CREATE TABLE IF NOT EXISTS dead_letters (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  subscription_key TEXT NOT NULL,
  event_offset INTEGER NOT NULL,
  delivery_id TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  reason TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  UNIQUE (subscription_key, delivery_id, event_offset)
);
