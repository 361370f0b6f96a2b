//! Excerpts quoted in error messages (docs/design.md §2, §6, §9), each cut to its
//! limit in `limits.rs`; and the one rule of a plain name (processors,
//! sources, secrets).

use crate::limits::{MAX_ERROR_EXCERPT_CHARS, MAX_NAME_EXCERPT_CHARS, MAX_QUERY_EXCERPT_CHARS};

/// The first [`MAX_ERROR_EXCERPT_CHARS`] characters of `text`: what an error
/// message quotes of a receiver's answer or of an unexpected value.
pub fn excerpt(text: &str) -> String {
    text.chars().take(MAX_ERROR_EXCERPT_CHARS).collect()
}

/// The first [`MAX_NAME_EXCERPT_CHARS`] characters of an unknown field or
/// parameter name, as an error message quotes it (§2).
pub fn name_excerpt(name: &str) -> String {
    name.chars().take(MAX_NAME_EXCERPT_CHARS).collect()
}

/// Whether `name` is 1 to `max_bytes` of `[A-Za-z0-9._-]`: the names of
/// processors, sources and secrets (§9, §15), safe in a URL segment.
pub fn is_plain_name(name: &str, max_bytes: usize) -> bool {
    !name.is_empty()
        && name.len() <= max_bytes
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'_' | b'-'))
}

/// The first [`MAX_QUERY_EXCERPT_CHARS`] characters of an SQL statement, as
/// a storage error names it.
pub fn query_excerpt(query: &str) -> String {
    query.chars().take(MAX_QUERY_EXCERPT_CHARS).collect()
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

    #[test]
    fn name_and_query_excerpts_keep_their_own_limits() {
        let long = "x".repeat(500);
        assert_eq!(name_excerpt(&long).len(), MAX_NAME_EXCERPT_CHARS);
        assert_eq!(query_excerpt(&long).len(), MAX_QUERY_EXCERPT_CHARS);
        assert_eq!(name_excerpt("limit"), "limit");
    }
}
