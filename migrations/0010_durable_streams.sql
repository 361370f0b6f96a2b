-- The Durable Streams face (docs/design.md §17): byte messages, the face's settings
-- of a lifetime, and the writers' state. Every table is documented as a Rust
-- type in src/schema.rs and src/durable_streams/face/store.rs.

-- A byte message's bytes, byte-exact (never base64 at rest); `payload` is then
-- the JSON text `null`. NULL for every JSON event. Written only by the append.
ALTER TABLE events ADD COLUMN body BLOB;

-- The protocol face of the current lifetime (one row, id = 1). Absent: a
-- stream first written natively (content type application/json, each data
-- event one message). Written by the protocol's creating PUT; `expiry_deadline_ms`
-- (the stored expiry deadline, never earlier than the true one) also by a
-- renewal that passed it; `last_stream_seq` by an append carrying Stream-Seq.
CREATE TABLE IF NOT EXISTS protocol_face (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  content_type TEXT,
  message_type TEXT NOT NULL,
  last_stream_seq TEXT,
  expiry_deadline_ms INTEGER
);

-- Idempotent producers (PROTOCOL §5.2.1): one row per producer id, written in
-- the transaction of the append it accepted; forgotten after 7 days idle and
-- bounded per stream (src/limits.rs).
CREATE TABLE IF NOT EXISTS protocol_producers (
  producer_id TEXT PRIMARY KEY,
  epoch INTEGER NOT NULL,
  last_seq INTEGER NOT NULL,
  last_active_ms INTEGER NOT NULL
);

CREATE INDEX IF NOT EXISTS protocol_producers_by_activity ON protocol_producers (last_active_ms);
