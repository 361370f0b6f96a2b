//! The internal layer (above the platform, below the senders and the
//! objects): object bindings and names, JSON responses, request bodies
//! under their caps, token checks and the deployment's settings.

pub mod answers;
pub mod auth;
pub mod bindings;
pub mod browsers;
pub mod deployment_env;
pub mod incoming;
pub mod object_call;
pub mod request_body;
pub mod responses;
pub mod settings;
