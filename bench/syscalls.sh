#!/usr/bin/env bash
# The system calls a unit of work makes, counted by the kernel (issue 33):
# any bench/profile.mjs scenario, its workerd's calls counted by perf's
# syscall tracepoints while the measured work runs, divided by the units.
# Counts, not times: steady under the shared machine's load. SQLite's log
# writes (`pwrite64`: two a page a commit writes, its frame's header and the
# page) and syncs (`fsync`), the sockets' writes and reads.
#
#   bash bench/syscalls.sh webhook 1 4000                        # a webhook delivery
#   PROFILE_CONTRACT=1 bash bench/syscalls.sh floor-webhook 1 4000  # the contract floor's
#
# Needs `perf` and read access to the syscalls tracepoints (root here).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v perf >/dev/null || { echo "perf is not installed" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
PROFILE_NONE=1 setsid node bench/profile.mjs "$@" >"$out/run.txt" 2>"$out/err.txt" &
node_pid=$!
# bench/profile.mjs prints `started` to stderr when the measured work begins.
for _ in $(seq 1 1200); do
  grep -q '^started' "$out/err.txt" 2>/dev/null && break
  kill -0 "$node_pid" 2>/dev/null || break
  sleep 0.05
done
grep -q '^started' "$out/err.txt" || { cat "$out/err.txt" >&2; echo "the scenario did not start" >&2; exit 1; }
workerd=$(pgrep -n -P "$node_pid" -f "workerd serve")
calls=(fsync fdatasync pwrite64 pread64 write writev read fcntl epoll_pwait)
events=$(printf 'syscalls:sys_enter_%s,' "${calls[@]}")
perf stat -e "${events%,}" -p "$workerd" -o "$out/stat.txt" 2>/dev/null &
perf_pid=$!
while kill -0 "$node_pid" 2>/dev/null && ! grep -q ' units in ' "$out/run.txt"; do sleep 0.02; done
kill -INT "$perf_pid" 2>/dev/null || true
wait "$perf_pid" || true
wait "$node_pid" || { cat "$out/err.txt" >&2; exit 1; }
grep ' units in ' "$out/run.txt"
units=$(sed -n 's/^[a-z-]*: \([0-9]*\) units in.*/\1/p' "$out/run.txt" | head -1)
echo "system calls a unit:"
awk -v units="$units" '/syscalls:sys_enter_/ { gsub(",", "", $1); sub("syscalls:sys_enter_", "", $2); printf "%10.2f  %s\n", $1 / units, $2 }' "$out/stat.txt"
