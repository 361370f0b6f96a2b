// Verifying what a `webhook-post` subscription sends (docs/design.md §9), with
// the `standardwebhooks` library: the signature over `id.timestamp.body`
// with the subscription's `whsec_` secret, and the timestamp within its
// tolerance (5 minutes), before the body is trusted.
import { Webhook } from "standardwebhooks";
import { TributaryError, isRecord } from "./errors.js";
import type { WebhookBody } from "./types.js";

/** Request headers as a fetch `Headers`, or a record such as Node's `IncomingHttpHeaders`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const SIGNED_HEADERS = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const;
const BODY_TYPES = new Set(["event", "digest", "retracted"]);

/**
 * Verifies a delivery and returns its typed body (`event`, `digest` or
 * `retracted`). `body` must be the raw request body, exactly as received.
 * Throws `TributaryError` `invalid_signature` (forged, altered, stale, or a
 * header missing or repeated) or `invalid_webhook_body` (verified, but not
 * a Tributary webhook body). Deduplicate on `webhook-id` (an event's or
 * digest's `deliveryId`): delivery is at least once, and a retry carries
 * the same id.
 */
export function verifyWebhook(secret: string, headers: WebhookHeaders, body: string | Uint8Array): WebhookBody {
  const signed = signedHeaders(headers);
  const text = typeof body === "string" ? body : new TextDecoder("utf-8", { fatal: false }).decode(body);
  let verified: unknown;
  try {
    verified = new Webhook(secret).verify(text, signed);
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    throw new TributaryError("invalid_signature", `the webhook did not verify: ${message}`, {}, 0, { cause });
  }
  if (!isRecord(verified) || typeof verified.type !== "string" || !BODY_TYPES.has(verified.type)) {
    throw new TributaryError("invalid_webhook_body", "the webhook verified but its body is not an event, digest or retracted body", {});
  }
  // An event or digest is its own delivery (`deliveryId` = `webhook-id`); a
  // retraction's `deliveryId` names the delivery it retracts.
  if (verified.type !== "retracted" && verified.deliveryId !== signed["webhook-id"]) {
    throw new TributaryError("invalid_webhook_body", "the body's deliveryId is not the signed webhook-id", {});
  }
  return verified as WebhookBody;
}

function signedHeaders(headers: WebhookHeaders): Record<(typeof SIGNED_HEADERS)[number], string> {
  const out = {} as Record<(typeof SIGNED_HEADERS)[number], string>;
  for (const name of SIGNED_HEADERS) {
    const value = headerValue(headers, name);
    if (value === undefined) throw new TributaryError("invalid_signature", `the webhook has no single ${name} header`, { header: name });
    out[name] = value;
  }
  return out;
}

function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof Headers !== "undefined" && headers instanceof Headers) return headers.get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const matches = Object.keys(record).filter((key) => key.toLowerCase() === name);
  if (matches.length !== 1) return undefined;
  const value = record[matches[0] as string];
  return typeof value === "string" ? value : undefined;
}
