// One error class for everything the client can fail with (issue 22): the
// API's own errors (`{"error": {code, message, details}}`, docs/design.md §2) keep
// their code, message, details and HTTP status; what happens before or
// around the API gets a client code and status 0.
import type { components } from "./generated/schema.js";

/** Every `error.code` the API answers with (openapi.yaml `ErrorCode`). */
export type ApiErrorCode = components["schemas"]["ErrorCode"];

/**
 * Codes the client adds: the request never reached the API or its answer
 * was not the API's (`network_error`, `unexpected_response`), a live tail
 * ended for a reason the server gave (`replaced`, `stream_deleted`,
 * `slow_consumer`), a live tail fell into a retention gap and no
 * `onTrimmed` was given (`trimmed`, the API's own code), it was aborted,
 * or a webhook did not verify (`invalid_signature`) or verified but is not
 * a Tributary body (`invalid_webhook_body`).
 */
export type ClientErrorCode =
  | "network_error"
  | "unexpected_response"
  | "replaced"
  | "stream_deleted"
  | "slow_consumer"
  | "aborted"
  | "invalid_signature"
  | "invalid_webhook_body";

export type ErrorCode = ApiErrorCode | ClientErrorCode;

export class TributaryError extends Error {
  override readonly name = "TributaryError";
  /** The API's `error.code`, or a client code. */
  readonly code: ErrorCode;
  /** What the failure names: `field`, `limitBytes`, `firstOffset`, `scope`, ... */
  readonly details: Record<string, unknown>;
  /** The HTTP status; 0 when no API answer was involved. */
  readonly status: number;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}, status = 0, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.details = details;
    this.status = status;
  }

  /** The error of a response that is not 2xx: the API's JSON error, or `unexpected_response`. */
  static async fromResponse(response: Response): Promise<TributaryError> {
    const text = await response.text().catch(() => "");
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const error = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : undefined;
    if (error && typeof error.code === "string" && typeof error.message === "string") {
      const details = isRecord(error.details) ? error.details : {};
      return new TributaryError(error.code as ErrorCode, error.message, details, response.status);
    }
    return new TributaryError(
      "unexpected_response",
      `HTTP ${response.status} without a Tributary error body: ${text.slice(0, 200)}`,
      { body: text.slice(0, 1000) },
      response.status,
    );
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
