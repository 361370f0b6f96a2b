//! The internal layer's names (issue 19 "a shell without a circle"): the
//! Durable Object bindings of `wrangler.toml` and how an object's name is
//! derived. Everything above the platform layer that reaches another object
//! names it through here; nothing imports the Worker entry.

use worker::{Env, Result, Stub};

pub const STREAM_BINDING: &str = "STREAM";
pub const PROJECT_BINDING: &str = "PROJECT";
pub const PROCESSOR_BINDING: &str = "PROCESSOR";
pub const SOURCE_BINDING: &str = "SOURCE";

/// The Durable Object name of `(project, path)` (a stream) or `(project,
/// name)` (a source): derived from both, so two projects never share an
/// object (§2).
pub fn object_name(project: &str, path: &str) -> String {
    serde_json::to_string(&[project, path]).unwrap_or_default()
}

/// The project object of `project` (§14).
pub fn project_stub(env: &Env, project: &str) -> Result<Stub> {
    env.durable_object(PROJECT_BINDING)?.get_by_name(project)
}

/// The instance of processor `name` for the stream at `path` (§9).
pub fn instance_stub(env: &Env, project: &str, name: &str, path: &str) -> Result<Stub> {
    let id = serde_json::to_string(&[project, name, path]).unwrap_or_default();
    env.durable_object(PROCESSOR_BINDING)?.get_by_name(&id)
}
