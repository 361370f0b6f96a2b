//! The stamp of a delivery run (docs/design.md §6 rule 7, §7): the source
//! lifetime (`streamId`, `streamCreatedAt`) and the config generation.
//!
//! One name per concept: the config generation — the offset of the
//! `subscription-configured` or `subscription-cursor-set` event that started
//! the run — is `cursor_changed_at_source_offset` in Rust everywhere, after
//! its wire name `cursorChangedAtSourceOffset` (§7). It is stored as the
//! `run_offset` column of `subscription_runtime`, shown as `runOffset` on the
//! debug card (§11) and is `setAtSourceOffset` inside a reduced `cursorSet`
//! (§5); those stored and wire names stay.

use crate::time::{days_from_civil, rfc3339_millis};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// Which run produced a batch or a copy (§7). On the wire (and in the
/// reduced state) its fields are `streamId`, `streamCreatedAt` and
/// `cursorChangedAtSourceOffset`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunStamp {
    pub stream_id: String,
    /// RFC 3339 UTC with milliseconds (§3), as `time::rfc3339_millis` writes it.
    pub stream_created_at: String,
    /// The config generation (§7).
    pub cursor_changed_at_source_offset: u64,
}

impl RunStamp {
    /// The lifetime's start in Unix milliseconds, when `stream_created_at`
    /// is in the canonical form the engine writes (§3).
    pub fn stream_created_at_ms(&self) -> Option<i64> {
        parse_rfc3339_millis(&self.stream_created_at)
    }

    /// How this stamp orders against `other` (§7 rule 2): by lifetime, its
    /// `streamCreatedAt` compared as a time, then by generation as an
    /// integer. The stream id does not order. A lifetime that is not in the
    /// canonical form (never written by the engine) orders by its text.
    pub fn order(&self, other: &RunStamp) -> Ordering {
        let lifetime = match (self.stream_created_at_ms(), other.stream_created_at_ms()) {
            (Some(mine), Some(theirs)) => mine.cmp(&theirs),
            _ => self.stream_created_at.cmp(&other.stream_created_at),
        };
        lifetime.then(
            self.cursor_changed_at_source_offset
                .cmp(&other.cursor_changed_at_source_offset),
        )
    }

    /// Whether the fence rejects this stamp against the last `accepted` one
    /// (§7 rule 2): strictly older. Equal is redelivery; newer is accepted.
    pub fn is_older_than(&self, accepted: &RunStamp) -> bool {
        self.order(accepted) == Ordering::Less
    }
}

/// Parses the exact form [`rfc3339_millis`] writes (`YYYY-MM-DDTHH:MM:SS.mmmZ`,
/// the year zero-padded to four digits, possibly signed or longer) back to
/// Unix milliseconds. Anything else — another offset, missing milliseconds,
/// an impossible date — is `None`: the result is checked by formatting it
/// again, so a parsed time always has exactly one spelling.
pub fn parse_rfc3339_millis(text: &str) -> Option<i64> {
    let (date, time) = text.strip_suffix('Z')?.split_once('T')?;
    let mut date_parts = date.rsplitn(3, '-');
    // Each part fits an i64; widened, no sum or product below can overflow.
    let part = |text: Option<&str>| text?.parse::<i64>().ok().map(i128::from);
    let day = part(date_parts.next())?;
    let month = part(date_parts.next())?;
    let year = part(date_parts.next())?;
    let (clock, millis) = time.split_once('.')?;
    let mut clock_parts = clock.splitn(3, ':');
    let hours = part(clock_parts.next())?;
    let minutes = part(clock_parts.next())?;
    let seconds = part(clock_parts.next())?;
    let millis = part(Some(millis))?;
    let days = days_from_civil(year, month, day);
    let ms = days * 86_400_000 + hours * 3_600_000 + minutes * 60_000 + seconds * 1000 + millis;
    let ms = i64::try_from(ms).ok()?;
    (rfc3339_millis(ms) == text).then_some(ms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn stamp(ms: i64, generation: u64) -> RunStamp {
        RunStamp {
            stream_id: "str_a".to_owned(),
            stream_created_at: rfc3339_millis(ms),
            cursor_changed_at_source_offset: generation,
        }
    }

    /// Lifetimes from about 290,000 BCE to 290,000 CE, so years of any width.
    fn any_ms() -> impl Strategy<Value = i64> {
        -9_000_000_000_000_000i64..9_000_000_000_000_000i64
    }

    #[test]
    fn s7_wire_names_are_the_stamp_fields() {
        let json = serde_json::to_string(&stamp(0, 7)).unwrap_or_default();
        assert_eq!(
            json,
            r#"{"streamId":"str_a","streamCreatedAt":"1970-01-01T00:00:00.000Z","cursorChangedAtSourceOffset":7}"#
        );
    }

    #[test]
    fn s7_generation_orders_as_an_integer() {
        assert!(stamp(0, 9).is_older_than(&stamp(0, 10)));
        assert!(!stamp(0, 10).is_older_than(&stamp(0, 9)));
        assert!(!stamp(0, 10).is_older_than(&stamp(0, 10)));
    }

    #[test]
    fn s7_lifetime_orders_as_a_time_beyond_four_digit_years() {
        // "10000-…" < "9999-…" as text; as times the later lifetime is newer.
        let year_9999 = 253_402_300_799_000;
        let year_10000 = 253_402_300_800_000;
        assert_eq!(rfc3339_millis(year_10000), "10000-01-01T00:00:00.000Z");
        assert!(stamp(year_9999, 50).is_older_than(&stamp(year_10000, 1)));
        assert!(!stamp(year_10000, 1).is_older_than(&stamp(year_9999, 50)));
    }

    #[test]
    fn s3_only_the_canonical_form_parses() {
        assert_eq!(
            parse_rfc3339_millis("2026-11-29T14:42:18.123Z"),
            Some(1_795_963_338_123)
        );
        for text in [
            "2026-11-29T14:42:18Z",
            "2026-11-29T14:42:18.123+00:00",
            "2026-02-30T00:00:00.000Z",
            "2026-11-29T24:00:00.000Z",
            "26-11-29T14:42:18.123Z",
            "",
            "garbage",
        ] {
            assert_eq!(parse_rfc3339_millis(text), None, "{text}");
        }
    }

    proptest! {
        #[test]
        fn s3_time_round_trips(ms in any_ms()) {
            prop_assert_eq!(parse_rfc3339_millis(&rfc3339_millis(ms)), Some(ms));
        }

        #[test]
        fn s7_stamp_round_trips_through_json(ms in any_ms(), generation in 0u64..(1 << 53), id in "[a-z0-9_]{1,20}") {
            let original = RunStamp { stream_id: id, ..stamp(ms, generation) };
            let json = serde_json::to_string(&original).unwrap_or_default();
            let decoded: Result<RunStamp, _> = serde_json::from_str(&json);
            prop_assert_eq!(decoded.ok(), Some(original));
        }

        #[test]
        fn s7_order_is_time_then_generation(a in any_ms(), b in any_ms(), x in 0u64..(1 << 53), y in 0u64..(1 << 53)) {
            prop_assert_eq!(stamp(a, x).order(&stamp(b, y)), (a, x).cmp(&(b, y)));
        }
    }
}
