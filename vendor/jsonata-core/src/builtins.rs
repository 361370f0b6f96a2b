//! One dispatcher for every builtin that needs nothing but its arguments.
//!
//! A builtin used to be implemented up to three times -- once in the compiled
//! path, once in the tree-walker, once again for by-reference calls -- and the
//! copies drifted. Twenty-four of them existed in exactly one of the three, so
//! `$map(arr, $type)` failed while `$type(x)` worked. This module is the single
//! implementation the three dispatch sites share.
//!
//! What does NOT live here: the ten builtins that need the evaluator itself
//! ($map, $filter, $reduce, $single, $sift, $each, $sort, $eval, $match,
//! $replace). They take AST arguments and call back into evaluation, so they
//! stay in `evaluate_function_call`. That line is a real boundary, not an
//! accident of this refactor -- jsonata-js draws it in the same place.

use crate::evaluator::{EvaluatorError, EvaluatorOptions};
use crate::value::JValue;
use std::rc::Rc;

/// What JavaScript makes of an undefined argument in a string position.
///
/// jsonata-js validates a call and then hands the arguments to the function
/// body unchanged, so an undefined that the signature admitted reaches a
/// JavaScript string operation -- `indexOf`, `hasOwnProperty` -- which
/// stringifies it to the literal text "undefined" rather than treating it as
/// absent. Observable whenever the subject contains that text:
/// `$substringBefore("xundefinedy", missing.x)` is "x", not the whole string.
const JS_UNDEFINED_AS_STRING: &str = "undefined";

/// `$substring` with an undefined start, which JavaScript's arithmetic rather
/// than any JSONata rule decides.
///
/// `strLength + undefined` is NaN, which is not `< 0`, so the start stays
/// undefined and `Array.prototype.slice` reads it as 0. Supply a length and
/// the end becomes NaN as well, and `slice(0, NaN)` is empty -- so the same
/// undefined start yields the whole string or none of it depending only on
/// whether a length was given. Nothing here can be derived from "treat the
/// missing start as 0"; that gets the second case wrong.
fn substring_with_undefined_start(s: &str, has_length: bool) -> JValue {
    if has_length {
        JValue::string("")
    } else {
        JValue::string(s)
    }
}

/// `$distinct` without comparing every pair (Tributary patch, see
/// PATCHED.md): the published one compared each item with every kept one, so
/// `$distinct([1..90000])` took tens of seconds in one step. Scalars are
/// looked up in a hash set (equal exactly when `values_equal` says so: `-0`
/// is `0`, `NaN` equals nothing); arrays and objects are still compared with
/// each kept container, one step each, so the step budget bounds them.
#[cfg(not(feature = "python"))]
fn distinct_metered(arr: &[JValue], options: &EvaluatorOptions) -> Result<JValue, EvaluatorError> {
    #[derive(Hash, PartialEq, Eq)]
    enum Scalar<'a> {
        Null,
        Bool(bool),
        Number(u64),
        String(&'a str),
    }
    let mut scalars = std::collections::HashSet::new();
    let mut containers: Vec<&JValue> = Vec::new();
    let mut result = Vec::new();
    for value in arr.iter() {
        let scalar = match value {
            JValue::Null => Some(Scalar::Null),
            JValue::Bool(b) => Some(Scalar::Bool(*b)),
            JValue::Number(n) if n.is_nan() => None,
            JValue::Number(n) => Some(Scalar::Number(if *n == 0.0 { 0 } else { n.to_bits() })),
            JValue::String(s) => Some(Scalar::String(s)),
            _ => None,
        };
        let is_new = match (scalar, value) {
            (Some(scalar), _) => scalars.insert(scalar),
            (None, JValue::Array(_) | JValue::Object(_)) => {
                let mut is_new = true;
                for kept in &containers {
                    crate::evaluator::count_steps(options, 1)?;
                    if crate::functions::array::values_equal(value, kept) {
                        is_new = false;
                        break;
                    }
                }
                if is_new {
                    containers.push(value);
                }
                is_new
            }
            // Functions, regexes, NaN: equal to nothing.
            (None, _) => true,
        };
        if is_new {
            result.push(value.clone());
        }
    }
    Ok(JValue::array(result))
}

/// Everything the engine knows about one builtin, in one row.
///
/// This table is THE single source of truth for builtin metadata; the
/// predicates below (`is_pure_builtin`, `builtin_arity`,
/// `is_compilable_builtin`) and `signature::builtin_signature` all derive
/// from it, so adding a builtin is one new row here (plus its dispatch arm
/// and, when the reference declares one, fixture entries — the drift tests
/// against `tests/fixtures/builtin_arity.json` and
/// `tests/fixtures/builtin_signatures.json` still police both).
///
/// Field notes:
/// - `arity` is jsonata-js's `implementation.length` — the *JavaScript
///   function's parameter count* (`hofFuncArgs` → `getFunctionArity`), not
///   the JSONata signature's arity: `$string` has two signature parameters
///   but arity 1, and `$substring` has arity 3, which is why
///   `$map([1,2], $substring)` is a T0410 in the reference. `None` = no
///   arity entry.
///   Source: `tests/fixtures/builtin_arity.json`, generated by
///   `scripts/gen_fastpath_corpus.js`, plus `now`/`millis` (inline closures
///   in jsonata.js).
/// - `signature` is the reference's declared signature string, parsed
///   lazily by `signature::builtin_signature`. `None` = the reference
///   declares none (those builtins hand-roll their own validation).
/// - `pure` = `dispatch_pure` can evaluate it from arguments alone; paired
///   with the dispatcher's `unreachable!()` fallback, so a name admitted
///   here without a dispatch arm is a panic, not a silent wrong answer.
/// - `compilable` = the compiled path may inline it (`CompiledExpr::
///   BuiltinCall`); always a subset of `pure`.
pub(crate) struct BuiltinSpec {
    pub name: &'static str,
    pub arity: Option<usize>,
    pub signature: Option<&'static str>,
    pub pure: bool,
    pub compilable: bool,
}

/// Sorted by `name` (asserted by `builtins_table_is_sorted`) for binary search.
#[rustfmt::skip]
pub(crate) static BUILTINS: &[BuiltinSpec] = &[
    BuiltinSpec { name: "abs", arity: Some(1), signature: Some("<n-:n>"), pure: true, compilable: true },
    BuiltinSpec { name: "append", arity: Some(2), signature: Some("<xx:a>"), pure: true, compilable: true },
    BuiltinSpec { name: "assert", arity: Some(2), signature: Some("<bs?:x>"), pure: true, compilable: false },
    BuiltinSpec { name: "average", arity: Some(1), signature: Some("<a<n>:n>"), pure: true, compilable: true },
    BuiltinSpec { name: "base64decode", arity: Some(1), signature: Some("<s-:s>"), pure: true, compilable: false },
    BuiltinSpec { name: "base64encode", arity: Some(1), signature: Some("<s-:s>"), pure: true, compilable: false },
    BuiltinSpec { name: "boolean", arity: Some(1), signature: Some("<x-:b>"), pure: true, compilable: true },
    BuiltinSpec { name: "ceil", arity: Some(1), signature: Some("<n-:n>"), pure: true, compilable: true },
    BuiltinSpec { name: "contains", arity: Some(2), signature: Some("<s-(sf):b>"), pure: true, compilable: true },
    BuiltinSpec { name: "count", arity: Some(1), signature: Some("<a:n>"), pure: true, compilable: true },
    BuiltinSpec { name: "decodeUrl", arity: Some(1), signature: Some("<s-:s>"), pure: true, compilable: false },
    BuiltinSpec { name: "decodeUrlComponent", arity: Some(1), signature: Some("<s-:s>"), pure: true, compilable: false },
    BuiltinSpec { name: "distinct", arity: Some(1), signature: Some("<x:x>"), pure: true, compilable: true },
    BuiltinSpec { name: "each", arity: Some(2), signature: Some("<o-f:a>"), pure: false, compilable: false },
    BuiltinSpec { name: "encodeUrl", arity: Some(1), signature: Some("<s-:s>"), pure: true, compilable: false },
    BuiltinSpec { name: "encodeUrlComponent", arity: Some(1), signature: Some("<s-:s>"), pure: true, compilable: false },
    BuiltinSpec { name: "error", arity: Some(1), signature: Some("<s?:x>"), pure: true, compilable: false },
    BuiltinSpec { name: "eval", arity: Some(2), signature: None, pure: false, compilable: false },
    BuiltinSpec { name: "exists", arity: Some(1), signature: Some("<x:b>"), pure: true, compilable: false },
    BuiltinSpec { name: "filter", arity: Some(2), signature: Some("<af>"), pure: false, compilable: false },
    BuiltinSpec { name: "floor", arity: Some(1), signature: Some("<n-:n>"), pure: true, compilable: true },
    BuiltinSpec { name: "formatBase", arity: Some(2), signature: Some("<n-n?:s>"), pure: true, compilable: false },
    BuiltinSpec { name: "formatInteger", arity: Some(2), signature: Some("<n-s:s>"), pure: true, compilable: false },
    BuiltinSpec { name: "formatNumber", arity: Some(3), signature: Some("<n-so?:s>"), pure: true, compilable: false },
    BuiltinSpec { name: "fromMillis", arity: Some(3), signature: Some("<n-s?s?:s>"), pure: true, compilable: false },
    BuiltinSpec { name: "join", arity: Some(2), signature: Some("<a<s>s?:s>"), pure: true, compilable: true },
    BuiltinSpec { name: "keys", arity: Some(1), signature: Some("<x-:a<s>>"), pure: true, compilable: true },
    BuiltinSpec { name: "length", arity: Some(1), signature: Some("<s-:n>"), pure: true, compilable: true },
    BuiltinSpec { name: "lookup", arity: Some(2), signature: Some("<x-s:x>"), pure: true, compilable: false },
    BuiltinSpec { name: "lowercase", arity: Some(1), signature: Some("<s-:s>"), pure: true, compilable: true },
    BuiltinSpec { name: "map", arity: Some(2), signature: Some("<af>"), pure: false, compilable: false },
    BuiltinSpec { name: "match", arity: Some(3), signature: Some("<s-f<s:o>n?:a<o>>"), pure: false, compilable: false },
    BuiltinSpec { name: "max", arity: Some(1), signature: Some("<a<n>:n>"), pure: true, compilable: true },
    BuiltinSpec { name: "merge", arity: Some(1), signature: Some("<a<o>:o>"), pure: true, compilable: true },
    BuiltinSpec { name: "millis", arity: Some(0), signature: None, pure: true, compilable: false },
    BuiltinSpec { name: "min", arity: Some(1), signature: Some("<a<n>:n>"), pure: true, compilable: true },
    BuiltinSpec { name: "not", arity: Some(1), signature: Some("<x-:b>"), pure: true, compilable: true },
    BuiltinSpec { name: "now", arity: Some(2), signature: None, pure: true, compilable: false },
    BuiltinSpec { name: "number", arity: Some(1), signature: Some("<(nsb)-:n>"), pure: true, compilable: true },
    BuiltinSpec { name: "pad", arity: Some(3), signature: Some("<s-ns?:s>"), pure: true, compilable: false },
    BuiltinSpec { name: "parseInteger", arity: Some(2), signature: Some("<s-s:n>"), pure: true, compilable: false },
    BuiltinSpec { name: "power", arity: Some(2), signature: Some("<n-n:n>"), pure: true, compilable: false },
    BuiltinSpec { name: "random", arity: Some(0), signature: Some("<:n>"), pure: false, compilable: false },
    BuiltinSpec { name: "reduce", arity: Some(3), signature: Some("<afj?:j>"), pure: false, compilable: false },
    BuiltinSpec { name: "replace", arity: Some(4), signature: Some("<s-(sf)(sf)n?:s>"), pure: false, compilable: false },
    BuiltinSpec { name: "reverse", arity: Some(1), signature: Some("<a:a>"), pure: true, compilable: true },
    BuiltinSpec { name: "round", arity: Some(2), signature: Some("<n-n?:n>"), pure: true, compilable: true },
    BuiltinSpec { name: "shuffle", arity: Some(1), signature: Some("<a:a>"), pure: true, compilable: false },
    BuiltinSpec { name: "sift", arity: Some(2), signature: Some("<o-f?:o>"), pure: false, compilable: false },
    BuiltinSpec { name: "single", arity: Some(2), signature: Some("<af?>"), pure: false, compilable: false },
    BuiltinSpec { name: "sort", arity: Some(2), signature: Some("<af?:a>"), pure: false, compilable: false },
    BuiltinSpec { name: "split", arity: Some(3), signature: Some("<s-(sf)n?:a<s>>"), pure: true, compilable: true },
    BuiltinSpec { name: "spread", arity: Some(1), signature: Some("<x-:a<o>>"), pure: true, compilable: false },
    BuiltinSpec { name: "sqrt", arity: Some(1), signature: Some("<n-:n>"), pure: true, compilable: true },
    BuiltinSpec { name: "string", arity: Some(1), signature: Some("<x-b?:s>"), pure: true, compilable: true },
    BuiltinSpec { name: "substring", arity: Some(3), signature: Some("<s-nn?:s>"), pure: true, compilable: true },
    BuiltinSpec { name: "substringAfter", arity: Some(2), signature: Some("<s-s:s>"), pure: true, compilable: true },
    BuiltinSpec { name: "substringBefore", arity: Some(2), signature: Some("<s-s:s>"), pure: true, compilable: true },
    BuiltinSpec { name: "sum", arity: Some(1), signature: Some("<a<n>:n>"), pure: true, compilable: true },
    BuiltinSpec { name: "toMillis", arity: Some(2), signature: Some("<s-s?:n>"), pure: true, compilable: false },
    BuiltinSpec { name: "trim", arity: Some(1), signature: Some("<s-:s>"), pure: true, compilable: true },
    BuiltinSpec { name: "type", arity: Some(1), signature: Some("<x:s>"), pure: true, compilable: false },
    BuiltinSpec { name: "uppercase", arity: Some(1), signature: Some("<s-:s>"), pure: true, compilable: true },
    BuiltinSpec { name: "zip", arity: Some(0), signature: Some("<a+>"), pure: true, compilable: false },
];

/// Look up a builtin's spec row by name.
pub(crate) fn builtin_spec(name: &str) -> Option<&'static BuiltinSpec> {
    BUILTINS
        .binary_search_by_key(&name, |s| s.name)
        .ok()
        .map(|i| &BUILTINS[i])
}

/// The builtins `dispatch_pure` can handle: everything that needs only its
/// arguments, the context value, and the evaluation options.
pub(crate) fn is_pure_builtin(name: &str) -> bool {
    builtin_spec(name).is_some_and(|s| s.pure)
}

/// The builtins the compiled path may inline as `CompiledExpr::BuiltinCall`.
pub(crate) fn is_compilable_builtin(name: &str) -> bool {
    builtin_spec(name).is_some_and(|s| s.compilable)
}

/// Arity of a builtin, for the purpose of truncating the arguments a
/// higher-order function hands its callback (`$map(arr, $uppercase)`).
///
/// Returns `None` for a name with no reference arity; the caller should
/// treat that as "unknown, do not truncate" (`usize::MAX`), not as arity 0
/// -- `zip` and `millis` are legitimately arity 0 and return `Some(0)`.
pub(crate) fn builtin_arity(name: &str) -> Option<usize> {
    builtin_spec(name).and_then(|s| s.arity)
}

/// Whether a call of builtin `name` with `argc` arguments may read the
/// context: `$eval` (its focus defaults to it), or a signature with a `-`
/// parameter and fewer arguments than parameters, which jsonata-js fills
/// from the context. A conservative test; it only picks the path that
/// passes the context explicitly.
pub(crate) fn builtin_may_read_context(name: &str, argc: usize) -> bool {
    match builtin_spec(name) {
        Some(spec) if spec.name == "eval" => true,
        Some(spec) => {
            spec.signature.is_some_and(|sig| sig.contains('-'))
                && spec.arity.is_some_and(|arity| argc < arity)
        }
        None => false,
    }
}

/// Shared body for the unary string→string encoding builtins
/// ($base64encode/$base64decode/$encodeUrl*/$decodeUrl*): arity check, null
/// and undefined passthrough, then `f` on the string, type error otherwise.
/// (For the base64 pair, signature validation `<s-:s>` has already rejected
/// wrong arity/null/non-string, so those arms here are unreachable belt and
/// braces; the URL four have no declared signature and rely on this.)
fn unary_string_encoding(
    name: &str,
    args: &[JValue],
    f: fn(&str) -> Result<JValue, crate::functions::FunctionError>,
) -> Result<JValue, EvaluatorError> {
    if args.len() != 1 {
        return Err(EvaluatorError::EvaluationError(format!(
            "{name}() requires exactly 1 argument"
        )));
    }
    match &args[0] {
        JValue::Null => Ok(JValue::Null),
        JValue::Undefined => Ok(JValue::Undefined),
        JValue::String(v) => Ok(f(v)?),
        _ => Err(EvaluatorError::TypeError(format!(
            "{name}() requires a string argument"
        ))),
    }
}

/// Render a value the way jsonata-js interpolates one into an error message:
/// a number as JavaScript would print it, an absent value as the literal
/// "undefined".
fn describe_operand(v: &JValue) -> String {
    match v {
        JValue::Undefined => "undefined".to_string(),
        // JValue's Display renders a number the way JavaScript prints one.
        other => format!("{}", other),
    }
}

/// Dispatch a builtin that needs nothing but its arguments.
///
/// `context` is the JSONata context value (`$`) at the call site. It is used
/// for implicit-argument insertion and for the signature's `-` modifier, and
/// jsonata-js passes the same value (`input`) in all three dispatch positions.
///
/// Builtins that build a jsonata-js sequence (`$keys`, `$lookup`,
/// `$spread`) return it as one; the generic unwrap at the expression
/// boundary collapses it, so a builtin passed as a callback (`$map(arr,
/// $keys)`) is unwrapped once, by the higher-order function's own result,
/// exactly as in jsonata-js.
pub(crate) fn dispatch_pure(
    name: &str,
    args: &[JValue],
    context: &JValue,
    options: &EvaluatorOptions,
) -> Result<JValue, EvaluatorError> {
    // Every builtin result is charged to the evaluation's memory budget
    // (Tributary patch, see PATCHED.md). Builtins whose result size is driven
    // by an argument (`$pad`, `$join`, `$string`, ...) also check before they
    // allocate; the others build a value bounded by their (charged) inputs.
    //
    // A builtin's work grows with its arguments (`$length`, `$contains`,
    // `$sum` read all of them), so each call is also charged steps for the
    // arguments it is handed: without it, 100 000 steps of `$length($s)` on a
    // 1 MiB string read 100 GB in one evaluation.
    for arg in if args.is_empty() { std::slice::from_ref(context) } else { args } {
        crate::evaluator::count_steps(options, crate::evaluator::scan_steps(arg))?;
    }
    let result = dispatch_pure_unmetered(name, args, context, options)?;
    crate::evaluator::charge_value(options, &result)?;
    Ok(result)
}

fn dispatch_pure_unmetered(
    name: &str,
    args: &[JValue],
    context: &JValue,
    options: &EvaluatorOptions,
) -> Result<JValue, EvaluatorError> {
    // 1. Implicit context insertion. The union of what the two paths used to
    //    do separately: only the tree-walker had `fromMillis` here and
    //    `replace` below, which was invisible because neither compiles.
    let args_storage: Vec<JValue>;
    let args: &[JValue] = if args.is_empty() {
        match name {
            "string" => {
                // $string() with an undefined context is undefined -- there is
                // nothing to stringify. An explicit null context is a value
                // like any other for this signature (`x` admits `l`), so it
                // substitutes normally and reaches the "string" dispatch arm
                // below, which turns it into "null" (issue #110).
                if context.is_undefined() {
                    return Ok(JValue::Undefined);
                }
                args_storage = vec![context.clone()];
                &args_storage
            }
            "number" | "boolean" | "uppercase" | "lowercase" | "fromMillis" => {
                args_storage = vec![context.clone()];
                &args_storage
            }
            _ => args,
        }
    } else if args.len() == 1 {
        match name {
            "substringBefore" | "substringAfter" | "contains" | "split" | "replace" => {
                if matches!(context, JValue::String(_)) {
                    args_storage = std::iter::once(context.clone())
                        .chain(args.iter().cloned())
                        .collect();
                    &args_storage
                } else {
                    args
                }
            }
            _ => args,
        }
    } else {
        args
    };

    // 2. Materialize top-level lazy args so every builtin sees plain Objects.
    #[cfg(feature = "python")]
    let lazy_storage: Vec<JValue>;
    #[cfg(feature = "python")]
    let args: &[JValue] = if args.iter().any(|a| matches!(a, JValue::LazyPyDict(_))) {
        lazy_storage = args
            .iter()
            .map(crate::evaluator::normalize_lazy)
            .collect::<Result<Vec<_>, _>>()?;
        &lazy_storage
    } else {
        args
    };

    // 3. Validate and coerce against the jsonata-js signature.
    let sig_storage: Vec<JValue>;
    let args: &[JValue] = match crate::evaluator::validate_builtin_args(name, args, context)? {
        Some(coerced) => {
            sig_storage = coerced;
            &sig_storage
        }
        None => args,
    };

    // 4. Undefined propagation -- deliberately AFTER validation, which is the
    //    order jsonata-js works in. See the note in `validate_builtin_args`.
    if args.first().is_some_and(JValue::is_undefined)
        && crate::evaluator::propagates_undefined(name)
    {
        return Ok(JValue::Undefined);
    }

    use crate::functions;

    match name {
        // ── String functions ────────────────────────────────────────────
        "string" => {
            // Validate the optional prettify argument: must be a boolean.
            let prettify = match args.get(1) {
                None => None,
                Some(JValue::Bool(b)) => Some(*b),
                Some(_) => {
                    return Err(EvaluatorError::TypeError(
                        "string() prettify parameter must be a boolean".to_string(),
                    ))
                }
            };
            let arg = args.first().unwrap_or(&JValue::Null);
            Ok(functions::string::string_bounded(
                arg,
                prettify,
                crate::evaluator::string_limit(options),
            )?)
        }
        "length" => match args.first() {
            Some(JValue::String(s)) => Ok(functions::string::length(s)?),
            // Undefined input propagates (caught above by the undefined-propagation guard).
            Some(JValue::Undefined) => Ok(JValue::Undefined),
            // No argument: mirrors tree-walker "requires exactly 1 argument" (no error code,
            // so the test framework accepts it against any expected T-code).
            None => Err(EvaluatorError::EvaluationError(
                "length() requires exactly 1 argument".to_string(),
            )),
            // null and any other non-string type → T0410
            _ => Err(EvaluatorError::TypeError(
                "T0410: Argument 1 of function length does not match function signature"
                    .to_string(),
            )),
        },
        "uppercase" => match args.first() {
            Some(JValue::String(s)) => Ok(functions::string::uppercase(s)?),
            Some(JValue::Undefined) | None => Ok(JValue::Undefined),
            _ => Err(EvaluatorError::TypeError(
                "T0410: Argument 1 of function uppercase does not match function signature"
                    .to_string(),
            )),
        },
        "lowercase" => match args.first() {
            Some(JValue::String(s)) => Ok(functions::string::lowercase(s)?),
            Some(JValue::Undefined) | None => Ok(JValue::Undefined),
            _ => Err(EvaluatorError::TypeError(
                "T0410: Argument 1 of function lowercase does not match function signature"
                    .to_string(),
            )),
        },
        "trim" => match args.first() {
            // Signature `<s-:s>` rejects an explicit null before this arm is
            // ever reached (Null's type symbol 'l' isn't in the "[sm]" class),
            // so this branch is dead in practice via any validated call path
            // -- kept for defensiveness, matching the tree-walker's pre-merge
            // behaviour. Undefined (and a genuinely absent argument) must
            // propagate as Undefined, not Null: `{"k": $trim(missing.x)}` is
            // `{}` in the reference, not `{"k": null}`.
            None | Some(JValue::Undefined) => Ok(JValue::Undefined),
            Some(JValue::Null) => Ok(JValue::Null),
            Some(JValue::String(s)) => Ok(functions::string::trim(s)?),
            _ => Err(EvaluatorError::TypeError(
                "trim() requires a string argument".to_string(),
            )),
        },
        "substring" => {
            if args.len() < 2 {
                return Err(EvaluatorError::EvaluationError(
                    "substring() requires at least 2 arguments".to_string(),
                ));
            }
            match (&args[0], &args[1]) {
                (JValue::String(s), JValue::Number(start)) => {
                    // Optional 3rd arg (length) must be a number if provided.
                    let length = match args.get(2) {
                        None => None,
                        Some(JValue::Number(l)) => Some(*l as i64),
                        Some(_) => {
                            return Err(EvaluatorError::TypeError(
                                "T0410: Argument 3 of function substring does not match function signature"
                                    .to_string(),
                            ))
                        }
                    };
                    Ok(functions::string::substring(s, *start as i64, length)?)
                }
                (JValue::String(s), JValue::Undefined) => {
                    Ok(substring_with_undefined_start(s, args.len() > 2))
                }
                _ => Err(EvaluatorError::TypeError(
                    "T0410: Argument 1 of function substring does not match function signature"
                        .to_string(),
                )),
            }
        }
        "substringBefore" => {
            if args.len() != 2 {
                return Err(EvaluatorError::TypeError(
                    "T0411: Context value is not a compatible type with argument 2 of function substringBefore".to_string(),
                ));
            }
            match (&args[0], &args[1]) {
                (JValue::String(s), JValue::String(sep)) => {
                    Ok(functions::string::substring_before(s, sep)?)
                }
                (JValue::String(s), JValue::Undefined) => {
                    Ok(functions::string::substring_before(s, JS_UNDEFINED_AS_STRING)?)
                }
                // Undefined propagates; null is a type error.
                (JValue::Undefined, _) => Ok(JValue::Undefined),
                _ => Err(EvaluatorError::TypeError(
                    "T0410: Argument 1 of function substringBefore does not match function signature".to_string(),
                )),
            }
        }
        "substringAfter" => {
            if args.len() != 2 {
                return Err(EvaluatorError::TypeError(
                    "T0411: Context value is not a compatible type with argument 2 of function substringAfter".to_string(),
                ));
            }
            match (&args[0], &args[1]) {
                (JValue::String(s), JValue::String(sep)) => {
                    Ok(functions::string::substring_after(s, sep)?)
                }
                (JValue::String(s), JValue::Undefined) => {
                    Ok(functions::string::substring_after(s, JS_UNDEFINED_AS_STRING)?)
                }
                // Undefined propagates; null is a type error.
                (JValue::Undefined, _) => Ok(JValue::Undefined),
                _ => Err(EvaluatorError::TypeError(
                    "T0410: Argument 1 of function substringAfter does not match function signature".to_string(),
                )),
            }
        }
        "contains" => {
            if args.len() != 2 {
                return Err(EvaluatorError::EvaluationError(
                    "contains() requires exactly 2 arguments".to_string(),
                ));
            }
            // jsonata-js #809: $contains returns undefined when either argument
            // (the string OR the pattern) is undefined.
            if args[0].is_undefined() || args[1].is_undefined() {
                return Ok(JValue::Undefined);
            }
            match &args[0] {
                JValue::Null => Ok(JValue::Null),
                JValue::String(s) => Ok(functions::string::contains(s, &args[1])?),
                _ => Err(EvaluatorError::TypeError(
                    "contains() requires a string as the first argument".to_string(),
                )),
            }
        }
        "split" => {
            if args.len() < 2 {
                return Err(EvaluatorError::EvaluationError(
                    "split() requires at least 2 arguments".to_string(),
                ));
            }
            match &args[0] {
                // "undefined inputs always return undefined" (jsonata-js
                // `split`), not null: `[$split(nothing, " ")]` is `[]` and a
                // callback returning it adds nothing to `$map` (#250).
                // Validation has already rejected an explicit null.
                JValue::Undefined => Ok(JValue::Undefined),
                JValue::String(s) => {
                    // Validate the optional limit argument — must be a positive number.
                    let limit = match args.get(2) {
                        None => None,
                        Some(JValue::Number(n)) => {
                            if *n < 0.0 {
                                return Err(EvaluatorError::EvaluationError(
                                    "D3020: Third argument of split function must be a positive number"
                                        .to_string(),
                                ));
                            }
                            Some(n.floor() as usize)
                        }
                        Some(_) => {
                            return Err(EvaluatorError::TypeError(
                                "split() limit must be a number".to_string(),
                            ))
                        }
                    };
                    // The parts' slots, counted before splitting (Tributary
                    // patch, see PATCHED.md); a regex separator's parts are
                    // charged when made (bounded by the string).
                    let parts = match &args[1] {
                        JValue::String(sep) if sep.is_empty() => Some(s.chars().count()),
                        JValue::String(sep) => Some(s.matches(&**sep).count().saturating_add(1)),
                        _ => None,
                    };
                    if let Some(parts) = parts {
                        crate::evaluator::charge_items(options, parts.min(limit.unwrap_or(usize::MAX)))?;
                    }
                    Ok(functions::string::split(s, &args[1], limit)?)
                }
                _ => Err(EvaluatorError::TypeError(
                    "split() requires a string as the first argument".to_string(),
                )),
            }
        }
        "join" => {
            if args.is_empty() {
                return Err(EvaluatorError::TypeError(
                    "T0410: Argument 1 of function $join does not match function signature"
                        .to_string(),
                ));
            }
            match &args[0] {
                // Signature `<a<s>s?:s>` rejects an explicit null before this
                // arm is reached (a scalar Null fails the array's element-type
                // check, T0412), so this branch is dead in practice via any
                // validated call path -- kept for defensiveness. Undefined
                // must propagate as Undefined, not Null.
                JValue::Undefined => Ok(JValue::Undefined),
                JValue::Null => Ok(JValue::Null),
                // Signature: <a<s>s?:s> — first arg must be an array of strings.
                JValue::Bool(_) | JValue::Number(_) | JValue::Object(_) => {
                    Err(EvaluatorError::TypeError(
                        "T0412: Argument 1 of function $join must be an array of String"
                            .to_string(),
                    ))
                }
                #[cfg(feature = "python")]
                JValue::LazyPyDict(_) => Err(EvaluatorError::TypeError(
                    "T0412: Argument 1 of function $join must be an array of String".to_string(),
                )),
                JValue::Array(arr) => {
                    // All elements must be strings.
                    for item in arr.iter() {
                        if !matches!(item, JValue::String(_)) {
                            return Err(EvaluatorError::TypeError(
                                "T0412: Argument 1 of function $join must be an array of String"
                                    .to_string(),
                            ));
                        }
                    }
                    // Validate separator: must be a string if provided.
                    let separator = match args.get(1) {
                        None | Some(JValue::Undefined) => None,
                        Some(JValue::String(s)) => Some(&**s),
                        Some(_) => {
                            return Err(EvaluatorError::TypeError(
                                "T0410: Argument 2 of function $join does not match function signature (expected String)"
                                    .to_string(),
                            ))
                        }
                    };
                    // Check the joined size before allocating it (Tributary
                    // patch, see PATCHED.md): the items may be one shared
                    // string repeated, cheap to hold and huge to join.
                    let items: u64 = arr
                        .iter()
                        .map(|item| match item {
                            JValue::String(s) => s.len() as u64,
                            _ => 0,
                        })
                        .fold(0u64, u64::saturating_add);
                    let separators = (separator.map_or(0, str::len) as u64)
                        .saturating_mul(arr.len().saturating_sub(1) as u64);
                    crate::evaluator::charge_bytes(options, items.saturating_add(separators))?;
                    Ok(functions::string::join(arr, separator)?)
                }
                JValue::String(s) => Ok(JValue::String(s.clone())),
                _ => Err(EvaluatorError::TypeError(
                    "T0412: Argument 1 of function $join must be an array of String".to_string(),
                )),
            }
        }

        "pad" => {
            if args.is_empty() || args.len() > 3 {
                return Err(EvaluatorError::EvaluationError(
                    "pad() requires 2 or 3 arguments".to_string(),
                ));
            }

            // First argument: string to pad
            let string = match &args[0] {
                JValue::String(s) => s.clone(),
                JValue::Null => return Ok(JValue::Null),
                JValue::Undefined => return Ok(JValue::Undefined),
                _ => {
                    return Err(EvaluatorError::TypeError(
                        "pad() first argument must be a string".to_string(),
                    ))
                }
            };

            // Second argument: width (negative = left pad, positive = right pad).
            //
            // An undefined width survives validation (`<s-ns?:s>` admits a
            // missing argument in any slot) and reaches jsonata-js's body,
            // where `Math.trunc(undefined)` is NaN and the padding length
            // is therefore NaN too. `NaN > 0` is false, so the reference
            // skips padding entirely and returns the string unchanged --
            // whatever pad character was given.
            let width = match &args.get(1) {
                Some(JValue::Number(n)) => *n as i32,
                Some(JValue::Undefined) | None => return Ok(JValue::string(string)),
                _ => {
                    return Err(EvaluatorError::TypeError(
                        "pad() second argument must be a number".to_string(),
                    ))
                }
            };

            // Third argument: padding string (optional, defaults to space)
            let pad_string = match args.get(2) {
                Some(JValue::String(s)) if !s.is_empty() => s.clone(),
                _ => Rc::from(" "),
            };

            let abs_width = width.unsigned_abs() as usize;
            // Count Unicode characters (code points), not bytes
            let char_count = string.chars().count();

            if char_count >= abs_width {
                // String is already long enough
                return Ok(JValue::string(string));
            }

            let padding_needed = abs_width - char_count;

            let pad_chars: Vec<char> = pad_string.chars().collect();
            // The padded size, checked before allocating it (Tributary patch,
            // see PATCHED.md): the width is an argument, up to 2^31 characters.
            let cycle = pad_chars.len().max(1);
            let partial: usize = pad_chars
                .iter()
                .take(padding_needed % cycle)
                .map(|c| c.len_utf8())
                .sum();
            let padding_bytes = ((padding_needed / cycle) as u64)
                .saturating_mul(pad_string.len() as u64)
                .saturating_add(partial as u64);
            crate::evaluator::charge_bytes(
                options,
                padding_bytes.saturating_add(string.len() as u64),
            )?;
            let mut padding = String::with_capacity(usize::try_from(padding_bytes).unwrap_or(0));
            for i in 0..padding_needed {
                padding.push(pad_chars[i % pad_chars.len()]);
            }

            let result = if width < 0 {
                // Left pad (negative width)
                format!("{}{}", padding, string)
            } else {
                // Right pad (positive width)
                format!("{}{}", string, padding)
            };

            Ok(JValue::string(result))
        }

        // ── Numeric functions ───────────────────────────────────────────
        "number" => match args.first() {
            Some(v) => Ok(functions::numeric::number(v)?),
            None => Err(EvaluatorError::EvaluationError(
                "number() requires at least 1 argument".to_string(),
            )),
        },
        "floor" => match args.first() {
            Some(JValue::Null | JValue::Undefined) | None => Ok(JValue::Null),
            Some(JValue::Number(n)) => Ok(functions::numeric::floor(*n)?),
            _ => Err(EvaluatorError::TypeError(
                "floor() requires a number argument".to_string(),
            )),
        },
        "ceil" => match args.first() {
            Some(JValue::Null | JValue::Undefined) | None => Ok(JValue::Null),
            Some(JValue::Number(n)) => Ok(functions::numeric::ceil(*n)?),
            _ => Err(EvaluatorError::TypeError(
                "ceil() requires a number argument".to_string(),
            )),
        },
        "round" => match args.first() {
            Some(JValue::Null | JValue::Undefined) | None => Ok(JValue::Null),
            Some(JValue::Number(n)) => {
                let precision = args.get(1).and_then(|v| {
                    if let JValue::Number(p) = v {
                        Some(*p as i32)
                    } else {
                        None
                    }
                });
                Ok(functions::numeric::round(*n, precision)?)
            }
            _ => Err(EvaluatorError::TypeError(
                "round() requires a number argument".to_string(),
            )),
        },
        "abs" => match args.first() {
            Some(JValue::Null | JValue::Undefined) | None => Ok(JValue::Null),
            Some(JValue::Number(n)) => Ok(functions::numeric::abs(*n)?),
            _ => Err(EvaluatorError::TypeError(
                "abs() requires a number argument".to_string(),
            )),
        },
        "sqrt" => match args.first() {
            Some(JValue::Null | JValue::Undefined) | None => Ok(JValue::Null),
            Some(JValue::Number(n)) => Ok(functions::numeric::sqrt(*n)?),
            _ => Err(EvaluatorError::TypeError(
                "sqrt() requires a number argument".to_string(),
            )),
        },

        "power" => {
            if args.len() != 2 {
                return Err(EvaluatorError::EvaluationError(
                    "power() requires exactly 2 arguments".to_string(),
                ));
            }
            if args[0].is_null() {
                return Ok(JValue::Null);
            }
            if args[0].is_undefined() {
                return Ok(JValue::Undefined);
            }
            match (&args[0], &args[1]) {
                (JValue::Number(base), JValue::Number(exp)) => {
                    Ok(functions::numeric::power(*base, *exp)?)
                }
                // The signature `<n-n:n>` has already rejected a non-number,
                // and an undefined base returned above, so the only value
                // left here is an undefined exponent -- which JavaScript
                // evaluates to NaN and the reference reports as D3061.
                (base, exp) => Err(EvaluatorError::EvaluationError(format!(
                    "D3061: The power function has resulted in a value that cannot be \
                     represented as a JSON number: base={}, exponent={}",
                    describe_operand(base),
                    describe_operand(exp),
                ))),
            }
        }
        "formatNumber" => {
            if args.len() < 2 || args.len() > 3 {
                return Err(EvaluatorError::EvaluationError(
                    "formatNumber() requires 2 or 3 arguments".to_string(),
                ));
            }
            if args[0].is_null() {
                return Ok(JValue::Null);
            }
            if args[0].is_undefined() {
                return Ok(JValue::Undefined);
            }
            match (&args[0], &args[1]) {
                (JValue::Number(num), JValue::String(picture)) => {
                    let fmt_options = if args.len() == 3 {
                        Some(&args[2])
                    } else {
                        None
                    };
                    Ok(functions::numeric::format_number(
                        *num,
                        picture,
                        fmt_options,
                    )?)
                }
                _ => Err(EvaluatorError::TypeError(
                    "formatNumber() requires a number and a string".to_string(),
                )),
            }
        }
        "formatBase" => {
            if args.is_empty() || args.len() > 2 {
                return Err(EvaluatorError::EvaluationError(
                    "formatBase() requires 1 or 2 arguments".to_string(),
                ));
            }
            // Handle undefined input
            if args[0].is_null() {
                return Ok(JValue::Null);
            }
            if args[0].is_undefined() {
                return Ok(JValue::Undefined);
            }
            match &args[0] {
                JValue::Number(num) => {
                    let radix = if args.len() == 2 {
                        match &args[1] {
                            JValue::Number(r) => Some(r.trunc() as i64),
                            _ => {
                                return Err(EvaluatorError::TypeError(
                                    "formatBase() radix must be a number".to_string(),
                                ))
                            }
                        }
                    } else {
                        None
                    };
                    Ok(functions::numeric::format_base(*num, radix)?)
                }
                _ => Err(EvaluatorError::TypeError(
                    "formatBase() requires a number".to_string(),
                )),
            }
        }
        "formatInteger" => {
            // `<n-s:s>` fixes the arity at two and rejects a null in either
            // slot as T0410; an undefined first argument still reaches here.
            match (&args[0], &args[1]) {
                (JValue::Number(n), JValue::String(picture)) => {
                    Ok(crate::datetime::format_integer(*n, picture)?)
                }
                (JValue::Undefined, _) => Ok(JValue::Undefined),
                _ => Err(EvaluatorError::TypeError(
                    "formatInteger() requires a number and a string".to_string(),
                )),
            }
        }
        "parseInteger" => {
            // `<s-s:n>`: same as $formatInteger above.
            match (&args[0], &args[1]) {
                (JValue::String(value), JValue::String(picture)) => {
                    Ok(crate::datetime::parse_integer(value, picture)?)
                }
                (JValue::Undefined, _) => Ok(JValue::Undefined),
                _ => Err(EvaluatorError::TypeError(
                    "parseInteger() requires a string and a string".to_string(),
                )),
            }
        }

        // ── Aggregation functions ───────────────────────────────────────
        "sum" => match args.first() {
            Some(v) if v.is_undefined() => Ok(JValue::Undefined),
            None => Err(EvaluatorError::EvaluationError(
                "sum() requires exactly 1 argument".to_string(),
            )),
            Some(JValue::Null) => Ok(JValue::Null),
            Some(JValue::Array(arr)) => Ok(crate::evaluator::aggregation::sum(arr)?),
            Some(JValue::Number(n)) => Ok(JValue::Number(*n)),
            Some(other) => Ok(functions::numeric::sum(std::slice::from_ref(other))?),
        },
        "max" => match args.first() {
            Some(v) if v.is_undefined() => Ok(JValue::Undefined),
            Some(JValue::Null) | None => Ok(JValue::Null),
            Some(JValue::Array(arr)) => Ok(crate::evaluator::aggregation::max(arr)?),
            Some(v @ JValue::Number(_)) => Ok(v.clone()),
            _ => Err(EvaluatorError::TypeError(
                "max() requires an array or number argument".to_string(),
            )),
        },
        "min" => match args.first() {
            Some(v) if v.is_undefined() => Ok(JValue::Undefined),
            Some(JValue::Null) | None => Ok(JValue::Null),
            Some(JValue::Array(arr)) => Ok(crate::evaluator::aggregation::min(arr)?),
            Some(v @ JValue::Number(_)) => Ok(v.clone()),
            _ => Err(EvaluatorError::TypeError(
                "min() requires an array or number argument".to_string(),
            )),
        },
        "average" => match args.first() {
            Some(v) if v.is_undefined() => Ok(JValue::Undefined),
            Some(JValue::Null) | None => Ok(JValue::Null),
            Some(JValue::Array(arr)) => Ok(crate::evaluator::aggregation::average(arr)?),
            Some(v @ JValue::Number(_)) => Ok(v.clone()),
            _ => Err(EvaluatorError::TypeError(
                "average() requires an array or number argument".to_string(),
            )),
        },
        "count" => match args.first() {
            Some(v) if v.is_undefined() => Ok(JValue::from(0i64)),
            Some(JValue::Null) | None => Ok(JValue::from(0i64)),
            Some(JValue::Array(arr)) => Ok(functions::array::count(arr)?),
            _ => Ok(JValue::from(1i64)),
        },

        // ── Boolean / logic ─────────────────────────────────────────────
        "boolean" => match args.first() {
            Some(v) => Ok(functions::boolean::boolean(v)?),
            None => Err(EvaluatorError::EvaluationError(
                "boolean() requires 1 argument".to_string(),
            )),
        },
        "not" => match args.first() {
            Some(v) => Ok(JValue::Bool(!crate::evaluator::compiled_is_truthy(v))),
            None => Err(EvaluatorError::EvaluationError(
                "not() requires 1 argument".to_string(),
            )),
        },

        // ── Array functions ─────────────────────────────────────────────
        "append" => {
            if args.len() != 2 {
                return Err(EvaluatorError::EvaluationError(
                    "append() requires exactly 2 arguments".to_string(),
                ));
            }
            let first = &args[0];
            let second = &args[1];
            // Only a *missing* operand is skipped; an explicit null is a value
            // and gets appended. Mirrors the tree-walker arm.
            if matches!(second, JValue::Undefined) {
                return Ok(first.clone());
            }
            if matches!(first, JValue::Undefined) {
                return Ok(second.clone());
            }
            let arr = match first {
                JValue::Array(a) => a.to_vec(),
                other => vec![other.clone()],
            };
            let second_len = match second {
                JValue::Array(a) => a.len(),
                _ => 1,
            };
            crate::evaluator::check_sequence_length(arr.len() + second_len, options)?;
            Ok(functions::array::append(&arr, second)?)
        }
        "reverse" => match args.first() {
            // Signature `<a:a>` has no element-type constraint, so a scalar
            // explicit null is wrapped into `[null]` by signature coercion
            // before this arm is reached -- `Some(JValue::Null)` here is dead
            // in practice via any validated call path, kept for defensiveness.
            // Undefined (and a genuinely absent argument) must propagate as
            // Undefined, not Null.
            None | Some(JValue::Undefined) => Ok(JValue::Undefined),
            Some(JValue::Null) => Ok(JValue::Null),
            Some(JValue::Array(arr)) => Ok(functions::array::reverse(arr)?),
            _ => Err(EvaluatorError::TypeError(
                "reverse() requires an array argument".to_string(),
            )),
        },
        "distinct" => match args.first() {
            // Signature `<x:x>` (Any) lets an explicit null reach here
            // unwrapped, and it must stay Null; only Undefined (and a
            // genuinely absent argument) moves to Undefined.
            None | Some(JValue::Undefined) => Ok(JValue::Undefined),
            Some(JValue::Array(arr)) if arr.len() > 1 => {
                #[cfg(feature = "python")]
                let mut result = functions::array::distinct(arr)?;
                #[cfg(not(feature = "python"))]
                let mut result = distinct_metered(arr, options)?;
                // jsonata-js builds a sequence only when the input was one.
                if arr.sequence {
                    result.mark_sequence();
                }
                Ok(result)
            }
            // Non-array input (including Null), and arrays of length <= 1,
            // pass through unchanged (jsonata-js functions.js:
            // `if(!Array.isArray(arr) || arr.length <= 1) return arr;`)
            Some(other) => Ok(other.clone()),
        },

        "shuffle" => {
            if args.len() != 1 {
                return Err(EvaluatorError::EvaluationError(
                    "shuffle() requires exactly 1 argument".to_string(),
                ));
            }
            if args[0].is_null() {
                return Ok(JValue::Null);
            }
            if args[0].is_undefined() {
                return Ok(JValue::Undefined);
            }
            match &args[0] {
                JValue::Array(arr) => Ok(functions::array::shuffle(arr)?),
                _ => Err(EvaluatorError::TypeError(
                    "shuffle() requires an array argument".to_string(),
                )),
            }
        }
        "zip" => {
            if args.is_empty() {
                return Err(EvaluatorError::EvaluationError(
                    "zip() requires at least 1 argument".to_string(),
                ));
            }

            // Convert arguments to arrays (wrapping non-arrays in single-element arrays)
            // If any argument is null/undefined, return empty array
            let mut arrays: Vec<Vec<JValue>> = Vec::with_capacity(args.len());
            for arg in args {
                match arg {
                    JValue::Array(arr) => {
                        if arr.is_empty() {
                            // Empty array means result is empty
                            return Ok(JValue::array(vec![]));
                        }
                        arrays.push(arr.to_vec());
                    }
                    JValue::Null | JValue::Undefined => {
                        // Null/undefined means result is empty
                        return Ok(JValue::array(vec![]));
                    }
                    other => {
                        // Wrap non-array values in single-element array
                        arrays.push(vec![other.clone()]);
                    }
                }
            }

            if arrays.is_empty() {
                return Ok(JValue::array(vec![]));
            }

            // Find the length of the shortest array
            let min_len = arrays.iter().map(|a| a.len()).min().unwrap_or(0);

            // Zip the arrays together
            let mut result = Vec::with_capacity(min_len);
            for i in 0..min_len {
                let mut tuple = Vec::with_capacity(arrays.len());
                for array in &arrays {
                    tuple.push(array[i].clone());
                }
                result.push(JValue::array(tuple));
            }

            Ok(JValue::array(result))
        }
        "exists" => {
            if args.len() != 1 {
                return Err(EvaluatorError::EvaluationError(
                    "exists() requires exactly 1 argument".to_string(),
                ));
            }
            Ok(functions::array::exists(&args[0])?)
        }

        // ── Object functions ────────────────────────────────────────────
        "keys" => match args.first() {
            // jsonata-js's $keys returns undefined whenever there are no keys to
            // report -- a missing/undefined argument, an explicit null, a
            // non-container scalar, a function value, or a container (object or
            // array-of-objects) that yields an empty key list (issue #112). Only
            // an object (or array containing at least one object) with at least
            // one key produces a value.
            //
            // The keys are a sequence (`this.createSequence()`): the generic
            // unwrap at the expression boundary makes no keys undefined and
            // one key that key. Where there is no such unwrap (a function's
            // tail call, as a `$map` callback), the empty sequence stays a
            // value: `$map([1], function(){ $keys(nothing) })` is `[[]]`,
            // as jsonata-js's `keys` starts from `createSequence()` for an
            // undefined argument too (#250).
            None | Some(JValue::Undefined) => {
                crate::evaluator::hof_result_sequence(vec![], options)
            }
            Some(JValue::Object(obj)) => {
                let keys: Vec<JValue> = obj.keys().map(|k| JValue::string(k.clone())).collect();
                crate::evaluator::hof_result_sequence(keys, options)
            }
            Some(JValue::Array(arr)) => {
                let mut all_keys: Vec<JValue> = Vec::new();
                for item in arr.iter() {
                    let normalized_item = crate::evaluator::normalize_lazy(item)?;
                    if let JValue::Object(obj) = &normalized_item {
                        for key in obj.keys() {
                            let k = JValue::string(key.clone());
                            if !all_keys.contains(&k) {
                                all_keys.push(k);
                            }
                        }
                    }
                }
                crate::evaluator::hof_result_sequence(all_keys, options)
            }
            // An explicit null, a function value, or any other non-container
            // scalar all produce zero keys, an empty sequence like the arms
            // above.
            _ => crate::evaluator::hof_result_sequence(vec![], options),
        },
        "lookup" => {
            if args.len() != 2 {
                return Err(EvaluatorError::EvaluationError(
                    "lookup() requires exactly 2 arguments".to_string(),
                ));
            }
            // jsonata-js's $lookup has no null-vs-undefined subject distinction:
            // any non-object subject (including an explicit null) yields
            // undefined, since the field lookup below finds nothing in it
            // either way.
            if args[0].is_null() || args[0].is_undefined() {
                return Ok(JValue::Undefined);
            }

            let key = match &args[1] {
                JValue::String(k) => &**k,
                // jsonata-js looks the key up with `hasOwnProperty`, which
                // stringifies an undefined key to "undefined" instead of
                // rejecting it -- so `$lookup(obj, missing.x)` is undefined
                // for an ordinary object but 7 for `{"undefined": 7}`.
                JValue::Undefined => JS_UNDEFINED_AS_STRING,
                _ => {
                    return Err(EvaluatorError::TypeError(
                        "lookup() requires a string key".to_string(),
                    ))
                }
            };

            // jsonata-js `$lookup` is `fn.lookup`, the function that also
            // evaluates a field name: over an array it looks the key up in each
            // item, flattening array values one level into a sequence.
            // Over an array the result is a sequence even when nothing
            // matched (`createSequence()` in jsonata-js), which a function's
            // tail call returns as is (#250); the field step itself gives
            // undefined there, as a path step's result is unwrapped anyway.
            match crate::evaluator::compiled_field_step(key, &args[0], options)? {
                JValue::Undefined if matches!(args[0], JValue::Array(_)) => {
                    crate::evaluator::hof_result_sequence(vec![], options)
                }
                result => Ok(result),
            }
        }
        "spread" => {
            if args.len() != 1 {
                return Err(EvaluatorError::EvaluationError(
                    "spread() requires exactly 1 argument".to_string(),
                ));
            }
            match &args[0] {
                JValue::Null => Ok(JValue::Null),
                // Not a container - pass through unchanged (e.g. so $string() still
                // sees the function value and applies its own function->"" rule).
                function if function.is_function() => Ok(function.clone()),
                JValue::Object(obj) => {
                    // functions::object::spread() always returns an array with one
                    // element per key (mirrors jsonata-js's push-per-key loop through
                    // this.createSequence()), so it needs the same cap as the
                    // array-fanout branch below and as the "keys" arm's single-object
                    // branch.
                    crate::evaluator::check_sequence_length(obj.len(), options)?;
                    // That loop pushes into a *sequence*, so the usual
                    // sequence rules close over the result: one entry
                    // unwraps and none at all is undefined. Hence
                    // `$spread({"k": 1})` is the object back, not a
                    // one-element array, and `$spread({})` is undefined.
                    match functions::object::spread(obj)? {
                        JValue::Array(entries) => {
                            crate::evaluator::hof_result_sequence(entries.to_vec(), options)
                        }
                        other => Ok(other),
                    }
                }
                JValue::Array(arr) => {
                    // The array branch does NOT get those sequence rules,
                    // even though it looks symmetrical. jsonata-js folds
                    // each element's spread in with `append`, which ends in
                    // `concat` -- and `concat` returns a plain Array,
                    // dropping the `sequence` flag that `push` preserves.
                    // So `$spread([{"k": 1}])` stays `[{"k": 1}]`. The one
                    // exception is an empty input: the fold never runs, the
                    // sequence created up front survives untouched, and an
                    // empty sequence is undefined.
                    if arr.is_empty() {
                        return crate::evaluator::hof_result_sequence(vec![], options);
                    }
                    // Spread each object in the array
                    let mut result = Vec::new();
                    for item in arr.iter() {
                        let normalized_item = crate::evaluator::normalize_lazy(item)?;
                        match &normalized_item {
                            function if function.is_function() => {
                                // Skip lambdas in array
                                continue;
                            }
                            JValue::Object(obj) => {
                                let spread_result = functions::object::spread(obj)?;
                                if let JValue::Array(spread_items) = spread_result {
                                    result.extend(spread_items.iter().cloned());
                                } else {
                                    result.push(spread_result);
                                }
                            }
                            // Non-objects in array are returned unchanged
                            other => result.push(other.clone()),
                        }
                    }
                    crate::evaluator::check_sequence_length(result.len(), options)?;
                    Ok(JValue::array(result))
                }
                // Non-objects are returned unchanged
                other => Ok(other.clone()),
            }
        }
        "merge" => match args.len() {
            0 => Err(EvaluatorError::EvaluationError(
                "merge() requires at least 1 argument".to_string(),
            )),
            1 => match &args[0] {
                JValue::Array(arr) => Ok(functions::object::merge(arr)?),
                // Signature `<a<o>:o>` rejects an explicit null before this
                // arm is reached (a scalar Null fails the array's
                // element-type check, T0412), so this branch is dead in
                // practice via any validated call path -- kept for
                // defensiveness. Undefined must propagate as Undefined.
                JValue::Undefined => Ok(JValue::Undefined),
                JValue::Null => Ok(JValue::Null),
                JValue::Object(_) => Ok(args[0].clone()),
                _ => Err(EvaluatorError::TypeError(
                    "merge() requires objects or an array of objects".to_string(),
                )),
            },
            _ => Ok(functions::object::merge(args)?),
        },

        // ── Type / function introspection ───────────────────────────────
        "type" => {
            if args.len() != 1 {
                return Err(EvaluatorError::EvaluationError(
                    "type() requires exactly 1 argument".to_string(),
                ));
            }
            // Return type string
            // In JavaScript: $type(undefined) returns undefined, $type(null) returns "null"
            // We use a special marker object to distinguish undefined from null
            match &args[0] {
                JValue::Null => Ok(JValue::string("null")),
                JValue::Bool(_) => Ok(JValue::string("boolean")),
                JValue::Number(_) => Ok(JValue::string("number")),
                JValue::String(_) => Ok(JValue::string("string")),
                JValue::Array(_) => Ok(JValue::string("array")),
                JValue::Object(_) => Ok(JValue::string("object")),
                JValue::Undefined => Ok(JValue::Undefined),
                // A regex is a function in jsonata-js (#205).
                JValue::Lambda { .. } | JValue::Builtin { .. } | JValue::Regex { .. } => {
                    Ok(JValue::string("function"))
                }
                #[cfg(feature = "python")]
                JValue::LazyPyDict(_) => Ok(JValue::string("object")),
            }
        }

        // ── Encoding functions ──────────────────────────────────────────
        "base64encode" => unary_string_encoding(name, args, functions::encoding::base64encode),
        "base64decode" => unary_string_encoding(name, args, functions::encoding::base64decode),
        "encodeUrlComponent" => {
            unary_string_encoding(name, args, functions::encoding::encode_url_component)
        }
        "decodeUrlComponent" => {
            unary_string_encoding(name, args, functions::encoding::decode_url_component)
        }
        "encodeUrl" => unary_string_encoding(name, args, functions::encoding::encode_url),
        "decodeUrl" => unary_string_encoding(name, args, functions::encoding::decode_url),

        // ── Error / assertion functions ─────────────────────────────────
        "error" => {
            // $error(message) - throw error with custom message
            if args.is_empty() {
                // No message provided
                return Err(EvaluatorError::EvaluationError(
                    "D3137: $error() function evaluated".to_string(),
                ));
            }

            match &args[0] {
                JValue::String(s) => Err(EvaluatorError::EvaluationError(format!("D3137: {}", s))),
                // The signature is `<s?:x>` and `s` admits `m`, so an
                // undefined argument is valid and simply means "no message" --
                // the reference reaches `message || "$error() function
                // evaluated"` and raises D3137, not a type error.
                _ => Err(EvaluatorError::EvaluationError(
                    "D3137: $error() function evaluated".to_string(),
                )),
            }
        }
        "assert" => {
            // $assert(condition, message) - throw error if condition is false
            if args.is_empty() || args.len() > 2 {
                return Err(EvaluatorError::EvaluationError(
                    "assert() requires 1 or 2 arguments".to_string(),
                ));
            }

            // The reference tests `if (!condition)`, so anything that is not
            // `true` fails the assertion -- including an undefined, which the
            // `<bs?:x>` signature admits because `b` covers `m`. It is a
            // failed assertion (D3141), not a type error.
            let condition = matches!(&args[0], JValue::Bool(true));

            if !condition {
                let message = if args.len() == 2 {
                    match &args[1] {
                        JValue::String(s) => s.clone(),
                        _ => Rc::from("$assert() statement failed"),
                    }
                } else {
                    Rc::from("$assert() statement failed")
                };
                return Err(EvaluatorError::EvaluationError(format!(
                    "D3141: {}",
                    message
                )));
            }

            // jsonata-js: $assert() has no return value on success -- undefined,
            // not null.
            Ok(JValue::Undefined)
        }

        // ── Date/time functions ─────────────────────────────────────────
        "now" => {
            if !args.is_empty() {
                return Err(EvaluatorError::EvaluationError(
                    "T0410: now() takes no arguments".to_string(),
                ));
            }
            Ok(crate::datetime::now())
        }
        "millis" => {
            if !args.is_empty() {
                return Err(EvaluatorError::EvaluationError(
                    "T0410: millis() takes no arguments".to_string(),
                ));
            }
            Ok(crate::datetime::millis())
        }
        "toMillis" => {
            // `<s-s?:n>` bounds the arity and rejects a null in either slot.
            match &args[0] {
                JValue::String(s) => {
                    // Optional second argument is a picture string for custom parsing
                    if args.len() == 2 {
                        match &args[1] {
                            JValue::String(picture) => {
                                // Use custom picture format parsing
                                Ok(crate::datetime::to_millis_with_picture(s, picture)?)
                            }
                            _ => Err(EvaluatorError::TypeError(
                                "toMillis() second argument must be a string".to_string(),
                            )),
                        }
                    } else {
                        // Use ISO 8601 partial date parsing
                        Ok(crate::datetime::to_millis(s)?)
                    }
                }
                JValue::Undefined => Ok(JValue::Undefined),
                _ => Err(EvaluatorError::TypeError(
                    "toMillis() requires a string argument".to_string(),
                )),
            }
        }
        "fromMillis" => {
            // `<n-s?s?:s>` bounds the arity and rejects a null in any slot.
            match &args[0] {
                JValue::Number(n) => {
                    let millis = (if n.fract() == 0.0 {
                        Ok(*n as i64)
                    } else {
                        Err(())
                    })
                    .map_err(|_| {
                        EvaluatorError::TypeError("fromMillis() requires an integer".to_string())
                    })?;

                    let picture = match args.get(1) {
                        None | Some(JValue::Undefined) => None,
                        Some(JValue::String(s)) => Some(s.to_string()),
                        Some(_) => {
                            return Err(EvaluatorError::TypeError(
                                "fromMillis() second argument must be a string".to_string(),
                            ))
                        }
                    };
                    let timezone = match args.get(2) {
                        None | Some(JValue::Undefined) => None,
                        Some(JValue::String(s)) => Some(s.to_string()),
                        Some(_) => {
                            return Err(EvaluatorError::TypeError(
                                "fromMillis() third argument must be a string".to_string(),
                            ))
                        }
                    };

                    Ok(crate::datetime::from_millis_with_picture(
                        millis,
                        picture.as_deref(),
                        timezone.as_deref(),
                    )?)
                }
                JValue::Null => Ok(JValue::Null),
                JValue::Undefined => Ok(JValue::Undefined),
                _ => Err(EvaluatorError::TypeError(
                    "fromMillis() requires a number argument".to_string(),
                )),
            }
        }

        _ => unreachable!("dispatch_pure called with non-pure builtin: {}", name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `builtin_arity` must match `tests/fixtures/builtin_arity.json` exactly
    /// -- both which names are covered and what each maps to. A submodule
    /// bump that changes an `implementation.length` in the pinned jsonata-js
    /// must fail this test, not drift silently: regenerate the fixture with
    /// `node scripts/gen_fastpath_corpus.js` and update the table above to
    /// match.

    #[test]
    fn builtins_table_is_sorted() {
        // binary_search in builtin_spec depends on it.
        assert!(BUILTINS.windows(2).all(|w| w[0].name < w[1].name));
        // compilable ⊂ pure: the compiled inliner routes through dispatch_pure.
        for s in BUILTINS {
            assert!(
                !s.compilable || s.pure,
                "{} compilable but not pure",
                s.name
            );
        }
    }

    #[test]
    fn arity_table_matches_fixture() {
        let fixture_text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/builtin_arity.json"),
        )
        .expect("tests/fixtures/builtin_arity.json should exist");
        let fixture: std::collections::BTreeMap<String, usize> =
            serde_json::from_str(&fixture_text).expect("fixture should be valid JSON");

        for (name, &expected) in &fixture {
            assert_eq!(
                builtin_arity(name),
                Some(expected),
                "arity mismatch for {name}"
            );
        }
        // The per-key loop above only proves the fixture's names are a
        // *subset* of BUILTINS' arity entries (with matching values) -- a name
        // given an arity in BUILTINS but never added to the fixture would
        // pass it silently. Compare the two name sets directly so drift in
        // either direction fails.
        let table_names: std::collections::BTreeSet<&str> = BUILTINS
            .iter()
            .filter(|s| s.arity.is_some())
            .map(|s| s.name)
            .collect();
        let fixture_names_set: std::collections::BTreeSet<&str> =
            fixture.keys().map(String::as_str).collect();
        assert_eq!(
            table_names, fixture_names_set,
            "BUILTINS arity entries and the fixture cover different name sets"
        );

        // The fixture is every builtin a higher-order function can be handed
        // by reference: the pure set, plus `now`/`millis` (no arguments at
        // all), `random` (impure), `eval`, and the nine higher-order functions
        // themselves.
        //
        // `eval` and the higher-order functions are evaluator-dependent, but a
        // callback by reference truncates its arguments to their arity like
        // anything else: `$map([[3,1]], $sort)` hands $sort two (#140, #204).
        // Adding another name here would be a sign one of the two lists is
        // wrong, not a reason to relax the assertion.
        let mut fixture_names: Vec<&str> = fixture.keys().map(String::as_str).collect();
        fixture_names.sort_unstable();
        for name in &fixture_names {
            assert!(
                is_pure_builtin(name)
                    || matches!(
                        *name,
                        "now"
                            | "random"
                            | "millis"
                            | "eval"
                            | "map"
                            | "filter"
                            | "reduce"
                            | "single"
                            | "sift"
                            | "each"
                            | "sort"
                            | "match"
                            | "replace"
                    ),
                "{name} has an arity entry but is neither a pure builtin nor a known exception"
            );
        }
        for name in [
            "string",
            "length",
            "uppercase",
            "lowercase",
            "number",
            "sum",
            "count",
            "substring",
            "substringBefore",
            "substringAfter",
            "pad",
            "trim",
            "contains",
            "split",
            "join",
            "max",
            "min",
            "average",
            "abs",
            "floor",
            "ceil",
            "round",
            "sqrt",
            "power",
            "formatNumber",
            "formatBase",
            "formatInteger",
            "parseInteger",
            "append",
            "reverse",
            "shuffle",
            "zip",
            "distinct",
            "exists",
            "keys",
            "lookup",
            "spread",
            "merge",
            "boolean",
            "not",
            "type",
            "base64encode",
            "base64decode",
            "encodeUrlComponent",
            "decodeUrlComponent",
            "encodeUrl",
            "decodeUrl",
            "error",
            "assert",
            "now",
            "millis",
            "toMillis",
            "fromMillis",
        ] {
            assert!(
                fixture.contains_key(name),
                "{name} is a pure builtin but has no arity entry"
            );
        }
    }

    #[test]
    fn predicate_admits_the_pure_set_and_rejects_the_evaluator_set() {
        for name in [
            "string",
            "length",
            "uppercase",
            "lowercase",
            "number",
            "sum",
            "count",
            "substring",
            "substringBefore",
            "substringAfter",
            "pad",
            "trim",
            "contains",
            "split",
            "join",
            "max",
            "min",
            "average",
            "abs",
            "floor",
            "ceil",
            "round",
            "sqrt",
            "power",
            "formatNumber",
            "formatBase",
            "formatInteger",
            "parseInteger",
            "append",
            "reverse",
            "shuffle",
            "zip",
            "distinct",
            "exists",
            "keys",
            "lookup",
            "spread",
            "merge",
            "boolean",
            "not",
            "type",
            "base64encode",
            "base64decode",
            "encodeUrlComponent",
            "decodeUrlComponent",
            "encodeUrl",
            "decodeUrl",
            "error",
            "assert",
            "now",
            "millis",
            "toMillis",
            "fromMillis",
        ] {
            assert!(is_pure_builtin(name), "{name} should be a pure builtin");
        }

        // These need the evaluator: they take AST arguments and call back into
        // evaluation. Admitting one here would route it into `unreachable!()`.
        for name in [
            "map", "filter", "reduce", "single", "sift", "each", "sort", "eval", "match", "replace",
        ] {
            assert!(!is_pure_builtin(name), "{name} needs the evaluator");
        }

        assert!(!is_pure_builtin("nosuchfunction"));
    }

    #[test]
    fn validation_runs_before_undefined_propagation() {
        // $substring(missing) binds its lone undefined argument to parameter 2
        // and takes parameter 1 from the context, so a non-string context is a
        // T0411 -- not undefined. Propagating first would swallow that, which
        // is the bug #106 fixed in the compiled path.
        let opts = EvaluatorOptions::default();
        let err = dispatch_pure(
            "substring",
            &[JValue::Undefined],
            &JValue::Number(5.0),
            &opts,
        )
        .expect_err("a numeric context cannot satisfy substring's first parameter");
        assert!(
            err.to_string().contains("T0411"),
            "expected T0411, got {err}"
        );
    }

    #[test]
    fn context_insertion_covers_both_paths_lists() {
        // The compiled path and the tree-walker kept separate lists of which
        // builtins take the context as an implicit argument, and they
        // disagreed: only the tree-walker had `fromMillis` (zero-arg) and
        // `replace` (missing-first). The merged prologue takes the union, so
        // assert on the member only one list had.
        let opts = EvaluatorOptions::default();
        // $fromMillis() with a numeric context formats that context.
        let got = dispatch_pure("fromMillis", &[], &JValue::Number(0.0), &opts)
            .expect("fromMillis should read the context");
        assert!(
            matches!(&got, JValue::String(s) if s.starts_with("1970-01-01")),
            "expected an epoch timestamp, got {got:?}"
        );
    }
}
