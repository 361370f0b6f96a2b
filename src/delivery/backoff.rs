//! Bounded exponential backoff with ±20% jitter (docs/design.md §6 rule 5). The
//! jitter comes from entropy the caller passes in.

use crate::subscription::Retry;

/// Delay before attempt `attempt + 1`, after `attempt` failures (1-based):
/// `min(max, initial·2^(attempt-1))`, scaled by a factor in [0.8, 1.2].
pub fn backoff_ms(retry: &Retry, attempt: u64, entropy: [u8; 16]) -> i64 {
    let exponent = attempt.saturating_sub(1).min(62) as u32;
    let base = retry
        .initial_backoff_ms
        .saturating_mul(1u64 << exponent)
        .min(retry.max_backoff_ms);
    let unit = f64::from(u16::from_le_bytes([entropy[0], entropy[1]])) / f64::from(u16::MAX);
    let factor = 0.8 + 0.4 * unit;
    ((base as f64) * factor).round().max(1.0) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_caps_and_jitters_within_twenty_percent() {
        let retry = Retry {
            max_attempts: 15,
            initial_backoff_ms: 1_000,
            max_backoff_ms: 30_000,
        };
        let middle = [0x00, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        assert_eq!(backoff_ms(&retry, 1, middle), 1_000);
        assert_eq!(backoff_ms(&retry, 2, middle), 2_000);
        assert_eq!(backoff_ms(&retry, 10, middle), 30_000);
        assert_eq!(backoff_ms(&retry, 1, [0; 16]), 800);
        assert_eq!(backoff_ms(&retry, 1, [0xff; 16]), 1_200);
        assert_eq!(backoff_ms(&retry, 1_000, [0xff; 16]), 36_000);
    }
}
