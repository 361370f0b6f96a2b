//! Our one door to JSONata (DESIGN.md §5): filters and transforms are compiled
//! once at configure time and evaluated with a bounded stack and a bounded
//! number of steps. Backed by the `jsonata-core` crate (vendored with a step
//! budget, `vendor/jsonata-core/PATCHED.md`); nothing else in Tributary
//! touches it.
//!
//! Traps this module owns: never set `timeout_ms` (it reads `Instant::now`,
//! which panics on wasm32, DESIGN.md §1, and the Workers clock does not advance
//! during synchronous execution anyway); always bound the evaluation depth
//! (deep recursion overflows the wasm stack at about 500 levels) and the steps
//! (tail recursion and loops use no stack) (§12).

mod determinism;
pub mod playground;

use crate::limits::{MAX_EVAL_STACK_DEPTH, MAX_JSONATA_BYTES, MAX_JSONATA_STEPS};
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
}

fn code_suffix(code: &Option<String>) -> String {
    code.as_ref().map(|code| format!(" {code}")).unwrap_or_default()
}

impl JsonataError {
    /// The JSONata error code (`S0201`, `T2001`, `D1011`, ...), when there is one.
    pub fn code(&self) -> Option<&str> {
        match self {
            JsonataError::TooLong(_) => None,
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

fn options() -> EvaluatorOptions {
    EvaluatorOptions {
        max_stack_depth: Some(MAX_EVAL_STACK_DEPTH),
        max_steps: Some(MAX_JSONATA_STEPS),
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
    let expression = Expression::compile_with_options(source, options()).map_err(|error| {
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
        let data = input.map_or(JValue::Undefined, |value| JValue::from(value.clone()));
        to_json(self.expression.evaluate(&data).map_err(evaluation_error)?)
    }

    /// Evaluates with variables bound (`$name` for each key of `bindings`).
    pub fn evaluate_with_bindings(
        &self,
        input: Option<&Value>,
        bindings: &Map<String, Value>,
    ) -> Result<Option<Value>, JsonataError> {
        let data = input.map_or(JValue::Undefined, |value| JValue::from(value.clone()));
        let mut context = Context::new();
        for (name, value) in bindings {
            context.bind(name.clone(), JValue::from(value.clone()));
        }
        let mut evaluator = Evaluator::with_options(context, options());
        to_json(
            evaluator
                .evaluate(self.expression.ast(), &data)
                .map_err(evaluation_error)?,
        )
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
