// Generated from openapi.yaml by `node scripts/openapi.mjs`: do not edit.
export type paths = {
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI document, as JSON.
         * @description Served without a token (it describes the API and holds no project's data). Every other operation names the token scope it needs in `x-scope` (§2); an append of control events needs `manage` (`x-scope-control-events`).
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The project's streams, in path order, paged (§14).
         * @description A soft-deleted stream (§18: deleted while forks still read it, its
         *     data kept for them) is deleted to its users: the listing leaves it
         *     out unless `softDeleted` asks for it, and marks it `softDeleted:
         *     true` with `softDeletedAt`. When its last fork is gone it is purged
         *     and leaves the catalog.
         */
        get: operations["listStreams"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        /** Stream info and reduced state (§3, §5, §16). */
        get: operations["getStream"];
        put?: never;
        post?: never;
        /** Destroy the stream; the next write starts a new lifetime (§3). */
        delete: operations["deleteStream"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{path}/-/events": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        /** A range read, or a long-poll with `waitMs` (§3, §10, §16). */
        get: operations["readEvents"];
        put?: never;
        /**
         * Append one event, or a batch of events all-or-nothing (§3).
         * @description Control events (`events.iterate.com/stream/...`, §4) configure the
         *     stream; their payloads are the schemas `SubscriptionConfigured` (a
         *     subscription and its `Receiver`: `copy-to-stream`, `webhook-post`,
         *     `itx-call`, `processor-wake`, `log`), `SubscriptionRemoved`,
         *     `SubscriptionCursorSet`, `SubscriptionDeliveryResumed`,
         *     `EventsInvalidated` and `RetentionConfigured` (§16).
         *     `subscription-delivery-halted` and `error-occurred` are written by
         *     the engine only (403 `trusted_only_type`). A token with a `prefix`
         *     may not configure a copy into a stream outside it, nor move or
         *     resume (`subscription-cursor-set`, `subscription-delivery-resumed`)
         *     one configured by another token (403 `forbidden_scope`, §2). An
         *     idempotency key already used with the same content returns the
         *     committed event (200); with other content it is 409
         *     `idempotency_key_reused`. Body limit 2 MiB (§12).
         */
        post: operations["appendEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{path}/-/events/{offset}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
                /** @example 1 */
                offset: number;
            };
            cookie?: never;
        };
        /** A point read (§3). */
        get: operations["readEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{path}/-/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        /** The stream's counters in the Prometheus text format (§11). */
        get: operations["getStreamMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{path}/-/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        /** The subscription debug card (§11), with inbound fence records paged. */
        get: operations["getSubscriptionCard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{path}/-/subscriptions/{subscriptionKey}/signing-secret": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
                /**
                 * @description 1–256 bytes, percent-encoded.
                 * @example hook
                 */
                subscriptionKey: components["parameters"]["SubscriptionKey"];
            };
            cookie?: never;
        };
        /** The `whsec_` Standard Webhooks secret of a webhook-post subscription (§9). */
        get: operations["getSigningSecret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{path}/-/subscribe-from": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Subscribe this (receiving) stream to another stream (§5).
         * @description Appends a `subscription-configured` with a `copy-to-stream` receiver on the source stream. Body limit 256 KiB.
         */
        post: operations["subscribeFrom"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{path}/-/fork": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create this stream as a fork of another (§18).
         * @description The stream at `{path}` begins as `from`'s events up to `at` (default
         *     `from`'s head) and continues with its own: offsets are shared, nothing
         *     is copied (reads below the fork point go to the source). The same
         *     creation as the protocol's `PUT` with `Stream-Forked-From` and
         *     `Stream-Fork-Offset`. `manage` on both paths. 201 with the fork's
         *     stream info; 200 when it exists as asked; 409 when a stream exists at
         *     `{path}` otherwise (or the path is a soft-deleted source); 404 when
         *     `from` does not exist; 410 when `from` is soft-deleted; 400 for a
         *     malformed body or an `at` past `from`'s head. Body limit 256 KiB.
         */
        post: operations["forkStream"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{path}/-/dead-letters": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        /** Dead letters, in insertion order (§8). */
        get: operations["listDeadLetters"];
        put?: never;
        post?: never;
        /** Discard every dead letter of one subscription, or of the stream (§8). */
        delete: operations["discardDeadLetters"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{path}/-/dead-letters/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
                /** @example 1 */
                id: components["parameters"]["DeadLetterId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Discard one dead letter (§8). */
        delete: operations["discardDeadLetter"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{path}/-/dead-letters/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
                /** @example 1 */
                id: components["parameters"]["DeadLetterId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver one dead letter again, under its original delivery id (§8).
         * @description Through the subscription's current receiver and retry policy; each wait ≤ 1 s, the whole replay ≤ 10 s. Success deletes the letter. A token with a `prefix` may not replay through a copy into a stream outside it (403 `forbidden_scope`, §2).
         */
        post: operations["replayDeadLetter"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{path}/-/live": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        /**
         * Tail the stream over Server-Sent Events, or a WebSocket on `Upgrade` (§10).
         * @description Replays durable events after `after`, then sends new ones (ephemeral
         *     ones too) as they commit, in offset order, with no gap and no
         *     duplicate within one connection. Tailing a stream that does not
         *     exist yet is allowed.
         *
         *     **Server-Sent Events** (`accept: text/event-stream`): the stream
         *     starts with `retry: 250`; each event is a message `id: <offset>`,
         *     `event: event`, `data: <Event JSON>`, so `Last-Event-ID` resumes
         *     exactly after it. `: keep-alive` comments every 15 s; the response
         *     ends after 5 minutes or after 1 MiB of replay (reconnect continues).
         *     `event: progress` with `data: {"deliveredThroughOffset": n}` (and
         *     `id: n`) ends a catch-up that scanned its budget. `event: trimmed`
         *     with `data: {"type": "trimmed", "afterOffset", "firstOffset"}` says
         *     retention trimmed what the connection had not been sent (§16); it
         *     goes on from `firstOffset`. A final `event: error` with
         *     `data: {"code", "message"}` ends it for a reason: `slow_consumer`,
         *     `replaced` (a new connection took its `connectionKey`),
         *     `stream_deleted`.
         *
         *     **WebSocket** (`Upgrade: websocket`): offer the subprotocols
         *     `tributary.v1` and `bearer.<token>` (browsers cannot send headers);
         *     the server selects `tributary.v1`. Server frames are text JSON:
         *     `{"type": "events", "events": [Event...], "head": n}`,
         *     `{"type": "ping"}`, `{"type": "trimmed", "afterOffset",
         *     "firstOffset"}`, and, just before a close with a reason,
         *     `{"type": "error", "code", "message"}` (the same codes as SSE's
         *     `event: error`, plus `unauthorized`). The client acknowledges with
         *     `{"type": "ack", "offset": n}` once the frames since its last ack
         *     reach 64 KiB. Close codes: 1013 `slow_consumer`, 4409 replaced,
         *     4410 stream deleted, 4401 unauthorized.
         */
        get: operations["tailStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streams/{path}/-/processors/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
                /**
                 * @description A processor name, percent-encoded.
                 * @example totals
                 */
                name: components["parameters"]["ProcessorName"];
            };
            cookie?: never;
        };
        /** A hosted processor's state on this stream (§9). */
        get: operations["getProcessorState"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/stream/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        /**
         * Catch-up read, long-poll or SSE (PROTOCOL §5.6–5.8, §10, §17).
         * @description **Catch-up** (no `live`): the messages after `offset`, a bounded
         *     page: bytes concatenated as the stream's content type, or in JSON
         *     mode one JSON array. `Stream-Next-Offset` is where to resume;
         *     `Stream-Up-To-Date: true` when the page reached the tail;
         *     `Stream-Closed: true` once the reader reached the end of a closed
         *     stream. `ETag` names the lifetime, range and closure:
         *     `If-None-Match` with it is 304. A page short of the tail is
         *     `Cache-Control: private, max-age=60, stale-while-revalidate=300`;
         *     one at the tail `no-cache`; `offset=now` `no-store`.
         *
         *     **Long-poll** (`live=long-poll`): as catch-up when there is data;
         *     at the tail it waits for an append up to the deployment's
         *     `DS_LONG_POLL_TIMEOUT_MS`, then 204 with `Stream-Next-Offset`,
         *     `Stream-Up-To-Date` and `Stream-Cursor` (echo it as `cursor`).
         *
         *     **SSE** (`live=sse`): `event: data` frames (the messages; base64
         *     for binary content types, with `Stream-SSE-Data-Encoding: base64`)
         *     each followed by `event: control` with `{streamNextOffset,
         *     streamCursor, upToDate?, streamClosed?}`; the response ends at most
         *     every 60 s (reconnect from the last `streamNextOffset`).
         *
         *     Control and ephemeral events are never messages: they are skipped
         *     (offsets stay monotonic). Reads renew a `Stream-TTL`.
         */
        get: operations["readProtocolStream"];
        /**
         * Create the stream through the Durable Streams face (PROTOCOL §5.1, §17).
         * @description Idempotent: 201 with `Location` when created; 200 when it exists with
         *     the same content type, expiry and closure; 409
         *     `stream_config_mismatch` when it exists otherwise (a stream first
         *     written natively is `application/json`). The content type (default
         *     `application/octet-stream`) is fixed for the lifetime; a body is the
         *     first append; `Stream-Closed: true` creates it closed.
         *     `Tributary-Message-Type` names the event type of its messages
         *     (default `message`). Body limit 2 MiB (413 unread past it).
         */
        put: operations["createProtocolStream"];
        /**
         * Append to (and optionally close) the stream (PROTOCOL §5.2, §5.3, §17).
         * @description The body is one message, or in JSON mode (`application/json`) an
         *     array whose elements are each a message (one level flattened; `[]`
         *     is 400). A byte message is stored as bytes and is one event (split
         *     at the per-event limit, invisibly to readers); a JSON message is one
         *     event whose payload is the element; on a stream created natively a
         *     message is an input event `{type, payload?, metadata?,
         *     idempotencyKey?}`. The `Content-Type` must match the stream's (409
         *     `content_type_mismatch`). `Stream-Closed: true` closes the stream
         *     atomically with this append (an empty body just closes it); an
         *     append to a closed stream is 409 `stream_closed` with
         *     `Stream-Closed: true`. `Stream-Seq` must exceed the last one (409
         *     `stream_seq_conflict`). Idempotent producers (all three headers or
         *     none): 200 accepted, 204 duplicate, 403 `stale_producer_epoch`
         *     (with the current `Producer-Epoch`), 409 `producer_sequence_gap`
         *     (with `Producer-Expected-Seq`, `Producer-Received-Seq`), 400 a new
         *     epoch not at seq 0. Body limit 2 MiB (413 unread past it).
         */
        post: operations["appendProtocolStream"];
        /**
         * Delete the stream (PROTOCOL §5.4); as `DELETE /v1/streams/{path}` (§3 rule 6).
         * @description A stream that forks still read is soft-deleted (§18): 410 `stream_gone` on both faces afterwards, its path refused for re-creation (409 `stream_soft_deleted`) until the last fork is gone.
         */
        delete: operations["deleteProtocolStream"];
        /**
         * A CORS preflight (§17 "Browsers"), answered without a token on any `/v1/` URL.
         * @description With an `Origin` that `CORS_ALLOWED_ORIGINS` allows (or `*`):
         *     `Access-Control-Allow-Origin`, `-Allow-Methods`, `-Allow-Headers`
         *     (the protocol's request headers and `Authorization`) and
         *     `-Max-Age`; otherwise no `Access-Control-*` header. Actual
         *     responses to an allowed origin carry `Access-Control-Expose-Headers`
         *     (the protocol's response headers); every protocol response carries
         *     `X-Content-Type-Options: nosniff` and
         *     `Cross-Origin-Resource-Policy: cross-origin`.
         */
        options: operations["preflightProtocolStream"];
        /** The stream's metadata, no body (PROTOCOL §5.5); does not renew a `Stream-TTL`. */
        head: operations["headProtocolStream"];
        patch?: never;
        trace?: never;
    };
    "/v1/processors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's processor definitions, paged by name (§9). */
        get: operations["listProcessors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/processors/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A processor name, percent-encoded.
                 * @example totals
                 */
                name: components["parameters"]["ProcessorName"];
            };
            cookie?: never;
        };
        /** One processor definition (§9). */
        get: operations["getProcessor"];
        /** Define or replace a processor; a replacement is a new version (§9). Body limit 272 KiB. */
        put: operations["putProcessor"];
        post?: never;
        /** Delete a processor definition (§9). */
        delete: operations["deleteProcessor"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The project's secrets — names, versions and when each was written, never a value (§9).
         * @description Secrets are project-wide; a token with a prefix gets 403 `forbidden_scope`. At most 100 per project (§12), all in one answer.
         */
        get: operations["listSecrets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/secrets/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A secret name: 1-64 characters of `[A-Za-z0-9_.-]`.
                 * @example ALERTS_WEBHOOK_URL
                 */
                name: components["parameters"]["SecretName"];
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Write a secret; a changed value is a new version, used from the next send on (§9). Body limit 25 KiB.
         * @description The value is 1–4096 bytes of one line of text (no control
         *     characters); a project holds at most 100 secrets (§12). An identical
         *     write changes nothing. The answer never holds the value, and no route
         *     reads it back (GET of a name is 405). A webhook names it as
         *     `{"secret": NAME}` in place of its `url` or a header value.
         */
        put: operations["putSecret"];
        post?: never;
        /** Delete a secret; a webhook still naming it fails its next send as permanent `secret_missing` (§9). */
        delete: operations["deleteSecret"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's sources, paged by name (§15). */
        get: operations["listSources"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sources/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description 1–64 characters of `[A-Za-z0-9._-]` (§15).
                 * @example usdc.transfers
                 */
                name: string;
            };
            cookie?: never;
        };
        /** A source's status (§15). */
        get: operations["getSource"];
        /**
         * Create or replace a source (§15, §15.1). Body limit 64 KiB.
         * @description Validated before anything is stored (422 naming `details.field`); every RPC URL is asked `eth_chainId`.
         */
        put: operations["putSource"];
        post?: never;
        /** Stop and delete a source; what it appended stays (§15). */
        delete: operations["deleteSource"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the presented token grants (§2 scoped tokens); any valid token may ask. */
        get: operations["getToken"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus text for the whole project (§11), from the project object's table, never a fan-out.
         * @description Each stream's series labelled `stream`, each subscription's labelled
         *     `stream` and `subscription` (deliveries by `outcome`, lag, attempt,
         *     halted, dead letters held, bytes sent), each source's labelled
         *     `source`. Streams report from their alarms when their counters change,
         *     at most every 2 s (an otherwise idle stream within 10 s), so a
         *     scrape may be up to about 10 s behind. At most
         *     1,000 streams and 10,000 subscriptions in path order;
         *     `tributary_metrics_streams_omitted` counts the rest. A soft-deleted
         *     stream (§18) shows no series; `tributary_metrics_streams_soft_deleted`
         *     counts those under the prefix. A prefix token sees only its prefix
         *     (and no sources).
         */
        get: operations["getProjectMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jsonata/evaluate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Try a JSONata filter or transform under the delivery budgets. Body limit 256 KiB. */
        post: operations["evaluateJsonata"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = {
    delivery: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * What a webhook-post subscription sends (§9).
         * @description One POST per delivery, body `type: event`, `digest` or `retracted`.
         *     Signed with the Standard Webhooks headers; verify with the
         *     subscription's `whsec_` secret (`GET .../signing-secret`) and any
         *     Standard Webhooks library. 2xx is delivered; 410 and other 4xx are
         *     permanent failures; 408, 429, 5xx and 3xx are retried with backoff,
         *     `Retry-After` honoured as the minimum.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The deterministic delivery id (the body's `deliveryId`). */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was signed. */
                    "webhook-timestamp": string;
                    /** @description `v1,<base64 HMAC-SHA256 of id.timestamp.body>`. */
                    "webhook-signature": string;
                    "user-agent"?: "Tributary-Webhooks/1";
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["WebhookBody"];
                };
            };
            responses: {
                /** @description Delivered. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description A permanent failure (408 and 429 are retried). */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Retried with backoff. */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type components = {
    schemas: {
        Error: {
            error: {
                code: components["schemas"]["ErrorCode"];
                message: string;
                /** @description What the failure names: `field`, `limitBytes`, `limit`, `firstOffset`, ... (empty for a route error). */
                details: Record<string, unknown>;
            };
        };
        /**
         * @description Every `error.code` the API answers with (src/error.rs `ErrorCode`);
         *     `x-statuses` gives each code's HTTP status (`subscription_not_found` is
         *     404, or 409 on a dead-letter replay whose subscription is gone).
         *     `forbidden_scope` is a scoped token outside its scope or prefix (§2).
         * @enum {string}
         */
        ErrorCode: "invalid_path" | "invalid_request" | "invalid_query" | "invalid_parameter" | "malformed_json" | "invalid_batch" | "invalid_event" | "invalid_copy_batch" | "invalid_source_name" | "invalid_processor_name" | "invalid_secret_name" | "idempotency_key_required" | "invalid_producer_sequence" | "fork_offset_beyond_tail" | "invalid_fork_sub_offset" | "unauthorized" | "forbidden" | "reserved_idempotency_key" | "source_forbidden" | "trusted_only_type" | "route_not_found" | "not_found" | "stream_not_found" | "event_not_found" | "subscription_not_found" | "dead_letter_not_found" | "processor_not_found" | "source_not_found" | "secret_not_found" | "method_not_allowed" | "idempotency_key_reused" | "subscription_key_conflict" | "connection_key_conflict" | "stale_stamp" | "subscription_not_halted" | "processor_already_subscribed" | "processor_not_woken" | "no_replay_retracted" | "no_replay_invalidated" | "replay_check_too_long" | "stream_lifetime_ended" | "stream_closed" | "content_type_mismatch" | "stream_config_mismatch" | "stream_seq_conflict" | "producer_sequence_gap" | "stream_soft_deleted" | "trimmed" | "stream_gone" | "stream_lifetime_changed" | "batch_too_large" | "body_too_large" | "source_too_large" | "event_too_large" | "event_too_deep" | "unknown_control_type" | "invalid_control_event" | "unknown_subscription" | "cursor_beyond_head" | "too_many_subscriptions" | "too_many_stream_subscriptions" | "reduced_state_too_large" | "inbound_fence_full" | "invalid_subscription" | "invalid_jsonata" | "invalid_processor" | "invalid_source" | "too_many_processors" | "too_many_sources" | "unknown_processor" | "invalid_secret" | "too_many_secrets" | "unknown_secret" | "reducer_failed" | "processor_state_too_large" | "jsonata_too_long" | "jsonata_syntax_error" | "jsonata_evaluation_error" | "too_many_connections" | "too_many_waiters" | "too_many_producers" | "internal" | "misconfigured" | "processor_unreachable" | "secrets_unreachable" | "replay_failed" | "signing_not_configured" | "directory_unavailable" | "stream_full" | "forbidden_scope" | "stale_producer_epoch";
        /** @description An offset; the first event of a lifetime is 1, 0 is "before the first". */
        Offset: number;
        /** @description RFC 3339 with milliseconds, UTC (`2026-12-01T17:28:00.000Z`). */
        Timestamp: string;
        /** @description An event to append (§3). Unknown fields are refused (400). */
        InputEvent: {
            /** @description `events.iterate.com/stream/...` types are control events (§4). */
            type: string;
            /** @description Any JSON value; default `{}`. */
            payload?: unknown;
            /** @description Default `{}`. */
            metadata?: Record<string, unknown>;
            /** @description Reserved prefixes (`copy:`, `evm:`, `trimmed:`, ...) are 403 `reserved_idempotency_key`. */
            idempotencyKey?: string;
            /** @description Kept an hour, skipped by durable subscriptions (§3). */
            ephemeral?: boolean;
        };
        AppendBatch: {
            events: components["schemas"]["InputEvent"][];
        };
        /** @description A committed event (§3). */
        Event: {
            offset: components["schemas"]["Offset"];
            type: string;
            payload: unknown;
            metadata: Record<string, unknown>;
            idempotencyKey?: string;
            /**
             * @description Present only when true.
             * @constant
             */
            ephemeral?: true;
            createdAt: components["schemas"]["Timestamp"];
            /** @description Provenance of a copied event (§7): `copiedFrom` hops; of a source's event (§15). */
            source?: Record<string, unknown>;
            /**
             * @description A byte message (§17, written through `/v1/stream/{path}` on a non-JSON stream): `payload` is a string holding its bytes — the bytes themselves when they are valid UTF-8 (`utf-8`), else standard padded base64 (`base64`). Absent for a JSON event.
             * @enum {unknown}
             */
            encoding?: "utf-8" | "base64";
        };
        StreamHeader: {
            /** @description One lifetime of the path; a DELETE and the next write start a new one. */
            streamId: string;
            streamCreatedAt: components["schemas"]["Timestamp"];
            path: string;
        };
        /** @description A single append answers `event`, a batch `events`, in order; `deduplicated` says which were already committed under their idempotency key. */
        AppendResult: {
            event: components["schemas"]["Event"];
            deduplicated: boolean;
        } | {
            events: components["schemas"]["Event"][];
            deduplicated: boolean[];
        };
        EventPage: components["schemas"]["StreamHeader"] & {
            head: components["schemas"]["Offset"];
            events: components["schemas"]["Event"][];
            /** @description Pass as `after` for the next page. */
            nextAfter: components["schemas"]["Offset"];
            /**
             * @description Present only when the stream is closed (§17): nothing follows its last data event.
             * @constant
             */
            closed?: true;
        };
        PointRead: components["schemas"]["StreamHeader"] & {
            event: components["schemas"]["Event"];
        };
        /** @description The latest `retention-configured` payload (§16). */
        Retention: {
            maxAgeMs?: number;
            maxEvents?: number;
            maxBytes?: number;
            trimPastSubscribers?: boolean;
        };
        StreamInfo: components["schemas"]["StreamHeader"] & {
            head: components["schemas"]["Offset"];
            eventCount: number;
            /** @description Fixed for the lifetime (§17): set by the protocol's `PUT` (default `application/octet-stream`); `application/json` for a stream first written natively. */
            contentType: string;
            /** @description Closed by `Stream-Closed: true` or `stream-closed` (§17): data appends are 409 `stream_closed`. */
            closed: boolean;
            /** @description The offset of the `stream-closed` event; present only when closed. */
            closedAtOffset?: components["schemas"]["Offset"];
            expiry: components["schemas"]["ExpiryConfigured"];
            /** @description When the stream expires as it knows now (a sliding TTL's deadline moves with reads and writes); present only with an expiry. */
            expiresAt?: components["schemas"]["Timestamp"];
            /** @description A fork's source (§18); present only on a fork. */
            forkedFrom?: {
                path: string;
                streamId: string;
                forkPoint: components["schemas"]["Offset"];
            };
            /** @description How many forks read this lifetime's prefix (§18). */
            forks: number;
            /** @description The lowest offset still readable (§16): 1 until something is trimmed. */
            firstOffset: components["schemas"]["Offset"];
            /** @description `null`: keep everything. */
            retention: components["schemas"]["Retention"] | null;
            /** @description Bytes of the retained event rows (§16 `maxBytes` counts these). */
            bytes: number;
            /** @description Rows deleted by retention and ephemeral expiry in this lifetime. */
            trimmedEvents: number;
            inboundFenceCount: number;
            /** @description The reduced state (§5). */
            state: {
                subscriptions: {
                    /** @description The first fence records of copies into this stream (§7), by source path and subscription key. */
                    inbound: {
                        bySourcePath: Record<string, unknown>;
                    };
                    /** @description Configured subscriptions by key (§5). */
                    outbound: {
                        byKey: Record<string, unknown>;
                    };
                };
            };
        };
        /** @description The debug card (§11): every subscription with its configuration and `runtime` (cursor, lag, attempts, last error, latencies, dead letters, journal, gate, window), the inbound fence records paged, and the open live connections. */
        SubscriptionCard: {
            firstOffset: components["schemas"]["Offset"];
            subscriptions: components["schemas"]["SubscriptionCardEntry"][];
            inbound: {
                bySourcePath: Record<string, unknown>;
            };
            inboundFenceCount: number;
            nextInboundAfter: string | null;
            connections: {
                connectionKey?: string;
                /** @enum {unknown} */
                transport?: "sse" | "websocket";
                openedAt?: components["schemas"]["Timestamp"];
                deliveredThroughOffset?: components["schemas"]["Offset"];
                eventsSent?: number;
                bytesSent?: number;
            }[];
        };
        LatencySummary: {
            count: number;
            p50: number | null;
            p99: number | null;
            max: number | null;
        };
        SubscriptionCardEntry: {
            subscriptionKey: string;
            /** @description The `subscription-configured` payload (§5): `receiver` with its `delivery` policies, `filter`, ... */
            configuration: Record<string, unknown>;
            configuredAtOffset: components["schemas"]["Offset"];
            configuredAt: components["schemas"]["Timestamp"];
            runtime: {
                completionLatencyMs?: components["schemas"]["LatencySummary"];
                deliveryDurationMs?: components["schemas"]["LatencySummary"];
                /** @description The delivery journal (§13). */
                journal?: {
                    size?: number;
                    oldestRetainedOffset?: number | null;
                    prunedThroughOffset?: number;
                };
                /** @description A threshold or maxOnce gate's state (§13). */
                gate?: {
                    heldHits?: number;
                    windowStartedAt?: string | null;
                };
                /** @description A concurrent subscription's window (§8 `concurrency`). */
                window?: Record<string, unknown>;
                runOffset: components["schemas"]["Offset"];
                acknowledgedOffset: components["schemas"]["Offset"];
                lag: number;
                attempt: number;
                nextAttemptAt?: string | null;
                inFlightDeadlineAt?: string | null;
                lastError: string | null;
                bytesSent?: number;
                deadLetters: number;
            };
            deliveryHalted?: Record<string, unknown>;
            /** @description Why a stored configuration no longer validates; nothing is delivered. */
            invalid?: string;
            cursorSet?: Record<string, unknown>;
            /** @description What retention trimmed past this subscription (§16 `trimPastSubscribers`). */
            trimmed?: Record<string, unknown>;
        };
        DeadLetter: {
            id: number;
            subscriptionKey: string;
            offset: components["schemas"]["Offset"];
            deliveryId: string;
            attempts: number;
            reason: string;
            /** @description The event as it would have been sent. */
            payload: unknown;
            createdAt: components["schemas"]["Timestamp"];
            /** @description `event`, or the kind of fact the letter holds. */
            kind?: string;
        };
        DeadLetterPage: {
            deadLetters: components["schemas"]["DeadLetter"][];
            nextAfter: components["schemas"]["Offset"];
        };
        ForkRequest: {
            /** @description The source stream's path. */
            from: string;
            /** @description The fork point: the source's offset the fork's own events follow (default its head). */
            at?: components["schemas"]["Offset"];
        };
        /** @description Without `subscriptionKey`, `idempotencyKey` is required (400 `idempotency_key_required`). */
        SubscribeFromRequest: {
            sourcePath: string;
            subscriptionKey?: string;
            idempotencyKey?: string;
            /** @description `beginning` (default), `now`, or an offset. */
            start?: unknown;
            filter?: Record<string, unknown>;
            jsonataTransform?: string;
        };
        SubscribeFromResult: {
            subscriptionKey: string;
            subscriptionConfiguredEvent: components["schemas"]["Event"];
        };
        ProcessorDefinitionBody: {
            /** @constant */
            kind: "jsonata-reducer";
            initialState: unknown;
            /** @description JSONata over `$state` and `$event`. */
            reducer: string;
            description?: string;
        };
        ProcessorDefinition: components["schemas"]["ProcessorDefinitionBody"] & {
            name: string;
            version: number;
            definedAt: components["schemas"]["Timestamp"];
        };
        ProcessorPage: {
            processors: {
                name: string;
                version: number;
                /** @constant */
                kind: "jsonata-reducer";
                description: string | null;
                definedAt: components["schemas"]["Timestamp"];
            }[];
            nextAfter: string | null;
        };
        /** @description A project secret in place of a string (§9); a reference to a secret the project does not hold is 422 `unknown_secret` at configure time. */
        SecretRef: {
            secret: string;
        };
        SecretValue: {
            /** @description 1-4096 bytes, no control characters. */
            value: string;
        };
        /** @description A secret as it is ever shown — never its value. */
        SecretSummary: {
            name: string;
            /** @description Bumped by every changed write; continues after a delete. */
            version: number;
            updatedAt: components["schemas"]["Timestamp"];
        };
        SecretList: {
            secrets: components["schemas"]["SecretSummary"][];
        };
        ProcessorState: {
            name: string;
            version: number;
            streamId: string;
            checkpointOffset: components["schemas"]["Offset"];
            lag: number;
            state: unknown;
            /** @description Where the fold started when it did not start at offset 1 (retention, §16). */
            foldedFromOffset?: number | null;
        };
        EvmSourceConfig: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "evm";
            rpcUrls: string[];
            chainId: number;
            targetStream: string;
            filters: {
                address?: string[];
                /** @description A Solidity event signature with parameter names. */
                event: string;
            }[];
            startBlock?: number;
            confirmations?: number;
            finalityDepth?: number;
            pollMs?: number;
        };
        EvmMempoolSourceConfig: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "evm-mempool";
            rpcUrls: string[];
            chainId: number;
            targetStream: string;
            filters: {
                to?: string[];
                /** @description A Solidity function signature with parameter names. */
                function?: string;
            }[];
            pollMs?: number;
        };
        SourceConfig: components["schemas"]["EvmSourceConfig"] | components["schemas"]["EvmMempoolSourceConfig"];
        /** @description A source's status (§15): `evm` sources report `nextBlock`, `finalizedBlock`, `invalidations`, `reorgs`; `evm-mempool` sources `watchingSince`, `txsSeen`, `txsQueued`, ... */
        SourceStatus: {
            name: string;
            config: components["schemas"]["SourceConfig"];
            /** @enum {unknown} */
            status: "running" | "retrying" | "failed";
            lastError: string | null;
            eventsAppended: number;
            attempt: number;
            nextRunAt?: string | null;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            nextBlock?: number | null;
            finalizedBlock?: number | null;
            invalidations?: number;
            reorgs?: number;
            deepReorgs?: number;
            watchingSince?: string | null;
            lastPollAt?: string | null;
            txsSeen?: number;
            txsQueued?: number;
            txsDropped?: number;
            txsVanished?: number;
            filterResets?: number;
        };
        SourcePage: {
            sources: {
                name: string;
                config: components["schemas"]["SourceConfig"];
                updatedAt: components["schemas"]["Timestamp"];
            }[];
            nextAfter: string | null;
        };
        CatalogPage: {
            streams: {
                path: string;
                streamId: string;
                streamCreatedAt: components["schemas"]["Timestamp"];
                /** @description Deleted while forks still read it (§18); listed only when `softDeleted` asks. */
                softDeleted: boolean;
                /** @description When it was soft-deleted; present only when `softDeleted` is true. */
                softDeletedAt?: components["schemas"]["Timestamp"];
            }[];
            nextAfter: string | null;
        };
        WebhookStream: {
            projectId: string;
            path: string;
            streamId: string;
            streamCreatedAt: components["schemas"]["Timestamp"];
        };
        /** @description One event (`type: event`), §9. */
        WebhookEvent: components["schemas"]["WebhookStream"] & {
            /** @constant */
            type: "event";
            subscriptionKey: string;
            cursorChangedAtSourceOffset: components["schemas"]["Offset"];
            /** @description Also `webhook-id`; identical on every retry: deduplicate on it. */
            deliveryId: string;
            attempt: number;
            event: components["schemas"]["Event"];
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "event";
        };
        /** @description Several events (`type: digest`): an aggregate flush or a threshold gate's hits (§8, §13). */
        WebhookDigest: components["schemas"]["WebhookStream"] & {
            /** @constant */
            type: "digest";
            subscriptionKey: string;
            cursorChangedAtSourceOffset: components["schemas"]["Offset"];
            deliveryId: string;
            attempt: number;
            events: components["schemas"]["Event"][];
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "digest";
        };
        /** @description An earlier delivery is retracted (`type: retracted`, §13): an `events-invalidated` named its event. */
        WebhookRetracted: components["schemas"]["WebhookStream"] & {
            /** @constant */
            type: "retracted";
            subscriptionKey: string;
            /** @description The retracted delivery's id. */
            deliveryId: string;
            offset: components["schemas"]["Offset"];
            invalidatedAtOffset: components["schemas"]["Offset"];
            reason?: string;
            attempt: number;
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "retracted";
        };
        WebhookBody: components["schemas"]["WebhookEvent"] | components["schemas"]["WebhookDigest"] | components["schemas"]["WebhookRetracted"];
        /** @description The payload of `events.iterate.com/stream/subscription-configured` (§5): configure or replace a subscription on this (source) stream. Validated before commit (422 naming `details.field`). */
        SubscriptionConfigured: {
            /** @description 1–256 bytes; default `subscription:<offset>`. `subscription:` and `connection:` are reserved. */
            subscriptionKey?: string;
            description?: string;
            filter?: {
                eventTypes?: string[];
                /** @description JSONata (≤ 4 KiB); an evaluation error is a failure of that event, never a non-match. */
                jsonataCondition?: string;
            };
            receiver: components["schemas"]["Receiver"];
        };
        Receiver: components["schemas"]["CopyToStreamReceiver"] | components["schemas"]["WebhookPostReceiver"] | components["schemas"]["ItxCallReceiver"] | components["schemas"]["ProcessorWakeReceiver"] | components["schemas"]["LogReceiver"];
        CopyToStreamReceiver: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            action: "copy-to-stream";
            receivingStreamPath: string;
            jsonataTransform?: string;
            delivery: {
                start: components["schemas"]["Start"];
                /**
                 * @description An ordered copy never skips.
                 * @constant
                 */
                onFailingEvent: "halt";
                retry?: components["schemas"]["Retry"];
            };
        };
        WebhookPostReceiver: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            action: "webhook-post";
            /** @description https; private, loopback and reserved hosts are refused unless the deployment sets ALLOW_INSECURE_WEBHOOKS. Or `{"secret": NAME}`: the URL is a project secret, resolved at each send and checked against the same rules (§9). */
            url: string | components["schemas"]["SecretRef"];
            /** @description Headers sent with every POST (§9): names are HTTP tokens of 1-64 bytes, not `webhook-*`, `host`, `content-*` or hop-by-hop; `authorization` only from a secret. A string value is 1024 bytes at most, of visible ASCII and spaces. */
            headers?: {
                [key: string]: string | components["schemas"]["SecretRef"];
            };
            jsonataTransform?: string;
            delivery: components["schemas"]["CallDelivery"] & {
                /** @description Headers and body; default 15000. */
                timeoutMs?: number;
            };
        };
        ItxCallReceiver: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            action: "itx-call";
            /** @description `["services", BINDING, METHOD]`. */
            expression: string[];
            jsonataTransform?: string;
            delivery: components["schemas"]["CallDelivery"];
        };
        ProcessorWakeReceiver: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            action: "processor-wake";
            /** @description `["processors", NAME, "wake"]`; NAME must be defined (422 `unknown_processor`). */
            expression: string[];
        };
        LogReceiver: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            action: "log";
            jsonataTransform?: string;
            delivery: {
                start: components["schemas"]["Start"];
                /** @enum {unknown} */
                onFailingEvent: "halt" | "skip";
            };
        };
        /**
         * @description Where a new subscription starts: the first retained event, or after the head.
         * @enum {unknown}
         */
        Start: "beginning" | "now";
        /** @description Backoff `min(maxBackoffMs, initialBackoffMs·2^n)` ±20% (defaults 15 attempts, 1 s, 30 min). */
        Retry: {
            maxAttempts?: number;
            initialBackoffMs?: number;
            maxBackoffMs?: number;
        };
        /** @description The delivery policies of itx-call and webhook-post (§8, §13); `onFailingEvent: halt` stops at a failing event until resumed, `skip` dead-letters it. */
        CallDelivery: {
            start: components["schemas"]["Start"];
            /** @enum {unknown} */
            onFailingEvent: "halt" | "skip";
            retry?: components["schemas"]["Retry"];
            throttle?: {
                maxDeliveries: number;
                windowMs: number;
            };
            aggregate?: {
                windowMs: number;
                maxBatch: number;
            };
            /** @description Deliveries remembered for retraction (§13). */
            journalDepth?: number;
            /** @description `{threshold: {count, windowMs}}` or `{maxOnce: {windowMs}}` (§13). */
            gate?: {
                threshold?: {
                    count: number;
                    windowMs: number;
                };
                maxOnce?: {
                    windowMs: number;
                };
            };
            /** @description skip mode only; not with aggregate or a gate. */
            concurrency?: number;
        };
        /** @description `events.iterate.com/stream/subscription-removed`. */
        SubscriptionRemoved: {
            subscriptionKey: string;
        };
        /** @description `events.iterate.com/stream/subscription-cursor-set`: deliver after `afterOffset` (at most the head, else 422 `cursor_beyond_head`). */
        SubscriptionCursorSet: {
            subscriptionKey: string;
            afterOffset: components["schemas"]["Offset"];
        };
        /** @description `events.iterate.com/stream/subscription-delivery-resumed`: clear a halt (409 `subscription_not_halted` if not halted). */
        SubscriptionDeliveryResumed: {
            subscriptionKey: string;
        };
        /** @description `events.iterate.com/stream/events-invalidated` (§13): events after `afterOffset`, or the listed `offsets`, are invalid; subscriptions retract what they delivered. */
        EventsInvalidated: {
            afterOffset?: components["schemas"]["Offset"];
            offsets?: components["schemas"]["Offset"][];
            reason?: string;
        };
        /** @description `events.iterate.com/stream/retention-configured` (§16): how much of the log the stream keeps. */
        RetentionConfigured: components["schemas"]["Retention"] & {
            maxAgeMs?: unknown;
            maxEvents?: unknown;
            maxBytes?: unknown;
            trimPastSubscribers?: unknown;
        };
        /** @description `events.iterate.com/stream/stream-closed` (§17, scope `append`): closes the stream; one-way, closing twice succeeds. `producer` is written by the protocol face when an idempotent producer closed it. */
        StreamClosed: {
            producer?: {
                producerId: string;
                epoch: number;
                seq: number;
            };
        };
        /** @description `events.iterate.com/stream/expiry-configured` (§17): `{}` never expires, `{ttlSeconds}` a sliding TTL, `{expiresAt}` an absolute instant. An expired stream is deleted as `DELETE` would. */
        ExpiryConfigured: Record<string, unknown> | {
            ttlSeconds: number;
        } | {
            expiresAt: string;
        };
    };
    responses: {
        /** @description 400: The request is malformed (§2). Codes: `invalid_path`, `invalid_request`, `invalid_query`, `invalid_parameter`, `malformed_json`, `invalid_batch`, `invalid_event`, `invalid_copy_batch`, `invalid_source_name`, `invalid_processor_name`, `invalid_secret_name`, `idempotency_key_required`, `invalid_producer_sequence`, `fork_offset_beyond_tail`, `invalid_fork_sub_offset`. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "invalid_path" | "invalid_request" | "invalid_query" | "invalid_parameter" | "malformed_json" | "invalid_batch" | "invalid_event" | "invalid_copy_batch" | "invalid_source_name" | "invalid_processor_name" | "invalid_secret_name" | "idempotency_key_required" | "invalid_producer_sequence" | "fork_offset_beyond_tail" | "invalid_fork_sub_offset";
                    };
                };
            };
        };
        /** @description 401: Missing or unknown bearer token; `WWW-Authenticate: Bearer` (§2). Codes: `unauthorized`. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
        };
        /** @description 403: The token may not do this, or the request uses what only the engine may (§2, §3 rule 4). Codes: `forbidden`, `reserved_idempotency_key`, `source_forbidden`, `trusted_only_type`, `forbidden_scope`, `stale_producer_epoch`. */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "forbidden" | "reserved_idempotency_key" | "source_forbidden" | "trusted_only_type" | "forbidden_scope" | "stale_producer_epoch";
                    };
                };
            };
        };
        /** @description 404: The URL names nothing. Codes: `route_not_found`, `not_found`, `stream_not_found`, `event_not_found`, `subscription_not_found`, `dead_letter_not_found`, `processor_not_found`, `source_not_found`, `secret_not_found`. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "route_not_found" | "not_found" | "stream_not_found" | "event_not_found" | "subscription_not_found" | "dead_letter_not_found" | "processor_not_found" | "source_not_found" | "secret_not_found";
                    };
                };
            };
        };
        /** @description 405: The route does not take this method. Codes: `method_not_allowed`. */
        MethodNotAllowed: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "method_not_allowed";
                    };
                };
            };
        };
        /** @description 409: Conflicts with the stream's state. Codes: `subscription_not_found`, `idempotency_key_reused`, `subscription_key_conflict`, `connection_key_conflict`, `stale_stamp`, `subscription_not_halted`, `processor_already_subscribed`, `processor_not_woken`, `no_replay_retracted`, `no_replay_invalidated`, `replay_check_too_long`, `stream_lifetime_ended`, `stream_closed`, `content_type_mismatch`, `stream_config_mismatch`, `stream_seq_conflict`, `producer_sequence_gap`, `stream_soft_deleted`. */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "subscription_not_found" | "idempotency_key_reused" | "subscription_key_conflict" | "connection_key_conflict" | "stale_stamp" | "subscription_not_halted" | "processor_already_subscribed" | "processor_not_woken" | "no_replay_retracted" | "no_replay_invalidated" | "replay_check_too_long" | "stream_lifetime_ended" | "stream_closed" | "content_type_mismatch" | "stream_config_mismatch" | "stream_seq_conflict" | "producer_sequence_gap" | "stream_soft_deleted";
                    };
                };
            };
        };
        /** @description 410: Retention trimmed what was asked for (§16), `details.firstOffset` the first retained offset; or the stream was deleted while forks still read it (§18, soft-deleted). Codes: `trimmed`, `stream_gone`. */
        Trimmed: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "trimmed" | "stream_gone";
                    };
                };
            };
        };
        /** @description 412: A source's target stream lifetime changed (§15). Codes: `stream_lifetime_changed`. */
        PreconditionFailed: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "stream_lifetime_changed";
                    };
                };
            };
        };
        /** @description 413: A body, batch or event past its limit (§3 rule 2, §12); `details.limitBytes`. Codes: `batch_too_large`, `body_too_large`, `source_too_large`, `event_too_large`, `event_too_deep`. */
        TooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "batch_too_large" | "body_too_large" | "source_too_large" | "event_too_large" | "event_too_deep";
                    };
                };
            };
        };
        /** @description 422: Well-formed, but refused by the rules; `details.field` names the field. Codes: `unknown_control_type`, `invalid_control_event`, `unknown_subscription`, `cursor_beyond_head`, `too_many_subscriptions`, `too_many_stream_subscriptions`, `reduced_state_too_large`, `inbound_fence_full`, `invalid_subscription`, `invalid_jsonata`, `invalid_processor`, `invalid_source`, `too_many_processors`, `too_many_sources`, `unknown_processor`, `invalid_secret`, `too_many_secrets`, `unknown_secret`, `reducer_failed`, `processor_state_too_large`, `jsonata_too_long`, `jsonata_syntax_error`, `jsonata_evaluation_error`. */
        Unprocessable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "unknown_control_type" | "invalid_control_event" | "unknown_subscription" | "cursor_beyond_head" | "too_many_subscriptions" | "too_many_stream_subscriptions" | "reduced_state_too_large" | "inbound_fence_full" | "invalid_subscription" | "invalid_jsonata" | "invalid_processor" | "invalid_source" | "too_many_processors" | "too_many_sources" | "unknown_processor" | "invalid_secret" | "too_many_secrets" | "unknown_secret" | "reducer_failed" | "processor_state_too_large" | "jsonata_too_long" | "jsonata_syntax_error" | "jsonata_evaluation_error";
                    };
                };
            };
        };
        /** @description 429: A per-stream count is spent (§12). Codes: `too_many_connections`, `too_many_waiters`, `too_many_producers`. */
        TooMany: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "too_many_connections" | "too_many_waiters" | "too_many_producers";
                    };
                };
            };
        };
        /** @description 500: An internal error, or a misconfigured `API_TOKENS`. Codes: `internal`, `misconfigured`. */
        ServerError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "internal" | "misconfigured";
                    };
                };
            };
        };
        /** @description 502: A processor, the project's secrets or a replay's receiver failed. Codes: `processor_unreachable`, `secrets_unreachable`, `replay_failed`. */
        BadGateway: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "processor_unreachable" | "secrets_unreachable" | "replay_failed";
                    };
                };
            };
        };
        /** @description 503: Not configured, or the directory is unavailable. Codes: `signing_not_configured`, `directory_unavailable`. */
        Unavailable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "signing_not_configured" | "directory_unavailable";
                    };
                };
            };
        };
        /** @description 507: The stream reached its storage budget (§16): appends are refused except `retention-configured` and `subscription-removed` (a retry of a committed append still answers its duplicate). Codes: `stream_full`. */
        StreamFull: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @enum {unknown} */
                        code?: "stream_full";
                    };
                };
            };
        };
    };
    parameters: {
        /**
         * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
         * @example openapi/example
         */
        StreamPath: string;
        /**
         * @description 1–256 bytes, percent-encoded.
         * @example hook
         */
        SubscriptionKey: string;
        /** @example 1 */
        DeadLetterId: number;
        /**
         * @description A processor name, percent-encoded.
         * @example totals
         */
        ProcessorName: string;
        /**
         * @description A secret name: 1-64 characters of `[A-Za-z0-9_.-]`.
         * @example ALERTS_WEBHOOK_URL
         */
        SecretName: string;
        /** @description The stream's content type (PROTOCOL §5.1); `application/json` is JSON mode. Compared by media type, parameters normalized. */
        ProtocolContentType: string;
        /** @description A sliding expiry in seconds (a non-negative integer, at most ten years); reads and writes renew it. With `Stream-Expires-At` 400. */
        StreamTtl: number;
        /** @description An absolute expiry (RFC 3339). With `Stream-TTL` 400. */
        StreamExpiresAt: string;
        /** @description `true` closes the stream (atomically with the body, if any); one-way. */
        StreamClosedRequest: "true";
        /** @description Page size (the route's default and maximum apply, §12). */
        Limit: number;
    };
    requestBodies: never;
    headers: {
        /** @description The stream's content type, fixed for its lifetime. */
        ProtocolContentType: string;
        /** @description Where to resume: `{16 digits}_{16 digits}`, the second part the native offset (§17). */
        StreamNextOffset: string;
        /** @description `true` when the answer reached the stream's tail. */
        StreamUpToDate: "true";
        /** @description `true` when the stream is closed (on reads: once the reader reached its end). */
        StreamClosed: "true";
        /** @description Echo as `cursor` on the next live read (PROTOCOL §10.1). */
        StreamCursor: string;
    };
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        openapi: "3.1.0";
                        info: Record<string, unknown>;
                        paths: Record<string, unknown>;
                    };
                };
            };
            405: components["responses"]["MethodNotAllowed"];
        };
    };
    listStreams: {
        parameters: {
            query?: {
                /** @description Only paths starting with this (e.g. `/app/`). */
                prefix?: string;
                /** @description The `nextAfter` of the previous page (a path). */
                after?: string;
                /** @description Page size (the route's default and maximum apply, §12). */
                limit?: components["parameters"]["Limit"];
                /** @description `exclude` (default): live streams only; `include`: soft-deleted streams too, in the same path order; `only`: soft-deleted streams only (§18). */
                softDeleted?: "exclude" | "include" | "only";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the catalog. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            503: components["responses"]["Unavailable"];
        };
    };
    getStream: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stream's current lifetime. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StreamInfo"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
        };
    };
    deleteStream: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Destroyed (also when it did not exist). */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    readEvents: {
        parameters: {
            query?: {
                /** @description Events after this offset (exclusive), or `earliest`; absent means from the first retained event. An offset before `firstOffset − 1` is 410 `trimmed`. */
                after?: number | "earliest";
                /** @description Page size (the route's default and maximum apply, §12). */
                limit?: components["parameters"]["Limit"];
                includeEphemeral?: boolean;
                /** @description Long-poll (§10) up to this many milliseconds (≤ 30000) when nothing is after `after`; then an empty page. */
                waitMs?: number;
            };
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of events. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            410: components["responses"]["Trimmed"];
            429: components["responses"]["TooMany"];
        };
    };
    appendEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InputEvent"] | components["schemas"]["AppendBatch"];
            };
        };
        responses: {
            /** @description Every event was already committed under its idempotency key (nothing new written). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppendResult"];
                };
            };
            /** @description Committed. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppendResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["TooLarge"];
            422: components["responses"]["Unprocessable"];
            502: components["responses"]["BadGateway"];
            507: components["responses"]["StreamFull"];
        };
    };
    readEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
                /** @example 1 */
                offset: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PointRead"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            410: components["responses"]["Trimmed"];
        };
    };
    getStreamMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text exposition (`# HELP`, `# TYPE`, samples). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
        };
    };
    getSubscriptionCard: {
        parameters: {
            query?: {
                /** @description The `nextInboundAfter` of the previous card. */
                inboundAfter?: string;
                inboundLimit?: number;
            };
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The card. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionCard"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
        };
    };
    getSigningSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
                /**
                 * @description 1–256 bytes, percent-encoded.
                 * @example hook
                 */
                subscriptionKey: components["parameters"]["SubscriptionKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        secret: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            503: components["responses"]["Unavailable"];
        };
    };
    subscribeFrom: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscribeFromRequest"];
            };
        };
        responses: {
            /** @description The configure event already existed (same idempotency key). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscribeFromResult"];
                };
            };
            /** @description Configured. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscribeFromResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["TooLarge"];
            422: components["responses"]["Unprocessable"];
        };
    };
    forkStream: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ForkRequest"];
            };
        };
        responses: {
            /** @description The fork exists as asked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StreamInfo"];
                };
            };
            /** @description Forked. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StreamInfo"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Trimmed"];
            413: components["responses"]["TooLarge"];
        };
    };
    listDeadLetters: {
        parameters: {
            query?: {
                subscriptionKey?: string;
                /** @description The `nextAfter` of the previous page (a dead-letter id). */
                after?: number;
                /** @description Page size (the route's default and maximum apply, §12). */
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeadLetterPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    discardDeadLetters: {
        parameters: {
            query?: {
                subscriptionKey?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description How many were discarded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        discarded: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    discardDeadLetter: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
                /** @example 1 */
                id: components["parameters"]["DeadLetterId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Discarded. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
        };
    };
    replayDeadLetter: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
                /** @example 1 */
                id: components["parameters"]["DeadLetterId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Delivered; the letter is gone. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            502: components["responses"]["BadGateway"];
        };
    };
    tailStream: {
        parameters: {
            query?: {
                /** @description Resume after this offset, or `earliest`. Before `firstOffset − 1` the connection answers 410 `trimmed`. */
                after?: number | "earliest";
                /** @description Comma-separated event types to receive. */
                types?: string;
                /** @description Names the connection on the debug card; a new connection with an open key replaces the old one. Default `connection:<random>`. */
                connectionKey?: string;
            };
            header?: {
                /** @description Sent by `EventSource` on reconnect; takes the place of `after`. */
                "Last-Event-ID"?: string;
            };
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description WebSocket upgrade. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An SSE stream. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Trimmed"];
            429: components["responses"]["TooMany"];
        };
    };
    getProcessorState: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
                /**
                 * @description A processor name, percent-encoded.
                 * @example totals
                 */
                name: components["parameters"]["ProcessorName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The instance's checkpoint and state. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProcessorState"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            502: components["responses"]["BadGateway"];
        };
    };
    readProtocolStream: {
        parameters: {
            query?: {
                /**
                 * @description `-1` (the start, the default), `now` (the tail), or a `Stream-Next-Offset` (`{16 digits}_{16 digits}`, the second part the native offset it follows). Malformed is 400; before the first retained offset 410 `trimmed`.
                 * @example 0000000000000000_0000000000000000
                 */
                offset?: string | ("-1" | "now");
                live?: "long-poll" | "sse";
                /** @description The last `Stream-Cursor` (PROTOCOL §10.1), for CDN request collapsing. */
                cursor?: string;
            };
            header?: {
                "If-None-Match"?: string;
            };
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Messages: the stream's content type (a JSON array in JSON mode), or `text/event-stream` for `live=sse`. */
            200: {
                headers: {
                    "Stream-Next-Offset": components["headers"]["StreamNextOffset"];
                    "Stream-Up-To-Date": components["headers"]["StreamUpToDate"];
                    "Stream-Closed": components["headers"]["StreamClosed"];
                    "Stream-Cursor": components["headers"]["StreamCursor"];
                    /** @description `"{streamId}:{from}:{to}[:c]"` (not on `offset=now` nor SSE). */
                    ETag?: string;
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                    "text/event-stream": string;
                };
            };
            /** @description A long-poll that waited out the timeout, or reached the end of a closed stream. */
            204: {
                headers: {
                    "Stream-Next-Offset": components["headers"]["StreamNextOffset"];
                    "Stream-Up-To-Date": components["headers"]["StreamUpToDate"];
                    "Stream-Cursor": components["headers"]["StreamCursor"];
                    "Stream-Closed": components["headers"]["StreamClosed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `If-None-Match` holds the page's `ETag`. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            410: components["responses"]["Trimmed"];
            429: components["responses"]["TooMany"];
        };
    };
    createProtocolStream: {
        parameters: {
            query?: never;
            header?: {
                /** @description The stream's content type (PROTOCOL §5.1); `application/json` is JSON mode. Compared by media type, parameters normalized. */
                "Content-Type"?: components["parameters"]["ProtocolContentType"];
                /** @description A sliding expiry in seconds (a non-negative integer, at most ten years); reads and writes renew it. With `Stream-Expires-At` 400. */
                "Stream-TTL"?: components["parameters"]["StreamTtl"];
                /** @description An absolute expiry (RFC 3339). With `Stream-TTL` 400. */
                "Stream-Expires-At"?: components["parameters"]["StreamExpiresAt"];
                /** @description `true` closes the stream (atomically with the body, if any); one-way. */
                "Stream-Closed"?: components["parameters"]["StreamClosedRequest"];
                /** @description The event type of the stream's messages (§17); default `message`. */
                "Tributary-Message-Type"?: string;
                /** @description Create a fork (§18, PROTOCOL §4.2) of the stream at this URL path (`/v1/stream/...`); `manage` on both paths. 404 when it does not exist, 410 when soft-deleted. */
                "Stream-Forked-From"?: string;
                /** @description The fork point (an offset of the source); default its tail; past it 400 `fork_offset_beyond_tail`. */
                "Stream-Fork-Offset"?: string;
                /** @description Refines the fork point past `Stream-Fork-Offset`: whole messages in JSON mode, bytes of the next message otherwise (400 `invalid_fork_sub_offset` past it). */
                "Stream-Fork-Sub-Offset"?: number;
            };
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "*/*": string;
            };
        };
        responses: {
            /** @description The stream exists as asked (nothing changed). */
            200: {
                headers: {
                    "Content-Type": components["headers"]["ProtocolContentType"];
                    "Stream-Next-Offset": components["headers"]["StreamNextOffset"];
                    "Stream-Closed": components["headers"]["StreamClosed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Created. */
            201: {
                headers: {
                    /** @description The stream's protocol URL. */
                    Location?: string;
                    "Content-Type": components["headers"]["ProtocolContentType"];
                    "Stream-Next-Offset": components["headers"]["StreamNextOffset"];
                    "Stream-Closed": components["headers"]["StreamClosed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Trimmed"];
            413: components["responses"]["TooLarge"];
            507: components["responses"]["StreamFull"];
        };
    };
    appendProtocolStream: {
        parameters: {
            query?: never;
            header?: {
                /** @description The stream's content type (PROTOCOL §5.1); `application/json` is JSON mode. Compared by media type, parameters normalized. */
                "Content-Type"?: components["parameters"]["ProtocolContentType"];
                /** @description `true` closes the stream (atomically with the body, if any); one-way. */
                "Stream-Closed"?: components["parameters"]["StreamClosedRequest"];
                /** @description A writer's sequence, compared as a string; strictly increasing per stream. */
                "Stream-Seq"?: string;
                /** @description An idempotent producer (PROTOCOL §5.2.1), 1–256 bytes. */
                "Producer-Id"?: string;
                "Producer-Epoch"?: number;
                "Producer-Seq"?: number;
            };
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "*/*": string;
            };
        };
        responses: {
            /** @description An idempotent producer's batch was accepted. */
            200: {
                headers: {
                    "Stream-Next-Offset": components["headers"]["StreamNextOffset"];
                    "Stream-Closed": components["headers"]["StreamClosed"];
                    /** @description The accepted epoch. */
                    "Producer-Epoch"?: number;
                    /** @description The accepted seq. */
                    "Producer-Seq"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Appended (or closed); for a producer, a duplicate (nothing written; `Producer-Seq` the highest accepted). */
            204: {
                headers: {
                    "Stream-Next-Offset": components["headers"]["StreamNextOffset"];
                    "Stream-Closed": components["headers"]["StreamClosed"];
                    "Producer-Epoch"?: number;
                    "Producer-Seq"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Trimmed"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            507: components["responses"]["StreamFull"];
        };
    };
    deleteProtocolStream: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            410: components["responses"]["Trimmed"];
        };
    };
    preflightProtocolStream: {
        parameters: {
            query?: never;
            header?: {
                Origin?: string;
                "Access-Control-Request-Method"?: string;
            };
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The preflight's answer. */
            204: {
                headers: {
                    "Access-Control-Allow-Origin"?: string;
                    "Access-Control-Allow-Methods"?: string;
                    "Access-Control-Allow-Headers"?: string;
                    "Access-Control-Max-Age"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            500: components["responses"]["ServerError"];
        };
    };
    headProtocolStream: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stream path without its leading `/` (§2): 1–16 `/`-separated segments of `[A-Za-z0-9._~-]`, written as they are (`app/orders`; `%2F` is 400 `invalid_path`); a segment is never `-`, `.` or `..`; at most 512 bytes with the `/`.
                 * @example openapi/example
                 */
                path: components["parameters"]["StreamPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stream exists. `Cache-Control: no-store`. */
            200: {
                headers: {
                    "Content-Type": components["headers"]["ProtocolContentType"];
                    "Stream-Next-Offset": components["headers"]["StreamNextOffset"];
                    "Stream-Closed": components["headers"]["StreamClosed"];
                    /** @description The sliding TTL in seconds, when set. */
                    "Stream-TTL"?: number;
                    /** @description The absolute expiry (RFC 3339), when set. */
                    "Stream-Expires-At"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or unknown bearer token (no body on `HEAD`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Outside the token's scope (no body on `HEAD`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No stream at this path (no body on `HEAD`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Soft-deleted: forks still read it (§18; no body on `HEAD`). */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    listProcessors: {
        parameters: {
            query?: {
                after?: string;
                /** @description Page size (the route's default and maximum apply, §12). */
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProcessorPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
        };
    };
    getProcessor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A processor name, percent-encoded.
                 * @example totals
                 */
                name: components["parameters"]["ProcessorName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The definition. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProcessorDefinition"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    putProcessor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A processor name, percent-encoded.
                 * @example totals
                 */
                name: components["parameters"]["ProcessorName"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProcessorDefinitionBody"];
            };
        };
        responses: {
            /** @description The stored definition. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProcessorDefinition"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["TooLarge"];
            422: components["responses"]["Unprocessable"];
        };
    };
    deleteProcessor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A processor name, percent-encoded.
                 * @example totals
                 */
                name: components["parameters"]["ProcessorName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    listSecrets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every secret, by name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SecretList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
        };
    };
    putSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A secret name: 1-64 characters of `[A-Za-z0-9_.-]`.
                 * @example ALERTS_WEBHOOK_URL
                 */
                name: components["parameters"]["SecretName"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SecretValue"];
            };
        };
        responses: {
            /** @description The secret's name and version. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SecretSummary"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["TooLarge"];
            422: components["responses"]["Unprocessable"];
        };
    };
    deleteSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A secret name: 1-64 characters of `[A-Za-z0-9_.-]`.
                 * @example ALERTS_WEBHOOK_URL
                 */
                name: components["parameters"]["SecretName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    listSources: {
        parameters: {
            query?: {
                after?: string;
                /** @description Page size (the route's default and maximum apply, §12). */
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SourcePage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
        };
    };
    getSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description 1–64 characters of `[A-Za-z0-9._-]` (§15).
                 * @example usdc.transfers
                 */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SourceStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    putSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description 1–64 characters of `[A-Za-z0-9._-]` (§15).
                 * @example usdc.transfers
                 */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SourceConfig"];
            };
        };
        responses: {
            /** @description Replaced; the source's status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SourceStatus"];
                };
            };
            /** @description Created; the source's status. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SourceStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["TooLarge"];
            422: components["responses"]["Unprocessable"];
        };
    };
    deleteSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description 1–64 characters of `[A-Za-z0-9._-]` (§15).
                 * @example usdc.transfers
                 */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    getToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The token's project, scopes and prefix (null: every stream of the project). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        project: string;
                        scopes: ("read" | "append" | "manage")[];
                        prefix: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
        };
    };
    getProjectMetrics: {
        parameters: {
            query?: {
                /** @description Only streams whose path starts with this. */
                prefix?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Prometheus text exposition format (version 0.0.4). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
        };
    };
    evaluateJsonata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    expression: string;
                    input?: unknown;
                    bindings?: Record<string, unknown>;
                };
            };
        };
        responses: {
            /** @description The result (absent when the expression yields nothing). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        result?: unknown;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["TooLarge"];
            422: components["responses"]["Unprocessable"];
        };
    };
}
