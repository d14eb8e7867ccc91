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
#
# STATEMENTS=1 also loads pg_stat_statements (every statement, those inside functions too) and
# writes, for each run, what PostgreSQL's statements took over the same window to
# $BENCH_OUT/statements-N-ROUTE-REP-SERVER.txt: calls, time in all, µs per call and per move.
# SERVERS="A B" alternates server binaries within each round (the first column says which).
# NODE_ARGS: more options for every node (e.g. "--commit-interval 2"); ARGS_SETS="A|B|…"
# alternates sets of them within each round instead (a column says which). HA=1 runs the nodes
# on a highly available PostgreSQL (scripts/cluster.sh up --ha): the PostgreSQL columns are then
# the primary's and the standby's processes together.
set -euo pipefail
cd "$(dirname "$0")/.."

SERVER=${SERVER:-.build/release/matchismo}
SERVERS=${SERVERS:-$SERVER}
STATEMENTS=${STATEMENTS:-0}
HA=${HA:-0}
ARGS_SETS=${ARGS_SETS:-${NODE_ARGS:-}}
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

# The release builds, unless binaries of their own were named.
[[ $SERVERS != .build/release/matchismo ]] || swift build -c release --product matchismo >/dev/null
[[ $LOAD != .build/release/matchismo-load ]] || swift build -c release --product matchismo-load >/dev/null
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

if [[ $STATEMENTS == 1 ]]; then
  export PG_SETTINGS="shared_preload_libraries=pg_stat_statements pg_stat_statements.track=all"
  psql=$(find /usr/lib/postgresql -path '*/bin/psql' | sort -V | tail -1)
fi

printf '| server | node options | nodes | route | diffs/s | p50 µs | p99 µs | errors | nodes µs/diff | HAProxy µs/diff | PostgreSQL µs/diff | PostgreSQL µs/move | total µs/diff |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
# One run: NODES nodes, ROUTE, the nodes' extra options, the server binary.
run_one() {
  local nodes=$1 route=$2 node_args=$3 SERVER=$4
  DIR=$(mktemp -d "${TMPDIR:-/tmp}/mlive-cluster-bench.XXXXXX")
  port=$(python3 scripts/free_port.py)
  local ha=()
  [[ $HA == 1 ]] && ha=(--ha)
  scripts/cluster.sh up --dir "$DIR" --nodes "$nodes" --port "$port" --binary "$SERVER" \
    "${ha[@]}" --no-prometheus -- --countdown 0 $node_args >/dev/null
  database=$(json "$DIR/cluster.json" 's["postgres"]["url"]')
  if [[ $STATEMENTS == 1 ]]; then
    "$psql" -qAt "$database" -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null
  fi
  read -r -a node_pids <<<"$(json "$DIR/cluster.json" '" ".join(str(n["pid"]) for n in s["nodes"])')"
  read -r -a node_ports <<<"$(json "$DIR/cluster.json" '" ".join(str(n["port"]) for n in s["nodes"])')"
  haproxy_pid=$(json "$DIR/cluster.json" 's["haproxy"]["pid"]')
  # The postmasters: the one server's, or the formation's primary and standby.
  pg_pid=$(json "$DIR/cluster.json" \
    '" ".join(str(n["pid"]) for n in s["postgres"].get("nodes", [s["postgres"]]))')
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
  pg_pids=()
  for pid in $pg_pid; do pg_pids+=("$pid" $(pgrep -P "$pid" || true)); done
  nodes_before=$(cpu "${node_pids[@]}")
  haproxy_before=$(cpu "$haproxy_pid")
  pg_before=$(cpu "${pg_pids[@]}")
  if [[ $STATEMENTS == 1 ]]; then
    "$psql" -qAt "$database" -c "SELECT pg_stat_statements_reset()" >/dev/null
  fi
  started=$(date +%s.%N)
  sleep "$(python3 -c "print($DURATION - 0.6)")"
  nodes_after=$(cpu "${node_pids[@]}")
  haproxy_after=$(cpu "$haproxy_pid")
  pg_after=$(cpu "${pg_pids[@]}")
  ended=$(date +%s.%N)
  if [[ $STATEMENTS == 1 ]]; then
    moves=$(python3 -c "print(round($RATE * ($ended - $started)))")
    "$psql" -q "$database" -P pager=off \
      >"$OUT/statements-$nodes-$route-$rep-$(basename "$SERVER")${node_args//[^0-9a-z]/}.txt" <<SQL
SELECT calls, round(total_exec_time::numeric, 1) AS ms,
  round((1000 * total_exec_time / calls)::numeric, 1) AS us_per_call,
  round((1000 * total_exec_time / $moves)::numeric, 1) AS us_per_move, rows,
  left(regexp_replace(query, '\s+', ' ', 'g'), 110) AS query
FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%'
ORDER BY total_exec_time DESC LIMIT 25;
SQL
  fi
  wait "${loads[@]}"
  diffs=0 p50=0 p99=0 errors=0
  for index in $(seq "$nodes"); do
    file="$DIR/load$index.json"
    diffs=$(python3 -c "print($diffs + $(json "$file" 's["diffs_per_s"]'))")
    p50=$(python3 -c "print(max($p50, $(json "$file" 's["lat_p50_us"]')))")
    p99=$(python3 -c "print(max($p99, $(json "$file" 's["lat_p99_us"]')))")
    errors=$((errors + $(json "$file" 's["answered_error"] + s["unanswered"] + s["protocol_errors"]')))
  done
  python3 - "$(basename "$SERVER")" "${node_args:-—}" "$nodes" "$route" "$diffs" "$p50" "$p99" "$errors" \
    "$started" "$ended" "$TICKS" \
    "$nodes_before" "$nodes_after" "$haproxy_before" "$haproxy_after" "$pg_before" "$pg_after" <<'EOF'
import sys
(server, options, nodes, route, diffs, p50, p99, errors, started, ended, ticks,
 nb, na, hb, ha, pb, pa) = sys.argv[1:]
window = float(ended) - float(started)
delivered = float(diffs) * window
def per_diff(before, after):
    return (int(after) - int(before)) / int(ticks) * 1e6 / delivered
n, h, p = per_diff(nb, na), per_diff(hb, ha), per_diff(pb, pa)
# Each move is one diff to each of its table's 4 players.
print(f"| {server} | {options} | {nodes} | {route} | {float(diffs):,.0f} | {float(p50):,.0f} | {float(p99):,.0f} | "
  f"{errors} | {n:.1f} | {h:.1f} | {p:.1f} | {4 * p:.0f} | {n + h + p:.1f} |")
EOF
  cp "$DIR"/load*.json "$OUT/" 2>/dev/null || true
  cleanup
}

for rep in $(seq "$REPS"); do
  for nodes in "${NODE_COUNTS[@]}"; do
    for route in $ROUTES; do
      IFS='|' read -r -a arg_sets <<<"$ARGS_SETS"
      [[ ${#arg_sets[@]} -gt 0 ]] || arg_sets=("")
      for node_args in "${arg_sets[@]}"; do
        for server in $SERVERS; do
          run_one "$nodes" "$route" "$node_args" "$server"
        done
      done
    done
  done
done
