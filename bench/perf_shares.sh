#!/usr/bin/env bash
# Where workerd's CPU goes, by kind of work, from a `perf record -g` of it
# (issue 33: the floor's gap by what the CPU does; docs/benchmarks.md,
# eighth round). Each sample counts once, under the first of these kinds
# found on its stack, in this order: SQLite; V8's garbage collector; kj's
# HTTP and socket code; the fetch API's objects; streams; timers; frames of
# Tributary's wasm (and what they call that is none of the above); other
# JIT code and V8 builtins (the wasm-bindgen glue, the floor's JavaScript);
# the scheduler; the rest (workerd's event loop, promises, allocator).
#
#   PROFILE_NONE=1 node bench/profile.mjs webhook 1 6000 &     # or floor-webhook, fanout, floor-fanout
#   perf record -g -F 2000 -p "$(pgrep -f 'workerd serve' | head -1)" -o /tmp/perf.data -- sleep 4
#   bash bench/perf_shares.sh /tmp/perf.data
set -euo pipefail
perf script -i "${1:?usage: perf_shares.sh perf.data}" 2>/dev/null | awk '
/^workerd|^V8/ { samples++; stack = ""; next }
/^$/ {
  if (stack ~ /sqlite3/) kind["SQLite"]++
  else if (stack ~ /Scavenge|MarkCompact|Heap::CollectGarbage|GCTracer|Sweeper|ConcurrentMarking/) kind["garbage collector"]++
  else if (stack ~ /HttpClient|HttpServer|HttpInputStream|HttpOutputStream|kj::.*Http|AsyncIoStream|readImpl|tryRead|write\+|writev/) kind["HTTP and sockets"]++
  else if (stack ~ /Fetcher::fetch|api::fetch|fetchImpl|Request::constructor|Response::constructor|Headers/) kind["fetch API objects"]++
  else if (stack ~ /ReadableStream|WritableStream|streams::|StreamSource|PipeTo/) kind["streams"]++
  else if (stack ~ /setTimeout|clearTimeout|TimeoutManager/) kind["timers"]++
  else if (stack ~ /Wasm|wasm|JSToWasm|WasmToJs/) kind["Tributary wasm"]++
  else if (stack ~ /\[unknown\]|Builtins_|Interpreter|JIT/) kind["JIT code and builtins"]++
  else if (stack ~ /schedule|futex|epoll|io_schedule/) kind["scheduler"]++
  else kind["the rest"]++
  stack = ""; next
}
{ stack = stack " " $2 }
END {
  for (k in kind) printf "%6d %5.1f%%  %s\n", kind[k], 100 * kind[k] / samples, k | "sort -nr"
  close("sort -nr")
  printf "%6d samples\n", samples
}'
