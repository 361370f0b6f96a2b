//! Tributary's Cloudflare shell (DESIGN.md §1): the Worker entry, the stream
//! Durable Object and the `SqlStorage` driver of the engine's storage trait.
//!
//! Never panic here (§1): a panic aborts the whole wasm instance. The lints
//! below are denied for this crate by the workspace.

mod auth;
mod bench_baseline;
mod bindings;
mod console;
mod delivery_shell;
mod deployment_env;
mod entry;
mod itx;
mod live_shell;
mod platform;
mod processor_delivery;
mod processor_object;
mod project_object;
mod request_body;
mod responses;
mod senders;
mod source_object;
mod sql_driver;
mod stream_object;

pub use bench_baseline::BenchBaseline;
pub use processor_object::ProcessorObject;
pub use project_object::ProjectObject;
pub use source_object::SourceObject;
pub use stream_object::StreamObject;
