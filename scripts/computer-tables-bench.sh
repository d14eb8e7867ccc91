#!/usr/bin/env bash
# What computer players cost (issue 33): a release server started with `--computer-tables N`
# (default 1,000: private tables of four expert computers each, playing game after game with
# nobody connected), with the journal on as by default (SQLite in a fresh --data-dir). After a
# warm-up it samples, over a window, the server's CPU (user + system, every thread: the service
# loop and the journal's writer), its resident memory and the moves played, counted from the
# journal: the moves of the finished games plus those of the deals in play. Bounded: the server
# is stopped at the end (SIGTERM; SIGKILL if it does not go).
#
#   scripts/computer-tables-bench.sh               1,000 tables, 15 s warm-up, 60 s window
#   TABLES=200 WARMUP=5 WINDOW=20 scripts/computer-tables-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."

TABLES=${TABLES:-1000}
WARMUP=${WARMUP:-15}
WINDOW=${WINDOW:-60}
SERVER=.build/release/matchismo
swift build -c release --product matchismo >/dev/null

DATA=$(mktemp -d "${TMPDIR:-/tmp}/matchismo-computers.XXXXXX")
PORT=$(python3 scripts/free_port.py)
"$SERVER" --host 127.0.0.1 --port "$PORT" --data-dir "$DATA" --computer-tables "$TABLES" \
  --log-level warning &
PID=$!
stop() {
  kill -TERM "$PID" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$PID" 2>/dev/null || break; sleep 0.2; done
  kill -KILL "$PID" 2>/dev/null || true
  rm -rf "$DATA"
}
trap stop EXIT

# CPU seconds of the server so far (utime + stime, every thread).
cpu() { awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$PID/stat"; }
rss_mib() { awk '/^VmRSS/ { print $2 / 1024 }' "/proc/$PID/status"; }
# Moves played: every move of the games kept, and of the deals not yet kept.
moves() {
  sqlite3 "file:$DATA/journal.sqlite?mode=ro" "
    SELECT (SELECT coalesce(sum(json_array_length(record, '\$.moves')), 0) FROM finished_game)
         + (SELECT count(*) FROM move m WHERE NOT EXISTS (
              SELECT 1 FROM finished_game f WHERE f.source = m.table_id || '#' || m.deal));"
}
games() { sqlite3 "file:$DATA/journal.sqlite?mode=ro" "SELECT count(*) FROM finished_game;"; }

sleep "$WARMUP"
c0=$(cpu); m0=$(moves); g0=$(games); t0=$(date +%s.%N)
sleep "$WINDOW"
c1=$(cpu); m1=$(moves); g1=$(games); t1=$(date +%s.%N); rss=$(rss_mib)
python3 - "$TABLES" "$c0" "$c1" "$m0" "$m1" "$g0" "$g1" "$t0" "$t1" "$rss" <<'PY'
import sys
tables, c0, c1, m0, m1, g0, g1, t0, t1, rss = sys.argv[1:]
seconds = float(t1) - float(t0)
cpu = (float(c1) - float(c0)) / seconds
moves = (int(m1) - int(m0)) / seconds
print(f"| {int(tables):,} tables × 4 expert computers | {cpu * 100:.1f} % of a core | "
      f"{moves:,.0f} moves/s | {(int(g1) - int(g0)) / seconds * 60:,.0f} games/min | "
      f"{float(rss):.0f} MiB RSS | {cpu * 1e6 / max(moves, 1e-9):.0f} µs of CPU per move |")
PY
