#!/usr/bin/env bash
# `make bench`: the standard load scenarios against a fresh release server each, on loopback,
# printed as one markdown table. Every run is bounded (load generator and server alike): the
# whole script takes about three minutes on the project's 2-core machine, nine at the very most.
#
#   scripts/bench.sh              every scenario
#   scripts/bench.sh a play       only the named ones (a b c10k c19k lin25 lin250 lin2500 play)
#   BENCH_SERVER_ARGS="--executors 2" scripts/bench.sh a b   extra options for every server
set -euo pipefail
cd "$(dirname "$0")/.."

SERVER=.build/release/matchismo
LOAD=.build/release/matchismo-load
OUT=${BENCH_OUT:-.build/bench}
mkdir -p "$OUT"
RAW="$OUT/raw-$(date -u +%Y%m%dT%H%M%SZ).txt"

swift build -c release --product matchismo
swift build -c release --product matchismo-load

# Every connection is a descriptor, on both sides: take the hard limit (the server raises its own).
ulimit -n "$(ulimit -Hn)"
FILES=$(ulimit -n)

# The closed loop sends as fast as answers come back, far above the per-connection rate limit
# meant for people; lift it where the server has the option.
UNLIMITED=""
if "$SERVER" --help 2>&1 | grep -q -- '--rate-limit'; then UNLIMITED="--rate-limit 1000000000"; fi

# shellcheck source=scripts/journal-args.sh
source scripts/journal-args.sh

SERVER_PID=""
cleanup() {
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
  fi
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# run NAME "SERVER OPTIONS" LOADGEN OPTIONS...: one scenario, one row.
run() {
  local name=$1 server_options=$2
  shift 2
  local port
  port=$(free_port)
  # shellcheck disable=SC2086  # server_options is a list of words on purpose
  "$SERVER" --host 127.0.0.1 --port "$port" --web-root web-client --countdown 0 \
    --log-level warning $server_options $(journal_args "$SERVER") ${BENCH_SERVER_ARGS:-} \
    >"$OUT/server-$name.log" 2>&1 &
  SERVER_PID=$!
  local up=0
  for _ in $(seq 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then up=1; break; fi
    sleep 0.1
  done
  if [[ $up == 0 ]]; then
    echo "$name: the server did not start (see $OUT/server-$name.log)" >&2
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    return
  fi
  echo "== $name: $LOAD --port $port $*" >&2
  local line
  line=$(timeout 150 "$LOAD" --port "$port" --server-pid "$SERVER_PID" --setup-timeout 30 "$@" \
    | tee -a "$RAW" \
    | grep '^mode=' || true)
  echo "name=$name $line" >>"$RAW.rows"
  kill -TERM "$SERVER_PID" 2>/dev/null || true
  # The server closes every client with 1001 and exits; give it 10 s, then stop it hard.
  for _ in $(seq 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=""
}

wanted() { [[ ${#SELECTED[@]} == 0 ]] || [[ " ${SELECTED[*]} " == *" $1 "* ]]; }
SELECTED=("$@")
: >"$RAW.rows"

wanted a && run a "" --mode open --tables 250 --seats 4 --rate 5000 --warmup 2 --duration 10
wanted b && run b "$UNLIMITED" --mode closed --tables 250 --seats 4 --warmup 2 --duration 10
wanted c10k && run c10k "" --mode idle --tables 2500 --seats 4 --duration 5
# 19,500 liveness moves are 78,000 diffs: give them longer than the default 10 s.
wanted c19k && run c19k "" --mode idle --tables 4875 --seats 4 --duration 5 --liveness-timeout 30 \
  --setup-timeout 60
wanted lin25 && run lin25 "" --mode open --tables 25 --seats 4 --rate 200 --warmup 2 --duration 8
wanted lin250 && run lin250 "" --mode open --tables 250 --seats 4 --rate 2000 --warmup 2 --duration 8
wanted lin2500 && run lin2500 "" --mode open --tables 2500 --seats 4 --rate 20000 --warmup 2 \
  --duration 8
wanted play && run play "" --mode play --tables 100 --seats 4 --warmup 2 --duration 10

echo
echo "matchismo $(git rev-parse --short HEAD 2>/dev/null || echo '?')${BENCH_SERVER_ARGS:+ $BENCH_SERVER_ARGS}, $(nproc) cores," \
  "ulimit -n $FILES${UNLIMITED:+, closed loop with $UNLIMITED}; raw: $RAW"
echo
echo "| scenario | mode | conns held | moves/s | diffs/s | p50 ms | p99 ms | p99.9 ms | max ms | server CPU | µs/diff | KiB/conn | liveness | errors | closes |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
while read -r row; do
  declare -A v=()
  for pair in $row; do v[${pair%%=*}]=${pair#*=}; done
  ms() { if [[ -z "$1" ]]; then echo "-"; else awk -v us="$1" 'BEGIN { printf "%.2f", us / 1000 }'; fi; }
  if [[ -z "${v[mode]:-}" ]]; then
    echo "| ${v[name]} | (no report) | | | | | | | | | | | | | |"
    unset v
    continue
  fi
  live="-"
  [[ ${v[mode]} == idle ]] && live="${v[liveness_ok]}/${v[liveness_sent]}"
  # No answered move, no latency: show '-' rather than zeros.
  if [[ ${v[lat_n]:-0} == 0 ]]; then
    for k in lat_p50_us lat_p99_us lat_p999_us lat_max_us; do v[$k]=""; done
  fi
  echo "| ${v[name]} | ${v[mode]} ${v[tables]}×${v[seats]} | ${v[held]} | ${v[moves_per_s]} |" \
    "${v[diffs_per_s]} | $(ms "${v[lat_p50_us]}") | $(ms "${v[lat_p99_us]}") |" \
    "$(ms "${v[lat_p999_us]}") | $(ms "${v[lat_max_us]}") | ${v[server_cpu_pct]:-?} % |" \
    "${v[server_us_per_diff]:-?} | ${v[server_kib_per_conn]:-?} | $live | ${v[errors]} | ${v[closes]} |"
  unset v
done <"$RAW.rows"
