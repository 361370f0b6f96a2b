//! A stream's expiry (docs/design.md §17 "Expiry", PROTOCOL §5.1): a sliding
//! `Stream-TTL` renewed by reads and writes (not `HEAD`), or an absolute
//! `Stream-Expires-At`; an expired stream is deleted as `DELETE` would, by
//! its alarm and lazily at the next request.
//!
//! **Renewal without a write per read.** Two deadlines exist for a sliding
//! TTL. The *true* deadline is the last read or write plus the TTL; only
//! the object in memory knows it ([`LastAccess`], lost when the object is
//! evicted). The *stored* deadline is what SQLite holds, and it is never
//! earlier than the true one: a renewal persists a new stored deadline only
//! when the true one would pass it, and then stores the true one plus
//! [`EXPIRY_RENEWAL_SLACK_MS`]. So continuous traffic writes at most once
//! per slack, and:
//! - while the object is in memory, a request or the alarm expires the
//!   stream at the true deadline exactly;
//! - after an eviction (the last access forgotten) it expires at the stored
//!   deadline: late by at most the slack (plus the platform's alarm delay),
//!   never early, because the stored deadline bounds the true one from above.

use crate::limits::{EXPIRY_RENEWAL_SLACK_MS, MAX_EXPIRES_AT_MS, MAX_STREAM_TTL_SECONDS};
use crate::time::rfc3339_millis;

/// How a stream ends by itself (§17 "Expiry").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Expiry {
    /// Lives until deleted.
    #[default]
    Never,
    /// Expires after this many seconds without a read or write.
    Sliding { ttl_seconds: u64 },
    /// Expires at this instant, whatever happens before.
    At { at_ms: i64 },
}

/// The last read or write this object served, in memory only: `None` after
/// the object was (re)loaded. The stream object keeps one and updates it on
/// every renewing request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LastAccess(pub Option<i64>);

/// What the stream persists: its expiry and the stored deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoredExpiry {
    pub expiry: Expiry,
    /// For [`Expiry::Sliding`]: at or after the true deadline (see the module
    /// documentation); for [`Expiry::At`]: the instant; else `None`.
    pub deadline_ms: Option<i64>,
}

/// What an alarm does about expiry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExpiryAlarm {
    /// The stream never expires: no alarm for expiry.
    Nothing,
    /// Delete the stream now, as `DELETE` would.
    Delete,
    /// Not yet: wake again at this instant.
    WakeAt(i64),
}

impl Expiry {
    /// The protocol's headers for this expiry (`HEAD`, PROTOCOL §5.5):
    /// `Stream-TTL: <seconds>` or `Stream-Expires-At: <RFC 3339 UTC>`.
    pub fn headers(self) -> Vec<(&'static str, String)> {
        use super::names::{STREAM_EXPIRES_AT, STREAM_TTL};
        match self {
            Expiry::Never => Vec::new(),
            Expiry::Sliding { ttl_seconds } => vec![(STREAM_TTL, ttl_seconds.to_string())],
            Expiry::At { at_ms } => vec![(STREAM_EXPIRES_AT, rfc3339_millis(at_ms))],
        }
    }
}

fn ttl_ms(ttl_seconds: u64) -> i64 {
    // At most MAX_STREAM_TTL_SECONDS (checked when parsed): far below i64.
    i64::try_from(ttl_seconds.min(MAX_STREAM_TTL_SECONDS)).unwrap_or(i64::MAX / 2_000) * 1000
}

/// The last instant anything is stored: deadlines saturate here.
const LATEST_MS: i64 = MAX_EXPIRES_AT_MS;

impl StoredExpiry {
    /// A stream created at `now_ms` with `expiry`; the creation is its first
    /// write, so a sliding deadline starts with the slack.
    pub fn create(expiry: Expiry, now_ms: i64) -> StoredExpiry {
        let deadline_ms = match expiry {
            Expiry::Never => None,
            Expiry::Sliding { ttl_seconds } => Some(slack_deadline(ttl_seconds, now_ms)),
            Expiry::At { at_ms } => Some(at_ms),
        };
        StoredExpiry { expiry, deadline_ms }
    }

    /// A read or write at `now_ms` (not `HEAD`, PROTOCOL §5.1): the new stored
    /// deadline to persist, or `None` when the stored one still bounds the
    /// renewed true deadline (no write). Live reads renew when the server
    /// begins the request (and, being long, may renew again while they wait).
    pub fn renew(&self, now_ms: i64) -> Option<i64> {
        let Expiry::Sliding { ttl_seconds } = self.expiry else {
            return None;
        };
        let true_deadline = now_ms.saturating_add(ttl_ms(ttl_seconds)).min(LATEST_MS);
        match self.deadline_ms {
            Some(stored) if stored >= true_deadline => None,
            _ => Some(slack_deadline(ttl_seconds, now_ms)),
        }
    }

    /// The deadline as best known: the true one while `last` is in memory
    /// (never later than the stored one), else the stored one.
    pub fn deadline(&self, last: LastAccess) -> Option<i64> {
        match (self.expiry, last.0) {
            (Expiry::Never, _) => None,
            (Expiry::Sliding { ttl_seconds }, Some(at)) => {
                let true_deadline = at.saturating_add(ttl_ms(ttl_seconds)).min(LATEST_MS);
                Some(
                    self.deadline_ms
                        .map_or(true_deadline, |stored| stored.min(true_deadline)),
                )
            }
            (Expiry::Sliding { .. }, None) | (Expiry::At { .. }, _) => self.deadline_ms,
        }
    }

    /// Whether the stream is gone at `now_ms` (checked at every request,
    /// `HEAD` included, before anything else: an expired stream is 404).
    pub fn expired(&self, last: LastAccess, now_ms: i64) -> bool {
        self.deadline(last).is_some_and(|deadline| now_ms >= deadline)
    }

    /// What an alarm at `now_ms` does: the stream object arms its alarm at
    /// the stored deadline (or earlier, for other work) and asks here.
    pub fn on_alarm(&self, last: LastAccess, now_ms: i64) -> ExpiryAlarm {
        match self.deadline(last) {
            None => ExpiryAlarm::Nothing,
            Some(deadline) if now_ms >= deadline => ExpiryAlarm::Delete,
            Some(deadline) => ExpiryAlarm::WakeAt(deadline),
        }
    }

    /// Seconds a response may be cached before the stream may have expired:
    /// `None` when it never expires (PROTOCOL §5.6 "derived from TTL/expiry").
    pub fn seconds_left(&self, last: LastAccess, now_ms: i64) -> Option<u64> {
        let deadline = self.deadline(last)?;
        Some(u64::try_from(deadline.saturating_sub(now_ms) / 1000).unwrap_or(0))
    }
}

fn slack_deadline(ttl_seconds: u64, now_ms: i64) -> i64 {
    now_ms
        .saturating_add(ttl_ms(ttl_seconds))
        .saturating_add(EXPIRY_RENEWAL_SLACK_MS)
        .min(LATEST_MS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const T0: i64 = 1_795_963_338_000;

    fn sliding(ttl_seconds: u64) -> StoredExpiry {
        StoredExpiry::create(Expiry::Sliding { ttl_seconds }, T0)
    }

    #[test]
    fn a_sliding_ttl_renews_on_reads_without_a_write_per_read_section_17() {
        let mut stored = sliding(10);
        assert_eq!(stored.deadline_ms, Some(T0 + 10_000 + EXPIRY_RENEWAL_SLACK_MS));
        // Reads within the slack move only the in-memory deadline.
        let mut writes = 0;
        let mut last = LastAccess(Some(T0));
        for step in 1..=100 {
            let now = T0 + step * 100;
            if let Some(deadline) = stored.renew(now) {
                stored.deadline_ms = Some(deadline);
                writes += 1;
            }
            last = LastAccess(Some(now));
            assert_eq!(stored.deadline(last), Some(now + 10_000));
        }
        // 10 s of reads every 100 ms: the creation's slack covers the first
        // 5 s, then one write (at 5.1 s) covers the next 5 s: 1 write, not 100.
        assert_eq!(writes, 1);
        assert!(!stored.expired(last, T0 + 10_000 + 9_999));
        assert!(stored.expired(last, T0 + 10_000 + 10_000));
    }

    #[test]
    fn in_memory_the_stream_expires_exactly_after_an_eviction_late_by_at_most_the_slack() {
        let stored = sliding(1);
        let alive = LastAccess(Some(T0));
        assert!(!stored.expired(alive, T0 + 999));
        assert!(stored.expired(alive, T0 + 1000));
        assert_eq!(stored.on_alarm(alive, T0 + 1000), ExpiryAlarm::Delete);
        let evicted = LastAccess(None);
        assert!(!stored.expired(evicted, T0 + 1000));
        assert_eq!(
            stored.on_alarm(evicted, T0 + 1000),
            ExpiryAlarm::WakeAt(T0 + 1000 + EXPIRY_RENEWAL_SLACK_MS)
        );
        assert!(stored.expired(evicted, T0 + 1000 + EXPIRY_RENEWAL_SLACK_MS));
    }

    #[test]
    fn head_does_not_renew_and_absolute_expiry_never_moves() {
        let at = StoredExpiry::create(Expiry::At { at_ms: T0 + 4_000 }, T0);
        assert_eq!(at.renew(T0 + 3_000), None);
        assert!(!at.expired(LastAccess(Some(T0 + 3_999)), T0 + 3_999));
        assert!(at.expired(LastAccess(Some(T0 + 3_999)), T0 + 4_000));
        assert!(at.expired(LastAccess(None), T0 + 4_000));
        let never = StoredExpiry::create(Expiry::Never, T0);
        assert_eq!((never.renew(T0), never.deadline(LastAccess(Some(T0)))), (None, None));
        assert_eq!(never.on_alarm(LastAccess(None), i64::MAX), ExpiryAlarm::Nothing);
        // A HEAD is not a renewal: the caller does not call `renew`, and the
        // true deadline stays where the last read or write put it.
        let stored = sliding(2);
        assert!(stored.expired(LastAccess(Some(T0)), T0 + 2_000));
    }

    #[test]
    fn a_ttl_of_zero_expires_at_once_and_the_longest_ttl_does_not_overflow() {
        let zero = sliding(0);
        assert!(zero.expired(LastAccess(Some(T0)), T0));
        let longest = StoredExpiry::create(
            Expiry::Sliding {
                ttl_seconds: MAX_STREAM_TTL_SECONDS,
            },
            i64::MAX - 1,
        );
        assert_eq!(longest.deadline_ms, Some(LATEST_MS));
        assert!(!longest.expired(LastAccess(Some(i64::MAX - 1)), T0));
        assert_eq!(longest.renew(i64::MAX), None);
    }

    #[test]
    fn headers_name_the_ttl_or_the_instant() {
        assert_eq!(
            Expiry::Sliding { ttl_seconds: 3600 }.headers(),
            vec![("Stream-TTL", "3600".to_owned())]
        );
        assert_eq!(
            Expiry::At { at_ms: T0 }.headers(),
            vec![("Stream-Expires-At", "2026-11-29T14:42:18.000Z".to_owned())]
        );
        assert!(Expiry::Never.headers().is_empty());
        let stored = sliding(90);
        assert_eq!(stored.seconds_left(LastAccess(Some(T0)), T0 + 500), Some(89));
        assert_eq!(stored.seconds_left(LastAccess(Some(T0)), T0 + 200_000), Some(0));
        assert_eq!(
            StoredExpiry::create(Expiry::Never, T0).seconds_left(LastAccess(None), T0),
            None
        );
    }

    proptest! {
        /// Whatever the pattern of reads and evictions: a stream never
        /// expires before its true deadline, expires exactly at it while the
        /// object remembers its last access, the stored deadline exceeds the
        /// true one by at most the slack (late by a bounded few seconds
        /// after an eviction), and writes are more than a slack apart.
        #[test]
        fn never_early_late_by_at_most_the_slack_and_one_write_per_slack(
            ttl_seconds in 0u64..30,
            steps in proptest::collection::vec((0i64..8_000, any::<bool>()), 1..200),
        ) {
            let mut stored = sliding(ttl_seconds);
            let mut last = LastAccess(Some(T0));
            let mut true_deadline = T0 + ttl_ms(ttl_seconds);
            let mut now = T0;
            let mut writes = vec![T0];
            for (gap, evicted) in steps {
                now += gap;
                if evicted {
                    last = LastAccess(None);
                }
                let gone = stored.expired(last, now);
                prop_assert!(!gone || now >= true_deadline, "expired before the true deadline");
                if last.0.is_some() {
                    prop_assert_eq!(gone, now >= true_deadline);
                }
                if gone {
                    break;
                }
                if let Some(deadline) = stored.renew(now) {
                    stored.deadline_ms = Some(deadline);
                    writes.push(now);
                }
                last = LastAccess(Some(now));
                true_deadline = now + ttl_ms(ttl_seconds);
                let stored_deadline = stored.deadline_ms.unwrap_or(i64::MIN);
                prop_assert!(stored_deadline >= true_deadline);
                prop_assert!(stored_deadline - true_deadline <= EXPIRY_RENEWAL_SLACK_MS);
            }
            for pair in writes.windows(2) {
                if let [earlier, later] = pair {
                    prop_assert!(later - earlier > EXPIRY_RENEWAL_SLACK_MS);
                }
            }
        }
    }
}
