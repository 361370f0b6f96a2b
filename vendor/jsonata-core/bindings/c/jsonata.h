/*
 * jsonata.h — C API for jsonata-core, a high-performance Rust implementation
 * of the JSONata query and transformation language (https://jsonata.org).
 *
 * Implemented by src/capi.rs (build with `cargo build --release --features
 * capi`, link against the produced libjsonata_core.{so,dylib} /
 * jsonata_core.dll). This header is hand-maintained; CI compiles
 * bindings/c/examples/smoke.c against it to keep the two in sync.
 *
 * ── Contract ────────────────────────────────────────────────────────────
 *
 * Strings.  All strings crossing the boundary are UTF-8, NUL-terminated.
 * JSON documents and results cross as JSON text; there is no C-visible
 * structured value model. Every char* RETURNED by this library is owned by
 * the caller and must be released with jsonata_free_string() — except
 * jsonata_version(), which returns a static string that must never be
 * freed.
 *
 * Errors.  Failures are reported through a thread-local "last error" slot:
 *   - jsonata_compile() returns NULL and sets the slot on failure.
 *   - jsonata_evaluate() returns NULL in TWO cases, disambiguated by the
 *     slot: if jsonata_last_error_message() returns non-NULL it was an
 *     error; if it returns NULL the JSONata result was *undefined* (a
 *     legitimate result — e.g. a path that matched nothing).
 *   - jsonata_bind_var() returns 0 on success, -1 on failure (slot set).
 * Successful calls clear the slot. jsonata_last_error_code() additionally
 * extracts the JSONata specification error code ("T2002", "S0201",
 * "D3030", ...) when the failure has one; errors without a spec code
 * (e.g. invalid input JSON) yield NULL. Error source positions are not
 * available — the engine does not currently track them.
 *
 * Threading.  A JsonataExpr* must be created, used, and freed on a single
 * thread (the engine's value model is reference-counted without atomics).
 * Different threads may each use their own handles concurrently; the error
 * slot is thread-local, so per-thread error reporting never races.
 *
 * Panics.  Internal engine panics are caught at this boundary and reported
 * as errors (message prefixed "internal error:"); they neither unwind into
 * the caller nor abort the host process.
 */

#ifndef JSONATA_CORE_H
#define JSONATA_CORE_H

#ifdef __cplusplus
extern "C" {
#endif

/* An opaque compiled-expression handle. Not thread-safe; see header notes. */
typedef struct JsonataExpr JsonataExpr;

/*
 * Compile a JSONata expression (UTF-8).
 * Returns a handle, or NULL on failure (check jsonata_last_error_message).
 * Free with jsonata_free_expr().
 */
JsonataExpr *jsonata_compile(const char *expr_utf8);

/*
 * Evaluate the compiled expression against a JSON document (UTF-8 JSON
 * text). Returns the result as JSON text (caller frees with
 * jsonata_free_string), or NULL — meaning *undefined* if
 * jsonata_last_error_message() is NULL, otherwise an error.
 * The handle may be reused for any number of evaluations; the expression
 * is compiled to bytecode lazily on first use.
 */
char *jsonata_evaluate(JsonataExpr *expr, const char *json_utf8);

/*
 * Bind a variable ($name) on the expression from a JSON value (UTF-8 JSON
 * text). Applies to every subsequent jsonata_evaluate() on this handle.
 * A leading '$' in name is accepted and stripped; re-binding an existing
 * name replaces its value. Returns 0 on success, -1 on error (slot set).
 */
int jsonata_bind_var(JsonataExpr *expr, const char *name,
                     const char *json_value_utf8);

/*
 * A host function callback, callable from the expression as $name(...).
 *   user_data: the pointer supplied at registration (opaque to jsonata).
 *   args_json: a NUL-terminated UTF-8 JSON ARRAY of the (already evaluated)
 *              arguments.
 * Returns a NUL-terminated UTF-8 JSON string with the result, which must stay
 * valid until the call returns — jsonata COPIES it and does NOT free it — or
 * NULL to signal an error.
 */
typedef const char *(*jsonata_host_fn)(void *user_data, const char *args_json);

/*
 * Register a host function callable from the expression as $name(...) — the
 * C equivalent of jsonata-js's registerFunction. Applies to every subsequent
 * jsonata_evaluate() on this handle. A leading '$' in name is accepted and
 * stripped; re-registering a name replaces it. Host functions resolve after
 * the expression's own bindings/lambdas and before built-ins.
 *
 * user_data is passed back to the callback unchanged and must remain valid for
 * the lifetime of the handle. Returns 0 on success, -1 on error (slot set) —
 * including when name collides with a built-in (use
 * jsonata_register_fn_override to replace a built-in deliberately).
 */
int jsonata_register_fn(JsonataExpr *expr, const char *name,
                        jsonata_host_fn fn, void *user_data);

/*
 * Like jsonata_register_fn, but deliberately replaces a built-in of the same
 * name — for determinism injection (a frozen $now, seeded $random) or
 * sandboxing (disabling $eval). Overriding a built-in that participates in the
 * compiled fast path returns -1 with an error.
 */
int jsonata_register_fn_override(JsonataExpr *expr, const char *name,
                                 jsonata_host_fn fn, void *user_data);

/*
 * Set evaluation guardrails, applied to every subsequent jsonata_evaluate()
 * on this handle. Each limit uses 0 for "unlimited" (the default):
 *   - timeout_ms          bounds wall-clock evaluation time (D1012 on breach)
 *   - max_stack_depth     bounds AST recursion depth (D1011)
 *   - max_sequence_length bounds query-result sequences (D2015)
 * These are the same three guardrails the Python bindings expose.
 * Returns 0 on success, -1 on a NULL handle (error slot set).
 */
int jsonata_set_limits(JsonataExpr *expr, unsigned long long timeout_ms,
                       unsigned long long max_stack_depth,
                       unsigned long long max_sequence_length);

/* Free a handle returned by jsonata_compile(). NULL is a no-op. */
void jsonata_free_expr(JsonataExpr *expr);

/* Free a string returned by this library. NULL is a no-op. */
void jsonata_free_string(char *s);

/*
 * The last error message on this thread, as a fresh copy (caller frees
 * with jsonata_free_string), or NULL if the last call succeeded.
 */
char *jsonata_last_error_message(void);

/*
 * The JSONata spec code of the last error on this thread ("T2002", ...),
 * as a fresh copy (caller frees with jsonata_free_string), or NULL when
 * there is no error or the error carries no spec code.
 */
char *jsonata_last_error_code(void);

/* The jsonata-core version, e.g. "2.2.4". Static string — do NOT free. */
const char *jsonata_version(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* JSONATA_CORE_H */
