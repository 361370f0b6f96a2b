//! JSONata evaluation is bounded in memory, not only in steps (docs/design.md §12
//! row "JSONata evaluation", issue 18 item 1): a few steps can build a huge
//! value, and a size driven by an argument (`$pad`'s width) used to be a
//! capacity-overflow panic that reset the whole wasm isolate. Every size bomb
//! below ends with a clear evaluation error naming the budget it hit, never a
//! panic, and fast: natively, through our one door (`tributary::jsonata`), as a
//! filter, and through the playground route (a 422).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::{Network, World};
use serde_json::{json, Map, Value};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};
use tributary::jsonata::{compile, JsonataError};
use tributary::limits::{MAX_JSONATA_ALLOC_BYTES, MAX_JSONATA_VALUE_BYTES};

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";

/// Size bombs and the code each must end with: U1004 (one value over
/// MAX_JSONATA_VALUE_BYTES), U1005 (the evaluation's allocations over
/// MAX_JSONATA_ALLOC_BYTES).
const BOMBS: [(&str, &str); 21] = [
    // The reproduced panic: width 2^31, `String::with_capacity` overflowed on wasm32.
    ("$pad(\"\", -2147483648)", "U1004"),
    ("$pad(\"x\", 2147483647)", "U1004"),
    ("$pad(\"x\", -1e300, \"ab\")", "U1004"),
    ("$join($map([1..20], function($i){$pad(\"\", 50000000)}))", "U1004"),
    // Each value is under the cap; together they pass the evaluation's budget.
    ("$join($map([1..40], function($i){$pad(\"\", 1000000)}))", "U1005"),
    ("$count($map([1..40], function($i){$pad(\"\", 1000000)}))", "U1005"),
    // `&` doubling in a tail recursion: 2^40 bytes after 40 steps.
    (
        "($f := function($s, $n){ $n = 0 ? $s : $f($s & $s, $n - 1) }; $f(\"x\", 40))",
        "U1004",
    ),
    ("($s := $pad(\"\", 600000); $s & $s)", "U1004"),
    // One shared string, many times: cheap to hold, huge to join or write out.
    ("($s := $pad(\"\", 1000000); $join([$s, $s, $s]))", "U1004"),
    (
        "($s := $pad(\"\", 100000); $join($map([1..1000], function($i){$s}), \",\"))",
        "U1004",
    ),
    (
        "($s := $pad(\"\", 100000); $string($map([1..1000], function($i){$s})))",
        "U1004",
    ),
    (
        "($s := $pad(\"\", 100000); \"a\" & $map([1..1000], function($i){$s}))",
        "U1004",
    ),
    // The result itself: a shared string many times is turned into JSON only if small.
    ("($s := $pad(\"\", 100000); $map([1..1000], function($i){$s}))", "U1004"),
    // Pretty-printing a deep value: the indentation grows with the depth.
    (
        "$string($reduce([1..5000], function($a, $b){{\"a\": $a}}, {}), true)",
        "U1004",
    ),
    // A deep result (its JSON conversion would recurse 5000 deep).
    ("$reduce([1..5000], function($a, $b){{\"a\": $a}}, {})", "U1004"),
    // Replacements that grow the string.
    (
        "$replace($pad(\"\", 100000, \"a\"), \"a\", $pad(\"\", 1000, \"b\"))",
        "U1004",
    ),
    (
        "$replace($pad(\"\", 100000, \"a\"), /a/, \"$0$0$0$0$0$0$0$0$0$0$0$0$0$0$0$0\")",
        "U1004",
    ),
    (
        "$replace($pad(\"\", 30000, \"a\"), /a/, function($m){ \"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\" })",
        "U1004",
    ),
    // Splitting into more parts than a value may hold.
    ("$split($pad(\"\", 1000000, \"a\"), \"\")", "U1004"),
    // A date/time picture's width modifier pads to the width it names.
    ("$fromMillis(0, \"[Y,2000000000]\")", "U1004"),
    (
        "$formatInteger(1, $pad(\"\", 1000000, \"0\") & $pad(\"\", 100000, \"0\"))",
        "U1004",
    ),
];

/// Runs `f` on its own thread and fails the test if it has not answered
/// within 10 s, or panicked: a bomb must end with an error.
fn within_watchdog<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (sender, receiver) = mpsc::channel();
    thread::Builder::new()
        .stack_size(8 * 1024 * 1024)
        .spawn(move || {
            let _ = sender.send(f());
        })
        .unwrap();
    match receiver.recv_timeout(Duration::from_secs(10)) {
        Ok(value) => value,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{what}: no answer within 10 s"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{what}: the evaluation panicked"),
    }
}

fn assert_code(what: &str, code: &str, got: &Result<impl std::fmt::Debug, JsonataError>) {
    match got {
        Err(error @ JsonataError::Evaluation { .. }) => {
            assert_eq!(error.code(), Some(code), "{what}: {error}");
            let budget = if code == "U1004" {
                MAX_JSONATA_VALUE_BYTES
            } else {
                MAX_JSONATA_ALLOC_BYTES
            };
            // A date/time picture's widths have their own, smaller bound.
            let message = error.to_string();
            assert!(
                message.contains(&budget.to_string()) || message.contains("width modifiers add up to"),
                "{what}: the message names the budget: {error}"
            );
        }
        other => panic!("{what}: expected {code}, got {other:?}"),
    }
}

#[test]
fn every_size_bomb_ends_with_a_memory_budget_error_quickly() {
    for (bomb, code) in BOMBS {
        let started = Instant::now();
        // The bytecode VM when the expression compiles to it, else the
        // tree-walker; `evaluate_with_bindings` always tree-walks; a filter.
        let got = within_watchdog(bomb, move || compile(bomb).unwrap().evaluate(Some(&json!({}))));
        assert_code(bomb, code, &got);
        let got = within_watchdog(bomb, move || {
            compile(bomb)
                .unwrap()
                .evaluate_with_bindings(Some(&json!({})), &Map::new())
        });
        assert_code(bomb, code, &got);
        let got = within_watchdog(bomb, move || compile(bomb).unwrap().matches(&json!({})));
        assert_code(bomb, code, &got);
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{bomb}: took {:?}",
            started.elapsed()
        );
    }
}

#[test]
fn size_bombs_in_the_playground_answer_422_naming_the_code() {
    for (bomb, code) in BOMBS {
        let body = json!({"expression": bomb}).to_string();
        let response = within_watchdog(bomb, move || tributary::jsonata::playground::handle(body.as_bytes()));
        assert_eq!(response.status, 422, "{bomb}: {}", response.body);
        let body: Value = serde_json::from_str(&response.body).unwrap();
        assert_eq!(body["error"]["code"], "jsonata_evaluation_error", "{bomb}: {body}");
        assert_eq!(body["error"]["details"]["jsonataCode"], code, "{bomb}: {body}");
    }
}

#[test]
fn values_under_the_budgets_still_evaluate() {
    let cases: [(&str, Value); 8] = [
        ("$length($pad(\"\", 1000000))", json!(1000000)),
        ("$length($pad(\"x\", -5, \"ab\"))", json!(5)),
        ("$pad(\"x\", -5, \"ab\")", json!("ababx")),
        ("$count([1..90000])", json!(90000)),
        (
            "$length($join($map([1..10], function($i){$pad(\"\", 100000)})))",
            json!(1000000),
        ),
        ("$length($string([1..50000]))", json!(288895)),
        ("$replace(\"a-b-c\", \"-\", \"--\")", json!("a--b--c")),
        ("$count($split($pad(\"\", 100000, \"a,\"), \",\"))", json!(50001)),
    ];
    for (expression, expected) in cases {
        let got = within_watchdog(expression, move || compile(expression).unwrap().evaluate(None));
        assert_eq!(got, Ok(Some(expected)), "{expression}");
    }
}

#[test]
fn a_size_bomb_in_a_filter_or_transform_halts_its_subscription_cleanly() {
    // The reproduced panic, as a filter and as a transform: a clean
    // evaluation error, a permanent failure of that event (§5), which halts
    // the subscription there; another stream's subscription is untouched.
    for (key, field) in [("filter", "jsonataCondition"), ("transform", "jsonataTransform")] {
        let outcome = within_watchdog(key, move || {
            let mut world = World::new(18);
            let bomb = "$pad(\"\", -2147483648) = \"\"";
            let mut receiver = json!({"action": "copy-to-stream", "receivingStreamPath": "/b", "delivery": {"start": "beginning", "onFailingEvent": "halt"}});
            let mut payload = json!({"subscriptionKey": key});
            if field == "jsonataCondition" {
                payload["filter"] = json!({ field: bomb });
            } else {
                receiver[field] = json!("{\"payload\": $pad(\"\", -2147483648)}");
            }
            payload["receiver"] = receiver;
            world.append("/a", json!({"type": CONFIGURED, "payload": payload}));
            world.append("/a", json!({"type": "data", "payload": {"i": 1}}));
            world.append(
                "/c",
                json!({"type": CONFIGURED, "payload": {"subscriptionKey": "other", "receiver": {"action": "copy-to-stream", "receivingStreamPath": "/d", "delivery": {"start": "beginning", "onFailingEvent": "halt"}}}}),
            );
            world.append("/c", json!({"type": "data", "payload": {"i": 2}}));
            world.run(&["/a", "/c"], 20, &mut |_| Network::Deliver);
            let halted = world.stream("/a").state().subscriptions.outbound.by_key[key]
                .delivery_halted
                .clone();
            let (_, read) = common::read(world.stream("/d"), "after=0");
            let copied = read["events"].as_array().map_or(0, Vec::len);
            (
                halted.map(|halted| (halted.after_offset, halted.error.unwrap_or_default())),
                copied,
            )
        });
        let (halted, copied) = outcome;
        let (after_offset, error) = halted.unwrap_or_else(|| panic!("{key}: the subscription did not halt"));
        assert_eq!(after_offset, 0, "{key}: halted at the first event");
        assert!(
            error.contains("U1004") && error.contains(&MAX_JSONATA_VALUE_BYTES.to_string()),
            "{key}: {error}"
        );
        assert!(
            copied >= 1,
            "{key}: the other stream's subscription delivered ({copied} events)"
        );
    }
}

/// Extreme sizes, counts, widths, positions and precisions handed to the
/// builtins: each answers (a value or an error), never a panic (an overflow
/// is a panic in this debug build, a wrong size in a release one).
const EXTREMES: [&str; 44] = [
    "$substring(\"abcdef\", -9e18, 9e18)",
    "$substring(\"abcdef\", 9e18, -9e18)",
    "$substring(\"abcdef\", -1e300, 1e300)",
    "$substring(\"abcdef\", 1e300)",
    "$substring(\"abcdef\", -9223372036854775808, -9223372036854775808)",
    "$round(1.5, 1e10)",
    "$round(1.5, -1e10)",
    "$power(2, 1e10)",
    "$formatBase(1e300, 36)",
    "$formatBase(-1e300, 2)",
    "$formatBase(5, 1e10)",
    "$formatNumber(1e300, \"#,##0.00\")",
    "$formatNumber(-1e300, \"0.0e0\")",
    "$formatNumber(1, \"000000000000000000000000000000.000000000000000000000000000000\")",
    "$formatInteger(1e300, \"w\")",
    "$formatInteger(-9e18, \"I\")",
    "$formatInteger(1e300, \"#,##0\")",
    "$formatInteger(9e18, \"a\")",
    "$fromMillis(1e300)",
    "$fromMillis(-1e300, \"[Y]\")",
    "$fromMillis(8.64e15, \"[Y,*-9999999999999999999999]\")",
    "$fromMillis(0, \"[f,1-99999999]\")",
    "$fromMillis(0, \"[Y0001,2-5]\", \"+9999\")",
    "$toMillis(\"99999999-01-01\")",
    "$toMillis(\"2020\", \"[Y,99999999999]\")",
    "$parseInteger(\"99999999999999999999999999999999\", \"#\")",
    "$split(\"abc\", \"\", 1e300)",
    "$split(\"abc\", \"b\", 9e18)",
    "$match(\"aaa\", /a/, 1e300)",
    "$replace(\"aaa\", \"a\", \"b\", 1e300)",
    "$replace(\"aaa\", /a/, \"$99999999999999999999\")",
    "[1, 2, 3][-9e18]",
    "[1, 2, 3][1e300]",
    "[1, 2, 3][[-9e18..-9e18]]",
    "$zip([1..10000], [1..10000])",
    "$pad(\"x\", 0/0)",
    "$pad(\"x\", -0)",
    "$string(1e308 * 10)",
    "$number(\"1e400\")",
    "$sum([1e308, 1e308])",
    "$count([-9007199254740991..-9007199254740000])",
    "[9007199254740000..9007199254740991]",
    "$sort([1..50000], function($a, $b){ $a < $b })",
    "$reduce([1..50000], function($a, $b){ $a & \"x\" }, \"\")",
];

#[test]
fn extreme_arguments_answer_and_never_panic() {
    for expression in EXTREMES {
        let started = Instant::now();
        let compiled = compile(expression);
        let Ok(compiled) = compiled else {
            continue; // a syntax error is an answer too
        };
        drop(compiled);
        let _ = within_watchdog(expression, move || compile(expression).unwrap().evaluate(None));
        let _ = within_watchdog(expression, move || {
            compile(expression).unwrap().evaluate_with_bindings(None, &Map::new())
        });
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{expression}: took {:?}",
            started.elapsed()
        );
    }
}
