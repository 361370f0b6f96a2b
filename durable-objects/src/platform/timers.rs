//! Timers (§6 rule 10, §12): every wait and every deadline in the shell is
//! one of these catching `setTimeout` futures.

use std::cell::Cell;
use std::future::Future;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// Runs `work` for at most `timeout_ms`; `None` when the time ran out. The
/// timer is a cancellable `setTimeout` (dropped with the race), not
/// `AbortSignal.timeout`, whose timers outlive the fetch and exhausted the
/// isolate's timer quota under load.
pub async fn within<T>(timeout_ms: u64, work: impl Future<Output = T>) -> Option<T> {
    let timer = Timer::new(timeout_ms);
    futures_util::pin_mut!(work);
    futures_util::pin_mut!(timer);
    match futures_util::future::select(work, timer).await {
        futures_util::future::Either::Left((done, _timer)) => Some(done),
        futures_util::future::Either::Right(((), _work)) => None,
    }
}

/// Resolves after `ms` (the same catching timer as [`within`]).
pub fn sleep(ms: u64) -> impl Future<Output = ()> {
    Timer::new(ms)
}

/// A `setTimeout` future whose every JS call catches. `worker::Delay` calls
/// `clearTimeout` without catching: a timer dropped while another request's
/// I/O context runs (a long-poll or an SSE stream woken by an append) makes
/// workerd throw there, and the glue turns that into a critical error that
/// resets the whole wasm instance. Here a failed clear is ignored, and the
/// callback is then kept alive so a late firing stays harmless.
struct Timer {
    ms: u64,
    fired: Rc<Cell<bool>>,
    armed: Option<(Closure<dyn FnMut()>, JsValue)>,
}

impl Timer {
    fn new(ms: u64) -> Self {
        Timer {
            ms,
            fired: Rc::new(Cell::new(false)),
            armed: None,
        }
    }
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// The global `setTimeout`, its exceptions caught (returned as `Err`).
    #[wasm_bindgen(catch, js_name = setTimeout)]
    fn set_timeout(callback: &js_sys::Function, ms: f64) -> std::result::Result<JsValue, JsValue>;
    /// The global `clearTimeout`, its exceptions caught.
    #[wasm_bindgen(catch, js_name = clearTimeout)]
    fn clear_timeout(id: &JsValue) -> std::result::Result<(), JsValue>;
}

impl Future for Timer {
    type Output = ();

    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<()> {
        if self.fired.get() {
            return std::task::Poll::Ready(());
        }
        if self.armed.is_none() {
            let fired = Rc::clone(&self.fired);
            let waker = cx.waker().clone();
            let callback = Closure::wrap(Box::new(move || {
                fired.set(true);
                waker.wake_by_ref();
            }) as Box<dyn FnMut()>);
            match set_timeout(callback.as_ref().unchecked_ref(), self.ms as f64) {
                Ok(id) => self.armed = Some((callback, id)),
                // No timer can be set here: end the wait rather than hang.
                Err(_) => return std::task::Poll::Ready(()),
            }
        }
        std::task::Poll::Pending
    }
}

impl Drop for Timer {
    fn drop(&mut self) {
        let Some((callback, id)) = self.armed.take() else {
            return;
        };
        if self.fired.get() {
            return;
        }
        if clear_timeout(&id).is_err() {
            // The timer may still fire: its callback must outlive us.
            callback.forget();
        }
    }
}
