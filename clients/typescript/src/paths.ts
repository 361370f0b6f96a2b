// Stream paths as the API takes them (docs/design.md §2): 1–16 `/`-separated
// segments of `[A-Za-z0-9._~-]`, never `-`, `.` or `..`, at most 512 bytes
// with the leading `/`. Checked before sending, because a URL parser would
// resolve a `..` segment (or its `%2E%2E` form) into another stream's path.
import { TributaryError } from "./errors.js";

const SEGMENT = /^[A-Za-z0-9._~-]+$/;
const MAX_PATH_BYTES = 512;
const MAX_SEGMENTS = 16;

/** `"app/orders"` or `"/app/orders"` → `"/app/orders"`; anything else throws 400-like `invalid_path`. */
export function streamPath(path: string): string {
  if (typeof path !== "string") throw invalid(String(path), "a stream path is a string");
  const withSlash = path.startsWith("/") ? path : `/${path}`;
  const segments = withSlash.slice(1).split("/");
  if (withSlash.length > MAX_PATH_BYTES) throw invalid(path, `a stream path is at most ${MAX_PATH_BYTES} bytes`);
  if (segments.length > MAX_SEGMENTS) throw invalid(path, `a stream path has at most ${MAX_SEGMENTS} segments`);
  for (const segment of segments) {
    if (!SEGMENT.test(segment)) throw invalid(path, "each segment is one or more of [A-Za-z0-9._~-]");
    if (segment === "-" || segment === "." || segment === "..") throw invalid(path, `a segment is never "${segment}"`);
  }
  return withSlash;
}

function invalid(path: string, why: string): TributaryError {
  return new TributaryError("invalid_path", `invalid stream path ${JSON.stringify(path)}: ${why} (checked by the client; nothing was sent)`, {
    path,
  });
}
