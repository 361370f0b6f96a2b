//! A range read's page as JSON built by SQLite in one range scan (docs/design.md
//! §2 reads, §3, §12): each committed event is written by the query itself
//! from its stored columns — `payload`, `metadata` and `source` are stored
//! as JSON text at append, so they are copied, never parsed — and the page
//! arrives as a few strings, in offset order (`group_concat ... ORDER BY`,
//! SQLite 3.44+; workerd ships 3.47). The same event JSON [`crate::event::CommittedEvent`]
//! serializes (fields in the same order, optional ones omitted); a property
//! test holds the two equal.
//!
//! The byte budget is kept as by [`super::rows::read_window`]. Most pages
//! fit it: one query writes and concatenates their event text and sums
//! their sizes in the same scan. A page past the budget, or whose text
//! passes SQLite's 2 MB value limit (which fails that query), is cut row by
//! row: one query reads its sizes (no payloads), the rows that fit (always
//! at least one) are cut into chunks below the value limit, and one query
//! per chunk writes their text. (A single query summing sizes with window
//! functions and joining back to the events was 2–2.5× slower.)

use super::rows::{NO_EPHEMERAL, ROW_BYTES};
use crate::event::CONTROL_PREFIX;
use crate::limits::PAGE_CHUNK_BYTES;
use crate::storage::{Columns, SqlValue, Storage, StorageError};

/// One page: the events as a JSON array's text, how many, and the last offset.
#[derive(Debug)]
pub struct JsonPage {
    pub events_json: String,
    pub count: u64,
    pub last_offset: Option<u64>,
}

/// What SQLite writes before an event's offset, and where its `createdAt`
/// string goes: this byte, then the number's digits. [`marks_written`]
/// takes them out, checks the offsets ascend, and writes each date. A
/// control character is never raw in JSON text (stored payloads, metadata
/// and provenance are JSON; `json_quote` escapes), so every one in a page
/// is a mark, and they alternate: an offset, then its event's `createdAt`.
/// Why (issue 33, nineteenth round; `bench/sqlite_costs.mjs` (d)): SQLite
/// formatting the date was a quarter of a page row's cost, and
/// concatenating with `ORDER BY` sorted rows its scan already gives in
/// offset order, almost half of what was left; the marks let the engine
/// check that order instead, and sort only when it does not hold.
const MARK: char = '\u{1}';

/// One event row as committed-event JSON (§3), in `CommittedEvent`'s field order.
const EVENT_JSON: &str = "'{\"offset\":' || char(1) || event_offset \
     || ',\"type\":' || json_quote(type) \
     || ',\"payload\":' || payload \
     || ',\"metadata\":' || metadata \
     || CASE WHEN idempotency_key IS NULL THEN '' ELSE ',\"idempotencyKey\":' || json_quote(idempotency_key) END \
     || CASE WHEN ephemeral != 0 THEN ',\"ephemeral\":true' ELSE '' END \
     || ',\"createdAt\":' || char(1) || created_at_ms \
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
    let rows = Rows {
        after,
        through: crate::limits::MAX_SAFE_INTEGER,
        include_ephemeral,
        data_only: false,
    };
    Ok(rows_json(storage, rows, limit, max_bytes)?.0)
}

/// Which rows a JSON page holds.
#[derive(Debug, Clone, Copy)]
pub struct Rows {
    pub after: u64,
    pub through: u64,
    pub include_ephemeral: bool,
    /// Data events only: no control event (a fork's inherited page, §18).
    pub data_only: bool,
}

/// [`range_json`] over `rows`; also whether the page saw every such row
/// through `rows.through`.
pub fn rows_json<S: Storage + ?Sized>(
    storage: &S,
    rows: Rows,
    limit: u64,
    max_bytes: usize,
) -> Result<(JsonPage, bool), StorageError> {
    if let Some(page) = rows_json_in(storage, rows, limit, max_bytes, Order::Scan)? {
        return Ok(page);
    }
    // SQLite's scan did not give the offsets' order: the page again, sorted by it.
    rows_json_in(storage, rows, limit, max_bytes, Order::Sorted)?.ok_or_else(|| StorageError::Decode {
        query: "a page sorted by offset whose offsets do not ascend".to_owned(),
        column: 0,
    })
}

/// How SQLite concatenates a page's events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    /// In its scan's order (by the events' rowid, their offset), which the
    /// engine checks ([`marks_written`]).
    Scan,
    /// Sorted by offset (`group_concat ... ORDER BY`, SQLite 3.44+).
    Sorted,
}

impl Order {
    fn concatenated(self) -> &'static str {
        match self {
            Order::Scan => "group_concat(event, ',')",
            Order::Sorted => "group_concat(event, ',' ORDER BY event_offset)",
        }
    }
}

/// [`rows_json`] with its events concatenated in `order`; `None`: the
/// offsets did not ascend.
fn rows_json_in<S: Storage + ?Sized>(
    storage: &S,
    rows: Rows,
    limit: u64,
    max_bytes: usize,
    order: Order,
) -> Result<Option<(JsonPage, bool)>, StorageError> {
    let Rows {
        after,
        through,
        include_ephemeral,
        data_only,
    } = rows;
    let ephemeral_after = if include_ephemeral { 0 } else { NO_EPHEMERAL };
    let data_filter = if data_only {
        format!(" AND substr(type, 1, {}) != '{CONTROL_PREFIX}'", CONTROL_PREFIX.len())
    } else {
        String::new()
    };
    let filter = format!("event_offset > ? AND event_offset <= ? AND (ephemeral = 0 OR event_offset > ?){data_filter}");
    let window = [after.into(), through.into(), ephemeral_after.into(), limit.into()];
    match whole_page(storage, &filter, &window, (limit, max_bytes), order)? {
        Whole::Page(whole) => return Ok(Some(whole)),
        Whole::Unordered => return Ok(None),
        Whole::Cut => {}
    }
    let sizes_sql = format!(
        "SELECT event_offset, {ROW_BYTES}, {JSON_BYTES} FROM events WHERE {filter} ORDER BY event_offset LIMIT +?"
    );
    let sizes = storage.query(&sizes_sql, &window)?;
    let chunks = chunks_within(&sizes_sql, &sizes, after, max_bytes)?;
    let fitted_all = chunks.last().map(|chunk| chunk.through) == sizes_last_offset(&sizes_sql, &sizes)?;
    let exhausted = fitted_all && (sizes.len() as u64) < limit;
    // The chunk comes back as bytes, not text: on a Durable Object a text
    // value crosses into wasm character by character (wasm-bindgen's
    // string copy), a BLOB in one copy (issue 33's catch-up profile).
    let chunk_sql = format!(
        "SELECT CAST({} AS BLOB), COUNT(*) FROM \
           (SELECT event_offset, {EVENT_JSON} AS event FROM events WHERE {filter} ORDER BY event_offset)",
        order.concatenated()
    );
    let mut events_json = String::from("[");
    let mut count = 0u64;
    let mut last_offset = None;
    for (index, chunk) in chunks.iter().enumerate() {
        let mut rows = storage.query(
            &chunk_sql,
            &[chunk.after.into(), chunk.through.into(), ephemeral_after.into()],
        )?;
        let Some(row) = rows.first_mut() else {
            continue;
        };
        let columns = Columns { query: &chunk_sql, row };
        count = count.saturating_add(columns.int(1)?.max(0) as u64);
        let text = match page_text(&chunk_sql, row)? {
            Marked::Written(text) => text,
            Marked::Unordered => return Ok(None),
            // Every row of the chunk was read a moment ago in this turn.
            Marked::Empty => continue,
        };
        if index > 0 && events_json.len() > 1 {
            events_json.push(',');
        }
        events_json.push_str(&text);
        last_offset = Some(chunk.through);
    }
    events_json.push(']');
    Ok(Some((
        JsonPage {
            events_json,
            count,
            last_offset,
        },
        exhausted,
    )))
}

/// What [`whole_page`] found.
enum Whole {
    /// The page, and whether it is exhausted.
    Page((JsonPage, bool)),
    /// It must be cut row by row.
    Cut,
    /// Its offsets did not ascend.
    Unordered,
}

/// The whole page in one scan when it fits the byte budget — most pages:
/// SQLite writes the rows' JSON and sums their sizes in the same pass, so
/// no row is read twice. [`Whole::Cut`]: the page must be cut row by row,
/// because its rows pass the budget, or their JSON passed SQLite's value
/// limit (2 MB on a Durable Object, and natively, `RusqliteStorage`), which
/// fails the statement once it grows past it and before anything is kept.
fn whole_page<S: Storage + ?Sized>(
    storage: &S,
    filter: &str,
    window: &[SqlValue; 4],
    (limit, max_bytes): (u64, usize),
    order: Order,
) -> Result<Whole, StorageError> {
    // The page comes back as bytes, not text: on a Durable Object a text
    // value crosses into wasm character by character (wasm-bindgen's
    // string copy), a BLOB in one copy (issue 33's catch-up profile).
    let sql = format!(
        "SELECT CAST({} AS BLOB), COUNT(*), COALESCE(SUM(row_bytes), 0), MAX(event_offset) FROM \
           (SELECT event_offset, {EVENT_JSON} AS event, {ROW_BYTES} AS row_bytes FROM events \
            WHERE {filter} ORDER BY event_offset LIMIT +?)",
        order.concatenated()
    );
    let Ok(mut totals) = storage.query(&sql, window) else {
        // Past the value limit (any other failure fails the read's next statement too).
        return Ok(Whole::Cut);
    };
    let Some(row) = totals.first_mut() else {
        return Ok(Whole::Cut);
    };
    let columns = Columns { query: &sql, row };
    let count = columns.int(1)?.max(0) as u64;
    let bytes = columns.int(2)?.max(0) as u64;
    if count > 1 && bytes > u64::try_from(max_bytes).unwrap_or(u64::MAX) {
        return Ok(Whole::Cut);
    }
    let last_offset = match count {
        0 => None,
        _ => Some(columns.int(3)?.max(0) as u64),
    };
    let mut events_json = String::from("[");
    match page_text(&sql, row)? {
        Marked::Written(text) => events_json.push_str(&text),
        Marked::Unordered => return Ok(Whole::Unordered),
        Marked::Empty => {}
    }
    events_json.push(']');
    let page = JsonPage {
        events_json,
        count,
        last_offset,
    };
    Ok(Whole::Page((page, count < limit)))
}

/// A page query's concatenated JSON (its first column), its marks taken
/// out ([`marks_written`]).
fn page_text(sql: &str, row: &mut [SqlValue]) -> Result<Marked, StorageError> {
    let undecodable = || StorageError::Decode {
        query: crate::text::query_excerpt(sql),
        column: 0,
    };
    match row.first_mut().map(|value| std::mem::replace(value, SqlValue::Null)) {
        Some(SqlValue::Null) => Ok(Marked::Empty),
        Some(SqlValue::Blob(bytes)) => {
            let text = String::from_utf8(bytes).map_err(|_| undecodable())?;
            marks_written(&text).ok_or_else(undecodable)
        }
        _ => Err(undecodable()),
    }
}

/// A page's text with its marks taken out.
#[derive(Debug, PartialEq, Eq)]
enum Marked {
    /// No event.
    Empty,
    /// The events' JSON.
    Written(String),
    /// The offsets did not ascend.
    Unordered,
}

/// `text` with each offset's [`MARK`] taken out, and each `createdAt`'s
/// mark and digits written as the quoted date [`crate::time::rfc3339_millis`]
/// writes; a page's events mostly share their second, so its text is kept
/// for the next one. [`Marked::Unordered`] when an offset does not pass
/// the one before; `None`: a mark without digits.
fn marks_written(text: &str) -> Option<Marked> {
    // Sized by a page already held (within SQLite's value limit), and
    // each date adds 13 bytes to a row of about a hundred.
    let mut written = String::with_capacity(text.len() + text.len() / 8);
    let mut second: Option<(i64, String)> = None;
    let mut last_offset: Option<u64> = None;
    let mut marks = 0usize;
    let mut rest = text;
    // Budget: each step passes one mark, a byte of the page.
    for _mark in 0..=text.len() {
        let Some(at) = rest.find(MARK) else {
            break;
        };
        written.push_str(rest.get(..at)?);
        let after = rest.get(at + MARK.len_utf8()..)?;
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let number = after.get(..digits)?;
        rest = after.get(digits..)?;
        marks += 1;
        if marks % 2 == 1 {
            let offset: u64 = number.parse().ok()?;
            if last_offset.is_some_and(|last| offset <= last) {
                return Some(Marked::Unordered);
            }
            last_offset = Some(offset);
            written.push_str(number);
            continue;
        }
        let ms: i64 = number.parse().ok()?;
        let this_second = ms.div_euclid(1000);
        let date = match &second {
            Some((kept, date)) if *kept == this_second => date,
            _ => {
                let full = crate::time::rfc3339_millis(ms);
                let seconds = full.get(..full.rfind('.')?)?.to_owned();
                &second.insert((this_second, seconds)).1
            }
        };
        written.push('"');
        written.push_str(date);
        let millis = ms.rem_euclid(1000);
        written.push('.');
        for digit in [millis / 100, millis / 10 % 10, millis % 10] {
            written.push(char::from(b'0' + digit as u8));
        }
        written.push_str("Z\"");
    }
    if marks % 2 == 1 || rest.contains(MARK) {
        return None;
    }
    written.push_str(rest);
    Some(match marks {
        0 if written.is_empty() => Marked::Empty,
        _ => Marked::Written(written),
    })
}

fn sizes_last_offset(sql: &str, sizes: &[Vec<SqlValue>]) -> Result<Option<u64>, StorageError> {
    sizes
        .last()
        .map(|row| Ok(Columns { query: sql, row }.int(0)?.max(0) as u64))
        .transpose()
}

/// Offsets after `after` through `through`: one chunk of a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Chunk {
    after: u64,
    through: u64,
}

/// The rows of `sizes` (offset, row bytes, JSON bytes) that fit in
/// `max_bytes` (at least one), cut where the JSON text passes a multiple of
/// [`PAGE_CHUNK_BYTES`].
fn chunks_within(sql: &str, sizes: &[Vec<SqlValue>], after: u64, max_bytes: usize) -> Result<Vec<Chunk>, StorageError> {
    let max_bytes = u64::try_from(max_bytes).unwrap_or(u64::MAX);
    let mut chunks: Vec<Chunk> = Vec::new();
    let (mut bytes, mut json_bytes, mut previous) = (0u64, 0u64, after);
    let mut current_chunk = None;
    for row in sizes {
        let columns = Columns { query: sql, row };
        let offset = columns.int(0)?.max(0) as u64;
        let size = columns.int(1)?.max(0) as u64;
        let json_size = columns.int(2)?.max(0) as u64;
        if !chunks.is_empty() && bytes.saturating_add(size) > max_bytes {
            break;
        }
        bytes = bytes.saturating_add(size);
        json_bytes = json_bytes.saturating_add(json_size);
        let chunk = json_bytes.saturating_sub(1) / PAGE_CHUNK_BYTES;
        match chunks.last_mut() {
            Some(last) if current_chunk == Some(chunk) => last.through = offset,
            _ => chunks.push(Chunk {
                after: previous,
                through: offset,
            }),
        }
        current_chunk = Some(chunk);
        previous = offset;
    }
    Ok(chunks)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn sizes(rows: &[(u64, u64, u64)]) -> Vec<Vec<SqlValue>> {
        rows.iter()
            .map(|(offset, size, json)| vec![(*offset).into(), (*size).into(), (*json).into()])
            .collect()
    }

    /// A page's `createdAt` is the engine's text, to the millisecond: every
    /// millisecond of a second, the edges of days, months, leap days and
    /// years, and the platform's range up to year 9999; marks in a row
    /// share or change their second. The offsets' marks go, their digits stay.
    #[test]
    fn s3_marks_are_written_as_the_engines_text() {
        let mut cases: Vec<i64> = (0..1000).map(|ms| 1_796_551_214_000 + ms).collect();
        cases.extend([
            0,
            1,
            999,
            86_399_999,
            86_400_000,
            951_782_399_999, // 2000-02-28T23:59:59.999
            951_868_799_999, // 2000-02-29T23:59:59.999
            1_709_251_199_999,
            1_709_251_200_000,
            4_102_444_799_999,
            4_102_444_800_000,
            253_402_300_799_999, // 9999-12-31T23:59:59.999
        ]);
        let mut seed = 0x5eed_u64;
        for _ in 0..20_000 {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            cases.push(((seed >> 11) % 253_402_300_800_000) as i64);
        }
        let mut page = String::new();
        let mut expected = String::new();
        for (offset, ms) in cases.iter().enumerate() {
            let date = crate::time::rfc3339_millis(*ms);
            page.push_str(&format!(
                "{{\"offset\":{MARK}{offset},\"createdAt\":{MARK}{ms},\"ü\":\"\\u0001\"}},"
            ));
            expected.push_str(&format!(
                "{{\"offset\":{offset},\"createdAt\":\"{date}\",\"ü\":\"\\u0001\"}},"
            ));
        }
        assert_eq!(marks_written(&page), Some(Marked::Written(expected)));
        assert_eq!(marks_written(""), Some(Marked::Empty));
    }

    #[test]
    fn offsets_that_do_not_ascend_or_marks_without_digits_are_told() {
        let event = |offset: u64| format!("{{\"offset\":{MARK}{offset},\"createdAt\":{MARK}1796551214000}}");
        let page = |offsets: &[u64]| {
            offsets
                .iter()
                .map(|offset| event(*offset))
                .collect::<Vec<_>>()
                .join(",")
        };
        assert!(matches!(marks_written(&page(&[3, 4, 9])), Some(Marked::Written(_))));
        assert_eq!(marks_written(&page(&[3, 9, 4])), Some(Marked::Unordered));
        assert_eq!(marks_written(&page(&[3, 3])), Some(Marked::Unordered));
        assert_eq!(
            marks_written(&format!("{{\"offset\":{MARK},\"createdAt\":{MARK}1}}")),
            None
        );
        assert_eq!(
            marks_written(&format!("{{\"offset\":{MARK}7}}")),
            None,
            "an offset without its createdAt"
        );
    }

    #[test]
    fn the_first_row_always_fits_and_the_budget_cuts_the_rest() {
        let rows = sizes(&[(3, 900, 1000), (4, 200, 300), (5, 10, 20)]);
        assert_eq!(
            chunks_within("q", &rows, 2, 500).unwrap(),
            vec![Chunk { after: 2, through: 3 }]
        );
        assert_eq!(
            chunks_within("q", &rows, 2, 1100).unwrap(),
            vec![Chunk { after: 2, through: 4 }]
        );
        assert!(chunks_within("q", &[], 2, 1100).unwrap().is_empty());
    }

    #[test]
    fn chunks_are_cut_where_the_json_passes_a_multiple_of_the_chunk_size() {
        let half = PAGE_CHUNK_BYTES / 2;
        let rows = sizes(&[
            (1, 1, half),
            (2, 1, half),
            (3, 1, half),
            (5, 1, 1),
            (6, 1, 2 * PAGE_CHUNK_BYTES),
        ]);
        assert_eq!(
            chunks_within("q", &rows, 0, usize::MAX).unwrap(),
            vec![
                Chunk { after: 0, through: 2 },
                Chunk { after: 2, through: 5 },
                Chunk { after: 5, through: 6 },
            ]
        );
    }
}
