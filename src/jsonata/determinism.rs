//! Finding nondeterministic builtins in a compiled expression (docs/design.md §5):
//! a filter or transform calling `$now()`, `$millis()`, `$random()` or
//! `$shuffle()` gives a retried delivery a different result (its idempotency
//! key then meets another body: 409 `idempotency_key_reused`) and a rebuild a
//! different state. The check walks the AST and looks at every function call
//! and every variable reference by name, so `($f := $now; $f())` is caught
//! too; `$eval` of a string literal is checked inside, `$eval` of a computed
//! string is refused as such (it could call any of them).

use jsonata_core::ast::{AstNode, PathStep, Stage};
use jsonata_core::Expression;

/// The builtins whose result differs from one evaluation to the next, by
/// name without the `$`.
const NONDETERMINISTIC: [(&str, &str); 4] = [
    ("now", "$now"),
    ("millis", "$millis"),
    ("random", "$random"),
    ("shuffle", "$shuffle"),
];

fn nondeterministic_name(name: &str) -> Option<&'static str> {
    NONDETERMINISTIC
        .iter()
        .find(|(bare, _)| *bare == name)
        .map(|(_, dollar)| *dollar)
}

/// The first nondeterministic builtin `node` calls or refers to.
pub(super) fn nondeterministic_call(node: &AstNode) -> Option<&'static str> {
    match node {
        AstNode::String(_)
        | AstNode::Name(_)
        | AstNode::Number(_)
        | AstNode::Boolean(_)
        | AstNode::Null
        | AstNode::Undefined
        | AstNode::Placeholder
        | AstNode::Regex { .. }
        | AstNode::ParentVariable(_)
        | AstNode::Wildcard
        | AstNode::Descendant
        | AstNode::Parent(_) => None,
        AstNode::Variable(name) => nondeterministic_name(name),
        AstNode::Function { name, args, .. } => nondeterministic_name(name)
            .or_else(|| (name == "eval").then(|| evaluated_string(args)).flatten())
            .or_else(|| first(args)),
        AstNode::Call { procedure, args } => nondeterministic_call(procedure).or_else(|| first(args)),
        AstNode::Path { steps } => steps.iter().find_map(step),
        AstNode::Binary { lhs, rhs, .. } => nondeterministic_call(lhs).or_else(|| nondeterministic_call(rhs)),
        AstNode::Unary { operand, .. } => nondeterministic_call(operand),
        AstNode::Lambda { body, .. } => nondeterministic_call(body),
        AstNode::Array(items) | AstNode::Block(items) | AstNode::ArrayGroup(items) => first(items),
        AstNode::Object(pairs) => pairs_call(pairs),
        AstNode::ObjectTransform { input, pattern } => nondeterministic_call(input).or_else(|| pairs_call(pattern)),
        AstNode::Conditional {
            condition,
            then_branch,
            else_branch,
        } => nondeterministic_call(condition)
            .or_else(|| nondeterministic_call(then_branch))
            .or_else(|| else_branch.as_deref().and_then(nondeterministic_call)),
        AstNode::FunctionApplication(inner) => nondeterministic_call(inner),
        AstNode::Sort { input, terms } => {
            nondeterministic_call(input).or_else(|| terms.iter().find_map(|(term, _)| nondeterministic_call(term)))
        }
        AstNode::Transform {
            location,
            update,
            delete,
        } => nondeterministic_call(location)
            .or_else(|| nondeterministic_call(update))
            .or_else(|| delete.as_deref().and_then(nondeterministic_call)),
    }
}

fn first(nodes: &[AstNode]) -> Option<&'static str> {
    nodes.iter().find_map(nondeterministic_call)
}

fn pairs_call(pairs: &[(AstNode, AstNode)]) -> Option<&'static str> {
    pairs
        .iter()
        .find_map(|(key, value)| nondeterministic_call(key).or_else(|| nondeterministic_call(value)))
}

fn step(step: &PathStep) -> Option<&'static str> {
    nondeterministic_call(&step.node).or_else(|| {
        step.stages.iter().find_map(|stage| match stage {
            Stage::Filter(predicate) => nondeterministic_call(predicate),
            Stage::KeepArray | Stage::Index(_) => None,
        })
    })
}

/// What `$eval(args)` may call: the builtins inside a string literal (one
/// that does not parse fails every evaluation alike), or `$eval` itself when
/// the string is computed.
fn evaluated_string(args: &[AstNode]) -> Option<&'static str> {
    match args.first() {
        Some(AstNode::String(source)) => match Expression::compile(source) {
            Ok(inner) => nondeterministic_call(inner.ast()),
            Err(_) => None,
        },
        Some(_) => Some("$eval"),
        None => None,
    }
}
