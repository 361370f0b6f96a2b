//! A list of headers as the platform takes it in one crossing: one JSON
//! object, name to value, which the JavaScript side parses and hands to
//! `fetch` or `Response` as their `headers` init (a WHATWG `HeadersInit`
//! record). The shell sends every request and answer it builds by hand this
//! way: a webhook's POST (§9), a call to another object, the Durable Streams
//! face's answers (§17).
//!
//! A record, not a list of pairs: the platform reads a list of pairs through
//! JavaScript's iterator protocol, a generator for the list and one for each
//! pair (about a fifth of a webhook exchange's own cost, issue 33,
//! thirty-second round), and a record by its property names.
//!
//! A record cannot hold a name twice, so names that are equal ignoring case
//! are joined into the first one's entry as `Headers.append` would join them
//! (`a, b`, in order): the platform sees the same headers either way.

use serde_json::{Map, Value};

/// `headers` as one JSON object (its properties in no particular order:
/// the platform's `Headers` sorts them); values of names equal ignoring
/// case joined with `", "`, in order, under the first one's spelling.
pub fn object_json<N: AsRef<str>, V: AsRef<str>>(headers: &[(N, V)]) -> String {
    let mut joined: Vec<(&str, String)> = Vec::with_capacity(headers.len());
    for (name, value) in headers {
        let (name, value) = (name.as_ref(), value.as_ref());
        match joined.iter_mut().find(|(seen, _)| seen.eq_ignore_ascii_case(name)) {
            Some((_, first)) => {
                first.push_str(", ");
                first.push_str(value);
            }
            None => joined.push((name, value.to_owned())),
        }
    }
    let mut object = Map::with_capacity(joined.len());
    for (name, value) in joined {
        object.insert(name.to_owned(), Value::String(value));
    }
    Value::Object(object).to_string()
}

#[cfg(test)]
#[allow(clippy::panic, clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn parsed(json: &str) -> Map<String, Value> {
        match serde_json::from_str(json) {
            Ok(Value::Object(object)) => object,
            other => panic!("not an object: {other:?}"),
        }
    }

    #[test]
    fn each_header_is_a_property() {
        let json = object_json(&[("content-type", "application/json"), ("x-tributary-project", "p1")]);
        let object = parsed(&json);
        assert_eq!(object.len(), 2);
        assert_eq!(object["content-type"], "application/json");
        assert_eq!(object["x-tributary-project"], "p1");
    }

    #[test]
    fn no_value_can_split_another() {
        let hostile = r#"a", "x-injected": "b"#;
        let object = parsed(&object_json(&[("x-a", hostile), ("x-b", "\u{7f}\"\\\n")]));
        assert_eq!(object.len(), 2);
        assert_eq!(object["x-a"], hostile);
        assert_eq!(object["x-b"], "\u{7f}\"\\\n");
    }

    #[test]
    fn names_equal_ignoring_case_are_joined_in_order() {
        let headers = vec![
            ("X-Trace".to_owned(), "one".to_owned()),
            ("accept".to_owned(), "a".to_owned()),
            ("x-trace".to_owned(), "two".to_owned()),
            ("X-TRACE".to_owned(), "three".to_owned()),
        ];
        let object = parsed(&object_json(&headers));
        assert_eq!(object.len(), 2);
        assert_eq!(object["X-Trace"], "one, two, three");
        assert_eq!(object["accept"], "a");
    }

    #[test]
    fn no_headers_is_an_empty_object() {
        assert_eq!(object_json::<&str, &str>(&[]), "{}");
    }
}
