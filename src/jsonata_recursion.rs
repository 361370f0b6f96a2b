//! Refusing recursive functions in filters and transforms (DESIGN.md §5
//! "evaluation is bounded"). Deep recursion is stopped by the evaluation
//! depth cap, but *tail* recursion uses no stack: jsonata-core's only time
//! limit reads a clock that panics on wasm32, so an infinite tail-recursive
//! filter would spin its stream's object forever. Named functions whose
//! bodies (directly or through each other) refer back to themselves are
//! therefore refused at configure time.

use std::collections::{BTreeMap, BTreeSet};

/// `$name := function(...) { body }` definitions: name → names referenced in the body.
fn function_references(source: &str) -> BTreeMap<String, BTreeSet<String>> {
    let chars: Vec<char> = source.chars().collect();
    let mut tokens: Vec<(usize, String)> = Vec::new();
    let mut index = 0;
    while let Some(&c) = chars.get(index) {
        match c {
            '"' | '\'' => {
                index += 1;
                while let Some(&inner) = chars.get(index) {
                    index += if inner == '\\' { 2 } else { 1 };
                    if inner == c {
                        break;
                    }
                }
            }
            '`' => {
                index += 1;
                while chars.get(index).is_some_and(|&inner| inner != '`') {
                    index += 1;
                }
                index += 1;
            }
            '/' if chars.get(index + 1) == Some(&'*') => {
                index += 2;
                while index < chars.len() && !(chars.get(index) == Some(&'*') && chars.get(index + 1) == Some(&'/')) {
                    index += 1;
                }
                index += 2;
            }
            '$' => {
                let start = index;
                index += 1;
                while chars.get(index).is_some_and(|&n| n.is_alphanumeric() || n == '_') {
                    index += 1;
                }
                tokens.push((
                    start,
                    chars.get(start..index).map(|s| s.iter().collect()).unwrap_or_default(),
                ));
            }
            _ => {
                tokens.push((index, c.to_string()));
                index += 1;
            }
        }
    }
    let significant: Vec<&(usize, String)> = tokens.iter().filter(|(_, t)| !t.trim().is_empty()).collect();
    let mut definitions = BTreeMap::new();
    for (position, token) in significant.iter().enumerate() {
        let is_definition = token.1.starts_with('$')
            && token.1.len() > 1
            && significant.get(position + 1).map(|t| t.1.as_str()) == Some(":")
            && significant.get(position + 2).map(|t| t.1.as_str()) == Some("=");
        if !is_definition {
            continue;
        }
        // The function body: from the first `{` after the definition to its match.
        let mut depth = 0usize;
        let mut references = BTreeSet::new();
        let mut opened = false;
        let mut parens = 0usize;
        for next in significant.iter().skip(position + 3) {
            match next.1.as_str() {
                "(" if !opened => parens += 1,
                ")" if !opened && parens > 0 => parens -= 1,
                "{" => {
                    depth += 1;
                    opened = true;
                }
                "}" if opened => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        break;
                    }
                }
                ";" | ")" if !opened => break,
                name if opened && name.starts_with('$') => {
                    references.insert(name.to_owned());
                }
                _ => {}
            }
        }
        if opened {
            definitions.insert(token.1.clone(), references);
        }
    }
    definitions
}

/// The first function name that can reach itself, if any.
pub fn recursive_function(source: &str) -> Option<String> {
    let graph = function_references(source);
    for start in graph.keys() {
        let mut seen = BTreeSet::new();
        let mut pending: Vec<&String> = graph.get(start).into_iter().flatten().collect();
        while let Some(name) = pending.pop() {
            if name == start {
                return Some(start.clone());
            }
            if seen.insert(name.clone()) {
                pending.extend(graph.get(name).into_iter().flatten());
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::recursive_function;

    #[test]
    fn finds_direct_and_mutual_recursion_only() {
        assert_eq!(
            recursive_function("($f := function($n) { $f($n + 1) }; $f(0))").as_deref(),
            Some("$f")
        );
        assert_eq!(
            recursive_function("($a := function() { $b() }; $b := function() { $a() }; $a())").as_deref(),
            Some("$a")
        );
        assert_eq!(
            recursive_function("($f := λ($n) { $n = 0 ? 0 : $f($n - 1) }; $f(3))").as_deref(),
            Some("$f")
        );
        assert_eq!(
            recursive_function("($double := function($x) { $x * 2 }; $double(payload.n))"),
            None
        );
        assert_eq!(
            recursive_function("($g := function($x) { $string($x) & '$g' }; $g(1))"),
            None,
            "inside a string"
        );
        assert_eq!(
            recursive_function("payload.amount > 100 and $contains(type, 'order')"),
            None
        );
    }
}
