#!/usr/bin/env bash
# Scenario a (open loop: TABLES tables × 4 players, RATE moves/s in all) on a cluster of this
# machine (scripts/cluster.sh: a fresh PostgreSQL, N nodes, HAProxy), for each N given (default
# "1 2 3"), with the players' connections either through the front door (ROUTE=door: each load
# generator pins its tables to one node with --path /ws?node=nI) or straight to the nodes
# (ROUTE=direct: the design where redirects name each node's own address). Both by default,
# alternating. One row each: diffs per second, p50/p99 of the slowest load generator, and the
# CPU of every process per delivered diff (nodes, HAProxy, PostgreSQL, and their total), sampled
# over the same window.
#
#   scripts/cluster-bench.sh [N...]      e.g. REPS=3 DURATION=20 scripts/cluster-bench.sh 1 2 3
set -euo pipefail
cd "$(dirname "$0")/.."

SERVER=${SERVER:-.build/release/matchismo}
LOAD=${LOAD:-.build/release/matchismo-load}
TABLES=${TABLES:-250}
RATE=${RATE:-5000}
WARMUP=${WARMUP:-3}
DURATION=${DURATION:-10}
REPS=${REPS:-1}
ROUTES=${ROUTES:-"door direct"}
NODE_COUNTS=("$@")
[[ ${#NODE_COUNTS[@]} -gt 0 ]] || NODE_COUNTS=(1 2 3)
TICKS=$(getconf CLK_TCK)
OUT=${BENCH_OUT:-.build/bench}
mkdir -p "$OUT"

swift build -c release --product matchismo >/dev/null
swift build -c release --product matchismo-load >/dev/null
ulimit -n "$(ulimit -Hn)"

DIR=""
cleanup() {
  if [[ -n $DIR ]]; then scripts/cluster.sh down --dir "$DIR" || true; rm -rf "$DIR"; fi
  DIR=""
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# cpu PID...: the processes' user + system time so far, in clock ticks (those gone count 0).
cpu() {
  local total=0 pid fields
  for pid in "$@"; do
    if read -r -a fields <"/proc/$pid/stat" 2>/dev/null; then
      total=$((total + fields[13] + fields[14]))
    fi
  done
  echo "$total"
}

# json FILE EXPRESSION: a value of the JSON object in FILE (EXPRESSION over `s`).
json() {
  python3 -c "import json, sys; s = json.load(open(sys.argv[1])); print($2)" "$1"
}

printf '| nodes | route | diffs/s | p50 µs | p99 µs | errors | nodes µs/diff | HAProxy µs/diff | PostgreSQL µs/diff | total µs/diff |\n'
printf '|---|---|---|---|---|---|---|---|---|---|\n'
for _ in $(seq "$REPS"); do
  for nodes in "${NODE_COUNTS[@]}"; do
    for route in $ROUTES; do
      DIR=$(mktemp -d "${TMPDIR:-/tmp}/mlive-cluster-bench.XXXXXX")
      port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
      scripts/cluster.sh up --dir "$DIR" --nodes "$nodes" --port "$port" --binary "$SERVER" \
        -- --countdown 0 >/dev/null
      read -r -a node_pids <<<"$(json "$DIR/cluster.json" '" ".join(str(n["pid"]) for n in s["nodes"])')"
      read -r -a node_ports <<<"$(json "$DIR/cluster.json" '" ".join(str(n["port"]) for n in s["nodes"])')"
      haproxy_pid=$(json "$DIR/cluster.json" 's["haproxy"]["pid"]')
      pg_pid=$(json "$DIR/cluster.json" 's["postgres"]["pid"]')
      loads=()
      for index in $(seq "$nodes"); do
        if [[ $route == door ]]; then
          target=(--port "$port" --path "/ws?node=n$index")
        else
          target=(--port "${node_ports[$((index - 1))]}")
        fi
        "$LOAD" --mode open --tables $((TABLES / nodes)) --seats 4 \
          --rate "$(python3 -c "print($RATE / $nodes)")" --warmup "$WARMUP" \
          --duration "$DURATION" "${target[@]}" --json \
          >"$DIR/load$index.json" 2>"$DIR/load$index.err" &
        loads+=("$!")
      done
      for index in $(seq "$nodes"); do
        for _ in $(seq 600); do
          grep -q "seated" "$DIR/load$index.err" 2>/dev/null && break
          sleep 0.1
        done
      done
      sleep "$(python3 -c "print($WARMUP + 0.2)")"
      pg_pids=("$pg_pid" $(pgrep -P "$pg_pid" || true))
      nodes_before=$(cpu "${node_pids[@]}")
      haproxy_before=$(cpu "$haproxy_pid")
      pg_before=$(cpu "${pg_pids[@]}")
      started=$(date +%s.%N)
      sleep "$(python3 -c "print($DURATION - 0.6)")"
      nodes_after=$(cpu "${node_pids[@]}")
      haproxy_after=$(cpu "$haproxy_pid")
      pg_after=$(cpu "${pg_pids[@]}")
      ended=$(date +%s.%N)
      wait "${loads[@]}"
      diffs=0 p50=0 p99=0 errors=0
      for index in $(seq "$nodes"); do
        file="$DIR/load$index.json"
        diffs=$(python3 -c "print($diffs + $(json "$file" 's["diffs_per_s"]'))")
        p50=$(python3 -c "print(max($p50, $(json "$file" 's["lat_p50_us"]')))")
        p99=$(python3 -c "print(max($p99, $(json "$file" 's["lat_p99_us"]')))")
        errors=$((errors + $(json "$file" 's["answered_error"] + s["unanswered"] + s["protocol_errors"]')))
      done
      python3 - "$nodes" "$route" "$diffs" "$p50" "$p99" "$errors" "$started" "$ended" "$TICKS" \
        "$nodes_before" "$nodes_after" "$haproxy_before" "$haproxy_after" "$pg_before" "$pg_after" <<'EOF'
import sys
(nodes, route, diffs, p50, p99, errors, started, ended, ticks, nb, na, hb, ha, pb, pa) = sys.argv[1:]
window = float(ended) - float(started)
delivered = float(diffs) * window
def per_diff(before, after):
    return (int(after) - int(before)) / int(ticks) * 1e6 / delivered
n, h, p = per_diff(nb, na), per_diff(hb, ha), per_diff(pb, pa)
print(f"| {nodes} | {route} | {float(diffs):,.0f} | {float(p50):,.0f} | {float(p99):,.0f} | {errors} | "
      f"{n:.1f} | {h:.1f} | {p:.1f} | {n + h + p:.1f} |")
EOF
      cp "$DIR"/load*.json "$OUT/" 2>/dev/null || true
      cleanup
    done
  done
done
