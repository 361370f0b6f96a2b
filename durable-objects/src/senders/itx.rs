//! itx-call (docs/design.md §9): `["services", BINDING, method]` calls the JS RPC
//! method of a Worker service binding with the batch envelope. A resolved
//! call is the ack; a rejection is transient unless it carries
//! `retryable: false`.

use js_sys::{Function, Promise, Reflect};
use serde_json::Value;
use tributary::delivery::{DeliveryPlan, Outcome};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use worker::Env;

fn describe(error: &JsValue) -> String {
    Reflect::get(error, &JsValue::from_str("message"))
        .ok()
        .and_then(|message| message.as_string())
        .or_else(|| error.as_string())
        .unwrap_or_else(|| format!("{error:?}"))
}

pub async fn call(env: &Env, expression: &Value, plan: &DeliveryPlan) -> Outcome {
    let parts: Vec<&str> = expression
        .as_array()
        .map(|items| items.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let ["services", binding, method] = parts.as_slice() else {
        return Outcome::permanent("ITX expression must be [\"services\", BINDING, method]");
    };
    let Ok(fetcher) = env.service(binding) else {
        return Outcome::permanent(format!("service binding '{binding}' is not bound in this deployment"));
    };
    let target: JsValue = fetcher.into();
    let envelope = match js_sys::JSON::parse(&tributary::webhook::itx_envelope(plan).to_string()) {
        Ok(envelope) => envelope,
        Err(error) => return Outcome::permanent(format!("envelope: {}", describe(&error))),
    };
    let function = match Reflect::get(&target, &JsValue::from_str(method)).and_then(|f| f.dyn_into::<Function>()) {
        Ok(function) => function,
        Err(error) => return Outcome::permanent(format!("'{binding}.{method}' is not callable: {}", describe(&error))),
    };
    // Reflect.apply, not `function.call(...)`: an RPC stub would treat
    // `call` as the name of a remote method.
    let promise = match Reflect::apply(&function, &target, &js_sys::Array::of1(&envelope)) {
        Ok(result) => Promise::resolve(&result),
        Err(error) => return Outcome::transient(format!("'{binding}.{method}' threw: {}", describe(&error))),
    };
    match JsFuture::from(promise).await {
        Ok(_) => Outcome::Delivered,
        Err(error) => {
            let permanent = Reflect::get(&error, &JsValue::from_str("retryable"))
                .ok()
                .and_then(|flag| flag.as_bool())
                == Some(false);
            let message = format!("'{binding}.{method}' rejected: {}", describe(&error));
            if permanent {
                Outcome::permanent(message)
            } else {
                Outcome::transient(message)
            }
        }
    }
}
