#!/usr/bin/env bash
# Where workerd's CPU goes in one bench/profile.mjs scenario, sampled by the
# kernel (`perf`) instead of V8's inspector (issue 33). The inspector's
# sampler costs the isolate time at every crossing between JavaScript and
# wasm, so it over-weights code that crosses often: in the twenty-first
# round three changes it put at 3–5 % of a single append (headers read in
# one call, the transaction wrapper dropped, strings decoded once a
# statement) measured within ±3 % of nothing. `perf` names wasm and
# JavaScript frames through V8's perf map (`--perf-basic-prof`, passed to
# workerd by Miniflare's MINIFLARE_WORKERD_V8_FLAGS).
#
#   bash bench/perf_profile.sh append 6000          # any scenario of bench/profile.mjs, with its arguments
#   bash bench/perf_profile.sh floor-append 6000    # the same on the platform floor
#   PERF_TOP=40 bash bench/perf_profile.sh fanout 10 4000
#   PERF_DATA=/tmp/append.data bash bench/perf_profile.sh append 6000   # keeps the samples for `perf report -i`
#   PERF_STACKS=/tmp/append.stacks bash bench/perf_profile.sh append 6000   # also each sample's call stack, for bench/perf_inclusive.mjs
#
# Prints workerd's CPU a unit (µs, from the samples: 1999 a second) by kind
# of code — Tributary's wasm, its JavaScript glue (index.js), other
# JavaScript (Miniflare's entry, the floor), V8's builtins, the kernel, and
# the platform's native code (workerd, V8's runtime, SQLite, the allocator)
# — then the symbols that cost most, then the same CPU by thread: workerd's
# own (the isolate runs on one: what bounds a rate) and V8's background
# threads (its optimizing compiler tiering code up, concurrent GC), which
# the benches' workerd CPU also counts. Flat self time, no call graph. Not a benchmark: like
# bench/profile.mjs, it says what to fix.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$#" -ge 1 ] || { echo "usage: bash bench/perf_profile.sh SCENARIO [ARGS...]" >&2; exit 2; }
command -v perf >/dev/null || { echo "perf is not installed" >&2; exit 2; }
RATE=1999
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
source bench/scenario.sh
SCENARIO_V8_FLAGS="--perf-basic-prof --no-logfile-per-isolate --logfile=/dev/null" start_scenario "$out" "$@"
# Sampled until the scenario prints its figure (the end of the measured work).
# PERF_STACKS: with call stacks, unwound by frame pointer (workerd, V8's
# compiled code and the wasm keep them), for bench/perf_inclusive.mjs.
stacks=()
[ -z "${PERF_STACKS:-}" ] || stacks=(--call-graph=fp)
perf record -q "${stacks[@]}" -F "$RATE" -p "$workerd" -o "$out/perf.data" 2>/dev/null &
perf_pid=$!
wait_scenario "$out"
kill -INT "$perf_pid" 2>/dev/null || true
wait "$perf_pid" || true
finish_scenario "$out"
[ -z "${PERF_DATA:-}" ] || cp "$out/perf.data" "$PERF_DATA"
perf report -i "$out/perf.data" --no-children --sort sym --stdio -g none -n 2>/dev/null |
  awk -v units="$units" -v rate="$RATE" -v top="${PERF_TOP:-25}" '
  /^#/ || NF < 4 { next }
  {
    samples = $2
    line = $0
    sub(/^ *[0-9.]+% +[0-9]+ +/, "", line)
    if (line ~ /^\[k\]/) kind = "kernel"
    else if (line ~ /JS:.*-(turbofan|liftoff|maglev)$/ && line !~ /\.js:/) kind = "Tributary wasm"
    else if (line ~ /JS:.* index\.js:/) kind = "Tributary JS glue (index.js)"
    else if (line ~ /JS:/) kind = "other JavaScript (Miniflare entry, floor)"
    else if (line ~ /Builtins_|Builtin:/) kind = "V8 builtins"
    else kind = "platform native (workerd, V8 runtime, SQLite, allocator)"
    by_kind[kind] += samples
    total += samples
    if (shown < top) { names[++shown] = substr(line, 5, 110); counts[shown] = samples }
  }
  END {
    us = 1e6 / rate / units
    printf "workerd CPU a unit by kind of code (%d units, %d samples):\n", units, total
    for (k in by_kind) printf "  %8.1f µs  %5.1f%%  %s\n", by_kind[k] * us, 100 * by_kind[k] / total, k | "sort -nr"
    close("sort -nr")
    printf "  %8.1f µs          all\n", total * us
    printf "top %d symbols, µs a unit:\n", shown
    for (i = 1; i <= shown; i++) printf "  %8.1f  %s\n", counts[i] * us, names[i]
  }'
perf report -i "$out/perf.data" --no-children --sort comm --stdio -g none -n 2>/dev/null |
  awk -v units="$units" -v rate="$RATE" '
  /^#/ || NF < 3 { next }
  { samples = $2; $1 = ""; $2 = ""; sub(/^ +/, ""); by[$0] += samples; total += samples }
  END {
    us = 1e6 / rate / units
    printf "by thread, µs a unit:\n"
    for (t in by) printf "  %8.1f µs  %5.1f%%  %s\n", by[t] * us, 100 * by[t] / total, (t == "workerd" ? "workerd'"'"'s own threads (the isolate runs on one)" : t " (V8 background: compiler, GC)") | "sort -nr"
    close("sort -nr")
  }'
if [ -n "${PERF_STACKS:-}" ]; then
  { echo "# units $units rate $RATE"; perf script -i "$out/perf.data" -F comm,tid,ip,sym 2>/dev/null; } >"$PERF_STACKS"
  echo "call stacks in $PERF_STACKS: node bench/perf_inclusive.mjs $PERF_STACKS"
fi
# V8's perf map names the JavaScript and wasm frames: kept with PERF_DATA (a
# later `perf report -i` needs it), otherwise removed (about 1 MB a run).
[ -n "${PERF_DATA:-}" ] || rm -f "/tmp/perf-$workerd.map"
