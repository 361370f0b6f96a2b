//! What one JSONata evaluation, and one engine call, may spend (docs/design.md §12
//! rows "JSONata evaluation" and "JSONata per engine call").
//!
//! - [`StepBudget`]: the steps one engine call (one subscription's scan in one
//!   plan, one processor fold) may still spend over all its evaluations.
//! - [`check_result_size`]: a result is turned into JSON only when its JSON
//!   text is at most [`MAX_JSONATA_VALUE_BYTES`] and its nesting at most
//!   [`MAX_JSONATA_RESULT_DEPTH`]; measured without recursion, and before
//!   anything is allocated for the conversion (a result may hold one large
//!   string many times over, cheap to hold and huge to write out).

use super::JsonataError;
use crate::limits::{MAX_JSONATA_RESULT_DEPTH, MAX_JSONATA_STEPS, MAX_JSONATA_STEPS_PER_CALL, MAX_JSONATA_VALUE_BYTES};
use jsonata_core::value::JValue;

/// The JSONata steps an engine call may still spend (§12 "JSONata per engine
/// call"). Each evaluation made with it gets the per-evaluation budget or
/// what the call has left, whichever is smaller, and is charged the steps it
/// took. An evaluation stopped by the call's budget (not its own) fails with
/// [`JsonataError::CallBudgetSpent`]: the caller stops, keeps its position,
/// and retries that evaluation next turn with a fresh budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepBudget {
    remaining: u64,
    spent: u64,
}

impl StepBudget {
    /// The budget of one engine call, [`MAX_JSONATA_STEPS_PER_CALL`].
    pub fn per_call() -> Self {
        Self::new(MAX_JSONATA_STEPS_PER_CALL)
    }

    /// A budget of `steps`.
    pub fn new(steps: u64) -> Self {
        StepBudget {
            remaining: steps,
            spent: 0,
        }
    }

    /// The steps spent so far.
    pub fn spent(&self) -> u64 {
        self.spent
    }

    /// The steps left.
    pub fn remaining(&self) -> u64 {
        self.remaining
    }

    /// Whether nothing is left: the next evaluation would fail with
    /// [`JsonataError::CallBudgetSpent`] at once.
    pub fn is_spent(&self) -> bool {
        self.remaining == 0
    }

    /// The step cap of the next evaluation.
    pub(super) fn cap(&self) -> u64 {
        self.remaining.min(MAX_JSONATA_STEPS)
    }

    pub(super) fn charge(&mut self, steps: u64) {
        let steps = steps.min(self.remaining);
        self.remaining -= steps;
        self.spent = self.spent.saturating_add(steps);
    }
}

fn too_large(what: &str) -> JsonataError {
    JsonataError::Evaluation {
        code: Some("U1004".to_owned()),
        message: format!(
            "U1004: the result is {what}; a result may be at most {MAX_JSONATA_VALUE_BYTES} bytes of JSON, \
             nested at most {MAX_JSONATA_RESULT_DEPTH} deep"
        ),
    }
}

/// Refuses a result whose JSON text would pass [`MAX_JSONATA_VALUE_BYTES`]
/// or whose nesting passes [`MAX_JSONATA_RESULT_DEPTH`]. Iterative; each
/// value counts at least one byte, so the walk takes at most
/// `MAX_JSONATA_VALUE_BYTES + 1` steps and its stack holds at most that many
/// entries (an array's items are pushed only after its size was counted).
pub(super) fn check_result_size(result: &JValue) -> Result<(), JsonataError> {
    let max = MAX_JSONATA_VALUE_BYTES;
    let mut bytes: u64 = 0;
    let mut stack: Vec<(&JValue, usize)> = vec![(result, 1)];
    for _ in 0..=max {
        let Some((value, depth)) = stack.pop() else {
            return Ok(());
        };
        if depth > MAX_JSONATA_RESULT_DEPTH {
            return Err(too_large(&format!("nested more than {MAX_JSONATA_RESULT_DEPTH} deep")));
        }
        let own: u64 = match value {
            // Quotes; escapes are rare and bounded (6×) by the string, itself capped.
            JValue::String(text) => (text.len() as u64).saturating_add(2),
            // Brackets and one separator per item.
            JValue::Array(items) => (items.len() as u64).saturating_add(2),
            // Braces, and per entry its quoted key, colon and separator.
            JValue::Object(entries) => entries
                .keys()
                .map(|key| (key.len() as u64).saturating_add(4))
                .fold(2u64, u64::saturating_add),
            JValue::Number(_) => 8,
            JValue::Bool(_) | JValue::Null => 4,
            _ => 1,
        };
        bytes = bytes.saturating_add(own);
        if bytes > max {
            return Err(too_large(&format!("over {max} bytes of JSON")));
        }
        match value {
            JValue::Array(items) => stack.extend(items.iter().map(|item| (item, depth + 1))),
            JValue::Object(entries) => stack.extend(entries.values().map(|item| (item, depth + 1))),
            _ => {}
        }
    }
    Err(too_large(&format!("over {max} bytes of JSON")))
}
