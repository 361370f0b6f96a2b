//! Text shared by error messages (DESIGN.md §6, §9).

use crate::limits::MAX_ERROR_EXCERPT_CHARS;

/// The first [`MAX_ERROR_EXCERPT_CHARS`] characters of `text`: what an error
/// message quotes of a receiver's answer or of an unexpected value.
pub fn excerpt(text: &str) -> String {
    text.chars().take(MAX_ERROR_EXCERPT_CHARS).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpt_keeps_at_most_the_limit_in_characters_not_bytes() {
        assert_eq!(excerpt("short"), "short");
        let long = "é".repeat(MAX_ERROR_EXCERPT_CHARS + 5);
        assert_eq!(excerpt(&long).chars().count(), MAX_ERROR_EXCERPT_CHARS);
        assert_eq!(excerpt(&long), "é".repeat(MAX_ERROR_EXCERPT_CHARS));
    }
}
