// Answers made and finished on JavaScript's side of the instance
// (docs/design.md §17 "Browsers"; docs/benchmarks.md, issue 33,
// twenty-ninth round).
//
// - `answerHeaders`: an answer's headers, its content type and the
//   security headers, in one call instead of one per header.
// - `respond`: a whole answer (status, body, content type, security
//   headers, one more header) made in one call. Its headers go to the
//   `Response` as a plain object, which the platform reads once into the
//   answer's own `Headers`; one such object is kept per content type.
// - `respondWith`: a whole answer whose headers the engine made (the
//   Durable Streams face's), in one call.
// - `decorateAnswer`: the entry's last step on every API answer. An answer
//   that already carries the security headers, no internal header, and
//   needs no CORS header for this request is handed on as it is: the
//   object's own `Response`, not a copy of its headers and a second
//   `Response` around its body. Otherwise its headers are copied and
//   completed, and a `Response` around the same body (and the same
//   WebSocket, for an upgrade) carries them.
//
// The header names come from the engine (`configureAnswers`, once per
// instance), so they have one home: `SECURITY_HEADERS` and
// `STREAM_ID_HEADER` in the Rust crate.

/** @type {[string, string][] | null} */
let security = null;
/** @type {string} */
let internal = "";

/** Plain header objects by content type. The content types are the engine's
 * constants (a handful); past MAX_KEPT one is made for each answer. */
const initHeaders = new Map();
const MAX_KEPT = 16;

/**
 * @param {string} securityJson  `[[name, value], ...]` as JSON
 * @param {string} internalHeader the header only Tributary's own callers read
 */
export function configureAnswers(securityJson, internalHeader) {
  security = JSON.parse(securityJson);
  internal = internalHeader;
  initHeaders.clear();
}

function configured() {
  if (security === null) throw new Error("answers.js: configureAnswers was not called");
  return security;
}

/**
 * @param {string} contentType
 * @returns {Headers}
 */
export function answerHeaders(contentType) {
  const headers = new Headers(configured());
  headers.set("content-type", contentType);
  return headers;
}

function headersFor(contentType) {
  let headers = initHeaders.get(contentType);
  if (headers === undefined) {
    headers = Object.fromEntries(configured());
    headers["content-type"] = contentType;
    if (initHeaders.size < MAX_KEPT) initHeaders.set(contentType, headers);
  }
  return headers;
}

/**
 * @param {number} status
 * @param {string} contentType
 * @param {Uint8Array} body      a view of the instance's memory, which the `Response` copies as it is
 *                               made (ignored for a 204)
 * @param {string} extraName     one more header, or "" for none
 * @param {string} extraValue
 * @returns {Response}
 */
export function respond(status, contentType, body, extraName, extraValue) {
  let headers = headersFor(contentType);
  if (extraName !== "") headers = { ...headers, [extraName]: extraValue };
  return new Response(status === 204 ? null : body, { status, headers });
}

/**
 * @param {number} status
 * @param {string} headersJson  `{name: value, ...}` as JSON (src/header_init.rs)
 * @param {Uint8Array} body     a view of the instance's memory, which the `Response` copies as it is made
 * @param {boolean} withBody    false: no body (a HEAD, a 204, a 304, an empty one)
 * @returns {Response}
 */
export function respondWith(status, headersJson, body, withBody) {
  return new Response(withBody ? body : null, { status, headers: JSON.parse(headersJson) });
}

/**
 * @param {Response} response
 * @param {string} corsJson  `[[name, value], ...]` as JSON, or "" for none
 * @returns {Response}
 */
export function decorateAnswer(response, corsJson) {
  const wanted = configured();
  const cors = corsJson === "" ? [] : JSON.parse(corsJson);
  const headers = response.headers;
  if (cors.length === 0 && !headers.has(internal) && wanted.every(([name]) => headers.has(name))) return response;
  const decorated = new Headers(headers);
  decorated.delete(internal);
  for (const [name, value] of cors) decorated.set(name, value);
  for (const [name, value] of wanted) if (!decorated.has(name)) decorated.set(name, value);
  const init = { status: response.status, headers: decorated };
  if (response.webSocket) init.webSocket = response.webSocket;
  if (response.cf !== undefined) init.cf = response.cf;
  return new Response(response.body, init);
}
