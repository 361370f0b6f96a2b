//! Protocol offsets (docs/design.md §17 "Offsets", PROTOCOL §8): the token
//! `{16 digits}_{16 digits}` whose second part is the native offset it
//! follows, so tokens sort as strings exactly as native offsets sort as
//! numbers and convert without a lookup; and the sentinels `-1` (the
//! beginning) and `now` (the tail).
//!
//! The first part is reserved and always zero today. PROTOCOL §8 leaves a
//! token's structure to the server, and forks (§18) share their source's
//! offsets, so nothing needs it yet; a later change may put a stream's
//! lifetime there (a token from a deleted stream's predecessor would then be
//! foreign rather than silently valid). A token whose first part is not zero
//! was not minted by this deployment: 400, like any malformed token.

use crate::error::{details, ApiFailure, ErrorCode};
use crate::limits::MAX_SAFE_INTEGER;
use crate::text::name_excerpt;
use serde_json::{json, Map, Value};

/// Digits in each part of a token.
const PART_DIGITS: usize = 16;
/// `{16 digits}_{16 digits}`.
const TOKEN_BYTES: usize = 2 * PART_DIGITS + 1;
/// The reserved first part, zero for every token minted today.
const RESERVED_PART: &str = "0000000000000000";

/// The start of every stream: the token before native offset 1.
pub const START_TOKEN: &str = "0000000000000000_0000000000000000";
/// The sentinel for the beginning of the stream (PROTOCOL §8).
pub const BEGINNING_SENTINEL: &str = "-1";
/// The sentinel for the current tail (PROTOCOL §8).
pub const NOW_SENTINEL: &str = "now";

/// A parsed `offset` (query) or offset-valued header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProtocolOffset {
    /// `-1`, or no offset at all: from the first retained message (§16).
    Start,
    /// `now`: the tail at the time of the request.
    Now,
    /// A minted token: after this native offset (0 is the stream's start).
    After(u64),
}

/// Where a read begins, in native terms, for `Stream::read_start`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadStart {
    /// Messages after this native offset are returned.
    pub after: u64,
    /// From the first retained event (`-1`): never 410, unlike an explicit
    /// token before `firstOffset`.
    pub from_earliest: bool,
    /// `now`: a catch-up answers no messages and `Cache-Control: no-store`
    /// (PROTOCOL §8), and gets no ETag (§10.1).
    pub now: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OffsetError {
    #[error("{name} is empty; use -1, now or an offset this server returned")]
    Empty { name: &'static str },
    #[error("{name} '{excerpt}' is not -1, now or an offset this server returned ({{16 digits}}_{{16 digits}})")]
    Malformed { name: &'static str, excerpt: String },
    #[error("{name} '{excerpt}' was not minted by this server: its first part is reserved and always zero")]
    Foreign { name: &'static str, excerpt: String },
    #[error("{name} names native offset {native}, past the largest a stream can hold ({MAX_SAFE_INTEGER})")]
    OutOfRange { name: &'static str, native: u64 },
    #[error("{name} must be an offset this server returned, not the sentinel '{sentinel}'")]
    Sentinel { name: &'static str, sentinel: &'static str },
    #[error("offset names native offset {asked}, past the stream's tail {tail}")]
    BeyondTail { asked: u64, tail: u64 },
}

impl ApiFailure for OffsetError {
    fn error_code(&self) -> ErrorCode {
        ErrorCode::InvalidParameter
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            OffsetError::Empty { name }
            | OffsetError::Malformed { name, .. }
            | OffsetError::Foreign { name, .. }
            | OffsetError::OutOfRange { name, .. }
            | OffsetError::Sentinel { name, .. } => details([("parameter", json!(name))]),
            OffsetError::BeyondTail { tail, .. } => {
                details([("parameter", json!("offset")), ("tailOffset", json!(encode(*tail)))])
            }
        }
    }
}

/// The token after native offset `native` (0 is [`START_TOKEN`]). Native
/// offsets stay at most 2^53 − 1 (§1), which has 16 digits.
pub fn encode(native: u64) -> String {
    format!("{RESERVED_PART}_{native:016}")
}

impl ProtocolOffset {
    /// Parses the `offset` query value (already percent-decoded). Sentinels
    /// are case-sensitive (`NOW` is malformed), digits are ASCII only.
    pub fn parse(name: &'static str, text: &str) -> Result<ProtocolOffset, OffsetError> {
        match text {
            "" => Err(OffsetError::Empty { name }),
            BEGINNING_SENTINEL => Ok(ProtocolOffset::Start),
            NOW_SENTINEL => Ok(ProtocolOffset::Now),
            token => parse_token(name, token).map(ProtocolOffset::After),
        }
    }

    /// Parses a header that must hold a minted token, never a sentinel
    /// (`Stream-Fork-Offset`, PROTOCOL §8 "Fork offset validity").
    pub fn parse_minted(name: &'static str, text: &str) -> Result<u64, OffsetError> {
        match ProtocolOffset::parse(name, text)? {
            ProtocolOffset::After(native) => Ok(native),
            ProtocolOffset::Start => Err(OffsetError::Sentinel {
                name,
                sentinel: BEGINNING_SENTINEL,
            }),
            ProtocolOffset::Now => Err(OffsetError::Sentinel {
                name,
                sentinel: NOW_SENTINEL,
            }),
        }
    }

    /// Where a read of a stream whose last native offset is `tail` begins.
    /// A token past the tail was never returned by this stream (a deleted
    /// predecessor's, or made up): 400. Trimming (410) is the stream's
    /// `read_start`, which takes this result.
    pub fn read_start(self, tail: u64) -> Result<ReadStart, OffsetError> {
        match self {
            ProtocolOffset::Start => Ok(ReadStart {
                after: 0,
                from_earliest: true,
                now: false,
            }),
            ProtocolOffset::Now => Ok(ReadStart {
                after: tail,
                from_earliest: false,
                now: true,
            }),
            ProtocolOffset::After(asked) if asked > tail => Err(OffsetError::BeyondTail { asked, tail }),
            ProtocolOffset::After(after) => Ok(ReadStart {
                after,
                from_earliest: false,
                now: false,
            }),
        }
    }
}

fn parse_token(name: &'static str, token: &str) -> Result<u64, OffsetError> {
    let malformed = || OffsetError::Malformed {
        name,
        excerpt: name_excerpt(token),
    };
    if token.len() != TOKEN_BYTES {
        return Err(malformed());
    }
    let (reserved, rest) = token.split_at_checked(PART_DIGITS).ok_or_else(malformed)?;
    let native = rest.strip_prefix('_').ok_or_else(malformed)?;
    if !(reserved.bytes().all(|b| b.is_ascii_digit()) && native.bytes().all(|b| b.is_ascii_digit())) {
        return Err(malformed());
    }
    if reserved != RESERVED_PART {
        return Err(OffsetError::Foreign {
            name,
            excerpt: name_excerpt(token),
        });
    }
    // Sixteen ASCII digits always fit a u64 (at most 10^16 − 1).
    let native = native.parse::<u64>().map_err(|_| malformed())?;
    if native > MAX_SAFE_INTEGER {
        return Err(OffsetError::OutOfRange { name, native });
    }
    Ok(native)
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;
    use crate::error::ApiError;
    use proptest::prelude::*;

    fn parse(text: &str) -> Result<ProtocolOffset, OffsetError> {
        ProtocolOffset::parse("offset", text)
    }

    #[test]
    fn the_start_token_and_sentinels_section_17() {
        assert_eq!(encode(0), START_TOKEN);
        assert_eq!(encode(42), "0000000000000000_0000000000000042");
        assert_eq!(encode(MAX_SAFE_INTEGER), "0000000000000000_9007199254740991");
        assert_eq!(parse(START_TOKEN), Ok(ProtocolOffset::After(0)));
        assert_eq!(parse("-1"), Ok(ProtocolOffset::Start));
        assert_eq!(parse("now"), Ok(ProtocolOffset::Now));
        assert_eq!(
            parse("0000000000000000_9007199254740991"),
            Ok(ProtocolOffset::After(MAX_SAFE_INTEGER))
        );
    }

    #[test]
    fn malformed_tokens_are_400_invalid_parameter() {
        let fifteen = "000000000000000_0000000000000001";
        let seventeen = "0000000000000000_00000000000000001";
        let cases = [
            fifteen,
            seventeen,
            "0000000000000000-0000000000000001",
            "0000000000000000_000000000000000x",
            "0000000000000000_+000000000000001",
            "0000000000000000_-000000000000001",
            " 000000000000000_0000000000000001",
            "0000000000000000_000000000000001 ",
            "0000000000000000__000000000000001",
            "0,1",
            "0 1",
            "1",
            "-2",
            "-1 ",
            "- 1",
            "NOW",
            "Now",
            "now ",
            "../0000000000000_0000000000000001",
            "0000000000000000_0000000000000001\0",
            "0000000000000000_000000000000001\n",
            "0000000000000000/0000000000000001",
            // Unicode digits (Arabic-Indic, fullwidth) are not ASCII digits.
            "0000000000000000_000000000000000\u{0661}",
            "0000000000000000_00000000000000\u{ff11}",
        ];
        for text in cases {
            let error = parse(text).expect_err(text);
            assert!(matches!(error, OffsetError::Malformed { .. }), "{text}: {error:?}");
            let api = ApiError::from(error);
            assert_eq!((api.status, api.code()), (400, "invalid_parameter"), "{text}");
        }
        assert_eq!(parse(""), Err(OffsetError::Empty { name: "offset" }));
    }

    #[test]
    fn a_hostile_huge_token_is_refused_without_parsing_it() {
        let huge = format!("{}_{}", "0".repeat(16), "9".repeat(100_000));
        let error = parse(&huge).expect_err("huge");
        assert!(matches!(error, OffsetError::Malformed { ref excerpt, .. } if excerpt.len() <= 64));
    }

    #[test]
    fn a_nonzero_first_part_is_foreign_and_a_second_part_past_2_pow_53_is_out_of_range() {
        let foreign = parse("0000000000000001_0000000000000042").expect_err("foreign");
        assert!(matches!(foreign, OffsetError::Foreign { .. }));
        assert_eq!(ApiError::from(foreign).status, 400);
        assert_eq!(
            parse("0000000000000000_9007199254740992"),
            Err(OffsetError::OutOfRange {
                name: "offset",
                native: MAX_SAFE_INTEGER + 1
            })
        );
        assert!(matches!(
            parse("0000000000000000_9999999999999999"),
            Err(OffsetError::OutOfRange { .. })
        ));
    }

    #[test]
    fn a_fork_offset_header_takes_only_minted_tokens_section_18() {
        let parse_minted = |text| ProtocolOffset::parse_minted("Stream-Fork-Offset", text);
        assert_eq!(parse_minted(START_TOKEN), Ok(0));
        assert!(matches!(
            parse_minted("-1"),
            Err(OffsetError::Sentinel { sentinel: "-1", .. })
        ));
        assert!(matches!(
            parse_minted("now"),
            Err(OffsetError::Sentinel { sentinel: "now", .. })
        ));
        assert!(matches!(
            parse_minted("x"),
            Err(OffsetError::Malformed {
                name: "Stream-Fork-Offset",
                ..
            })
        ));
    }

    #[test]
    fn read_start_maps_sentinels_and_refuses_a_token_past_the_tail() {
        let start = ProtocolOffset::Start.read_start(7);
        assert_eq!(
            start,
            Ok(ReadStart {
                after: 0,
                from_earliest: true,
                now: false
            })
        );
        assert_eq!(
            ProtocolOffset::Now.read_start(7),
            Ok(ReadStart {
                after: 7,
                from_earliest: false,
                now: true
            })
        );
        assert_eq!(ProtocolOffset::After(7).read_start(7).map(|s| s.after), Ok(7));
        let beyond = ProtocolOffset::After(8).read_start(7).expect_err("beyond");
        assert_eq!(beyond, OffsetError::BeyondTail { asked: 8, tail: 7 });
        let api = ApiError::from(beyond);
        assert_eq!(api.status, 400);
        assert_eq!(api.body.error.details.get("tailOffset"), Some(&json!(encode(7))));
    }

    #[test]
    fn sentinels_are_never_minted() {
        for native in [0, 1, 9, 10, MAX_SAFE_INTEGER] {
            let token = encode(native);
            assert_ne!(token, BEGINNING_SENTINEL);
            assert_ne!(token, NOW_SENTINEL);
            // PROTOCOL §8: no `,`, `&`, `=`, `?` or `/` in a token.
            assert!(token.bytes().all(|b| b.is_ascii_digit() || b == b'_'), "{token}");
        }
    }

    proptest! {
        #[test]
        fn tokens_round_trip_and_sort_as_strings_like_native_offsets(
            a in 0..=MAX_SAFE_INTEGER,
            b in 0..=MAX_SAFE_INTEGER,
        ) {
            prop_assert_eq!(parse(&encode(a)), Ok(ProtocolOffset::After(a)));
            prop_assert_eq!(encode(a).len(), TOKEN_BYTES);
            prop_assert_eq!(encode(a).cmp(&encode(b)), a.cmp(&b));
        }

        #[test]
        fn arbitrary_text_never_panics_and_only_minted_tokens_parse(text in "\\PC{0,40}") {
            if let Ok(ProtocolOffset::After(native)) = parse(&text) {
                prop_assert_eq!(encode(native), text);
            }
        }
    }
}
