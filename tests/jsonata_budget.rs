//! JSONata evaluation is bounded in steps, not time (docs/design.md §5, §12): the
//! Workers clock does not advance during synchronous execution, so only a
//! step budget can stop a runaway filter or transform there. Every bomb below
//! ends with a clear evaluation error, natively, through our one door
//! (`tributary::jsonata`) and through a subscription; and filters and
//! transforms calling nondeterministic builtins are refused at configure.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::{Network, World};
use common::{append, memory_stream};
use jsonata_core::evaluator::{Context, Evaluator, EvaluatorOptions};
use jsonata_core::value::JValue;
use jsonata_core::Expression;
use serde_json::{json, Map, Value};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;
use tributary::jsonata::{compile, JsonataError};
use tributary::limits::{MAX_EVAL_STACK_DEPTH, MAX_JSONATA_STEPS};

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";

/// Expressions that never end, or end only after far too much work.
const BOMBS: [&str; 7] = [
    // Self-application: a tail call that never ends.
    "(function($x){$x($x)})(function($x){$x($x)})",
    // Recursion through an alias, which no name-based check sees.
    "($f := function($n){$h($n)}; $h := $f; $f(0))",
    // Infinite tail recursion: no stack grows.
    "($f := function($n){ $f($n + 1) }; $f(0))",
    // Mutual tail recursion.
    "($a := function($n){ $b($n) }; $b := function($n){ $a($n) }; $a(0))",
    // Ten million items, then a callback on each.
    "$map([1..9999999], function($v){$v})",
    // Ten million items summed.
    "$sum([1..9999999])",
    // A small range, but nested: a hundred million callbacks.
    "$count([1..10000].($x := $; [1..10000].($x * $)))",
];

/// Runs `f` on its own thread (with an ordinary main-thread stack) and fails
/// the test if it has not answered within 10 s: a bomb must end, not hang.
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

fn assert_budget_error(what: &str, got: &Result<Option<Value>, JsonataError>) {
    match got {
        Err(error @ JsonataError::Evaluation { .. }) => {
            assert_eq!(error.code(), Some("U1001"), "{what}: {error}");
            assert!(
                error
                    .to_string()
                    .contains(&format!("exceeded {MAX_JSONATA_STEPS} steps")),
                "{what}: {error}"
            );
        }
        other => panic!("{what}: expected the step-budget error, got {other:?}"),
    }
}

#[test]
fn every_bomb_ends_with_the_step_budget_error() {
    for bomb in BOMBS {
        // Through `evaluate` (the bytecode VM when the expression compiles to
        // it, else the tree-walker) and `evaluate_with_bindings` (always the
        // tree-walker).
        let got = within_watchdog(bomb, move || compile(bomb).unwrap().evaluate(Some(&json!({}))));
        assert_budget_error(bomb, &got);
        let got = within_watchdog(bomb, move || {
            compile(bomb)
                .unwrap()
                .evaluate_with_bindings(Some(&json!({})), &Map::new())
        });
        assert_budget_error(bomb, &got);
        let got = within_watchdog(bomb, move || compile(bomb).unwrap().matches(&json!({})));
        assert!(
            matches!(&got, Err(error) if error.code() == Some("U1001")),
            "{bomb} as a filter: {got:?}"
        );
    }
}

#[test]
fn the_budget_is_per_evaluation_and_other_limits_keep_their_codes() {
    // One compiled expression evaluated again and again gets a fresh budget
    // each time: 100 evaluations of 10 000 steps each pass.
    let compiled = compile("$sum([1..10000])").unwrap();
    for _ in 0..100 {
        assert_eq!(compiled.evaluate(None), Ok(Some(json!(50005000))));
    }
    // Over 10 million items is JSONata's own range limit, raised before any step.
    let got = compile("$sum([1..10000001])").unwrap().evaluate(None);
    assert_eq!(
        got.as_ref().err().and_then(JsonataError::code),
        Some("D2014"),
        "{got:?}"
    );
    // A range whose size overflows 64 bits is the same error, not a panic.
    let got = within_watchdog("huge range", || {
        compile("[-9000000000000000000..9000000000000000000]")
            .unwrap()
            .evaluate(None)
    });
    assert_eq!(
        got.as_ref().err().and_then(JsonataError::code),
        Some("D2014"),
        "{got:?}"
    );
    // Deep non-tail recursion still meets the depth cap first.
    let got = within_watchdog("deep recursion", || {
        compile("($f := function($n){ $n = 0 ? 0 : 1 + $f($n - 1) }; $f(100000))")
            .unwrap()
            .evaluate(None)
    });
    assert_eq!(
        got.as_ref().err().and_then(JsonataError::code),
        Some("D1011"),
        "{got:?}"
    );
    // A finite recursion that fits both limits runs.
    let got = compile("($f := function($n, $acc){ $n = 0 ? $acc : $f($n - 1, $acc + $n) }; $f(1000, 0))")
        .unwrap()
        .evaluate(None);
    assert_eq!(got, Ok(Some(json!(500500))));
}

/// Evaluates `source` against `input` with a budget of `max_steps`, on the
/// tree-walker (`walker`) or through `Expression::evaluate` (the bytecode VM
/// when the expression compiles to it); whether it fit.
fn fits(source: &str, input: &JValue, walker: bool, max_steps: u64) -> bool {
    let options = EvaluatorOptions {
        max_stack_depth: Some(MAX_EVAL_STACK_DEPTH),
        max_steps: Some(max_steps),
        ..EvaluatorOptions::default()
    };
    let expression = Expression::compile(source).unwrap();
    let result = if walker {
        Evaluator::with_options(Context::new(), options).evaluate(expression.ast(), input)
    } else {
        expression.evaluate_with_options(input, options)
    };
    match result {
        Ok(_) => true,
        Err(error) if error.to_string().contains("U1001") => false,
        Err(error) => panic!("{source}: {error}"),
    }
}

/// The fewest steps `source` needs, by bisection on the budget.
fn steps_needed(source: &str, input: &JValue, walker: bool) -> u64 {
    let (mut low, mut high) = (0, MAX_JSONATA_STEPS);
    assert!(fits(source, input, walker, high), "{source} needs more than the budget");
    while low < high {
        let middle = (low + high) / 2;
        if fits(source, input, walker, middle) {
            high = middle;
        } else {
            low = middle + 1;
        }
    }
    low
}

/// An order event with `n` line items, as a producer would append it.
fn order(n: usize) -> JValue {
    let items: Vec<Value> = (0..n)
        .map(|i| json!({"sku": format!("SKU-{i:05}"), "price": (i % 50) as f64 + 0.99, "qty": i % 4 + 1, "status": if i % 3 == 0 { "open" } else { "shipped" }}))
        .collect();
    JValue::from(json!({
        "offset": 42, "type": "order.created", "createdAt": "2025-01-01T00:00:00.000Z",
        "payload": {"id": "o-1", "amount": 150, "customer": {"email": "a@example.com", "tier": "gold"}, "items": items},
        "metadata": {"source": "shop"}
    }))
}

const TYPICAL: [&str; 8] = [
    "type = 'order.created' and payload.amount > 100",
    "$contains(type, 'order') and $exists(payload.customer.email)",
    "payload.customer.tier in ['gold', 'platinum']",
    "$count(payload.items[status = 'open']) > 0",
    "{'type': 'order.summary', 'payload': {'id': payload.id, 'total': $sum(payload.items.(price * qty)), 'skus': payload.items.sku}}",
    "{'payload': $map(payload.items, function($i){ {'sku': $lowercase($i.sku), 'line': $i.price * $i.qty} })}",
    "{'payload': payload ~> |items|{'total': price * qty}, ['status']|}",
    "($big := payload.items[price > 25]; {'payload': {'n': $count($big), 'top': $sort($big, function($a, $b){ $a.price < $b.price })[0].sku}})",
];

#[test]
fn typical_filters_and_transforms_use_a_small_part_of_the_budget() {
    // A realistic filter or transform, even over a large event (2000 line
    // items is about 200 KiB), fits in a fifth of the budget.
    let input = order(2000);
    for source in TYPICAL {
        for walker in [true, false] {
            assert!(fits(source, &input, walker, MAX_JSONATA_STEPS / 5), "{source}");
        }
    }
}

/// The figures behind the budget: `cargo test --test jsonata_budget --
/// --ignored --nocapture` prints the steps each typical expression takes.
#[test]
#[ignore = "a measurement (slow in a debug build), not a check"]
fn measure_typical_steps() {
    let mut report = String::new();
    for items in [10, 100, 2000] {
        let input = order(items);
        for source in TYPICAL {
            let walker = steps_needed(source, &input, true);
            let evaluate = steps_needed(source, &input, false);
            report += &format!("{walker:>6} tree-walker {evaluate:>6} evaluate | {items:>4} items | {source}\n");
        }
    }
    print!("{report}");
}

#[test]
fn nondeterministic_filters_and_transforms_are_refused_at_configure() {
    let copy_to = json!({"action": "copy-to-stream", "receivingStreamPath": "/d", "delivery": {"start": "now", "onFailingEvent": "halt"}});
    let cases = [
        ("$now()", "$now"),
        ("$millis() > 0", "$millis"),
        ("$random() < 0.5", "$random"),
        ("($f := $now; $f() > '2025')", "$now"),
        ("$count($shuffle(payload.items)) > 0", "$shuffle"),
    ];
    for (expression, name) in cases {
        let mut stream = memory_stream("/src");
        let filter = json!({"receiver": copy_to, "filter": {"jsonataCondition": expression}});
        let mut transform_receiver = copy_to.clone();
        transform_receiver["jsonataTransform"] = json!(format!("{{'payload': {{'v': {expression}}}}}"));
        let transform = json!({"receiver": transform_receiver});
        for (payload, field) in [
            (filter, "filter.jsonataCondition"),
            (transform, "receiver.jsonataTransform"),
        ] {
            let (status, body) = append(&mut stream, json!({"type": CONFIGURED, "payload": payload}), 1);
            assert_eq!(
                (
                    status,
                    body["error"]["code"].as_str(),
                    body["error"]["details"]["field"].as_str()
                ),
                (422, Some("invalid_subscription"), Some(field)),
                "{expression}: {body}"
            );
            let message = body["error"]["message"].as_str().unwrap();
            assert!(
                message.contains(&format!("calls {name}()")) && message.contains("deterministic"),
                "{message}"
            );
        }
    }
    // The playground keeps allowing them.
    let response = tributary::jsonata::playground::handle(br#"{"expression": "$millis() > 0"}"#);
    assert_eq!(response.status, 200, "{}", response.body);
    assert_eq!(
        serde_json::from_str::<Value>(&response.body).unwrap(),
        json!({"result": true})
    );
}

#[test]
fn recursive_filters_and_transforms_are_accepted_and_end_with_the_budget_error() {
    // Configuring one commits (no name-based refusal any more)...
    let mut stream = memory_stream("/src");
    for payload in [
        json!({"receiver": {"action": "copy-to-stream", "receivingStreamPath": "/d", "delivery": {"start": "now", "onFailingEvent": "halt"}}, "filter": {"jsonataCondition": BOMBS[2]}}),
        json!({"receiver": {"action": "copy-to-stream", "receivingStreamPath": "/d", "jsonataTransform": BOMBS[2], "delivery": {"start": "now", "onFailingEvent": "halt"}}}),
    ] {
        let (status, body) = append(&mut stream, json!({"type": CONFIGURED, "payload": payload}), 1);
        assert_eq!(status, 201, "{body}");
    }
    // ... and each evaluation ends with the budget error, which halts the
    // subscription at that event (an evaluation error is a permanent failure, §5).
    for (key, field, bomb) in [
        ("filter", "jsonataCondition", BOMBS[0]),
        ("transform", "jsonataTransform", BOMBS[2]),
    ] {
        let outcome = within_watchdog(key, move || {
            let mut world = World::new(9);
            let mut receiver = json!({"action": "copy-to-stream", "receivingStreamPath": "/b", "delivery": {"start": "beginning", "onFailingEvent": "halt"}});
            let mut payload = json!({"subscriptionKey": key, "receiver": {}});
            if field == "jsonataCondition" {
                payload["filter"] = json!({ field: bomb });
            } else {
                receiver[field] = json!(bomb);
            }
            payload["receiver"] = receiver;
            world.append("/a", json!({"type": CONFIGURED, "payload": payload}));
            world.append("/a", json!({"type": "data", "payload": {"i": 1}}));
            world.run(&["/a"], 10, &mut |_| Network::Deliver);
            let halted = world.stream("/a").state().subscriptions.outbound.by_key[key]
                .delivery_halted
                .clone();
            halted.map(|halted| (halted.after_offset, halted.error.unwrap_or_default()))
        });
        let (after_offset, error) = outcome.unwrap_or_else(|| panic!("{key}: the subscription did not halt"));
        assert_eq!(after_offset, 0, "{key}: halted at the first event");
        assert!(
            error.contains("U1001") && error.contains(&format!("exceeded {MAX_JSONATA_STEPS} steps")),
            "{key}: {error}"
        );
    }
    // The playground answers the same bomb with the same clear error.
    let response = tributary::jsonata::playground::handle(json!({"expression": BOMBS[1]}).to_string().as_bytes());
    let body: Value = serde_json::from_str(&response.body).unwrap();
    assert_eq!(
        (
            response.status,
            body["error"]["code"].as_str(),
            body["error"]["details"]["jsonataCode"].as_str()
        ),
        (422, Some("jsonata_evaluation_error"), Some("U1001")),
        "{body}"
    );
}

#[test]
fn distinct_hashes_scalars_and_charges_each_container_comparison() {
    // The published `$distinct` compared every pair: 90 000 numbers were
    // four billion comparisons in one step, tens of seconds.
    let got = within_watchdog("distinct of 90 000 numbers", || {
        compile("$count($distinct([1..90000]))").unwrap().evaluate(None)
    });
    assert_eq!(got, Ok(Some(json!(90000))));
    // Same answers as before: first occurrences, in order; -0 is 0; types apart.
    let got =
        compile("$distinct([1, \"1\", 0, -0, true, null, \"a\", 1, null, [1], [1], {\"a\": 1}, {\"a\": 1}, \"a\"])")
            .unwrap()
            .evaluate(None);
    assert_eq!(got, Ok(Some(json!([1, "1", 0, true, null, "a", [1], {"a": 1}]))));
    // Containers are still compared pairwise, one step each: bounded by the budget.
    let got = within_watchdog("distinct of 2000 arrays", || {
        compile("$count($distinct($map([1..2000], function($i){[$i]})))")
            .unwrap()
            .evaluate(None)
    });
    assert_budget_error("distinct of 2000 arrays", &got);
}

#[test]
fn builtins_are_charged_steps_for_the_size_of_their_arguments() {
    // 30 000 calls each reading a 1 MiB string were 30 GB read in one
    // evaluation, seen as 30 000 steps; now each call costs a step per KiB.
    for bomb in [
        "($s := $pad(\"\", 1000000); $count([1..30000].$length($s)))",
        "($s := $pad(\"\", 1000000); $count([1..30000].$contains($s, \"x\")))",
        "($a := [1..60000]; $count([1..30000].$sum($a)))",
    ] {
        let got = within_watchdog(bomb, move || compile(bomb).unwrap().evaluate(None));
        assert_budget_error(bomb, &got);
    }
    // Ordinary calls cost what they did: small arguments are free.
    let got = compile("($s := $pad(\"\", 200000); $count([1..100].$length($s)))")
        .unwrap()
        .evaluate(None);
    assert_eq!(got, Ok(Some(json!(100))));
}
