//! The internal layer's names (issue 19 "a shell without a circle"): the
//! Durable Object bindings of `wrangler.toml` and how an object's name is
//! derived. Everything above the platform layer that reaches another object
//! names it through here; nothing imports the Worker entry.

use std::cell::RefCell;
use worker::{Env, ObjectNamespace, Result, Stub};

pub const STREAM_BINDING: &str = "STREAM";
pub const PROJECT_BINDING: &str = "PROJECT";
pub const PROCESSOR_BINDING: &str = "PROCESSOR";
pub const SOURCE_BINDING: &str = "SOURCE";
/// Only in the bench's configuration (`bench_baseline`): one INSERT behind the same entry.
pub const BENCH_BASELINE_BINDING: &str = "BENCH_BASELINE";

/// The Durable Object name of `(project, path)` (a stream) or `(project,
/// name)` (a source): derived from both, so two projects never share an
/// object (§2).
pub fn object_name(project: &str, path: &str) -> String {
    serde_json::to_string(&[project, path]).unwrap_or_default()
}

thread_local! {
    /// Each binding's namespace, read from the environment once per isolate.
    static NAMESPACES: RefCell<Vec<(&'static str, ObjectNamespace)>> = const { RefCell::new(Vec::new()) };
}

/// The namespace of `binding`. A Worker's bindings belong to the version its
/// isolate runs (as `internal::settings` says), so it is read the first time
/// an isolate asks: workers-rs's `Env::durable_object` crosses into
/// JavaScript four times (the property, its constructor, the constructor's
/// name, the name's text) on every call (issue 33).
pub fn namespace(env: &Env, binding: &'static str) -> Result<ObjectNamespace> {
    let cached = NAMESPACES.with(|namespaces| {
        namespaces
            .borrow()
            .iter()
            .find(|(name, _)| *name == binding)
            .map(|(_, namespace)| namespace.clone())
    });
    if let Some(namespace) = cached {
        return Ok(namespace);
    }
    let namespace = env.durable_object(binding)?;
    NAMESPACES.with(|namespaces| namespaces.borrow_mut().push((binding, namespace.clone())));
    Ok(namespace)
}

/// The stream object of `(project, path)`.
pub fn stream_stub(env: &Env, project: &str, path: &str) -> Result<Stub> {
    namespace(env, STREAM_BINDING)?.get_by_name(&object_name(project, path))
}

/// The source object of `(project, name)` (§15).
pub fn source_stub(env: &Env, project: &str, name: &str) -> Result<Stub> {
    namespace(env, SOURCE_BINDING)?.get_by_name(&object_name(project, name))
}

/// The project object of `project` (§14).
pub fn project_stub(env: &Env, project: &str) -> Result<Stub> {
    namespace(env, PROJECT_BINDING)?.get_by_name(project)
}

/// The instance of processor `name` for the stream at `path` (§9).
pub fn instance_stub(env: &Env, project: &str, name: &str, path: &str) -> Result<Stub> {
    let id = serde_json::to_string(&[project, name, path]).unwrap_or_default();
    namespace(env, PROCESSOR_BINDING)?.get_by_name(&id)
}
