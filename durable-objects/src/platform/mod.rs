//! The platform layer (§1): time and entropy read from the runtime and
//! handed to the engine, timers, and the engine's storage over `SqlStorage`.

pub mod sql_driver;
pub mod timers;

use tributary::Inputs;
use wasm_bindgen::JsValue;

/// Current wall-clock time in Unix milliseconds.
pub fn now_ms() -> i64 {
    js_sys::Date::now() as i64
}

/// Bytes of randomness drawn from the platform at once (64 draws): one
/// `crypto.getRandomValues` call, not one per stream id, jitter or
/// delivery id.
const ENTROPY_POOL_BYTES: usize = 1024;

thread_local! {
    /// Randomness drawn and not yet used, and how much of it is used.
    static ENTROPY_POOL: std::cell::RefCell<([u8; ENTROPY_POOL_BYTES], usize)> =
        const { std::cell::RefCell::new(([0; ENTROPY_POOL_BYTES], ENTROPY_POOL_BYTES)) };
}

/// 16 bytes from `crypto.getRandomValues` (drawn [`ENTROPY_POOL_BYTES`] at a time).
pub fn entropy() -> Result<[u8; 16], JsValue> {
    ENTROPY_POOL.with(|pool| {
        let (bytes, used) = &mut *pool.borrow_mut();
        if *used + 16 > ENTROPY_POOL_BYTES {
            getrandom::fill(bytes).map_err(|error| JsValue::from_str(&error.to_string()))?;
            *used = 0;
        }
        let drawn: [u8; 16] = bytes
            .get(*used..*used + 16)
            .and_then(|next| next.try_into().ok())
            .ok_or_else(|| JsValue::from_str("entropy pool out of range"))?;
        // Never handed out twice.
        *used += 16;
        Ok(drawn)
    })
}

pub fn inputs() -> worker::Result<Inputs> {
    let entropy = entropy().map_err(|error| worker::Error::JsError(format!("{error:?}")))?;
    Ok(Inputs {
        now_ms: now_ms(),
        entropy,
    })
}
