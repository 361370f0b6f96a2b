// An incoming request's headers read in one call (issue 33, thirty-first
// round): the Durable Streams face hands every header to the engine, which
// the instance read entry by entry through the `Headers` iterator, three
// crossings an entry.

/**
 * @param {Headers} headers
 * @param {number} max  at most this many entries (the rest are not read)
 * @returns {string}    `[[name, value], ...]` as JSON, names lower-case, in the platform's order
 */
export function headerPairs(headers, max) {
  const pairs = [];
  for (const pair of headers) {
    if (pairs.length >= max) break;
    pairs.push(pair);
  }
  return JSON.stringify(pairs);
}
