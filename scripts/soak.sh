#!/usr/bin/env bash
# `make soak`: a long open-loop run against a fresh release server, sampling the server's RSS
# every minute: 250 tables × 4 players at 2,000 moves/s for SOAK_SECONDS (default 3600). Prints
# the load generator's report (RSS at the first sample and at the end, growth %, p99.9 of the
# whole window) and a one-line summary. Bounded: the load generator is stopped SOAK_SECONDS + 300
# seconds after it starts, the server 10 s after it is asked to stop.
#
#   scripts/soak.sh                              SOAK_SECONDS=3600
#   SOAK_SECONDS=600 scripts/soak.sh             ten minutes
#   SOAK_SERVER=/path/to/matchismo scripts/soak.sh   another server binary (e.g. an older build)
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_WANTED=${SOAK_SECONDS:-3600}
SAMPLE_EVERY=${SOAK_SAMPLE_EVERY:-60}
SERVER=${SOAK_SERVER:-.build/release/matchismo}
LOAD=.build/release/matchismo-load
OUT=${SOAK_OUT:-.build/soak}
mkdir -p "$OUT"
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
REPORT="$OUT/soak-$STAMP.txt"

if [[ -z "${SOAK_SERVER:-}" ]]; then swift build -c release --product matchismo; fi
swift build -c release --product matchismo-load

ulimit -n "$(ulimit -Hn)"

SERVER_PID=""
cleanup() {
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
  fi
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# shellcheck source=scripts/journal-args.sh
source scripts/journal-args.sh
# shellcheck disable=SC2046  # the journal options are words on purpose
"$SERVER" --host 127.0.0.1 --port "$port" --web-root web-client --countdown 0 $(journal_args "$SERVER") \
  --log-level warning >"$OUT/server-$STAMP.log" 2>&1 &
SERVER_PID=$!
up=0
for _ in $(seq 100); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then up=1; break; fi
  sleep 0.1
done
if [[ $up == 0 ]]; then
  echo "soak: the server did not start (see $OUT/server-$STAMP.log)" >&2
  exit 1
fi

echo "== soak: $SERVER on port $port; $LOAD for $SECONDS_WANTED s, RSS every $SAMPLE_EVERY s" >&2
timeout $((SECONDS_WANTED + 300)) "$LOAD" --port "$port" --server-pid "$SERVER_PID" \
  --mode open --tables 250 --seats 4 --rate 2000 --warmup 2 --duration "$SECONDS_WANTED" \
  --sample-every "$SAMPLE_EVERY" --setup-timeout 30 | tee "$REPORT"

kill -TERM "$SERVER_PID" 2>/dev/null || true
for _ in $(seq 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
kill -KILL "$SERVER_PID" 2>/dev/null || true
wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=""

line=$(grep '^mode=' "$REPORT" || true)
declare -A v=()
for pair in $line; do v[${pair%%=*}]=${pair#*=}; done
echo
echo "soak: ${v[moves_per_s]:-?} moves/s for ${v[window_s]:-?} s;" \
  "RSS ${v[rss_first_sample_kib]:-?} KiB at ${v[rss_first_sample_s]:-?} s →" \
  "${v[rss_end_kib]:-?} KiB at the end (${v[rss_growth_pct]:-?} %);" \
  "p99.9 ${v[lat_p999_us]:-?} µs, max ${v[lat_max_us]:-?} µs; errors ${v[errors]:-?}," \
  "closes ${v[closes]:-?}; report: $REPORT"
