# Sourced by bench/perf_profile.sh and bench/syscalls.sh: one bench/profile.mjs
# scenario run in the background, so a kernel tool can watch its workerd
# while the measured work runs.
#
#   start_scenario "$out" ARGS...   # runs `node bench/profile.mjs ARGS...` (SCENARIO_V8_FLAGS: workerd's V8 flags);
#                                   # when its measured work begins, sets `node_pid` and `workerd`
#   wait_scenario "$out"            # returns when the scenario prints its figure (the end of the measured work)
#   finish_scenario "$out"          # waits for it to exit; sets `units`

start_scenario() {
  local out=$1
  shift
  MINIFLARE_WORKERD_V8_FLAGS="${SCENARIO_V8_FLAGS:-}" PROFILE_NONE=1 setsid node bench/profile.mjs "$@" >"$out/run.txt" 2>"$out/err.txt" &
  node_pid=$!
  # bench/profile.mjs prints `started` to stderr when the measured work begins.
  for _ in $(seq 1 1200); do
    grep -q '^started' "$out/err.txt" 2>/dev/null && break
    kill -0 "$node_pid" 2>/dev/null || break
    sleep 0.05
  done
  grep -q '^started' "$out/err.txt" || { cat "$out/err.txt" >&2; echo "the scenario did not start" >&2; exit 1; }
  # The scenario's own workerd (Miniflare's child), not another one on the machine.
  workerd=$(pgrep -n -P "$node_pid" -f "workerd serve")
}

wait_scenario() {
  local out=$1
  while kill -0 "$node_pid" 2>/dev/null && ! grep -q ' units in ' "$out/run.txt"; do sleep 0.02; done
}

finish_scenario() {
  local out=$1
  wait "$node_pid" || { cat "$out/err.txt" >&2; exit 1; }
  grep ' units in ' "$out/run.txt"
  units=$(sed -n 's/^[a-z-]*: \([0-9]*\) units in.*/\1/p' "$out/run.txt" | head -1)
}
