// One webhook exchange (docs/design.md §9, §12), run by the platform's own
// fetch on JavaScript's side of the instance: the signed POST (no redirects
// followed), its whole-exchange deadline (headers and body) and at most
// `cap` bytes of the answer. The wasm instance calls in once and awaits one
// promise per send, instead of crossing once per header, timer and body
// chunk (docs/benchmarks.md, issue 33, ninth round).
//
// Nothing here throws: every failure is the answer's `error` text.

const TIMED_OUT = Symbol("timed out");
const EMPTY = new Uint8Array(0);

/**
 * @param {string} url
 * @param {string} headersJson  `{name: value, ...}` as JSON (one string, so no value can split another;
 *                              a record, which the platform reads faster than a list of pairs: src/header_init.rs)
 * @param {string} body
 * @param {number} timeoutMs    the deadline of the whole exchange, headers and body
 * @param {number} cap          at most this many bytes of the answer are read
 * @returns {Promise<number | {error: string} | {error: null, status: number, retryAfter: string | null, body: Uint8Array}>}
 *   a 2xx status alone (its body read and dropped: nothing reads it), else the answer or the error
 */
export async function webhookExchange(url, headersJson, body, timeoutMs, cap) {
  const controller = new AbortController();
  // Handed to `fetch` as its init, not built into a `Request` first: `fetch`
  // builds one from a `Request` again (issue 33, fourteenth round). A request
  // the platform will not build fails as the fetch's error; the engine has
  // checked the URL and every header value before (§9).
  const init = { method: "POST", headers: JSON.parse(headersJson), body, redirect: "manual", signal: controller.signal };
  // A cancellable setTimeout, cleared when the exchange ends (AbortSignal.timeout's
  // timers outlive the fetch and exhausted the isolate's timer quota under load).
  let timer;
  const deadline = new Promise((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
  });
  try {
    const answer = await Promise.race([exchange(url, init, controller, cap), deadline]);
    if (answer === TIMED_OUT) {
      // The deadline passed mid-exchange: end the connection.
      controller.abort();
      return { error: `timed out after ${timeoutMs} ms (headers and body)` };
    }
    return answer;
  } finally {
    try {
      clearTimeout(timer);
    } catch {
      // A clear from another request's I/O context throws; the timer then fires harmlessly.
    }
  }
}

async function exchange(url, init, controller, cap) {
  let response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    return { error: `network error: ${text(error)}` };
  }
  const { bytes, finished } = await readCapped(response, response.headers.get("content-length"), cap);
  // A body left unread past the cap still holds the connection.
  if (!finished) controller.abort();
  // Read to its end all the same, so the connection serves the next send.
  if (response.status >= 200 && response.status < 300) return response.status;
  return { error: null, status: response.status, retryAfter: response.headers.get("retry-after"), body: bytes };
}

/** Most answers are a few bytes: the first read's buffer, before one of the cap's size. */
const FIRST_READ_BYTES = 1024;

/**
 * At most `cap` bytes of the body, and whether it was read to its end. A body
 * whose declared Content-Length is within the cap (most answers: a few bytes)
 * is read in one call, as HTTP framing delivers exactly that length. Any other
 * is read by the platform into our buffer, never past the cap: one read of
 * up to FIRST_READ_BYTES, then, only if that filled, one of the rest of the cap
 * plus a byte (`readAtLeast` resolves short only at the body's end, so a read
 * that fills its buffer means the body is longer than the cap).
 */
async function readCapped(response, declared, cap) {
  if (response.body === null) return { bytes: EMPTY, finished: true };
  const length = /^\s*\d+\s*$/.test(declared ?? "") ? Number(declared) : Infinity;
  try {
    if (length <= cap) {
      return { bytes: new Uint8Array(await response.arrayBuffer()).subarray(0, cap), finished: true };
    }
    const reader = response.body.getReader({ mode: "byob" });
    const first = Math.min(FIRST_READ_BYTES, cap + 1);
    const head = await reader.readAtLeast(first, new Uint8Array(first));
    if (head.done || head.value.byteLength < first) return { bytes: head.value ?? EMPTY, finished: true };
    const whole = new Uint8Array(cap + 1);
    whole.set(head.value);
    // The view is transferred to the read and comes back over the same bytes, the head's first.
    const rest = await reader.readAtLeast(cap + 1 - first, whole.subarray(first));
    if (!rest.value) return { bytes: head.value, finished: rest.done };
    const read = first + rest.value.byteLength;
    return { bytes: new Uint8Array(rest.value.buffer, 0, Math.min(read, cap)), finished: read <= cap };
  } catch {
    return { bytes: EMPTY, finished: false };
  }
}

function text(error) {
  if (typeof error === "string") return error;
  if (error && typeof error.message === "string") return error.message;
  return String(error);
}
