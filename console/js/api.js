// The public API (all under /v1, `Authorization: Bearer <token>`), and the
// token, kept in sessionStorage for the tab's life.

const TOKEN_KEY = "tributary.console.token";

export const session = {
  token: () => sessionStorage.getItem(TOKEN_KEY),
  signIn: (token) => sessionStorage.setItem(TOKEN_KEY, token),
  signOut: () => sessionStorage.removeItem(TOKEN_KEY),
};

/** A failed request, as the API describes it: `{"error": {code, message, details}}`. */
export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** `/v1/streams{path}[/-/{action}]` (path segments are already URL-safe; encode anyway). */
export function streamRoute(path, action) {
  const encoded = path
    .split("/")
    .map((segment) => encodeURIComponent(segment))
    .join("/");
  return `/v1/streams${encoded}${action ? `/-/${action}` : ""}`;
}

/**
 * One API call. `query` entries that are undefined, null or "" are left out.
 * Resolves to the parsed body (null for 204); rejects with ApiError. A 401
 * also signs out and tells the app (`tributary:unauthorized`).
 */
export async function api(method, route, { query, body, token = session.token(), signal } = {}) {
  const url = new URL(route, location.origin);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== "") url.searchParams.set(name, String(value));
  }
  const headers = { authorization: `Bearer ${token ?? ""}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  let response;
  try {
    response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
  } catch (error) {
    if (error?.name === "AbortError") throw error;
    throw new ApiError(0, "network_error", `the request did not complete: ${error?.message ?? error}`);
  }
  const text = await response.text();
  let parsed = null;
  try {
    parsed = text.length ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const error = parsed?.error;
    const failure = new ApiError(
      response.status,
      error?.code ?? `http_${response.status}`,
      error?.message ?? (text.slice(0, 300) || response.statusText),
      error?.details,
    );
    if (response.status === 401 && token === session.token()) {
      session.signOut();
      window.dispatchEvent(new CustomEvent("tributary:unauthorized", { detail: failure }));
    }
    throw failure;
  }
  return response.status === 204 ? null : parsed;
}

let grantOf = { token: undefined, grant: null };

/**
 * Whether the signed-in token may use `scope` ("read", "append", "manage")
 * on the stream at `path`, or project-wide when `path` is omitted (§2
 * Scopes), as `GET /v1/token` says; asked once per token. Controls the
 * token cannot use are hidden; the API still refuses (403 forbidden_scope)
 * whatever this lets through, and an unanswered question shows everything.
 */
export async function can(scope, path) {
  const token = session.token();
  if (grantOf.token !== token) grantOf = { token, grant: api("GET", "/v1/token").catch(() => null) };
  const grant = await grantOf.grant;
  if (!grant) return true;
  const covered = grant.prefix === null ? true : path !== undefined && path.startsWith(grant.prefix);
  return grant.scopes.includes(scope) && covered;
}

export const CONTROL = "events.iterate.com/stream/";
export const RESUMED = `${CONTROL}subscription-delivery-resumed`;

/** The processor name of a processor-wake subscription, else null. */
export function processorName(subscription) {
  const receiver = subscription?.configuration?.receiver;
  if (receiver?.action !== "processor-wake") return null;
  const expression = receiver.expression;
  return Array.isArray(expression) && expression[0] === "processors" && typeof expression[1] === "string" ? expression[1] : null;
}

/** A short human description of a subscription's receiver. */
export function receiverText(receiver) {
  switch (receiver?.action) {
    case "webhook-post":
      return receiver.url ?? "";
    case "copy-to-stream":
      return receiver.receivingStreamPath ?? "";
    case "itx-call":
    case "processor-wake":
      return JSON.stringify(receiver.expression ?? null);
    case "log":
      return "one JSON log line per event";
    default:
      return JSON.stringify(receiver ?? null);
  }
}
