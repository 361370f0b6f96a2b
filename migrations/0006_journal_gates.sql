-- The delivery journal (docs/design.md §13): per itx-call and webhook-post
-- subscription, each offset it delivered or dead-lettered and under which
-- delivery id. Written by the delivery spine before the cursor passes the
-- offset; pruned to the subscription's journal depth in the same write;
-- a delivered retraction deletes its row, a dead-lettered one marks it.
CREATE TABLE IF NOT EXISTS delivery_journal (
  subscription_key TEXT NOT NULL,
  event_offset INTEGER NOT NULL,
  delivery_id TEXT NOT NULL,
  retraction_dead_lettered INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (subscription_key, event_offset)
);
-- Hits a threshold gate holds (§13): matching events waiting for `count`
-- within the window. They do not hold the cursor. Written when the scan
-- passes a hit; deleted when their digest completes or they leave the window.
CREATE TABLE IF NOT EXISTS gate_hits (
  subscription_key TEXT NOT NULL,
  event_offset INTEGER NOT NULL,
  created_at_ms INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (subscription_key, event_offset)
);
-- Highest offset pruned from the journal (a retraction below it is a gap),
-- and a maxOnce gate's window anchor (event time of the admitted hit).
ALTER TABLE subscription_runtime ADD COLUMN journal_pruned_through INTEGER NOT NULL DEFAULT 0;
ALTER TABLE subscription_runtime ADD COLUMN gate_anchor_ms INTEGER;
-- What a dead letter holds: an event ('event') or a retraction ('retraction',
-- which cannot be replayed).
ALTER TABLE dead_letters ADD COLUMN kind TEXT NOT NULL DEFAULT 'event';
