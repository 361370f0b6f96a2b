//! What the entry reads from the deployment's environment on every request,
//! `API_TOKENS` (§2) and `CORS_ALLOWED_ORIGINS` (§17 "Browsers"), read and
//! parsed once per isolate. A Worker's bindings belong to the version its
//! isolate runs: a new secret or variable is a new version, served by new
//! isolates. So what they parse to cannot change under an isolate. Reading
//! them crossed into JavaScript several times a request (issue 33).

use std::cell::OnceCell;
use std::rc::Rc;
use tributary::auth_tokens::{self, Tokens, TokensError};
use tributary::durable_streams::cors::{AllowedOrigins, CorsError};
use worker::Env;

/// The entry's settings, as parsed (a malformed one stays an error: every
/// request that needs it is refused, loudly, as before).
pub struct Settings {
    pub tokens: Result<Tokens, TokensError>,
    pub cors: Result<AllowedOrigins, CorsError>,
}

thread_local! {
    static SETTINGS: OnceCell<Rc<Settings>> = const { OnceCell::new() };
}

/// This isolate's settings, read from `env` the first time.
pub fn of(env: &Env) -> Rc<Settings> {
    SETTINGS.with(|settings| Rc::clone(settings.get_or_init(|| Rc::new(read(env)))))
}

fn read(env: &Env) -> Settings {
    let tokens = crate::internal::deployment_env::text(env, "API_TOKENS");
    let cors = env.var("CORS_ALLOWED_ORIGINS").ok().map(|value| value.to_string());
    Settings {
        tokens: auth_tokens::parse(tokens.as_deref()),
        cors: AllowedOrigins::parse(cors.as_deref()),
    }
}
