#!/usr/bin/env bash
# A journal commit's own cost under the peer kit's scenario a: starts BINARY (a release build of
# matchismo) fresh with the journal in a temporary --data-dir, runs the kit's C load generator
# (250 tables x 4, 5,000 moves/s open loop, 2 s warm-up, 10 s measured), reads
# matchismo_journal_commit_seconds from /metrics at the end and prints the commits, their mean
# time, p50/p99 and the server's CPU per diff. Alternate two builds to compare them:
#
#   for r in 1 2 3; do scripts/commit-cost.sh OLD_BINARY; scripts/commit-cost.sh NEW_BINARY; done
#
# Needs the kit built once (../shared/bench/run.sh builds $BENCH_WORK/build/loadgen).
set -euo pipefail
BIN=$1
LOADGEN=${BENCH_WORK:-${TMPDIR:-/tmp}/matchismo-bench}/build/loadgen
[[ -x "$LOADGEN" ]] || { echo "no load generator at $LOADGEN: run ../shared/bench/run.sh once" >&2; exit 1; }
DATA=$(mktemp -d)
PORT=$((20000 + RANDOM % 9000))
"$BIN" --data-dir "$DATA" --host 127.0.0.1 --port "$PORT" --countdown 0 --log-level warning >/dev/null 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -rf "$DATA"' EXIT
for _ in $(seq 100); do ss -Hltn "sport = :$PORT" | grep -q . && break; sleep 0.1; done
report=$("$LOADGEN" -p "$PORT" -P "$SERVER" -X mlive -t 250 -n 4 -m open -r 5000 -w 2 -d 10 2>/dev/null | tail -1)
metrics=$(curl -s "http://127.0.0.1:$PORT/metrics")
sum=$(awk '/^matchismo_journal_commit_seconds_sum/ {print $2}' <<<"$metrics")
count=$(awk '/^matchismo_journal_commit_seconds_count/ {print $2}' <<<"$metrics")
echo "$(basename "$BIN") commits=$count mean_commit_us=$(awk -v s="$sum" -v c="$count" 'BEGIN {printf "%.1f", s / c * 1e6}')" \
  "$(grep -o 'p50_us=[0-9.]*\|p99_us=[0-9.]*\|srv_us_per_diff=[0-9.]*' <<<"$report" | tr '\n' ' ')"
