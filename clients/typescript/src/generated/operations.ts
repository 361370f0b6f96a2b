// Generated from openapi.yaml by `node scripts/openapi.mjs`: do not edit.
/** Every operation of the document: its method, path template and token scope (§2). */
export const OPERATIONS = {
  getOpenApiDocument: { method: "GET", path: "/v1/openapi.json", scope: "none" },
  listStreams: { method: "GET", path: "/v1/streams", scope: "read" },
  getStream: { method: "GET", path: "/v1/streams/{path}", scope: "read" },
  deleteStream: { method: "DELETE", path: "/v1/streams/{path}", scope: "manage" },
  readEvents: { method: "GET", path: "/v1/streams/{path}/-/events", scope: "read" },
  appendEvents: { method: "POST", path: "/v1/streams/{path}/-/events", scope: "append" },
  readEvent: { method: "GET", path: "/v1/streams/{path}/-/events/{offset}", scope: "read" },
  getStreamMetrics: { method: "GET", path: "/v1/streams/{path}/-/metrics", scope: "read" },
  getSubscriptionCard: { method: "GET", path: "/v1/streams/{path}/-/subscriptions", scope: "read" },
  getSigningSecret: { method: "GET", path: "/v1/streams/{path}/-/subscriptions/{subscriptionKey}/signing-secret", scope: "manage" },
  subscribeFrom: { method: "POST", path: "/v1/streams/{path}/-/subscribe-from", scope: "manage" },
  listDeadLetters: { method: "GET", path: "/v1/streams/{path}/-/dead-letters", scope: "manage" },
  discardDeadLetters: { method: "DELETE", path: "/v1/streams/{path}/-/dead-letters", scope: "manage" },
  discardDeadLetter: { method: "DELETE", path: "/v1/streams/{path}/-/dead-letters/{id}", scope: "manage" },
  replayDeadLetter: { method: "POST", path: "/v1/streams/{path}/-/dead-letters/{id}/replay", scope: "manage" },
  tailStream: { method: "GET", path: "/v1/streams/{path}/-/live", scope: "read" },
  getProcessorState: { method: "GET", path: "/v1/streams/{path}/-/processors/{name}", scope: "read" },
  listProcessors: { method: "GET", path: "/v1/processors", scope: "read" },
  getProcessor: { method: "GET", path: "/v1/processors/{name}", scope: "read" },
  putProcessor: { method: "PUT", path: "/v1/processors/{name}", scope: "manage" },
  deleteProcessor: { method: "DELETE", path: "/v1/processors/{name}", scope: "manage" },
  listSources: { method: "GET", path: "/v1/sources", scope: "read" },
  getSource: { method: "GET", path: "/v1/sources/{name}", scope: "read" },
  putSource: { method: "PUT", path: "/v1/sources/{name}", scope: "manage" },
  deleteSource: { method: "DELETE", path: "/v1/sources/{name}", scope: "manage" },
  getToken: { method: "GET", path: "/v1/token", scope: "any" },
  getProjectMetrics: { method: "GET", path: "/v1/metrics", scope: "read" },
  evaluateJsonata: { method: "POST", path: "/v1/jsonata/evaluate", scope: "any" },
} as const;

export type OperationId = keyof typeof OPERATIONS;
