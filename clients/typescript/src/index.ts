// @tributary/client: a typed client for Tributary's HTTP API (issue 22).
// Types come from openapi.yaml (generated/schema.ts); see README.md here.
export { Tributary, type TokenGrant, type JsonataEvaluation } from "./client.js";
export type { ClientOptions } from "./http.js";
export { TributaryError, type ErrorCode, type ApiErrorCode, type ClientErrorCode } from "./errors.js";
export { verifyWebhook, type WebhookHeaders } from "./webhook.js";
export type { Tail, TailOptions, Transport } from "./tail/index.js";
export type { Appended, AppendedBatch, ReadOptions } from "./streams.js";
export type { PutSource } from "./sources.js";
export type { DeadLetterQuery } from "./dead_letters.js";
export type { CatalogQuery } from "./catalog.js";
export { OPERATIONS, type OperationId } from "./generated/operations.js";
export type { paths, components, operations } from "./generated/schema.js";
export * from "./types.js";
