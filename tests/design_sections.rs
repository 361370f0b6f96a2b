//! Every § the repository cites resolves inside it (issue 32): each `§N` or
//! `§N.M` written in `src/`, `durable-objects/`, `tests/` or `openapi.yaml`
//! has a heading in `docs/design.md`. A citation qualified by another
//! document (`PROTOCOL §5.2`, `RFC 9110 §8.3`, the Durable Streams
//! protocol's own numbering) is not ours and is not checked. Both spellings,
//! `docs/design.md §N` and `docs/design.md §N`, count as ours until
//! `scripts/cite-design` rewrites the first into the second.
#![allow(clippy::expect_used, clippy::indexing_slicing)]

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Files the walk reads at most (the repository holds about a thousand).
const MAX_FILES: usize = 20_000;
/// How far back (in characters) a qualifier such as `PROTOCOL` still names
/// the document a citation belongs to: a list like `PROTOCOL §5.2, §5.3`
/// or a comment wrapped onto the next line.
const QUALIFIER_REACH_CHARS: usize = 120;
/// Words that name another document's sections.
const FOREIGN_QUALIFIERS: [&str; 4] = ["PROTOCOL", "RFC", "protocol's", "Protocol"];
/// Words that name ours.
const OWN_QUALIFIERS: [&str; 2] = ["docs/design.md", "design.md"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The § numbers `docs/design.md` has a heading for (`## §3 …`, `### §15.1 …`).
fn headings(design: &str) -> BTreeSet<String> {
    design
        .lines()
        .filter(|line| line.starts_with('#'))
        .flat_map(citations_in)
        .map(|(_, number)| number)
        .collect()
}

/// Each `§N` or `§N.M` in `text`, with its byte position.
fn citations_in(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices('§') {
        let rest = &text[at + '§'.len_utf8()..];
        let whole: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if whole.is_empty() {
            continue;
        }
        let after = &rest[whole.len()..];
        let mut number = whole;
        if let Some(fraction) = after.strip_prefix('.') {
            let part: String = fraction.chars().take_while(char::is_ascii_digit).collect();
            if !part.is_empty() {
                number = format!("{number}.{part}");
            }
        }
        found.push((at, number));
    }
    found
}

/// Whether the citation at `at` belongs to another document: the nearest
/// qualifier before it (within reach) is a foreign one.
fn is_foreign(text: &str, at: usize) -> bool {
    let mut start = at.saturating_sub(QUALIFIER_REACH_CHARS * 4);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    let before: String = {
        let window = &text[start..at];
        let chars: Vec<char> = window.chars().collect();
        let skip = chars.len().saturating_sub(QUALIFIER_REACH_CHARS);
        chars[skip..].iter().collect()
    };
    let last = |words: &[&str]| words.iter().filter_map(|word| before.rfind(word)).max();
    match (last(&FOREIGN_QUALIFIERS), last(&OWN_QUALIFIERS)) {
        (Some(foreign), Some(own)) => foreign > own,
        (Some(_), None) => true,
        _ => false,
    }
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|entry| entry.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        assert!(
            files.len() < MAX_FILES,
            "more than {MAX_FILES} files under {}",
            dir.display()
        );
        let name = path.file_name().and_then(|name| name.to_str()).unwrap_or("");
        if path.is_dir() {
            if !matches!(name, "target" | "node_modules" | ".git") {
                walk(&path, files);
            }
        } else {
            files.push(path);
        }
    }
}

/// Every cited § that has no heading, as `file:line: §N`.
fn unresolved(root: &Path, known: &BTreeSet<String>) -> (usize, Vec<String>) {
    let mut files = Vec::new();
    for dir in ["src", "durable-objects", "tests"] {
        walk(&root.join(dir), &mut files);
    }
    files.push(root.join("openapi.yaml"));
    let mut checked = 0;
    let mut missing = Vec::new();
    for file in files {
        let Ok(text) = fs::read_to_string(&file) else { continue };
        for (at, number) in citations_in(&text) {
            if is_foreign(&text, at) {
                continue;
            }
            checked += 1;
            if !known.contains(&number) {
                let line = text[..at].matches('\n').count() + 1;
                let name = file.strip_prefix(root).unwrap_or(&file).display();
                missing.push(format!("{name}:{line}: §{number}"));
            }
        }
    }
    (checked, missing)
}

#[test]
fn every_cited_section_has_a_heading_in_docs_design_md() {
    let root = root();
    let design = fs::read_to_string(root.join("docs/design.md")).expect("docs/design.md exists");
    let known = headings(&design);
    for number in 1..=18 {
        assert!(
            known.contains(&number.to_string()),
            "docs/design.md has no heading for §{number}"
        );
    }
    let (checked, missing) = unresolved(&root, &known);
    assert!(
        checked > 1000,
        "only {checked} citations found: is the walk reading the tree?"
    );
    assert!(
        missing.is_empty(),
        "{} cited § with no heading in docs/design.md:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn a_citation_qualified_by_another_document_is_not_ours() {
    assert!(is_foreign("headers (PROTOCOL §5.2, §5.3)", 18));
    let wrapped = "(PROTOCOL §5.2\n//! §5.3)";
    assert!(is_foreign(wrapped, wrapped.rfind('§').expect("a §")));
    assert!(is_foreign("RFC 9110 §8.3", 9));
    let ours = "PROTOCOL §5.2 says so; docs/design.md §15.1 too";
    assert!(!is_foreign(ours, ours.rfind('§').expect("a §")));
    assert!(!is_foreign("the fence (§7)", 11));
    assert_eq!(
        citations_in("§3 rule 2, §15.1 and §12."),
        vec![(0, "3".to_string()), (12, "15.1".to_string()), (23, "12".to_string())]
    );
}

#[test]
fn a_missing_heading_is_reported() {
    let known = headings("## §1 Shape\n### §15.1 Mempool\n");
    assert!(known.contains("1") && known.contains("15.1") && !known.contains("2"));
}
