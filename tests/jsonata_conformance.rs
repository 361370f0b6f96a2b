#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
//! The official JSONata test suite (jsonata-js 2.2.2, kept as data in
//! `../shared/conformance/jsonata`), run case by case through our one door to
//! JSONata, `tributary::jsonata` (docs/design.md §5), exactly as the product uses it:
//! our size limit, our stack-depth cap, our step budget, no time limit.
//!
//! Rules (the suite's README):
//! - input: `data` when present (`null` is JSON null), else `dataset` (a file
//!   in `datasets/`; `null` = undefined input);
//! - expectation: `result` (deep-equal, numbers with a relative tolerance,
//!   array order ignored when the case says `unordered`), `undefinedResult`
//!   (our `Ok(None)`), or `code` / `error.code` (the error's JSONata code);
//! - `timelimit` and `depth` are the reference runner's own limits; we run
//!   with ours (a case that needs more than ours fails and is listed);
//! - a case file serde_json cannot read (the two lone-surrogate cases) is
//!   skipped, and only those may be skipped.
//!
//! Prints the failures by group and `jsonata conformance: N passed, M failed,
//! K skipped`.

use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};
use tributary::jsonata::{compile, JsonataError};

/// Our pass floor: the suite has 1686 cases (2 of them unreadable here).
const MIN_PASSED: usize = 1670;
/// The most cases serde_json may fail to read (the lone-surrogate cases).
const MAX_SKIPPED: usize = 2;
/// Relative tolerance for numbers (the suite computes some in floating point).
const TOLERANCE: f64 = 1e-9;
/// A case still running after this is abandoned and fails (see `run_case`).
const WATCHDOG: Duration = Duration::from_secs(10);
/// Cases slower than this are noted in the output.
const SLOW: Duration = Duration::from_secs(2);
/// Stack of the thread that evaluates a case: an ordinary main-thread size,
/// so that the depth cap (`tributary::limits::MAX_EVAL_STACK_DEPTH`) is what stops deep
/// recursion even in an unoptimised test build (2 MiB is enough today).
const CASE_STACK_BYTES: usize = 8 * 1024 * 1024;
/// Characters of expected/got shown per failure.
const SHOW: usize = 100;

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("shared")
        .join("conformance")
        .join("jsonata")
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    entries.sort();
    entries
}

fn numbers_equal(a: &serde_json::Number, b: &serde_json::Number) -> bool {
    if a == b {
        return true;
    }
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y || (x - y).abs() <= TOLERANCE * x.abs().max(y.abs()).max(f64::MIN_POSITIVE),
        _ => false,
    }
}

/// Structural equality: objects ignore key order, numbers compare with a
/// relative tolerance, arrays compare in order unless `unordered`.
fn json_equal(expected: &Value, got: &Value, unordered: bool) -> bool {
    match (expected, got) {
        (Value::Number(a), Value::Number(b)) => numbers_equal(a, b),
        (Value::Array(a), Value::Array(b)) => {
            if a.len() != b.len() {
                return false;
            }
            if !unordered {
                return a.iter().zip(b).all(|(x, y)| json_equal(x, y, false));
            }
            let mut used = vec![false; b.len()];
            a.iter().all(|x| {
                let found = b
                    .iter()
                    .enumerate()
                    .position(|(i, y)| !used[i] && json_equal(x, y, false));
                match found {
                    Some(i) => {
                        used[i] = true;
                        true
                    }
                    None => false,
                }
            })
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len() && a.iter().all(|(k, x)| b.get(k).is_some_and(|y| json_equal(x, y, false)))
        }
        _ => expected == got,
    }
}

fn truncate(text: &str) -> String {
    if text.chars().count() <= SHOW {
        text.to_owned()
    } else {
        format!("{}…", text.chars().take(SHOW).collect::<String>())
    }
}

enum Expected {
    Result(Value),
    Undefined,
    Code(String),
}

impl Expected {
    fn of(case: &Map<String, Value>) -> Result<Expected, String> {
        if let Some(code) = case.get("code").and_then(Value::as_str) {
            return Ok(Expected::Code(code.to_owned()));
        }
        if let Some(code) = case
            .get("error")
            .and_then(|error| error.get("code"))
            .and_then(Value::as_str)
        {
            return Ok(Expected::Code(code.to_owned()));
        }
        if case.get("undefinedResult") == Some(&Value::Bool(true)) {
            return Ok(Expected::Undefined);
        }
        case.get("result")
            .cloned()
            .map(Expected::Result)
            .ok_or_else(|| "case has no expectation".to_owned())
    }

    fn describe(&self) -> String {
        match self {
            Expected::Result(value) => value.to_string(),
            Expected::Undefined => "undefined".to_owned(),
            Expected::Code(code) => format!("error {code}"),
        }
    }
}

fn describe_got(got: &Result<Option<Value>, JsonataError>) -> String {
    match got {
        Ok(Some(value)) => value.to_string(),
        Ok(None) => "undefined".to_owned(),
        Err(error) => format!("error {}: {error}", error.code().unwrap_or("(no code)")),
    }
}

struct Datasets {
    dir: PathBuf,
    loaded: HashMap<String, Value>,
}

impl Datasets {
    fn get(&mut self, name: &str) -> Result<&Value, String> {
        if !self.loaded.contains_key(name) {
            let path = self.dir.join(format!("{name}.json"));
            let text = fs::read_to_string(&path).map_err(|e| format!("dataset {name}: {e}"))?;
            let value: Value = serde_json::from_str(&text).map_err(|e| format!("dataset {name}: {e}"))?;
            self.loaded.insert(name.to_owned(), value);
        }
        Ok(&self.loaded[name])
    }
}

/// A case ready to run: what to evaluate and what must come out.
struct Prepared {
    source: String,
    input: Option<Value>,
    bindings: Map<String, Value>,
    expected: Expected,
    unordered: bool,
}

fn prepare(case: &Value, case_dir: &Path, datasets: &mut Datasets) -> Result<Prepared, String> {
    let case = case.as_object().ok_or("case is not an object")?;
    let expected = Expected::of(case)?;
    let source = match (case.get("expr"), case.get("expr-file")) {
        (Some(Value::String(expr)), _) => expr.clone(),
        (_, Some(Value::String(file))) => {
            fs::read_to_string(case_dir.join(file)).map_err(|e| format!("expr-file {file}: {e}"))?
        }
        _ => return Err("case has no expr".to_owned()),
    };
    let input = match (case.get("data"), case.get("dataset")) {
        (Some(data), _) => Some(data.clone()),
        (None, Some(Value::String(name))) => Some(datasets.get(name)?.clone()),
        _ => None,
    };
    let bindings = match case.get("bindings") {
        Some(Value::Object(bindings)) => bindings.clone(),
        _ => Map::new(),
    };
    let unordered = case.get("unordered") == Some(&Value::Bool(true));
    Ok(Prepared {
        source,
        input,
        bindings,
        expected,
        unordered,
    })
}

/// How a case ran.
enum Outcome {
    Passed,
    /// The expression is over our 4096-byte product limit.
    TooLong(String),
    Failed(String),
}

fn evaluate(case: &Prepared) -> Outcome {
    let got = compile(&case.source).and_then(|c| c.evaluate_with_bindings(case.input.as_ref(), &case.bindings));
    let passed = match (&case.expected, &got) {
        (Expected::Result(want), Ok(Some(value))) => json_equal(want, value, case.unordered),
        (Expected::Undefined, Ok(None)) => true,
        (Expected::Code(code), Err(error)) => error.code() == Some(code.as_str()),
        _ => false,
    };
    let why = || {
        format!(
            "expected {} vs got {}",
            truncate(&case.expected.describe()),
            truncate(&describe_got(&got))
        )
    };
    match (&got, passed) {
        (_, true) => Outcome::Passed,
        (Err(JsonataError::TooLong(_)), false) => Outcome::TooLong(why()),
        (_, false) => Outcome::Failed(why()),
    }
}

/// Runs one case on its own thread and gives up on it after `WATCHDOG`: our
/// module sets no time limit (it cannot on wasm32), so an expression that
/// loops forever would otherwise hang the suite. A runaway thread is left
/// spinning until the test process exits.
fn run_case(case: Prepared) -> (Outcome, Duration) {
    let (sender, receiver) = mpsc::channel();
    thread::Builder::new()
        .stack_size(CASE_STACK_BYTES)
        .spawn(move || {
            let started = Instant::now();
            let outcome = evaluate(&case);
            // The receiver is gone when the watchdog has fired.
            let _ = sender.send((outcome, started.elapsed()));
        })
        .unwrap();
    match receiver.recv_timeout(WATCHDOG) {
        Ok(ran) => ran,
        Err(mpsc::RecvTimeoutError::Timeout) => (
            Outcome::Failed(format!(
                "no answer within {}s (abandoned, still running)",
                WATCHDOG.as_secs()
            )),
            WATCHDOG,
        ),
        Err(mpsc::RecvTimeoutError::Disconnected) => (
            Outcome::Failed("the evaluation thread panicked".to_owned()),
            Duration::ZERO,
        ),
    }
}

#[test]
fn official_jsonata_suite() {
    let root = suite_dir();
    assert!(
        root.join("groups").is_dir(),
        "the JSONata suite is missing at {} (shared/ must sit beside the repo)",
        root.display()
    );
    let mut datasets = Datasets {
        dir: root.join("datasets"),
        loaded: HashMap::new(),
    };
    let (mut passed, mut too_long) = (0usize, 0usize);
    let mut failures: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut skipped: Vec<String> = Vec::new();
    let mut slow: Vec<String> = Vec::new();

    for group_dir in sorted_entries(&root.join("groups")) {
        let group = group_dir.file_name().unwrap().to_string_lossy().into_owned();
        for file in sorted_entries(&group_dir) {
            if file.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
            let text = fs::read_to_string(&file).unwrap();
            let parsed: Value = match serde_json::from_str(&text) {
                Ok(parsed) => parsed,
                Err(error) => {
                    skipped.push(format!("{group}/{stem}: unreadable here ({error})"));
                    continue;
                }
            };
            let cases = match parsed {
                Value::Array(cases) => cases
                    .into_iter()
                    .enumerate()
                    .map(|(i, case)| (format!("{group}/{stem}#{i}"), case))
                    .collect(),
                case => vec![(format!("{group}/{stem}"), case)],
            };
            for (id, case) in cases {
                let outcome = match prepare(&case, &group_dir, &mut datasets) {
                    Ok(prepared) => {
                        let (outcome, elapsed) = run_case(prepared);
                        if elapsed >= SLOW {
                            slow.push(format!("{id} ({:.1}s)", elapsed.as_secs_f64()));
                        }
                        outcome
                    }
                    Err(why) => Outcome::Failed(why),
                };
                let why = match outcome {
                    Outcome::Passed => {
                        passed += 1;
                        continue;
                    }
                    Outcome::TooLong(why) => {
                        too_long += 1;
                        format!("{why} [over our 4096-byte limit]")
                    }
                    Outcome::Failed(why) => why,
                };
                failures.entry(group.clone()).or_default().push(format!("{id}: {why}"));
            }
        }
    }

    let failed: usize = failures.values().map(Vec::len).sum();
    // Straight to stdout, past the test harness's capture, so the report
    // shows on a passing run too.
    let mut report = String::new();
    for (group, list) in &failures {
        report += &format!("-- {group}: {} failed\n", list.len());
        for line in list {
            report += &format!("   {line}\n");
        }
    }
    for line in &skipped {
        report += &format!("skipped {line}\n");
    }
    if !slow.is_empty() {
        report += &format!("slow cases: {}\n", slow.join(", "));
    }
    report += &format!("expressions refused as too long (> 4096 bytes): {too_long}\n");
    report += &format!(
        "jsonata conformance: {passed} passed, {failed} failed, {} skipped\n",
        skipped.len()
    );
    let mut stdout = io::stdout().lock();
    stdout.write_all(report.as_bytes()).unwrap();
    stdout.flush().unwrap();
    assert!(
        skipped.len() <= MAX_SKIPPED,
        "only the lone-surrogate cases may be skipped: {skipped:?}"
    );
    assert!(
        passed >= MIN_PASSED,
        "{passed} cases passed; at least {MIN_PASSED} must"
    );
}
