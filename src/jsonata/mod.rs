//! Our one door to JSONata (docs/design.md §5): filters and transforms are compiled
//! once at configure time and evaluated with a bounded stack and a bounded
//! number of steps. Backed by the `jsonata-core` crate (vendored with a step
//! budget, `vendor/jsonata-core/PATCHED.md`); nothing else in Tributary
//! touches it.
//!
//! Traps this module owns: never set `timeout_ms` (it reads `Instant::now`,
//! which panics on wasm32, docs/design.md §1, and the Workers clock does not advance
//! during synchronous execution anyway); always bound the evaluation depth
//! (deep recursion overflows the wasm stack at about 500 levels), the steps
//! (tail recursion and loops use no stack) and the memory (a few steps can
//! build a huge value: the size of each value and the bytes allocated in all,
//! checked before allocating) (§12). An engine call that evaluates many events
//! spends one [`StepBudget`] over all of them (§12 "JSONata per engine call").

mod budget;
mod determinism;
pub mod playground;

pub use budget::StepBudget;

use crate::limits::{
    MAX_EVAL_STACK_DEPTH, MAX_JSONATA_ALLOC_BYTES, MAX_JSONATA_BYTES, MAX_JSONATA_STEPS, MAX_JSONATA_STEPS_PER_CALL,
    MAX_JSONATA_VALUE_BYTES,
};
use jsonata_core::evaluator::{Context, Evaluator, EvaluatorOptions};
use jsonata_core::value::JValue;
use jsonata_core::Expression;
use serde_json::{Map, Value};
use std::fmt;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum JsonataError {
    #[error("expression is {0} bytes; the limit is {MAX_JSONATA_BYTES}")]
    TooLong(usize),
    #[error("syntax error{}: {message}", code_suffix(.code))]
    Syntax { code: Option<String>, message: String },
    #[error("evaluation error{}: {message}", code_suffix(.code))]
    Evaluation { code: Option<String>, message: String },
    /// The engine call's [`StepBudget`] ran out during this evaluation (its
    /// own budget did not): not a failure of the input; evaluate it again next
    /// turn with a fresh budget (§12 "JSONata per engine call").
    #[error(
        "this engine call spent its {MAX_JSONATA_STEPS_PER_CALL} JSONata steps; the evaluation continues next turn"
    )]
    CallBudgetSpent,
}

fn code_suffix(code: &Option<String>) -> String {
    code.as_ref().map(|code| format!(" {code}")).unwrap_or_default()
}

impl JsonataError {
    /// The JSONata error code (`S0201`, `T2001`, `D1011`, ...), when there is one.
    pub fn code(&self) -> Option<&str> {
        match self {
            JsonataError::TooLong(_) | JsonataError::CallBudgetSpent => None,
            JsonataError::Syntax { code, .. } | JsonataError::Evaluation { code, .. } => code.as_deref(),
        }
    }
}

/// The first JSONata error code (`X9999:`) anywhere in a message: the crate
/// sometimes wraps it ("Invalid syntax: S0201: ...", "Signature validation
/// failed: T0410: ...").
fn find_code(message: &str) -> Option<String> {
    let bytes = message.as_bytes();
    (0..bytes.len()).find_map(|start| {
        let candidate = bytes.get(start..start + 6)?;
        let is_code = candidate.first().is_some_and(u8::is_ascii_uppercase)
            && candidate
                .get(1..5)
                .is_some_and(|digits| digits.iter().all(u8::is_ascii_digit))
            && candidate.get(5) == Some(&b':')
            && (start == 0 || !bytes.get(start - 1).is_some_and(u8::is_ascii_alphanumeric));
        is_code.then(|| String::from_utf8_lossy(candidate.get(..5).unwrap_or_default()).into_owned())
    })
}

/// Our bounds (§12), with at most `max_steps` steps.
fn options(max_steps: u64) -> EvaluatorOptions {
    EvaluatorOptions {
        max_stack_depth: Some(MAX_EVAL_STACK_DEPTH),
        max_steps: Some(max_steps),
        max_value_bytes: Some(MAX_JSONATA_VALUE_BYTES),
        max_alloc_bytes: Some(MAX_JSONATA_ALLOC_BYTES),
        ..EvaluatorOptions::default()
    }
}

/// A compiled expression and its source text.
pub struct Compiled {
    source: String,
    expression: Expression,
}

impl fmt::Debug for Compiled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Compiled").field("source", &self.source).finish()
    }
}

/// Compiles `source`, refusing expressions over the size limit.
pub fn compile(source: &str) -> Result<Compiled, JsonataError> {
    if source.len() > MAX_JSONATA_BYTES {
        return Err(JsonataError::TooLong(source.len()));
    }
    let expression = Expression::compile_with_options(source, options(MAX_JSONATA_STEPS)).map_err(|error| {
        let message = error.to_string();
        JsonataError::Syntax {
            code: find_code(&message),
            message,
        }
    })?;
    Ok(Compiled {
        source: source.to_owned(),
        expression,
    })
}

fn evaluation_error(error: jsonata_core::evaluator::EvaluatorError) -> JsonataError {
    let message = error.to_string();
    JsonataError::Evaluation {
        code: find_code(&message),
        message,
    }
}

/// JSONata's result as JSON: `None` is JSONata's "undefined". Functions
/// (lambdas, builtins) have no JSON form and become `None` too.
fn to_json(result: JValue) -> Result<Option<Value>, JsonataError> {
    if result.is_undefined() {
        return Ok(None);
    }
    budget::check_result_size(&result)?;
    serde_json::to_value(&result)
        .map(Some)
        .map_err(|error| JsonataError::Evaluation {
            code: None,
            message: format!("result is not JSON: {error}"),
        })
}

impl Compiled {
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Evaluates against `input` (`None` = undefined input).
    pub fn evaluate(&self, input: Option<&Value>) -> Result<Option<Value>, JsonataError> {
        self.run(input, None, None)
    }

    /// [`Compiled::evaluate`] spending from an engine call's `budget`; fails
    /// with [`JsonataError::CallBudgetSpent`] when the call's budget, not the
    /// evaluation's own, stopped it.
    pub fn evaluate_metered(
        &self,
        input: Option<&Value>,
        budget: &mut StepBudget,
    ) -> Result<Option<Value>, JsonataError> {
        self.run(input, None, Some(budget))
    }

    /// Evaluates with variables bound (`$name` for each key of `bindings`).
    pub fn evaluate_with_bindings(
        &self,
        input: Option<&Value>,
        bindings: &Map<String, Value>,
    ) -> Result<Option<Value>, JsonataError> {
        self.run(input, Some(bindings), None)
    }

    /// [`Compiled::evaluate_with_bindings`] spending from `budget` (see
    /// [`Compiled::evaluate_metered`]).
    pub fn evaluate_with_bindings_metered(
        &self,
        input: Option<&Value>,
        bindings: &Map<String, Value>,
        budget: &mut StepBudget,
    ) -> Result<Option<Value>, JsonataError> {
        self.run(input, Some(bindings), Some(budget))
    }

    fn run(
        &self,
        input: Option<&Value>,
        bindings: Option<&Map<String, Value>>,
        budget: Option<&mut StepBudget>,
    ) -> Result<Option<Value>, JsonataError> {
        let cap = budget.as_ref().map_or(MAX_JSONATA_STEPS, |budget| budget.cap());
        if cap == 0 {
            return Err(JsonataError::CallBudgetSpent);
        }
        let data = input.map_or(JValue::Undefined, |value| JValue::from(value.clone()));
        let (result, steps) = match bindings {
            None => self.expression.evaluate_counted(&data, options(cap)),
            Some(bindings) => {
                let mut context = Context::new();
                for (name, value) in bindings {
                    context.bind(name.clone(), JValue::from(value.clone()));
                }
                let mut evaluator = Evaluator::with_options(context, options(cap));
                let result = evaluator.evaluate(self.expression.ast(), &data);
                (result, evaluator.steps_taken())
            }
        };
        if let Some(budget) = budget {
            budget.charge(steps);
            // Past the cap means the step budget stopped it; a cap below the
            // evaluation's own budget was the call's doing.
            if result.is_err() && steps > cap && cap < MAX_JSONATA_STEPS {
                return Err(JsonataError::CallBudgetSpent);
            }
        }
        to_json(result.map_err(evaluation_error)?)
    }

    /// The nondeterministic builtin the expression calls or refers to
    /// (`"$now"`, `"$millis"`, `"$random"`, `"$shuffle"`), or `"$eval"` when it
    /// evaluates a computed string (which could call any of them). A filter or
    /// transform using one would differ between retries and rebuilds (§5).
    pub fn calls_nondeterministic(&self) -> Option<&'static str> {
        determinism::nondeterministic_call(self.expression.ast())
    }

    /// A filter condition matches only when the result is exactly `true` (§5).
    pub fn matches(&self, input: &Value) -> Result<bool, JsonataError> {
        Ok(self.evaluate(Some(input))? == Some(Value::Bool(true)))
    }

    /// [`Compiled::matches`] spending from `budget` (see
    /// [`Compiled::evaluate_metered`]).
    pub fn matches_metered(&self, input: &Value, budget: &mut StepBudget) -> Result<bool, JsonataError> {
        Ok(self.evaluate_metered(Some(input), budget)? == Some(Value::Bool(true)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn compiles_evaluates_and_reports_codes() {
        let condition = compile("payload.amount > 100 and type = 'order'").ok();
        let condition = condition.as_ref();
        let event = json!({"type": "order", "payload": {"amount": 150}});
        assert_eq!(condition.map(|c| c.matches(&event)), Some(Ok(true)));
        assert_eq!(condition.map(|c| c.matches(&json!({"type": "order"}))), Some(Ok(false)));
        let truthy_not_true = compile("payload.amount").ok();
        assert_eq!(truthy_not_true.map(|c| c.matches(&event)), Some(Ok(false)));
        let syntax = compile("payload.(").err();
        assert!(matches!(syntax, Some(JsonataError::Syntax { .. })), "{syntax:?}");
        assert!(syntax.and_then(|e| e.code().map(str::to_owned)).is_some());
        assert_eq!(compile(&"a".repeat(4097)).err(), Some(JsonataError::TooLong(4097)));
    }

    #[test]
    fn nondeterministic_builtins_are_found() {
        let found = |source: &str| compile(source).ok().and_then(|c| c.calls_nondeterministic());
        assert_eq!(found("$now()"), Some("$now"));
        assert_eq!(found("{'at': $millis()}"), Some("$millis"));
        assert_eq!(found("payload.n > $random() * 10"), Some("$random"));
        assert_eq!(found("$shuffle(payload.items)"), Some("$shuffle"));
        assert_eq!(
            found("($f := $now; $f())"),
            Some("$now"),
            "a reference, not only a call"
        );
        assert_eq!(found("$map([1, 2], function($v) { $v + $millis() })"), Some("$millis"));
        assert_eq!(found("payload ~> |$|{'at': $now()}|"), Some("$now"));
        assert_eq!(found("$eval('$random()')"), Some("$random"));
        assert_eq!(found("$eval(payload.expr)"), Some("$eval"));
        assert_eq!(found("$eval('1 + 1')"), None);
        assert_eq!(found("payload.now & ' ' & 'random' & $string(payload.millis)"), None);
        assert_eq!(found("$fromMillis(payload.at) & $uppercase(type)"), None);
    }

    #[test]
    fn deep_recursion_is_an_error_not_a_crash() {
        let recursive = compile("($f := function($n) { $n = 0 ? 0 : 1 + $f($n - 1) }; $f(100000))").ok();
        let result = recursive.map(|c| c.evaluate(Some(&json!({}))));
        assert!(
            matches!(result, Some(Err(JsonataError::Evaluation { .. }))),
            "{result:?}"
        );
    }
}
