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
source bench/scenario.sh
start_scenario "$out" "$@"
calls=(fsync fdatasync pwrite64 pread64 write writev read fcntl epoll_pwait)
events=$(printf 'syscalls:sys_enter_%s,' "${calls[@]}")
perf stat -e "${events%,}" -p "$workerd" -o "$out/stat.txt" 2>/dev/null &
perf_pid=$!
wait_scenario "$out"
kill -INT "$perf_pid" 2>/dev/null || true
wait "$perf_pid" || true
finish_scenario "$out"
echo "system calls a unit:"
awk -v units="$units" '/syscalls:sys_enter_/ { gsub(",", "", $1); sub("syscalls:sys_enter_", "", $2); printf "%10.2f  %s\n", $1 / units, $2 }' "$out/stat.txt"
