//! Hosted processors (docs/design.md §9): a named fold defined once per project
//! and run per stream. Definitions live in the project object
//! ([`store`]); each `(project, name, stream path)` has its own instance
//! ([`instance`]) that owns its checkpoint. The stream delivers to it through
//! the delivery spine like any receiver (retries, isolate-or-progress,
//! deadlines, halts — never skip); its runtime row is only a watermark.

pub mod definition;
pub mod instance;
pub mod store;
pub mod wake;

pub use definition::{check_name, name_of, Definition, DefinitionBody, DefinitionError};
pub use instance::{FoldAnswer, FoldError, FoldRequest, Instance, InstanceRow, WakeAnswer, WakeRequest};
pub use store::{ProcessorError, ProcessorQuery, ProcessorStore};

/// The processors an append body's `subscription-configured` events name,
/// so the router can check they are defined before the append (§9: an
/// unknown processor is a 422). Bodies that do not parse name none: the
/// append itself reports them.
pub fn referenced_in_append(body: &[u8]) -> Vec<String> {
    let mut names: Vec<String> = crate::subscription::configured_in_append(body)
        .iter()
        .filter_map(|configuration| match &configuration.receiver {
            crate::subscription::Receiver::ProcessorWake { expression } => name_of(expression).map(str::to_owned),
            _ => None,
        })
        .collect();
    names.sort();
    names.dedup();
    names
}
