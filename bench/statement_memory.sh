#!/usr/bin/env bash
# What a copy source's and its receiver's statements hold compiled in the
# SQLite workerd runs (issue 33, §12): the statement texts
# tests/engine_statement_memory.rs ran, compiled by bench/statement_memory.c
# against the SQLite release rusqlite bundles (libsqlite3-sys's amalgamation,
# already in Cargo's registry) built with workerd's flags
# (build/BUILD.sqlite3 in cloudflare/workerd). The test's own figures come
# from rusqlite's build, which keeps column metadata: about 12 % more.
#
#   bash bench/statement_memory.sh        # needs a C compiler (cc)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$ROOT/target/statement_memory"
mkdir -p "$OUT"

# libsqlite3-sys's directory, from the same lock file the tests build with.
SYS_DIR="$(cd "$ROOT" && cargo metadata --format-version 1 --locked |
  node -e 'const m = JSON.parse(require("fs").readFileSync(0, "utf8")); const p = m.packages.find((p) => p.name === "libsqlite3-sys"); if (!p) process.exit(1); console.log(require("path").dirname(p.manifest_path))')"
AMALGAMATION="$SYS_DIR/sqlite3"
[ -f "$AMALGAMATION/sqlite3.c" ] || { echo "no sqlite3.c under $AMALGAMATION" >&2; exit 1; }

# workerd's SQLITE_DEFINES (build/BUILD.sqlite3).
WORKERD_DEFINES=(
  -DSQLITE_MAX_ALLOCATION_SIZE=16777216
  -DSQLITE_PRINTF_PRECISION_LIMIT=100000
  -DSQLITE_ENABLE_FTS5
  -DSQLITE_ENABLE_NORMALIZE
  -DSQLITE_ENABLE_MATH_FUNCTIONS
  -DSQLITE_DEFAULT_FOREIGN_KEYS=1
  -DSQLITE_ENABLE_RTREE
  -DSQLITE_ENABLE_UPDATE_DELETE_LIMIT
  -DSQLITE_OMIT_SHARED_CACHE
)
BIN="$OUT/statement_memory"
if [ ! -x "$BIN" ] || [ "$ROOT/bench/statement_memory.c" -nt "$BIN" ]; then
  cc -O1 -w "${WORKERD_DEFINES[@]}" -I "$AMALGAMATION" -o "$BIN" \
    "$ROOT/bench/statement_memory.c" "$AMALGAMATION/sqlite3.c" -lm -lpthread
fi

rm -f "$OUT/source.txt" "$OUT/target.txt"
# The test writes the texts before it checks its budgets: a revision over
# them is measured too.
(cd "$ROOT" && TRIBUTARY_STATEMENT_TEXTS="$OUT" cargo test -q --test engine_statement_memory > "$OUT/test.log" 2>&1) ||
  echo "(tests/engine_statement_memory.rs failed, see $OUT/test.log; measuring the texts it wrote)" >&2
"$BIN" "$ROOT/migrations/fresh/stream.sql" "$OUT/source.txt" "$OUT/target.txt"
