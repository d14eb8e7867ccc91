#!/usr/bin/env bash
# `make soak`: a long open-loop run against a fresh release server as it runs by default (the
# journal on: SQLite in a fresh temporary --data-dir): 250 tables × 4 players at 2,000 moves/s
# for SOAK_SECONDS (default 3600). Prints the load generator's report (RSS at the first sample
# and at the end, growth %, p99.9 of the whole window) and a summary. Every SOAK_SAMPLE_EVERY
# seconds (default 60) a line goes to a samples file next to the report: seconds since the load
# generator started, the server's RSS, and the journal's sizes — journal.sqlite-wal,
# journal.sqlite and the whole data folder in bytes (PostgreSQL: the cluster's pg_wal folder and
# pg_database_size). The summary gives the largest WAL seen, the database at the first and the
# last sample, and its growth per hour. Bounded: the load generator is stopped SOAK_SECONDS + 300
# seconds after it starts, the server 10 s after it is asked to stop; the sampler stops with the
# load, and the trap stops everything, removes the data folder and the PostgreSQL cluster.
#
#   scripts/soak.sh                              SOAK_SECONDS=3600, the journal on
#   SOAK_SECONDS=600 scripts/soak.sh             ten minutes
#   JOURNAL=off scripts/soak.sh                  --no-journal (or full, postgres: see
#                                                scripts/journal-args.sh); JOURNAL="on off": a
#                                                soak for each, one after the other
#   SOAK_SERVER=/path/to/matchismo scripts/soak.sh   another server binary (e.g. an older build)
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_WANTED=${SOAK_SECONDS:-3600}
SAMPLE_EVERY=${SOAK_SAMPLE_EVERY:-60}
SERVER=${SOAK_SERVER:-.build/release/matchismo}
LOAD=.build/release/matchismo-load
OUT=${SOAK_OUT:-.build/soak}
mkdir -p "$OUT"

# shellcheck source=scripts/journal-args.sh
source scripts/journal-args.sh
# shellcheck source=scripts/server-control.sh
source scripts/server-control.sh
ASKED=$(journal_kinds on)
read -r -a KINDS <<<"$ASKED"

if [[ -z "${SOAK_SERVER:-}" ]]; then swift build -c release --product matchismo; fi
swift build -c release --product matchismo-load

ulimit -n "$(ulimit -Hn)"

SERVER_PID=""
SAMPLER_PID=""
stop_sampler() {
  [[ -n "$SAMPLER_PID" ]] || return 0
  kill -TERM "$SAMPLER_PID" 2>/dev/null || true
  wait "$SAMPLER_PID" 2>/dev/null || true
  SAMPLER_PID=""
}
# On any exit, ctrl-C included: the sampler, the server, its data folder or database, the cluster.
cleanup() {
  stop_sampler
  stop_server
  journal_cleanup
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# sample SECONDS: one line of the samples file: seconds, RSS KiB, WAL, database and folder bytes.
sample() {
  local rss
  rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$SERVER_PID/status" 2>/dev/null || true)
  echo "$1 ${rss:--} $(journal_sizes)"
}

# sampler START FILE: a line every SAMPLE_EVERY seconds from START (an $EPOCHREALTIME) while the
# server lives, at most as many as the load generator's bound allows; stops at TERM at once.
sampler() {
  local start=$1 file=$2 nap=""
  trap '[[ -z $nap ]] || kill "$nap" 2>/dev/null; exit 0' TERM
  local i most=$(((SECONDS_WANTED + 300) / SAMPLE_EVERY + 1))
  for ((i = 0; i <= most; i++)); do
    kill -0 "$SERVER_PID" 2>/dev/null || return 0
    sample "$(awk -v s="$start" -v n="$EPOCHREALTIME" 'BEGIN { printf "%.0f", n - s }')" >>"$file"
    # Sleep to the next multiple of SAMPLE_EVERY, so that a slow sample does not push the rest.
    sleep "$(awk -v s="$start" -v n="$EPOCHREALTIME" -v e="$SAMPLE_EVERY" -v i="$i" \
      'BEGIN { d = s + (i + 1) * e - n; printf "%.3f", (d > 0 ? d : 0) }')" &
    nap=$!
    wait "$nap" || true
    nap=""
  done
}

# soak KIND: one server with that journal, one load generator, one report, samples file, summary.
soak() {
  local kind=$1 stamp
  stamp=$(date -u +%Y%m%dT%H%M%SZ)
  local report="$OUT/soak-$stamp-$kind.txt" samples="$OUT/soak-$stamp-$kind.samples"
  local log="$OUT/server-$stamp-$kind.log"
  journal_begin "$SERVER" "$kind" || exit 1
  local port
  port=$(free_port)
  "$SERVER" --host 127.0.0.1 --port "$port" --web-root web-client --countdown 0 \
    "${JOURNAL_ARGS[@]}" --log-level warning >"$log" 2>&1 &
  SERVER_PID=$!
  if ! listening "$port"; then
    echo "soak: the server did not start (see $log)" >&2
    exit 1
  fi

  echo "== soak (journal: $JOURNAL_LABEL): $SERVER on port $port; $LOAD for $SECONDS_WANTED s," \
    "RSS and journal sizes every $SAMPLE_EVERY s" >&2
  local what="wal_bytes db_bytes data_dir_bytes"
  [[ $JOURNAL_KIND == postgres ]] && what="pg_wal_bytes pg_database_size_bytes -"
  {
    echo "# soak $stamp, journal: $JOURNAL_LABEL; seconds since the load generator started"
    echo "# seconds rss_kib $what"
  } >"$samples"
  sampler "$EPOCHREALTIME" "$samples" &
  SAMPLER_PID=$!
  local load_start=$EPOCHREALTIME
  echo "journal: $JOURNAL_LABEL" >"$report"
  timeout --foreground $((SECONDS_WANTED + 300)) "$LOAD" --port "$port" --server-pid "$SERVER_PID" \
    --mode open --tables 250 --seats 4 --rate 2000 --warmup 2 --duration "$SECONDS_WANTED" \
    --sample-every "$SAMPLE_EVERY" --setup-timeout 30 | tee -a "$report" || true
  stop_sampler
  # The last sample, at the end of the load, while the server still runs.
  sample "$(awk -v s="$load_start" -v n="$EPOCHREALTIME" 'BEGIN { printf "%.0f", n - s }')" >>"$samples"
  stop_server
  local after
  read -r _ _ after < <(journal_sizes)
  journal_end

  local line
  line=$(grep '^mode=' "$report" || true)
  declare -A v=()
  for pair in $line; do v[${pair%%=*}]=${pair#*=}; done
  echo
  echo "soak (journal: $JOURNAL_LABEL): ${v[moves_per_s]:-?} moves/s for ${v[window_s]:-?} s;" \
    "RSS ${v[rss_first_sample_kib]:-?} KiB at ${v[rss_first_sample_s]:-?} s →" \
    "${v[rss_end_kib]:-?} KiB at the end (${v[rss_growth_pct]:-?} %);" \
    "p99.9 ${v[lat_p999_us]:-?} µs, max ${v[lat_max_us]:-?} µs; errors ${v[errors]:-?}," \
    "closes ${v[closes]:-?}; report: $report"
  [[ $JOURNAL_KIND == off || $JOURNAL_KIND == none ]] && return 0
  # Sizes: the largest WAL, the database at the first and last sample, growth per hour between.
  awk -v after="$after" -v kind="$JOURNAL_KIND" '
    /^#/ || $3 == "-" { next }
    {
      n++
      if (n == 1) { t0 = $1; db0 = $4 }
      t1 = $1; db1 = $4
      if ($3 + 0 > walmax) { walmax = $3; walat = $1 }
    }
    function mib(b) { return sprintf("%.1f MiB", b / 1048576) }
    END {
      if (n == 0) { print "sizes: no sample"; exit }
      wal = kind == "postgres" ? "pg_wal" : "WAL"
      printf "sizes: %d samples; largest %s %s (at %d s); database %s at %d s → %s at %d s",
        n, wal, mib(walmax), walat, mib(db0), t0, mib(db1), t1
      if (t1 > t0) printf ", %s per hour", mib((db1 - db0) * 3600 / (t1 - t0))
      if (after ~ /^[0-9]+$/) printf "; data folder after the stop %s", mib(after)
      print ""
    }' "$samples"
  echo "samples: $samples"
}

for kind in "${KINDS[@]}"; do soak "$kind"; done
