//! The stream object's class as the platform calls it: its constructor,
//! `fetch`, `alarm` and the hibernatable WebSocket handlers, exported as
//! workers-rs's `#[durable_object]` would export them, except that `fetch`
//! takes the platform's request as it is, and hands back the platform's own
//! `Response` when the object made one (issue 33, thirty-first round: an
//! append's answer made in one call instead of a workers-rs `Response`
//! turned into one in six, and its request read without its `cf`).

use super::StreamObject;
use crate::internal::answers::Answer;
use crate::internal::incoming::Incoming;
use std::panic::AssertUnwindSafe;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;
use worker::{Env, State};

#[wasm_bindgen]
impl StreamObject {
    #[wasm_bindgen(constructor)]
    pub fn new(state: worker::worker_sys::DurableObjectState, env: Env) -> Self {
        StreamObject::create(State::from(state), env)
    }

    pub async fn fetch(&self, request: web_sys::Request) -> Result<JsValue, JsValue> {
        AssertUnwindSafe(async move {
            self.answer(Incoming::new(request))
                .await
                .map(Answer::into_raw)
                .map(JsValue::from)
                .map_err(JsValue::from)
        })
        .await
    }

    pub async fn alarm(&self) -> Result<JsValue, JsValue> {
        AssertUnwindSafe(async move {
            self.on_alarm().await;
            Ok(JsValue::UNDEFINED)
        })
        .await
    }

    #[wasm_bindgen(js_name = webSocketMessage)]
    pub async fn web_socket_message(&self, socket: web_sys::WebSocket, message: JsValue) -> Result<JsValue, JsValue> {
        AssertUnwindSafe(async move {
            // Only text frames carry the live protocol (§10): a binary
            // frame is dropped here, never copied into the instance.
            let Some(text) = message.as_string() else {
                return Ok(JsValue::NULL);
            };
            handled(self.on_socket_message(socket.into(), text).await)
        })
        .await
    }

    #[wasm_bindgen(js_name = webSocketClose)]
    pub async fn web_socket_close(
        &self,
        socket: web_sys::WebSocket,
        code: usize,
        _reason: String,
        _was_clean: bool,
    ) -> Result<JsValue, JsValue> {
        AssertUnwindSafe(async move { handled(self.on_socket_close(socket.into(), code).await) }).await
    }

    #[wasm_bindgen(js_name = webSocketError)]
    pub async fn web_socket_error(&self, socket: web_sys::WebSocket, _error: JsValue) -> Result<JsValue, JsValue> {
        AssertUnwindSafe(async move { handled(self.on_socket_error(socket.into()).await) }).await
    }
}

/// A WebSocket handler's outcome as the platform takes it: `null`, or the error thrown.
fn handled(outcome: worker::Result<()>) -> Result<JsValue, JsValue> {
    outcome.map(|()| JsValue::NULL).map_err(JsValue::from)
}
