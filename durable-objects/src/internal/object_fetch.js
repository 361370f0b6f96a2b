// One call to another Durable Object (issue 33), made on JavaScript's side
// of the instance: the stub's `fetch` takes the URL and its init as they
// are, as a JavaScript Worker calls an object, so the platform builds its
// one request from them. Built from the wasm instance, the same call took
// a `Headers`, an init object and a `Request` made by hand (about ten
// crossings), and `fetch` then built its own request from that one.
//
// The body is a view of the instance's memory, valid only until the
// instance runs again: the platform copies it as the call builds its
// request, before the call returns (tests/e2e/platform_copies.test.mjs), so
// it is handed over as it is.

const NO_BODY = 0;
const TEXT = 2;

/**
 * @param {{fetch: (url: string, init: object) => Promise<Response>}} object  the object's stub
 * @param {string} url
 * @param {string} method
 * @param {string} headersJson  `{name: value, ...}` as JSON (one string, so no value can split another;
 *                              a record, which the platform reads faster than a list of pairs: src/header_init.rs)
 * @param {number} kind         0: no body; 1: `bytes`; 2: `text`
 * @param {Uint8Array} bytes    a view of the instance's memory
 * @param {string} text
 * @returns {Promise<Response>}
 */
export function objectFetch(object, url, method, headersJson, kind, bytes, text) {
  const init = { method, headers: JSON.parse(headersJson) };
  if (kind !== NO_BODY) init.body = kind === TEXT ? text : bytes;
  return object.fetch(url, init);
}
