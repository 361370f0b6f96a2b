// Console routes live in the URL fragment: `#/streams/app/orders/-/events?after=50`.

/** `#/path?query` for a route and its query (empty values left out). */
export function href(path, query = {}) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "" && value !== false) params.set(name, String(value));
  }
  const text = params.toString();
  return `#${path}${text ? `?${text}` : ""}`;
}

/** The current route: `{path, query}`. */
export function parseHash() {
  const raw = location.hash.replace(/^#/, "") || "/streams";
  const at = raw.indexOf("?");
  const path = at < 0 ? raw : raw.slice(0, at);
  const query = at < 0 ? "" : raw.slice(at + 1);
  return { path, query: Object.fromEntries(new URLSearchParams(query)) };
}
