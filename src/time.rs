//! Rendering of timestamps the engine was given (it never reads a clock, §1).

/// Formats Unix milliseconds as RFC 3339 UTC with milliseconds (§3), e.g.
/// `2026-11-29T14:42:18.123Z`.
pub fn rfc3339_millis(unix_ms: i64) -> String {
    let days = unix_ms.div_euclid(86_400_000);
    let ms_of_day = unix_ms.rem_euclid(86_400_000);
    let (year, month, day) = civil_from_days(days);
    let hours = ms_of_day / 3_600_000;
    let minutes = (ms_of_day / 60_000) % 60;
    let seconds = (ms_of_day / 1000) % 60;
    let millis = ms_of_day % 1000;
    if !(0..=9999).contains(&year) {
        return format!("{year:04}-{month:02}-{day:02}T{hours:02}:{minutes:02}:{seconds:02}.{millis:03}Z");
    }
    // Every copy's provenance hop and every committed event's `createdAt`
    // is written here: the digits directly, not through `format!`.
    let mut text = String::with_capacity(24);
    for (value, width, separator) in [
        (year, 4, '-'),
        (month, 2, '-'),
        (day, 2, 'T'),
        (hours, 2, ':'),
        (minutes, 2, ':'),
        (seconds, 2, '.'),
        (millis, 3, 'Z'),
    ] {
        push_digits(&mut text, value, width);
        text.push(separator);
    }
    text
}

/// Pushes the last `width` decimal digits of `value` (≥ 0), zero-padded.
fn push_digits(text: &mut String, value: i64, width: u32) {
    for place in (0..width).rev() {
        let digit = (value / 10i64.pow(place)) % 10;
        text.push(char::from(b'0' + digit as u8));
    }
}

/// Days since 1970-01-01 to a proleptic Gregorian (year, month, day)
/// (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
/// `days_from_civil`, the inverse of [`civil_from_days`]). Wide integers:
/// parts of i64 range cannot overflow before the range check.
pub(crate) fn days_from_civil(year: i128, month: i128, day: i128) -> i128 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let shifted_month = if month > 2 { month - 3 } else { month + 9 };
    let day_of_year = (153 * shifted_month + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// Parses any RFC 3339 `date-time` (§5.6: a four-digit year, `T` or `t`,
/// optional fraction, `Z`, `z` or `±HH:MM`) to Unix milliseconds, or
/// `None`. A fraction finer than a millisecond rounds up, so a deadline read
/// from text is never earlier than the one written; a leap second (`:60`)
/// counts as the first millisecond of the next minute.
pub fn parse_rfc3339(text: &str) -> Option<i64> {
    let bytes = text.as_bytes();
    let number = |from: usize, digits: usize| -> Option<i128> {
        let part = bytes.get(from..from + digits)?;
        part.iter().try_fold(0i128, |total, &b| {
            b.is_ascii_digit().then(|| total * 10 + i128::from(b - b'0'))
        })
    };
    let separators = [(4, b'-'), (7, b'-'), (13, b':'), (16, b':')];
    if separators.iter().any(|&(at, byte)| bytes.get(at) != Some(&byte)) || !matches!(bytes.get(10), Some(b'T' | b't'))
    {
        return None;
    }
    let (year, month, day) = (number(0, 4)?, number(5, 2)?, number(8, 2)?);
    let (hour, minute, second) = (number(11, 2)?, number(14, 2)?, number(17, 2)?);
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let (fraction_ms, offset_at) = fraction_millis(bytes, 19)?;
    let offset_minutes = offset_minutes(bytes.get(offset_at..)?)?;
    let days = days_from_civil(year, month, day);
    let ms =
        days * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000 + fraction_ms - offset_minutes * 60_000;
    i64::try_from(ms).ok()
}

/// `.d+` at `at`, if any: its milliseconds rounded up, and where it ends.
fn fraction_millis(bytes: &[u8], at: usize) -> Option<(i128, usize)> {
    if bytes.get(at) != Some(&b'.') {
        return Some((0, at));
    }
    let digits = bytes.get(at + 1..)?.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let fraction = bytes.get(at + 1..at + 1 + digits)?;
    let millis = (0..3).fold(0i128, |total, index| {
        total * 10 + fraction.get(index).map_or(0, |&b| i128::from(b - b'0'))
    });
    let finer = fraction.iter().skip(3).any(|&b| b != b'0');
    Some((millis + i128::from(finer), at + 1 + digits))
}

/// `Z`, `z` or `±HH:MM` (the whole rest of the text), in minutes east.
fn offset_minutes(rest: &[u8]) -> Option<i128> {
    match rest {
        [b'Z' | b'z'] => Some(0),
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let digit = |b: &u8| b.is_ascii_digit().then(|| i128::from(b - b'0'));
            let hours = digit(h1)? * 10 + digit(h2)?;
            let minutes = digit(m1)? * 10 + digit(m2)?;
            if hours > 23 || minutes > 59 {
                return None;
            }
            let east = hours * 60 + minutes;
            Some(if *sign == b'-' { -east } else { east })
        }
        _ => None,
    }
}

fn days_in_month(year: i128, month: i128) -> i128 {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_rfc3339, rfc3339_millis};
    use proptest::prelude::*;

    #[test]
    fn parses_rfc_3339_offsets_fractions_and_lowercase() {
        let at = 1_795_963_338_123;
        assert_eq!(parse_rfc3339("2026-11-29T14:42:18.123Z"), Some(at));
        assert_eq!(parse_rfc3339("2026-11-29t14:42:18.123z"), Some(at));
        assert_eq!(parse_rfc3339("2026-11-29T15:42:18.123+01:00"), Some(at));
        assert_eq!(parse_rfc3339("2026-11-29T14:42:18.123+00:00"), Some(at));
        assert_eq!(parse_rfc3339("2026-11-29T14:42:18.123-00:00"), Some(at));
        assert_eq!(parse_rfc3339("2026-11-29T04:12:18.123-10:30"), Some(at));
        assert_eq!(parse_rfc3339("2026-11-29T14:42:18Z"), Some(at - 123));
        assert_eq!(parse_rfc3339("2026-11-29T14:42:18.1Z"), Some(at - 23));
        // Finer than a millisecond rounds up: never earlier than written.
        assert_eq!(parse_rfc3339("2026-11-29T14:42:18.123000000Z"), Some(at));
        assert_eq!(parse_rfc3339("2026-11-29T14:42:18.122000001Z"), Some(at));
        assert_eq!(parse_rfc3339("2000-02-29T00:00:00Z"), Some(951_782_400_000));
        assert_eq!(
            parse_rfc3339("1998-12-31T23:59:60Z"),
            parse_rfc3339("1999-01-01T00:00:00Z")
        );
        assert_eq!(parse_rfc3339("0000-01-01T00:00:00Z"), Some(-62_167_219_200_000));
    }

    #[test]
    fn refuses_what_rfc_3339_does_not_write() {
        for text in [
            "",
            "not-a-timestamp",
            "2026-11-29",
            "2026-11-29T14:42:18",
            "2026-11-29 14:42:18Z",
            "2026-11-29T14:42Z",
            "2026-11-29T14:42:18.Z",
            "2026-11-29T14:42:18,123Z",
            "2026-13-01T00:00:00Z",
            "2026-00-01T00:00:00Z",
            "2026-02-29T00:00:00Z",
            "1900-02-29T00:00:00Z",
            "2026-04-31T00:00:00Z",
            "2026-11-29T24:00:00Z",
            "2026-11-29T14:60:00Z",
            "2026-11-29T14:42:61Z",
            "2026-11-29T14:42:18+24:00",
            "2026-11-29T14:42:18+01:60",
            "2026-11-29T14:42:18+0100",
            "2026-11-29T14:42:18+01",
            "2026-11-29T14:42:18ZZ",
            "2026-11-29T14:42:18Z ",
            " 2026-11-29T14:42:18Z",
            "+2026-11-29T14:42:18Z",
            "12026-11-29T14:42:18Z",
            "2026-1-29T14:42:18Z",
            "２０２６-11-29T14:42:18Z",
            "1795963338123",
        ] {
            assert_eq!(parse_rfc3339(text), None, "{text:?}");
        }
        let long_fraction = format!("2026-11-29T14:42:18.{}Z", "0".repeat(100_000));
        assert_eq!(parse_rfc3339(&long_fraction), Some(1_795_963_338_000));
    }

    /// The formatting `rfc3339_millis` replaced, kept to check it against.
    fn formatted(unix_ms: i64) -> String {
        let days = unix_ms.div_euclid(86_400_000);
        let ms_of_day = unix_ms.rem_euclid(86_400_000);
        let (year, month, day) = super::civil_from_days(days);
        let (hours, minutes) = (ms_of_day / 3_600_000, (ms_of_day / 60_000) % 60);
        let (seconds, millis) = ((ms_of_day / 1000) % 60, ms_of_day % 1000);
        format!("{year:04}-{month:02}-{day:02}T{hours:02}:{minutes:02}:{seconds:02}.{millis:03}Z")
    }

    #[test]
    fn writes_the_digits_format_wrote_at_the_edges() {
        let day = 86_400_000;
        let year_10000 = 253_402_300_800_000;
        let year_0 = -62_167_219_200_000;
        for ms in [
            0,
            -1,
            1,
            999,
            1000,
            59_999,
            60_000,
            3_599_999,
            day - 1,
            day,
            951_782_400_000,
            951_782_400_000 + day,
            1_795_963_338_123,
            year_10000 - 1,
            year_10000,
            year_0,
            year_0 - 1,
            -day,
            i64::MAX / 2,
            i64::MIN / 2,
        ] {
            assert_eq!(rfc3339_millis(ms), formatted(ms), "{ms}");
        }
    }

    proptest! {
        #[test]
        fn writes_the_digits_format_wrote(ms in -100_000_000_000_000i64..300_000_000_000_000) {
            prop_assert_eq!(rfc3339_millis(ms), formatted(ms));
        }

        #[test]
        fn reads_back_what_rfc3339_millis_writes(ms in 0i64..253_402_300_800_000) {
            prop_assert_eq!(parse_rfc3339(&rfc3339_millis(ms)), Some(ms));
        }

        #[test]
        fn arbitrary_text_parses_only_when_it_spells_a_full_date_time(text in "\\PC{0,40}|[0-9:T.Z+-]{19,30}") {
            if parse_rfc3339(&text).is_some() {
                prop_assert!(text.len() >= 20 && text.is_ascii(), "{text:?}");
            }
        }
    }

    #[test]
    fn formats_epoch_leap_days_and_millis() {
        assert_eq!(rfc3339_millis(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339_millis(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(rfc3339_millis(1_795_963_338_123), "2026-11-29T14:42:18.123Z");
        assert_eq!(rfc3339_millis(-1), "1969-12-31T23:59:59.999Z");
    }
}
