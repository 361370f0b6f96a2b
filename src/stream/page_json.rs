//! A range read's page as JSON built by SQLite in one range scan (docs/design.md
//! §2 reads, §3, §12): each committed event is written by the query itself
//! from its stored columns — `payload`, `metadata` and `source` are stored
//! as JSON text at append, so they are copied, never parsed — and the page
//! arrives as a few strings, in offset order (`group_concat ... ORDER BY`,
//! SQLite 3.44+; workerd ships 3.47). The same event JSON [`crate::event::CommittedEvent`]
//! serializes (fields in the same order, optional ones omitted); a property
//! test holds the two equal.
//!
//! The byte budget is kept as by [`super::rows::read_window`]: sizes are
//! summed over the page before any event text is built, and only the rows
//! that fit (always at least one) are written, concatenated by SQLite in
//! chunks that stay below its 2 MB value limit.

use super::rows::{NO_EPHEMERAL, ROW_BYTES};
use crate::limits::PAGE_CHUNK_BYTES;
use crate::storage::{Columns, SqlValue, Storage, StorageError};

/// One page: the events as a JSON array's text, how many, and the last offset.
#[derive(Debug)]
pub struct JsonPage {
    pub events_json: String,
    pub count: u64,
    pub last_offset: Option<u64>,
}

/// One event row as committed-event JSON (§3), in `CommittedEvent`'s field order.
const EVENT_JSON: &str = "'{\"offset\":' || event_offset \
     || ',\"type\":' || json_quote(type) \
     || ',\"payload\":' || payload \
     || ',\"metadata\":' || metadata \
     || CASE WHEN idempotency_key IS NULL THEN '' ELSE ',\"idempotencyKey\":' || json_quote(idempotency_key) END \
     || CASE WHEN ephemeral != 0 THEN ',\"ephemeral\":true' ELSE '' END \
     || ',\"createdAt\":\"' || strftime('%Y-%m-%dT%H:%M:%S', created_at_ms / 1000, 'unixepoch') \
     || '.' || printf('%03d', created_at_ms % 1000) || 'Z\"' \
     || CASE WHEN source IS NULL THEN '' ELSE ',\"source\":' || source END \
     || '}'";

/// An upper bound of one event row's JSON length (escaping can grow the
/// quoted type and idempotency key at most six-fold; the rest is copied).
const JSON_BYTES: &str = "6 * octet_length(type) + octet_length(payload) + octet_length(metadata) \
     + 6 * COALESCE(octet_length(idempotency_key), 0) + COALESCE(octet_length(source), 0) + 160";

/// Events after `after` (ephemeral ones too when `include_ephemeral`), at
/// most `limit` rows and `max_bytes` of row text (at least one row). The
/// page comes back in chunks of about [`PAGE_CHUNK_BYTES`] (SQLite's value
/// size limit is 2 MB on Durable Objects), joined here.
pub fn range_json<S: Storage + ?Sized>(
    storage: &S,
    after: u64,
    limit: u64,
    include_ephemeral: bool,
    max_bytes: usize,
) -> Result<JsonPage, StorageError> {
    let sql = format!(
        "WITH page AS (SELECT event_offset, SUM(size) OVER w AS running, SUM(json_size) OVER w AS json_running, \
                  ROW_NUMBER() OVER w AS n \
           FROM (SELECT event_offset, {ROW_BYTES} AS size, {JSON_BYTES} AS json_size FROM events \
                 WHERE event_offset > ? AND (ephemeral = 0 OR event_offset > ?) ORDER BY event_offset LIMIT ?) \
           WINDOW w AS (ORDER BY event_offset ROWS UNBOUNDED PRECEDING)), \
         kept AS (SELECT event_offset AS kept_offset, (json_running - 1) / {PAGE_CHUNK_BYTES} AS chunk FROM page WHERE n = 1 OR running <= ?) \
         SELECT group_concat(event, ',' ORDER BY event_offset), COUNT(*), MAX(event_offset) FROM \
           (SELECT chunk, event_offset, {EVENT_JSON} AS event \
            FROM kept JOIN events ON event_offset = kept_offset ORDER BY event_offset) \
         GROUP BY chunk ORDER BY chunk"
    );
    let ephemeral_after = if include_ephemeral { 0 } else { NO_EPHEMERAL };
    let max_bytes = i64::try_from(max_bytes).unwrap_or(i64::MAX);
    let rows = storage.query(
        &sql,
        &[after.into(), ephemeral_after.into(), limit.into(), max_bytes.into()],
    )?;
    let mut events_json = String::from("[");
    let mut count = 0u64;
    let mut last_offset = None;
    for (index, mut row) in rows.into_iter().enumerate() {
        let columns = Columns { query: &sql, row: &row };
        count = count.saturating_add(columns.int(1)?.max(0) as u64);
        last_offset = Some(columns.int(2)?.max(0) as u64);
        let Some(SqlValue::Text(chunk)) = row.get_mut(0).map(|value| std::mem::replace(value, SqlValue::Null)) else {
            return Err(StorageError::Decode {
                query: crate::text::query_excerpt(&sql),
                column: 0,
            });
        };
        if index > 0 {
            events_json.push(',');
        }
        events_json.push_str(&chunk);
    }
    events_json.push(']');
    Ok(JsonPage {
        events_json,
        count,
        last_offset,
    })
}
