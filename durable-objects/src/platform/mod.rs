//! The platform layer (§1): time and entropy read from the runtime and
//! handed to the engine, timers, and the engine's storage over `SqlStorage`.

pub mod sql_driver;
pub mod timers;

use js_sys::{Reflect, Uint8Array};
use tributary::Inputs;
use wasm_bindgen::{JsCast, JsValue};

/// Current wall-clock time in Unix milliseconds.
pub fn now_ms() -> i64 {
    js_sys::Date::now() as i64
}

/// 16 bytes from `crypto.getRandomValues`.
pub fn entropy() -> Result<[u8; 16], JsValue> {
    let crypto = Reflect::get(&js_sys::global(), &JsValue::from_str("crypto"))?;
    let get_random_values: js_sys::Function =
        Reflect::get(&crypto, &JsValue::from_str("getRandomValues"))?.dyn_into()?;
    let buffer = Uint8Array::new_with_length(16);
    get_random_values.call1(&crypto, &buffer)?;
    let mut bytes = [0u8; 16];
    buffer.copy_to(&mut bytes);
    Ok(bytes)
}

pub fn inputs() -> worker::Result<Inputs> {
    let entropy = entropy().map_err(|error| worker::Error::JsError(format!("{error:?}")))?;
    Ok(Inputs {
        now_ms: now_ms(),
        entropy,
    })
}
