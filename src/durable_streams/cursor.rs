//! `Stream-Cursor` (PROTOCOL §10.1 "Server-Generated Cursors", §5.7,
//! §5.8): every live answer carries the current 20-second interval counted
//! from 2024-10-09T00:00:00Z, so a CDN collapsing long-polls by URL never
//! serves one cached answer forever; a client echoing a cursor at or past
//! the current interval gets a larger one (a jitter of 1 to 3600 s), so
//! cursors never go backwards. The jitter's randomness is an input (§1).

use crate::limits::{CURSOR_EPOCH_MS, CURSOR_INTERVAL_MS, CURSOR_MAX_JITTER_SECONDS, MAX_SAFE_INTEGER};

/// Longest `cursor` query value considered (2^53 − 1 has 16 digits).
const MAX_CURSOR_DIGITS: usize = 16;

/// The interval number at `now_ms` (0 before the epoch).
pub fn current_interval(now_ms: i64) -> u64 {
    u64::try_from(now_ms.saturating_sub(CURSOR_EPOCH_MS) / CURSOR_INTERVAL_MS).unwrap_or(0)
}

/// The client's echoed `cursor`, when it is one this server could have
/// written (decimal, at most 2^53 − 1). Anything else is ignored rather than
/// refused: the cursor only keys caches (PROTOCOL §5.7 "optional").
pub fn parse(text: &str) -> Option<u64> {
    if text.is_empty() || text.len() > MAX_CURSOR_DIGITS || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u64>().ok().filter(|cursor| *cursor <= MAX_SAFE_INTEGER)
}

/// The cursor of a live answer at `now_ms`: the current interval, or more
/// than the client's when the client's is not behind it. `random` is any
/// random number from the shell; it picks the jitter.
pub fn response_cursor(now_ms: i64, client: Option<u64>, random: u64) -> u64 {
    let current = current_interval(now_ms);
    match client {
        Some(echoed) if echoed >= current => echoed.saturating_add(jitter_intervals(random)),
        _ => current,
    }
}

/// 1 to 3600 seconds of jitter, in whole intervals (at least one).
fn jitter_intervals(random: u64) -> u64 {
    let seconds = 1 + random % CURSOR_MAX_JITTER_SECONDS;
    let interval_seconds = u64::try_from(CURSOR_INTERVAL_MS / 1000).unwrap_or(1).max(1);
    seconds.div_ceil(interval_seconds).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_cursor_is_the_twenty_second_interval_since_the_epoch() {
        assert_eq!(current_interval(CURSOR_EPOCH_MS), 0);
        assert_eq!(current_interval(CURSOR_EPOCH_MS + 19_999), 0);
        assert_eq!(current_interval(CURSOR_EPOCH_MS + 20_000), 1);
        assert_eq!(current_interval(0), 0);
        assert_eq!(current_interval(i64::MIN), 0);
        let now = 1_795_963_338_000;
        assert_eq!(current_interval(now), 3_376_566);
        assert_eq!(response_cursor(now, None, 7), 3_376_566);
        assert_eq!(response_cursor(now, Some(3_376_565), 7), 3_376_566);
    }

    #[test]
    fn an_echoed_current_or_future_cursor_moves_forward_by_a_jitter() {
        let now = 1_795_963_338_000;
        let current = current_interval(now);
        assert_eq!(response_cursor(now, Some(current), 0), current + 1);
        assert_eq!(response_cursor(now, Some(current), 3_599), current + 180);
        assert_eq!(response_cursor(now, Some(current + 50), 39), current + 52);
    }

    #[test]
    fn only_decimal_cursors_up_to_2_pow_53_are_read() {
        assert_eq!(parse("1000"), Some(1000));
        assert_eq!(parse("0"), Some(0));
        assert_eq!(parse("9007199254740991"), Some(MAX_SAFE_INTEGER));
        for ignored in [
            "",
            "abc",
            "-1",
            "+5",
            "1e3",
            " 5",
            "9007199254740992",
            "99999999999999999999",
            "٣",
        ] {
            assert_eq!(parse(ignored), None, "{ignored}");
        }
        assert_eq!(parse(&"9".repeat(100_000)), None);
    }

    proptest! {
        #[test]
        fn cursors_never_go_backwards(now in 0i64..4_000_000_000_000, echoed in 0..=MAX_SAFE_INTEGER, random: u64) {
            let cursor = response_cursor(now, Some(echoed), random);
            prop_assert!(cursor >= current_interval(now));
            prop_assert!(cursor > echoed || echoed < current_interval(now));
            prop_assert!(cursor <= echoed.max(current_interval(now)) + 180);
        }
    }
}
