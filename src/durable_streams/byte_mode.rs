//! Byte mode (docs/design.md §17 "Messages are events"): a body of any content
//! type but JSON is stored byte-exact, as one or more events committed
//! together, each at most [`MAX_BYTE_EVENT_BYTES`]; reads concatenate them,
//! so the split is invisible. A cut never falls inside a UTF-8 sequence of
//! a body that is text, so each event of a `text/*` stream is text on its
//! own (SSE sends each as UTF-8, PROTOCOL §5.8).

use crate::limits::MAX_BYTE_EVENT_BYTES;

/// The events one body becomes, in order: none for an empty body.
pub fn split(body: &[u8]) -> Vec<&[u8]> {
    split_at_most(body, MAX_BYTE_EVENT_BYTES)
}

fn split_at_most(body: &[u8], limit: usize) -> Vec<&[u8]> {
    let limit = limit.max(4);
    let mut pieces = Vec::with_capacity(body.len().div_ceil(limit));
    let mut rest = body;
    while rest.len() > limit {
        let cut = char_boundary(rest, limit);
        let (piece, tail) = rest.split_at(cut);
        pieces.push(piece);
        rest = tail;
    }
    if !rest.is_empty() {
        pieces.push(rest);
    }
    pieces
}

/// `limit`, moved back over at most three UTF-8 continuation bytes so a
/// multi-byte character stays whole (binary data loses nothing by it).
fn char_boundary(bytes: &[u8], limit: usize) -> usize {
    let is_continuation = |at: usize| bytes.get(at).is_some_and(|b| b & 0b1100_0000 == 0b1000_0000);
    (limit - 3..=limit)
        .rev()
        .find(|&at| !is_continuation(at))
        .unwrap_or(limit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_body_splits_at_the_event_limit_and_empty_is_nothing() {
        assert!(split(b"").is_empty());
        assert_eq!(split(b"abc"), vec![&b"abc"[..]]);
        let exact = vec![7u8; MAX_BYTE_EVENT_BYTES];
        assert_eq!(split(&exact).len(), 1);
        let whole = vec![0u8; 40 * MAX_BYTE_EVENT_BYTES];
        let pieces = split(&whole);
        assert_eq!(pieces.len(), 40);
        assert!(pieces.iter().all(|piece| piece.len() == MAX_BYTE_EVENT_BYTES));
        // The base64 form of the largest piece is within one event (§3).
        assert!(MAX_BYTE_EVENT_BYTES.div_ceil(3) * 4 + 1024 <= crate::limits::MAX_EVENT_BYTES);
    }

    #[test]
    fn a_cut_never_splits_a_utf8_character() {
        let text = "a€€€".as_bytes(); // 1 + 3 × 3 bytes
        let pieces = split_at_most(text, 5);
        assert_eq!(pieces, vec!["a€".as_bytes(), "€".as_bytes(), "€".as_bytes()]);
        assert!(pieces.iter().all(|piece| std::str::from_utf8(piece).is_ok()));
        let emoji = "😀😀".as_bytes(); // 4-byte characters
        assert_eq!(split_at_most(emoji, 6), vec!["😀".as_bytes(), "😀".as_bytes()]);
    }

    proptest! {
        #[test]
        fn pieces_concatenate_to_the_body(body in proptest::collection::vec(any::<u8>(), 0..2000), limit in 4usize..300) {
            let pieces = split_at_most(&body, limit);
            prop_assert_eq!(&pieces.concat(), &body);
            prop_assert!(pieces.iter().all(|piece| !piece.is_empty() && piece.len() <= limit));
        }

        #[test]
        fn text_pieces_stay_text(text in "\\PC{0,300}", limit in 4usize..64) {
            for piece in split_at_most(text.as_bytes(), limit) {
                prop_assert!(std::str::from_utf8(piece).is_ok());
            }
        }
    }
}
