//! Every limit of docs/design.md §12, in one place.

/// Largest serialized JSON of one event (§3 rule 2).
pub const MAX_EVENT_BYTES: usize = 256 * 1024;
/// Deepest JSON nesting inside one event (§3 rule 2); the event object is depth 1.
pub const MAX_EVENT_DEPTH: usize = 64;
/// Most events in one batch append (§3 rule 2).
pub const MAX_APPEND_BATCH_EVENTS: usize = 1000;
/// Largest request body of a batch append (§3 rule 2).
pub const MAX_APPEND_BATCH_BYTES: usize = 2 * 1024 * 1024;
/// Longest stream path in bytes (§2).
pub const MAX_PATH_BYTES: usize = 512;
/// Most segments in a stream path (§2).
pub const MAX_PATH_SEGMENTS: usize = 16;
/// Longest event type in bytes (§3 rule 1).
pub const MAX_TYPE_BYTES: usize = 256;
/// Longest idempotency key in bytes (§3 rule 4).
pub const MAX_IDEMPOTENCY_KEY_BYTES: usize = 256;
/// How often an engine fact moves to another key when its own is held by
/// an event that is not that fact (§2: no engine append fails forever on
/// its own key; `stream::facts`); past it the fact is appended keyless.
pub const ENGINE_FACT_KEY_MOVES: usize = 2;
/// Longest subscription key in bytes (§5).
pub const MAX_SUBSCRIPTION_KEY_BYTES: usize = 256;
/// Most subscriptions from one source stream to one receiving stream (§5).
pub const MAX_SUBSCRIPTIONS_PER_RECEIVER: usize = 64;
/// Most durable subscriptions on one stream in all (§5, §12), whatever their
/// receivers: one batch's events fan out to at most this many deliveries.
/// Checked when configuring, before commit (422 `too_many_stream_subscriptions`).
pub const MAX_STREAM_SUBSCRIPTIONS: usize = 128;
/// Largest retained reduced state, serialized (§5).
pub const MAX_REDUCED_STATE_BYTES: usize = 256 * 1024;
/// Longest copy chain (§7).
pub const MAX_COPY_HOPS: usize = 5;
/// Longest JSONata expression (§5).
pub const MAX_JSONATA_BYTES: usize = 4 * 1024;
/// Range reads: default and largest page (§3).
pub const DEFAULT_READ_LIMIT: u64 = 100;
pub const MAX_READ_LIMIT: u64 = 1000;
/// Most bytes of events one range read loads into memory (§12): a page of
/// 1000 events of 256 KiB ends early; `nextAfter` says where.
pub const MAX_READ_BYTES: usize = 4 * 1024 * 1024;
/// A range read's page is concatenated by SQLite in chunks of about this
/// many bytes of event JSON (a chunk's upper bound plus one event stays
/// below [`SQL_VALUE_LIMIT_BYTES`]).
pub const PAGE_CHUNK_BYTES: u64 = 1024 * 1024;
/// The platform's limit on one SQLite string or BLOB, a statement's
/// intermediate values included (Durable Objects: 2 MB; a value past it
/// fails its statement with `SQLITE_TOOBIG` and nothing else). The native
/// driver sets it too, so the tests fail where an object would.
pub const SQL_VALUE_LIMIT_BYTES: i32 = 2_000_000;
/// Fence records a receiving stream keeps for copies it received (§5
/// inbound, §7 rule 2): one row of `inbound_fences` per
/// `(sourcePath, subscriptionKey)`, outside the reduced-state document, so
/// 10,000 sources fit many times over. A copy from a new pair past this many
/// is refused (422 `inbound_fence_full`, before commit): a bounded table.
pub const MAX_INBOUND_FENCE_RECORDS: u64 = 100_000;
/// Inbound fence records on one page of the debug card (§11, `inboundLimit`),
/// and the first page stream info shows beside their count: default, largest.
pub const DEFAULT_INBOUND_FENCE_PAGE: u64 = 100;
pub const MAX_INBOUND_FENCE_PAGE: u64 = 1000;

// Delivery (§6, §8, §9, §12).

/// Largest delivery batch of a copy or itx call (§6 rule 2).
pub const MAX_DELIVERY_BATCH_EVENTS: usize = 100;
/// Events one copy-to-stream batch carries at most (§7): one append batch
/// ([`MAX_APPEND_BATCH_EVENTS`]), within [`MAX_DELIVERY_BATCH_BYTES`].
pub const MAX_COPY_BATCH_EVENTS: usize = MAX_APPEND_BATCH_EVENTS;
pub const MAX_DELIVERY_BATCH_BYTES: usize = 1024 * 1024;
/// Rows one subscription scans in one engine call (§12): the scanned
/// position is persisted, so a selective filter over a long log still moves.
pub const MAX_SCAN_ROWS: u64 = 10_000;
/// Rows read from SQLite per page while scanning (bounded in bytes too, by
/// [`MAX_READ_BYTES`]).
pub const SCAN_PAGE_ROWS: u64 = 200;
/// Bytes of event rows one planning pass keeps to share between scans at
/// the same cursor (§12); the oldest page kept goes first.
pub const SHARED_READ_BYTES: usize = 1024 * 1024;
/// Bytes of durable event rows a stream keeps read ahead of its delivery
/// scans (§12), between planning passes: a webhook's scan reads one event
/// per delivery, and ten subscriptions read the same rows.
pub const READ_AHEAD_BYTES: usize = 64 * 1024;
/// Rows one read ahead asks for at most (within [`READ_AHEAD_BYTES`]).
pub const READ_AHEAD_ROWS: u64 = 64;
/// Pages one planning pass keeps to share (§12): a lookup reads at most
/// this many.
pub const SHARED_READ_PAGES: usize = 64;
/// Rows per page while rebuilding the reduced state from the log (§5):
/// control events and copies are small (≤ 256 KiB each); 64 of them bound
/// a rebuild page to 16 MiB at worst.
pub const FOLD_PAGE_ROWS: u64 = 64;
/// Most parameters one SQL statement may bind: the Durable Object SQLite
/// limit (developers.cloudflare.com/durable-objects/platform/limits/,
/// "Maximum bound parameters per query"; §1: one SQL dialect, so the native
/// driver keeps to it too). A multi-row insert carries at most this many
/// values.
pub const MAX_SQL_PARAMETERS: usize = 100;
/// Most one statement's answer carries back across the instance's boundary
/// (§12): its rows' values, and their strings' and blobs' bytes. A driver
/// refuses a larger answer before allocating for it (an allocation that
/// fails aborts every object of the isolate). The engine's largest answers
/// are a range read's pages, at most [`MAX_READ_BYTES`] of events in at
/// most [`MAX_READ_LIMIT`] rows; the native driver keeps to the same caps,
/// so a query past them fails in the tests as it would in an object.
pub const MAX_SQL_ANSWER_VALUES: usize = 1 << 19;
pub const MAX_SQL_ANSWER_BYTES: usize = 8 * MAX_READ_BYTES;
/// Longest webhook `receiver.url` (§9).
pub const MAX_WEBHOOK_URL_BYTES: usize = 2048;
/// An itx `expression` (§9): 1 to this many non-empty strings of at most
/// [`MAX_ITX_EXPRESSION_ITEM_BYTES`] each.
pub const MAX_ITX_EXPRESSION_ITEMS: usize = 8;
pub const MAX_ITX_EXPRESSION_ITEM_BYTES: usize = 256;
/// Default and largest webhook timeout, covering headers and body (§9, §12).
pub const DEFAULT_WEBHOOK_TIMEOUT_MS: u64 = 15_000;
pub const MAX_WEBHOOK_TIMEOUT_MS: u64 = 30_000;
/// Most bytes of a webhook response body read (§12); the rest is dropped.
pub const MAX_WEBHOOK_RESPONSE_BYTES: usize = 64 * 1024;
/// Receiver headers and secrets (§9 "Receiver secrets and headers", §12):
/// most `receiver.headers` on one webhook, the longest header name, and the
/// longest header value written as a string (a value from a secret is
/// bounded by [`MAX_SECRET_VALUE_BYTES`]).
pub const MAX_WEBHOOK_HEADERS: usize = 16;
pub const MAX_WEBHOOK_HEADER_NAME_BYTES: usize = 64;
pub const MAX_WEBHOOK_HEADER_VALUE_BYTES: usize = 1024;
/// Project secrets (§9, §12): longest name, largest value, most per project.
pub const MAX_SECRET_NAME_BYTES: usize = 64;
pub const MAX_SECRET_VALUE_BYTES: usize = 4096;
pub const MAX_SECRETS_PER_PROJECT: usize = 100;
/// Largest `PUT /v1/secrets/{name}` body: the largest value written with
/// every byte escaped (`\u00XX`, 6 bytes) and room for the envelope.
pub const MAX_SECRET_BODY_BYTES: usize = 6 * MAX_SECRET_VALUE_BYTES + 1024;
/// Secrets one resolution asks the project for (§9): a webhook names at
/// most its URL and every header; the router's configure-time check asks
/// for at most a project's worth (past it a name cannot exist).
pub const MAX_RESOLVED_SECRETS: usize = MAX_SECRETS_PER_PROJECT;
/// Shortest part of a secret's value redacted on its own (the token of
/// `Bearer <token>`, a URL's host, path segment or query value), besides
/// the whole value: shorter parts would blank ordinary words of a message.
pub const MIN_REDACTED_PART_BYTES: usize = 8;
/// Deadline of one itx-call or copy send (§12).
pub const SEND_TIMEOUT_MS: u64 = 30_000;
/// Grace added to a send's own timeout before its in-flight deadline counts
/// it as lost (§6 rule 6): the shell's timer fires first.
pub const IN_FLIGHT_GRACE_MS: i64 = 5_000;
/// One alarm turn plans new sends for at most this long (§12); sends still
/// running finish under their own deadlines, and due work re-arms the alarm.
pub const ALARM_TURN_MS: i64 = 20_000;
/// How long a delivery turn runs before it lets waiting requests in (a
/// macrotask boundary), so a long catch-up never starves appends and reads.
pub const ALARM_YIELD_EVERY_MS: i64 = 50;
/// Completions a delivery turn takes between two yields (§12 "one alarm
/// turn's synchronous work"), whatever the clock says: completions that need
/// no I/O (log lines, prepared failures, dead letters of a failing filter)
/// do not move the Workers clock, so [`ALARM_YIELD_EVERY_MS`] alone would
/// let them run to [`MAX_ALARM_COMPLETIONS`] in one synchronous stretch.
pub const ALARM_YIELD_EVERY_COMPLETIONS: u32 = 64;
/// Offsets the plans of a delivery turn may cover between two yields (§12):
/// a plan scans at most [`MAX_SCAN_ROWS`] of them, so a turn of selective
/// filters yields after about one full scan's worth.
pub const ALARM_YIELD_EVERY_ROWS: u64 = MAX_SCAN_ROWS;
/// Sends one alarm turn completes before re-arming for the rest.
pub const MAX_ALARM_COMPLETIONS: u32 = 10_000;
/// What one invocation may write to its log (§12 "log receiver", §15.1):
/// Workers Logs captures 256 KB of log output per invocation and drops the
/// rest, and an alarm is one invocation. The log receiver's lines and the
/// alarm's own structured logs of its turn (§11) are charged against this
/// budget as they are written, each line at its length as a JSON string
/// (quotes and backslashes escaped: the form the platform keeps it in). The
/// margin (56 KiB) is for what the turn does not count: the request
/// metadata the platform records, and the few lines an alarm logs outside
/// its turn (a failed catalog sync or metrics report, a failed alarm). A
/// log batch is cut to the lines that fit; the rest waits for the next
/// alarm; a single line costing more than this is never written (§15.1:
/// dead-lettered in `skip` mode, a halt in `halt` mode).
pub const INVOCATION_LOG_BYTES: usize = 200 * 1024;
// A log batch within the log budget is within the batch byte limit too
// (a line is longer than its event).
const _: () = assert!(INVOCATION_LOG_BYTES < MAX_DELIVERY_BATCH_BYTES);
/// Completions one alarm's delivery loop takes at most: its turn plans
/// nothing after [`MAX_ALARM_COMPLETIONS`], and then at most
/// [`MAX_DELIVERY_CONCURRENCY`] sends per subscription
/// ([`MAX_STREAM_SUBSCRIPTIONS`]) are still in flight.
pub const MAX_TURN_ROUNDS: usize =
    MAX_ALARM_COMPLETIONS as usize + MAX_STREAM_SUBSCRIPTIONS * MAX_DELIVERY_CONCURRENCY as usize;
/// Largest `delivery.concurrency` (§8): single-event deliveries one
/// itx-call or webhook-post subscription in `skip` mode has in flight at
/// once. (Deployed, one invocation opens at most 6 connections at a time;
/// further fetches queue inside the platform, their timeouts running.)
pub const MAX_DELIVERY_CONCURRENCY: u64 = 32;
/// How far past its cursor a concurrent subscription plans (§8
/// `concurrency`, §12): the window of offsets between the cursor and the
/// last one planned. Deliveries completed ahead of a stuck event wait in it
/// (persisted, so a crash does not repeat them); past this span nothing new
/// is planned until the stuck event is delivered or dead-lettered.
pub const MAX_CONCURRENT_WINDOW_OFFSETS: u64 = 1_024;
/// Rows a concurrent subscription's scan reads in its first page (§8
/// `concurrency`, §12): it wants one event, so it reads a few; each further
/// page (a filter passing over more) reads twice as many, up to
/// [`SCAN_PAGE_ROWS`].
pub const WINDOW_FIRST_PAGE_ROWS: u64 = 4;
/// Subrequests one alarm turn may make (the platform allows 1000 per
/// invocation; the rest is headroom for the catalog and the unexpected). A
/// copy, webhook or itx send is one; a processor delivery is up to three
/// (definition, wake, fold). Past it, the alarm re-arms for the rest.
pub const MAX_ALARM_SUBREQUESTS: u32 = 900;
/// Retry of an alarm whose own bookkeeping failed (storage error, failed
/// open): never leave a stream without an alarm (§6 rule 1).
pub const ALARM_RETRY_MS: i64 = 5_000;
/// A dead-letter replay request: attempts spaced by the backoff, each wait at
/// most 1 s, all within 10 s (§8).
pub const REPLAY_BUDGET_MS: i64 = 10_000;
pub const REPLAY_MAX_WAIT_MS: i64 = 1_000;
/// A replay first checks that no `events-invalidated` after the letter's
/// event names it (§8, §13): it reads at most this many invalidations, in
/// pages; past it the replay is refused (409 `replay_check_too_long`).
pub const MAX_REPLAY_INVALIDATIONS_CHECKED: u64 = 10_000;
pub const REPLAY_INVALIDATION_PAGE: u64 = 200;
/// `GET .../-/dead-letters` pages: default and largest `limit` (§8).
pub const DEFAULT_DEAD_LETTER_PAGE: u64 = 100;
pub const MAX_DEAD_LETTER_PAGE: u64 = 1000;
/// Largest aggregate window and batch (§8).
pub const MAX_AGGREGATE_WINDOW_MS: u64 = 86_400_000;
pub const MAX_AGGREGATE_BATCH: u64 = 10_000;
/// Longest `lastError` kept on a runtime row.
pub const MAX_ERROR_CHARS: usize = 512;
/// Longest excerpt of a receiver's answer (or of a value) quoted in an error
/// message (§6, §9): a webhook's body, a receiving stream's or processor's
/// answer, an RPC error. Cut with [`crate::text::excerpt`].
pub const MAX_ERROR_EXCERPT_CHARS: usize = 200;
/// Longest excerpt of an unknown field or parameter name quoted in a 400 or
/// 422 (§2): cut with [`crate::text::name_excerpt`].
pub const MAX_NAME_EXCERPT_CHARS: usize = 64;
/// Longest excerpt of an SQL statement named in a storage decode error: cut
/// with [`crate::text::query_excerpt`].
pub const MAX_QUERY_EXCERPT_CHARS: usize = 80;
/// The retry policy a subscription gets without `delivery.retry` (§6 rule 5):
/// 15 attempts, the first wait 1 s, doubling to at most 30 min.
pub const DEFAULT_RETRY_MAX_ATTEMPTS: u64 = 15;
pub const DEFAULT_RETRY_INITIAL_BACKOFF_MS: u64 = 1_000;
pub const DEFAULT_RETRY_MAX_BACKOFF_MS: u64 = 30 * 60 * 1_000;
/// Largest `delivery.retry.maxAttempts` (§6 rule 5).
pub const MAX_RETRY_ATTEMPTS: u64 = 1_000;
/// Longest `Retry-After` a webhook's answer is honoured for (§9): a longer
/// one (seconds or an HTTP date) counts as one day.
pub const MAX_RETRY_AFTER_MS: i64 = 86_400_000;
/// Subrequests one send costs against [`MAX_ALARM_SUBREQUESTS`]: a copy,
/// webhook or itx send is one; a processor delivery is three (definition,
/// wake, fold; §9).
pub const SEND_SUBREQUESTS: u32 = 1;
pub const PROCESSOR_DELIVERY_SUBREQUESTS: u32 = 3;
/// A webhook whose URL or headers name secrets (§9) is two: the
/// resolution at the project object, then the POST.
pub const SECRET_WEBHOOK_SUBREQUESTS: u32 = 2;
/// Shortest deadline one dead-letter replay attempt gets (§8), even when
/// less than this is left of [`REPLAY_BUDGET_MS`].
pub const REPLAY_MIN_ATTEMPT_TIMEOUT_MS: u64 = 1_000;
/// Samples of completion latency and delivery duration a stream keeps for
/// its debug card's percentiles (§6, §11); older ones are dropped.
pub const DELIVERY_STATS_SAMPLES: usize = 1024;

// Live connections (§10, §12).

/// Open live connections per stream; one more is 429.
pub const MAX_LIVE_CONNECTIONS: usize = 1000;
/// A connection's unsent (SSE) or unacknowledged (WebSocket) bytes; past it
/// the connection is closed with `slow_consumer` and resumes from its offset.
pub const MAX_LIVE_BACKLOG_BYTES: usize = 1024 * 1024;
/// Unacknowledged frames a WebSocket's record keeps (§10): the backlog limit
/// closes a connection long before; past it the oldest is dropped.
pub const MAX_UNACKNOWLEDGED_FRAMES: usize = 4096;
/// Longest `connectionKey` (§10).
pub const MAX_CONNECTION_KEY_BYTES: usize = 256;
/// Longest `types` filter of a connection, all names together (it lives in
/// the WebSocket attachment, which holds 2 KiB).
pub const MAX_LIVE_TYPES_BYTES: usize = 1024;
/// One catch-up page read for a live connection (bounded in bytes by
/// [`MAX_READ_BYTES`] too).
pub const LIVE_PAGE_EVENTS: u64 = 1000;
/// Catch-up pages one call reads for one connection (§10, §12): a filtered
/// catch-up persists its scanned position after these and continues on the
/// next turn (WebSocket) or the client's reconnect (SSE, `Last-Event-ID`).
pub const LIVE_CATCH_UP_PAGES: usize = 16;
/// Sends a WebSocket's saved record (its attachment) may lag behind (§10):
/// fan-out is driven by commits, so a woken object never resends from a stale
/// record; only the connection's counters may lag by that much. (A catch-up
/// saves the record after every step: it resumes from the saved position.)
pub const LIVE_PERSIST_EVERY_SENDS: u32 = 32;
/// Acknowledgement coalescing (§10, §12). A WebSocket client need send an
/// ack only once it has received this much since its last one (the
/// README's advice: one sixteenth of [`MAX_LIVE_BACKLOG_BYTES`], so a client
/// that follows it is never closed as slow for what it holds unacknowledged
/// itself). The server keeps every ack in memory, and saves a caught-up
/// connection's record into its attachment only when acks moved its
/// acknowledged bytes by this much since the last save.
pub const LIVE_ACK_WINDOW_BYTES: usize = 64 * 1024;
/// WebSockets whose catch-up one alarm turn continues without an ack (§10);
/// the rest wait for the next turn (the alarm re-arms at once).
pub const LIVE_CATCH_UP_SOCKETS_PER_TURN: usize = 4;
/// What all SSE responses of one stream may hold unsent together (§10,
/// §12): each catch-up gets at most what is left of it (and at most
/// [`MAX_LIVE_BACKLOG_BYTES`]); with nothing left a catch-up sends only its
/// position and ends, and its client retries after `retry:`.
pub const MAX_LIVE_SSE_PINNED_BYTES: usize = 16 * 1024 * 1024;
/// SSE: a comment heartbeat at least this often, and a stream's longest life.
pub const SSE_HEARTBEAT_MS: u64 = 15_000;
pub const SSE_MAX_LIFETIME_MS: u64 = 5 * 60 * 1000;
/// SSE: the reconnect delay the server asks clients for (`retry:`).
pub const SSE_RETRY_MS: u64 = 250;
/// Long-poll: the longest `waitMs` (§10).
pub const MAX_WAIT_MS: u64 = 30_000;
/// Long-poll: the most times one request waits again after a commit that
/// brought nothing it shows (ephemeral events), before it answers 500 (§10).
pub const MAX_LONG_POLL_WAKES: usize = 1000;
/// Long-polls waiting on one stream at once (§10, §12); one more is 429
/// `too_many_waiters`. A waiter leaves at its answer or its timeout.
pub const MAX_LONG_POLL_WAITERS: usize = 1000;

// Retraction and gates (§13, §12).

/// Offsets one `events-invalidated {offsets}` may list.
pub const MAX_INVALIDATED_OFFSETS: usize = 1000;
/// Longest `reason` of an invalidation.
pub const MAX_REASON_BYTES: usize = 256;
/// Local copies one copied invalidation may name on a receiving stream
/// (in events of at most [`MAX_INVALIDATED_OFFSETS`]).
pub const MAX_PROPAGATED_INVALIDATIONS: u64 = 10_000;
/// Earlier invalidations of a receiving stream (the latest ones) checked
/// before it derives one from a copied invalidation, so a copy already named
/// — by another route's or another hop's invalidation of the same source
/// event — is not named, and retracted, again (§13 "Copies and invalidation
/// order"); read [`OVERLAP_CHECK_PAGE`] at a time.
pub const MAX_OVERLAP_CHECKED_INVALIDATIONS: u64 = 1000;
pub const OVERLAP_CHECK_PAGE: u64 = 100;
/// Delivery journal depth: default and largest (`delivery.journalDepth`).
pub const DEFAULT_JOURNAL_DEPTH: u64 = 1024;
pub const MAX_JOURNAL_DEPTH: u64 = 100_000;
/// Journal rows read per page when finding the deliveries an invalidation
/// retracts (§13), and the most pages one search reads (more than
/// [`MAX_JOURNAL_DEPTH`] rows, so a search ends by running out of rows).
pub const JOURNAL_PAGE_ROWS: u64 = 1000;
pub const MAX_JOURNAL_PAGES: usize = 1000;
const _: () = assert!(JOURNAL_PAGE_ROWS * MAX_JOURNAL_PAGES as u64 >= MAX_JOURNAL_DEPTH);
/// A subscription's oldest journal offsets read at once and kept in memory
/// for the prunes that follow (`delivery/journal_heads.rs`): 512 bytes a
/// subscription at most. A prune of more rows than this deletes them as
/// it finds them, in one statement.
pub const JOURNAL_HEAD_ROWS: u64 = 64;

// Hosted processors (§9, §12).

/// Largest processor state, serialized; a reducer producing more fails on
/// that event.
pub const MAX_PROCESSOR_STATE_BYTES: usize = 256 * 1024;
/// Longest processor name.
pub const MAX_PROCESSOR_NAME_BYTES: usize = 64;
/// Longest processor `description` (§9).
pub const MAX_PROCESSOR_DESCRIPTION_BYTES: usize = 1024;
/// Processor definitions one project may hold (§9, §12): counted in SQL at
/// each new PUT; one more is 422 `too_many_processors`.
pub const MAX_PROCESSORS_PER_PROJECT: usize = 1000;
/// `GET /v1/processors` pages: default and largest `limit` (§9).
pub const DEFAULT_PROCESSOR_PAGE: u64 = 100;
pub const MAX_PROCESSOR_PAGE: u64 = 1000;

// Project catalog (§14).

/// `GET /v1/streams` pages: default and largest `limit` (§14).
pub const DEFAULT_CATALOG_PAGE: u64 = 100;
pub const MAX_CATALOG_PAGE: u64 = 1000;

/// Offsets and counters stay below 2^53 so they survive the JS boundary (§1).
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

// JSONata (§12)
/// Deepest JSONata evaluation stack (raises JSONata `D1011`).
pub const MAX_EVAL_STACK_DEPTH: usize = 200;
/// Most JSONata evaluation steps (nodes evaluated, loop iterations, range
/// items) one evaluation may take (raises `U1001`): a count, not a clock, since
/// the Workers clock does not advance during synchronous execution.
pub const MAX_JSONATA_STEPS: u64 = 100_000;
/// Largest value one JSONata evaluation may build (raises `U1004`), in
/// accounted bytes: a string's UTF-8 length, 8 per array item, 32 per object
/// entry; a result's JSON text too. Four times an event (256 KiB), the size of
/// a delivery batch: a filter or transform may assemble a batch-sized
/// intermediate, never more. Checked before allocating wherever an argument
/// drives the size (`$pad`, `$join`, `$string`, `&`, `$replace`, ranges).
pub const MAX_JSONATA_VALUE_BYTES: u64 = 1024 * 1024;
/// Most bytes one JSONata evaluation may allocate in all, the sum of every
/// value it builds (raises `U1005`): 16 largest values, a bounded share of
/// the 128 MB isolate that every stream in it shares.
pub const MAX_JSONATA_ALLOC_BYTES: u64 = 16 * 1024 * 1024;
/// Deepest result a JSONata evaluation may return (raises `U1004`): deeper
/// values cannot be turned into JSON without exhausting the wasm stack.
pub const MAX_JSONATA_RESULT_DEPTH: usize = MAX_EVAL_STACK_DEPTH;
/// Most JSONata steps one engine call spends (§12 "JSONata per engine
/// call"): one subscription's scan in one `plan_delivery` (filters and
/// transforms), one processor fold. Past it the scan persists its position
/// and the work continues next turn; the event that ran out of it is
/// retried, not failed. At least one evaluation's budget, so a call always
/// progresses.
pub const MAX_JSONATA_STEPS_PER_CALL: u64 = 1_000_000;
const _: () = assert!(MAX_JSONATA_STEPS_PER_CALL >= MAX_JSONATA_STEPS);

// Sources (§15)

/// RPC calls one source makes in one alarm run (§12); more work re-arms the alarm.
pub const MAX_SOURCE_RPC_CALLS_PER_RUN: u32 = 40;
/// Matching logs one source appends in one alarm run before re-arming (a
/// range read may overshoot by one response).
pub const MAX_SOURCE_LOGS_PER_RUN: u64 = 10_000;
/// Deadline of one JSON-RPC exchange, headers and body.
pub const SOURCE_RPC_TIMEOUT_MS: u64 = 10_000;
/// Largest JSON-RPC response body read (it is parsed in memory, in an
/// isolate of 128 MB); a larger `eth_getLogs` answer halves its range.
pub const MAX_SOURCE_RPC_RESPONSE_BYTES: usize = 8 * 1024 * 1024;
/// Logs one `eth_getLogs` answer may carry before its block range is halved.
pub const MAX_SOURCE_LOGS_PER_CALL: usize = 10_000;
/// Finalized blocks read by one `eth_getLogs` range: the first range, and the most it grows to.
pub const SOURCE_LOG_RANGE_BLOCKS: u64 = 500;
pub const MAX_SOURCE_LOG_RANGE_BLOCKS: u64 = 2_000;
/// One source append: at most this many events and bytes (under the batch
/// limits, and under a Durable Object SQLite row, since an unfinalized
/// block's batch is written ahead of its append).
pub const MAX_SOURCE_APPEND_EVENTS: usize = 1000;
pub const MAX_SOURCE_APPEND_BYTES: usize = 1024 * 1024;
/// Backoff after failed runs (§15 "Failures"): 1 s doubling to 5 min, ±20%
/// jitter; an RPC node's `Retry-After` is honoured up to the same 5 min.
pub const SOURCE_BACKOFF_INITIAL_MS: u64 = 1_000;
pub const SOURCE_BACKOFF_MAX_MS: u64 = 5 * 60 * 1000;
/// RPC calls an ancestor search may need over the largest window (§15
/// "Reorg → invalidation": gallop, then bisect, then the floor): a search starts
/// only with this many calls of the run left, else the run re-arms first.
pub const SOURCE_SEARCH_CALLS: u32 = 24;
const _: () = assert!(SOURCE_SEARCH_CALLS <= MAX_SOURCE_RPC_CALLS_PER_RUN);
/// Steps one source engine call may take without producing an effect
/// (applying finished transitions, §15): a bound on the machine's loop,
/// never reached in practice; past it the run re-arms.
pub const MAX_SOURCE_STEPS_PER_CALL: usize = 64;
/// Effects one source alarm run may perform in the shell (§12, §15): the
/// engine bounds its calls ([`MAX_SOURCE_RPC_CALLS_PER_RUN`]) and its
/// appends; this only guards the shell's loop.
pub const MAX_SOURCE_EFFECTS_PER_RUN: usize = 10_000;
/// Slack kept under [`MAX_EVENT_BYTES`] for an `evm.log` event's envelope
/// (type, idempotency key) around its payload (§3, §15): past it the
/// decoded args, then the raw data, are dropped.
pub const SOURCE_EVENT_ENVELOPE_BYTES: usize = 1024;
/// Bytes reserved for an append body's framing (`{"events":[` and `]}`)
/// when batching under [`MAX_SOURCE_APPEND_BYTES`] (§15); each event also
/// counts one byte for its comma.
pub const SOURCE_APPEND_FRAMING_BYTES: usize = 16;
/// ABI types a filter's event may declare (§15 `PUT /v1/sources/{name}`): the deepest
/// nesting (arrays and tuples), and the most values one parameter's type
/// may hold statically (fixed arrays multiply; decoding pre-allocates that
/// many).
pub const MAX_SOURCE_ABI_TYPE_DEPTH: usize = 8;
pub const MAX_SOURCE_ABI_TYPE_SLOTS: u64 = 1024;
/// Configuration bounds: name, RPC URLs, filters, addresses per filter,
/// event signature, finality window, poll interval.
pub const MAX_SOURCE_NAME_BYTES: usize = 64;
pub const MAX_SOURCE_RPC_URLS: usize = 8;
pub const MAX_SOURCE_URL_BYTES: usize = 2048;
pub const MAX_SOURCE_FILTERS: usize = 16;
pub const MAX_SOURCE_FILTER_ADDRESSES: usize = 256;
pub const MAX_SOURCE_EVENT_SIGNATURE_BYTES: usize = 1024;
pub const MAX_SOURCE_FINALITY_DEPTH: u64 = 1024;
pub const MIN_SOURCE_POLL_MS: u64 = 250;
pub const MAX_SOURCE_POLL_MS: u64 = 3_600_000;
/// Configuration defaults (§15 `PUT /v1/sources/{name}`): `confirmations` (blocks
/// behind the head read), `finalityDepth` (blocks below the head taken as
/// final), `pollMs` (the wait between runs once caught up).
pub const SOURCE_DEFAULT_CONFIRMATIONS: u64 = 0;
pub const SOURCE_DEFAULT_FINALITY_DEPTH: u64 = 64;
pub const SOURCE_DEFAULT_POLL_MS: u64 = 2000;
const _: () = assert!(SOURCE_DEFAULT_FINALITY_DEPTH <= MAX_SOURCE_FINALITY_DEPTH);
const _: () = assert!(MIN_SOURCE_POLL_MS <= SOURCE_DEFAULT_POLL_MS && SOURCE_DEFAULT_POLL_MS <= MAX_SOURCE_POLL_MS);
/// Largest configuration body (`PUT /v1/sources/{name}`).
pub const MAX_SOURCE_CONFIG_BYTES: usize = 64 * 1024;
// The mempool source (§15.1): its RPC calls per run are the sources' budget
// above ([`MAX_SOURCE_RPC_CALLS_PER_RUN`]: one poll, then fetches), its
// configuration bounds the sources' (URLs, filters, addresses, a function
// signature as long as an event's, `pollMs`).

/// Pending transaction hashes a mempool source holds waiting to be fetched:
/// hashes a poll brings past it are dropped, counted (`txsDropped`) and
/// logged, never silently.
pub const MAX_MEMPOOL_QUEUE: u64 = 5_000;
/// Events one mempool append carries at most (and at most
/// [`MAX_SOURCE_APPEND_BYTES`]); fetched matches wait in the queue until a
/// batch is full, the queue is fetched, or the run's calls are spent.
pub const MEMPOOL_APPEND_EVENTS: usize = 100;
/// How long a handled transaction hash is remembered (its first sighting
/// plus this), so a hash seen again — a re-poll, another node — is neither
/// fetched nor appended again; at most [`MAX_MEMPOOL_SEEN`] of them, the
/// oldest forgotten first. A hash seen again after that still appends
/// nothing twice (its idempotency key, §15.1), but costs a fetch.
pub const MEMPOOL_SEEN_RETENTION_MS: i64 = 24 * 60 * 60 * 1000;
pub const MAX_MEMPOOL_SEEN: u64 = 100_000;
/// Longest filter id taken from `eth_newPendingTransactionFilter`.
pub const MAX_MEMPOOL_FILTER_ID_BYTES: usize = 130;

/// Sources one project may define (§12, §15): enforced by the project's
/// directory when `PUT /v1/sources/{name}` registers a new name, before it
/// commits (422 `too_many_sources`).
pub const MAX_SOURCES_PER_PROJECT: usize = 100;

// Request bodies (§12 "request body"): every route reads its body with a
// streaming cap (Content-Length checked first, chunked bodies counted as they
// arrive) and answers 413 past it without buffering the rest.

/// A public append (§3 rule 2): the batch limit. A single event is held to
/// [`MAX_EVENT_BYTES`] by the engine once the body is read.
pub const MAX_APPEND_BODY_BYTES: usize = MAX_APPEND_BATCH_BYTES;
/// `POST .../-/subscribe-from` (§5): its body becomes one event.
pub const MAX_SUBSCRIBE_FROM_BODY_BYTES: usize = MAX_EVENT_BYTES;
/// `POST /v1/jsonata/evaluate`: expression, input and bindings together.
pub const MAX_JSONATA_EVALUATE_BODY_BYTES: usize = MAX_EVENT_BYTES;
/// `PUT /v1/processors/{name}` (§9): an initial state of at most
/// [`MAX_PROCESSOR_STATE_BYTES`] and its expressions.
pub const MAX_PROCESSOR_DEFINITION_BODY_BYTES: usize = MAX_PROCESSOR_STATE_BYTES + 16 * 1024;
/// A route that takes no body (reads, DELETE, dead-letter routes): up to
/// this much is read and dropped, so a keep-alive client's next request on
/// the connection still works; more is 413. (A URL that names no route reads
/// and drops up to [`MAX_APPEND_BODY_BYTES`] before its 404 or 405, since it
/// is often a mistyped append.)
pub const MAX_UNUSED_BODY_BYTES: usize = 64 * 1024;
/// A body past its route's cap by at most this much is still read to its
/// end, and dropped, before the 413 (§12): answering while the client still
/// sends makes the runtime close the connection with the rest unread, which
/// resets it, and a client (or a proxy in front, like `wrangler dev`'s) may
/// lose the answer to that reset. A larger body gets its 413 at once, the
/// rest unread, as §12 says. 12 MiB: a 10 MB body (the largest the Durable
/// Streams conformance suite sends, against the 2 MiB cap) gets its 413 on
/// a connection that stays open; at 4 MiB it raced the reset and lost once
/// in a fresh-clone CI run.
pub const OVERSIZED_BODY_DRAIN_BYTES: usize = 12 * 1024 * 1024;
/// Object-to-object requests (copy batches of at most
/// [`MAX_DELIVERY_BATCH_BYTES`], processor folds with their definition and
/// state, catalog and directory changes): built by Tributary itself, so the
/// cap is a backstop, twice the largest public body.
pub const MAX_INTERNAL_BODY_BYTES: usize = 2 * MAX_APPEND_BATCH_BYTES;
/// An object's answer to another object (a fork's source page of at most
/// [`MAX_READ_BYTES`] of events, an append's answer, a processor's state):
/// built by Tributary itself, so the cap is a backstop, four pages. A
/// larger answer is an error before its bytes are copied into the wasm
/// instance, whose failed allocation would abort it.
pub const MAX_OBJECT_ANSWER_BYTES: usize = 4 * MAX_READ_BYTES;

// Authentication (§2).

/// Most tokens `API_TOKENS` may hold: every request compares them all
/// (constant time); a larger table is malformed (500 `misconfigured`).
pub const MAX_API_TOKENS: usize = 1000;

// Retention (§16).

/// The shortest `maxAgeMs` a `retention-configured` may set (§16): one minute.
pub const MIN_RETENTION_AGE_MS: u64 = 60_000;
/// Ephemeral rows (§3 rule 5) are kept at most this long, whatever the
/// retention (§16): one hour.
pub const EPHEMERAL_RETENTION_MS: i64 = 60 * 60 * 1000;
/// Most rows one trim step looks at and deletes (§12): a step is one
/// transaction of the alarm, so a log of a million events past its limit is
/// trimmed over many alarms, never in one turn.
pub const TRIM_STEP_ROWS: u64 = 2000;
/// Most bytes of event rows one trim step deletes (§12); the step stops
/// before the row that would pass it (always at least one row).
pub const TRIM_STEP_BYTES: u64 = 8 * 1024 * 1024;
/// Most ephemeral rows one trim step expires (§12).
pub const EXPIRE_STEP_ROWS: u64 = 2000;
/// Most trim steps one alarm turn runs before it delivers (§12): the rest
/// waits for the next alarm, due at once.
pub const TRIM_STEPS_PER_TURN: u32 = 4;
/// Trimming waits until a limit is passed by a sixteenth of it (at least one
/// event, one second, one KiB): one trim step per many appends, not one each.
pub const TRIM_SLACK_DIVISOR: u64 = 16;
/// A new round of trimming past `maxEvents` or `maxBytes` starts at most
/// this often (a round that stopped at its budget goes on at once): under a
/// steady stream of appends, one bulk delete a second instead of one per
/// append, and the log is back at its limit a second after appends stop.
pub const TRIM_INTERVAL_MS: i64 = 1000;
/// The byte count is saved once this many offsets or bytes were appended
/// since it was last saved, so an open sums at most this much of the log.
pub const BYTES_CHECKPOINT_OFFSETS: u64 = 1000;
pub const BYTES_CHECKPOINT_BYTES: u64 = 4 * 1024 * 1024;
/// An open counts the bytes of at most this many offsets past the saved
/// count; a longer tail (a log written before the count existed) is counted
/// by trim steps, [`COUNT_STEP_ROWS`] offsets each, before they trim.
pub const OPEN_COUNT_ROWS: u64 = 4096;
pub const COUNT_STEP_ROWS: u64 = 50_000;
/// The storage budget of one stream (§16) when the deployment sets none
/// (`STORAGE_BUDGET_BYTES`): 9 GB, below the platform's 10 GB per object, so
/// appends are refused with 507 `stream_full` before SQLite fails mid-commit.
pub const DEFAULT_STORAGE_BUDGET_BYTES: u64 = 9_000_000_000;
/// The budget check reads the platform's database size again once this
/// many event bytes were appended since it last did, or whenever the last
/// reading plus what was appended since comes within
/// [`BUDGET_RECHECK_MARGIN_BYTES`] of the budget (other tables grow too).
pub const BUDGET_RECHECK_BYTES: u64 = 1024 * 1024;
pub const BUDGET_RECHECK_MARGIN_BYTES: u64 = 16 * 1024 * 1024;

/// A stream reports its metrics snapshot to its project at most this often,
/// and only when it changed (§11: "at most every few seconds"), from an
/// alarm it runs anyway (a delivery turn).
pub const METRICS_REPORT_INTERVAL_MS: i64 = 2_000;

/// A stream with nothing else to do wakes for a report this long after the
/// last one: a scrape is at most this far behind an idle stream. Longer
/// than [`METRICS_REPORT_INTERVAL_MS`] so that a busy stream reports from
/// its delivery alarms, not from alarms of its own (1,000 copying sources
/// woke 500 extra alarms a second at 2 s, and fan-in fell from 0.88 to 0.6).
pub const METRICS_REPORT_IDLE_WAKE_MS: i64 = 10_000;
// An alarm woken for a report must find it due: with a wake shorter than the
// interval, every alarm would find none due and wake again at once until the
// interval passed (measured: 2 ms of workerd CPU a copy in bench/fanin.mjs).
const _: () = assert!(METRICS_REPORT_IDLE_WAKE_MS >= METRICS_REPORT_INTERVAL_MS);
/// Streams one `GET /v1/metrics` renders (§11, §12), in path order; the
/// rest are left out and counted by `tributary_metrics_streams_omitted`
/// (a larger project scrapes by `?prefix=`).
pub const MAX_METRICS_SCRAPE_STREAMS: u64 = 1_000;
/// Subscription rows one scrape renders across its streams: a stream whose
/// subscriptions would pass it is left out (and counted) with the rest.
/// Bounds a scrape at about 1,000 × 32 + 10,000 × 10 samples.
pub const MAX_METRICS_SCRAPE_SUBSCRIPTIONS: u64 = 10_000;
/// Values one metrics snapshot may carry per stream or per subscription
/// (§11): a report holding more is refused (400), not stored.
pub const MAX_METRICS_SNAPSHOT_VALUES: usize = 64;

// The Durable Streams face (§17; PROTOCOL.md of durable-streams/durable-streams).

/// Longest content type a stream stores, in its canonical spelling (§17
/// "Content type": stream info, the catalog and the console show it).
pub const MAX_CONTENT_TYPE_BYTES: usize = 256;
/// Longest sliding `Stream-TTL` (§17 "Expiry"): ten years. A longer value is
/// 400, so deadline arithmetic in milliseconds never comes near overflow.
pub const MAX_STREAM_TTL_SECONDS: u64 = 10 * 365 * 86_400;
/// Latest `Stream-Expires-At`: 9999-12-31T23:59:59.999Z, the last instant an
/// RFC 3339 four-digit year can write.
pub const MAX_EXPIRES_AT_MS: i64 = 253_402_300_799_999;
/// How far ahead of the true sliding deadline a renewal persists it (§17
/// "Renewal never costs a write per read"): a read or write persists the
/// deadline only once the true one (last access + TTL) would pass the stored
/// one, and then stores true + this slack, so continuous traffic writes at
/// most once per slack. The stored deadline is never earlier than the true
/// one; an object evicted from memory (its last access forgotten) expires
/// the stream at the stored deadline: late by at most this, never early.
pub const EXPIRY_RENEWAL_SLACK_MS: i64 = 5_000;
/// Longest `Stream-Seq` (§17 "Writers"; an opaque string compared bytewise).
pub const MAX_STREAM_SEQ_BYTES: usize = 256;
/// Longest `Stream-Forked-From` (§18, PROTOCOL §4.2): the URL path of the
/// source, the route's prefix and a stream path ([`MAX_PATH_BYTES`]).
pub const MAX_FORKED_FROM_BYTES: usize = 2 * MAX_PATH_BYTES;
/// Longest `Producer-Id` (PROTOCOL §5.2.1).
pub const MAX_PRODUCER_ID_BYTES: usize = 256;
/// An idempotent producer idle this long is forgotten (§17, PROTOCOL §5.2.1's
/// 7 days): its next request is a new producer's.
pub const PRODUCER_FORGET_AFTER_MS: i64 = 7 * 86_400_000;
/// Producers one stream remembers (§17, §12). A new producer past it evicts
/// the least recently active one if that one has been idle for at least
/// [`PRODUCER_EVICTION_MIN_IDLE_MS`]; otherwise it is refused (429
/// `too_many_producers`), so no producer active within that window ever
/// loses its deduplication to make room.
pub const MAX_PRODUCERS_PER_STREAM: u64 = 10_000;
/// See [`MAX_PRODUCERS_PER_STREAM`]: a day.
pub const PRODUCER_EVICTION_MIN_IDLE_MS: i64 = 86_400_000;
/// A protocol `POST`/`PUT` body (§17 "a body over its cap is 413 without
/// being read"): the batch append's (§3 rule 2).
pub const MAX_PROTOCOL_BODY_BYTES: usize = MAX_APPEND_BATCH_BYTES;
/// Messages one JSON-mode body may carry (PROTOCOL §9.1 flattening): the
/// batch append's events (§3 rule 2), counted before any is kept.
pub const MAX_JSON_MESSAGES_PER_APPEND: usize = MAX_APPEND_BATCH_EVENTS;
/// Bytes of a JSON message's event left for its envelope (`{"type": …,
/// "payload": …}`; a type is at most [`MAX_TYPE_BYTES`]).
pub const JSON_MESSAGE_ENVELOPE_BYTES: usize = 1024;
/// Longest JSON-mode message as sent: it becomes one event's `payload`
/// (§17 "Messages are events"), within [`MAX_EVENT_BYTES`].
pub const MAX_JSON_MESSAGE_BYTES: usize = MAX_EVENT_BYTES - JSON_MESSAGE_ENVELOPE_BYTES;
/// Deepest JSON-mode message: inside its event's object (§3 rule 2).
pub const MAX_JSON_MESSAGE_DEPTH: usize = MAX_EVENT_DEPTH - 1;
/// Largest byte event (§17: a byte body is split into events of at most
/// this many bytes, committed together; reads concatenate them): 190 KiB,
/// so its base64 form (4/3 as long) with the event's envelope stays within
/// [`MAX_EVENT_BYTES`] — a copy or a receiver carries it as one event.
pub const MAX_BYTE_EVENT_BYTES: usize = 190 * 1024;
/// How long a protocol long-poll waits at the tail when the deployment does
/// not say (`DS_LONG_POLL_TIMEOUT_MS`, §17 "the timeout is a deployment
/// setting"); a setting is clamped to 100 ms ..= this.
pub const PROTOCOL_LONG_POLL_DEFAULT_MS: u64 = 20_000;
pub const PROTOCOL_LONG_POLL_MIN_MS: u64 = 100;
/// Messages one protocol read page holds at most (besides [`MAX_READ_BYTES`]):
/// a catch-up of small messages comes in few responses (the reference server
/// answers a whole stream at once, and the official client's `live: false`
/// reads one response only).
pub const PROTOCOL_READ_PAGE_EVENTS: u64 = 16_384;
/// How often an open protocol SSE response sends a control keep-alive while
/// it waits for appends.
pub const PROTOCOL_SSE_KEEPALIVE_MS: u64 = 15_000;
/// `Stream-Cursor` (PROTOCOL §10.1): intervals of 20 s counted from
/// 2024-10-09T00:00:00Z; a client cursor at or past the current interval
/// gets a jitter of 1 to 3600 s.
pub const CURSOR_INTERVAL_MS: i64 = 20_000;
pub const CURSOR_EPOCH_MS: i64 = 1_728_432_000_000;
pub const CURSOR_MAX_JITTER_SECONDS: u64 = 3_600;
/// A protocol SSE response ends after this long (§17 "a close at most every
/// 60 s", PROTOCOL §10.2); the client reconnects from its last offset.
pub const PROTOCOL_SSE_MAX_LIFETIME_MS: i64 = 60_000;
/// A catch-up page that ends before the tail (immutable) may be cached this
/// long, and served stale while revalidating this long (PROTOCOL §10.1).
pub const PROTOCOL_CACHE_MAX_AGE_SECONDS: u64 = 60;
pub const PROTOCOL_CACHE_STALE_SECONDS: u64 = 300;
/// Entity tags of one `If-None-Match` compared at most.
pub const MAX_IF_NONE_MATCH_TAGS: usize = 64;
/// `CORS_ALLOWED_ORIGINS` (§17 "Browsers"): origins listed at most, and the
/// longest one; how long a browser may keep a preflight answer.
pub const MAX_CORS_ORIGINS: usize = 64;
pub const MAX_CORS_ORIGIN_BYTES: usize = 256;
pub const CORS_PREFLIGHT_MAX_AGE_SECONDS: u64 = 7_200;

// Forks (§18).
/// Rows a byte or JSON sub-offset scans past its anchor at most (PROTOCOL
/// §4.2: a sub-offset reaches no further than the next data boundary).
pub const MAX_FORK_SUB_OFFSET_ROWS: u64 = 1000;
/// Forks one read crosses at most (a chain deeper than this reads in
/// several pages: each page descends at most this far).
pub const MAX_FORK_HOPS: u64 = 16;
/// Inherited segments one read of a fork stitches at most (each is one
/// page of one ancestor, within [`MAX_READ_BYTES`]).
pub const MAX_FORK_READ_SEGMENTS: usize = 4;
/// Releases a stream sends from its outbox per request or alarm at most.
pub const MAX_FORK_RELEASES_PER_TURN: u64 = 8;
/// How long a release written before a fork's acquire waits before it is
/// sent (§18): longer than any one request's acquire and creation, so only
/// an acquire whose creation never committed (a crash) is released.
pub const FORK_ACQUIRE_GRACE_MS: i64 = 60_000;
/// A fork's subscriptions read its inherited events (§18) in pages of its
/// source: rows per page, bytes per page, pages a fork holds in memory at
/// once (each subscription below the fork point reads from one) and pages
/// one alarm turn fetches at most (each one subrequest).
pub const INHERITED_PAGE_ROWS: u64 = 1000;
pub const MAX_INHERITED_PAGE_BYTES: usize = 1024 * 1024;
pub const MAX_INHERITED_PAGES_HELD: usize = 4;
pub const MAX_INHERITED_FETCHES_PER_TURN: u32 = 8;
