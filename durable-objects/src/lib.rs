//! Tributary's Cloudflare shell (docs/design.md §1), in layers that only import
//! downwards (ARCHITECTURE.md):
//! platform (clock, entropy, timers, the SQL driver) ← internal (bindings,
//! object names, responses, request bodies, tokens) ← senders (one planned
//! send each) ← one module per Durable Object ← entry (the Worker's router).
//!
//! Never panic here (§1): a panic aborts the whole wasm instance. The lints
//! below are denied for this crate by the workspace.

mod bench_baseline;
mod console;
mod entry;
mod internal;
mod openapi;
mod platform;
mod processor_object;
mod project_object;
mod senders;
mod source_object;
mod stream_object;

pub use bench_baseline::BenchBaseline;
pub use processor_object::ProcessorObject;
pub use project_object::ProjectObject;
pub use source_object::SourceObject;
pub use stream_object::StreamObject;
