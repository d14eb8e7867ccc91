#!/usr/bin/env bash
# `make bench`: the standard load scenarios against a fresh release server each, on loopback,
# printed as one markdown table. Each scenario runs twice: as the server runs by default (the
# journal on, SQLite in a fresh temporary --data-dir) and with --no-journal, as rows `a` and
# `a (no journal)`; JOURNAL picks other journals (see scripts/journal-args.sh). After a row with
# a journal, the sizes it left (journal.sqlite-wal and journal.sqlite, read before the server
# stops; PostgreSQL: the cluster's pg_wal and pg_database_size) go into the row. Every run is
# bounded (load generator and server alike): the whole script takes about nine minutes on the
# project's 2-core machine with both rows, twenty-eight at the very most.
#
#   scripts/bench.sh              every scenario, journal on and off
#   scripts/bench.sh a play       only the named ones (a b c10k c19k lin25 lin250 lin2500 play
#                                 fastplay)
#   JOURNAL=off scripts/bench.sh a           one row: --no-journal (or on, full, postgres)
#   JOURNAL="on postgres" scripts/bench.sh a SQLite and a local PostgreSQL, one row each
#   BENCH_SERVER_ARGS="--executors 2" scripts/bench.sh a b   extra options for every server
set -euo pipefail
cd "$(dirname "$0")/.."

SERVER=.build/release/matchismo
LOAD=.build/release/matchismo-load
OUT=${BENCH_OUT:-.build/bench}
mkdir -p "$OUT"
RAW="$OUT/raw-$(date -u +%Y%m%dT%H%M%SZ).txt"

# shellcheck source=scripts/journal-args.sh
source scripts/journal-args.sh
# shellcheck source=scripts/server-control.sh
source scripts/server-control.sh
ASKED=$(journal_kinds "on off")
read -r -a KINDS <<<"$ASKED"

swift build -c release --product matchismo
swift build -c release --product matchismo-load

# Every connection is a descriptor, on both sides: take the hard limit (the server raises its own).
ulimit -n "$(ulimit -Hn)"
FILES=$(ulimit -n)

# The closed loop sends as fast as answers come back, far above the per-connection rate limit
# meant for people; lift it where the server has the option.
UNLIMITED=""
if "$SERVER" --help 2>&1 | grep -q -- '--rate-limit'; then UNLIMITED="--rate-limit 1000000000"; fi

declare -A LABELS=()
SERVER_PID=""
# On any exit, ctrl-C included: the server, then its data folder or database, then the cluster.
cleanup() {
  stop_server
  journal_cleanup
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# run NAME KIND "SERVER OPTIONS" LOADGEN OPTIONS...: one scenario with one journal, one row.
run() {
  local name=$1 kind=$2 server_options=$3
  shift 3
  journal_begin "$SERVER" "$kind" || exit 1
  local row="$name$JOURNAL_SUFFIX" log="$OUT/server-$name-$kind.log"
  local port
  port=$(free_port)
  # shellcheck disable=SC2086  # server_options is a list of words on purpose
  "$SERVER" --host 127.0.0.1 --port "$port" --web-root web-client --countdown 0 \
    --log-level warning $server_options "${JOURNAL_ARGS[@]}" ${BENCH_SERVER_ARGS:-} \
    >"$log" 2>&1 &
  SERVER_PID=$!
  if ! listening "$port"; then
    echo "$row: the server did not start (see $log)" >&2
    echo "name=$name journal=$JOURNAL_KIND" >>"$RAW.rows"
    stop_server
    journal_end
    return
  fi
  echo "== $row (journal: $JOURNAL_LABEL): $LOAD --port $port $*" >&2
  echo "== $row (journal: $JOURNAL_LABEL)" >>"$RAW"
  LABELS[$JOURNAL_KIND]=$JOURNAL_LABEL
  local line
  line=$(timeout --foreground 150 "$LOAD" --port "$port" --server-pid "$SERVER_PID" --setup-timeout 30 "$@" \
    | tee -a "$RAW" \
    | grep '^mode=' || true)
  # The sizes the load left, read while the server still runs (what a stop does to them, a
  # final checkpoint or none, is not what the row measures; the raw file has the folder after).
  local wal db folder
  read -r wal db folder < <(journal_sizes)
  stop_server
  local after
  read -r _ _ after < <(journal_sizes)
  echo "sizes: WAL $wal B, database $db B, data folder $folder B; after the stop: folder $after B" >>"$RAW"
  echo "name=$name journal=$JOURNAL_KIND wal_bytes=$wal db_bytes=$db dir_bytes=$folder" \
    "dir_after_stop_bytes=$after $line" >>"$RAW.rows"
  journal_end
}

# each NAME "SERVER OPTIONS" LOADGEN OPTIONS...: the scenario once per journal asked for.
each() {
  local kind
  for kind in "${KINDS[@]}"; do run "$1" "$kind" "${@:2}"; done
}

wanted() { [[ ${#SELECTED[@]} == 0 ]] || [[ " ${SELECTED[*]} " == *" $1 "* ]]; }
SELECTED=("$@")
: >"$RAW.rows"

wanted a && each a "" --mode open --tables 250 --seats 4 --rate 5000 --warmup 2 --duration 10
wanted b && each b "$UNLIMITED" --mode closed --tables 250 --seats 4 --warmup 2 --duration 10
wanted c10k && each c10k "" --mode idle --tables 2500 --seats 4 --duration 5
# 19,500 liveness moves are 78,000 diffs: give them longer than the default 10 s.
wanted c19k && each c19k "" --mode idle --tables 4875 --seats 4 --duration 5 --liveness-timeout 30 \
  --setup-timeout 60
wanted lin25 && each lin25 "" --mode open --tables 25 --seats 4 --rate 200 --warmup 2 --duration 8
wanted lin250 && each lin250 "" --mode open --tables 250 --seats 4 --rate 2000 --warmup 2 --duration 8
wanted lin2500 && each lin2500 "" --mode open --tables 2500 --seats 4 --rate 20000 --warmup 2 \
  --duration 8
# Bots that really play Set (sets found, deals, games ending and kept): 500 tables of two, with
# people's reactions (2 s) and with fast bots (0.3 s: every table ends a game every few seconds).
# PLAY_ROUNDS rounds (3 by default), each journal in turn: one p99 of ten seconds on two shared
# cores moves by a factor of two from one minute to the next, so the target below is judged on
# the rounds' medians, every round's row shown.
ROUNDS=${PLAY_ROUNDS:-3}
for ((round = 1; round <= ROUNDS; round++)); do
  wanted play && each play "" --mode play --tables 500 --seats 2 --reaction 2 --warmup 2 --duration 10
  wanted fastplay && each fastplay "" --mode play --tables 500 --seats 2 --reaction 0.3 --warmup 2 \
    --duration 10
done

echo
echo "matchismo $(git rev-parse --short HEAD 2>/dev/null || echo '?')${BENCH_SERVER_ARGS:+ $BENCH_SERVER_ARGS}, $(nproc) cores," \
  "ulimit -n $FILES${UNLIMITED:+, closed loop with $UNLIMITED}; raw: $RAW"
for kind in "${KINDS[@]}"; do
  [[ -z "${LABELS[$kind]:-}" ]] || echo "journal $kind: ${LABELS[$kind]}"
done
[[ -z "${LABELS[none]:-}" ]] || echo "journal none: ${LABELS[none]}"
echo "WAL MiB, DB MiB: what the row's load left, read before its server stopped (SQLite:" \
  "journal.sqlite-wal, journal.sqlite; PostgreSQL: the cluster's pg_wal, pg_database_size)."
echo
echo "| scenario | journal | mode | conns held | moves/s | diffs/s | p50 ms | p99 ms | p99.9 ms | max ms | server CPU | µs/diff | KiB/conn | liveness | errors | closes | WAL MiB | DB MiB |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|"
ms() { if [[ -z "$1" ]]; then echo "-"; else awk -v us="$1" 'BEGIN { printf "%.2f", us / 1000 }'; fi; }
mib() { if [[ ! "$1" =~ ^[0-9]+$ ]]; then echo "-"; else awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; fi; }
while read -r row; do
  declare -A v=()
  for pair in $row; do v[${pair%%=*}]=${pair#*=}; done
  case "${v[journal]}" in
    on) name=${v[name]} journal="SQLite" ;;
    full) name="${v[name]} (sync full)" journal="SQLite, sync full" ;;
    off) name="${v[name]} (no journal)" journal="off" ;;
    postgres) name="${v[name]} (PostgreSQL)" journal="PostgreSQL" ;;
    *) name=${v[name]} journal="none (old server)" ;;
  esac
  # PostgreSQL's WAL is the cluster's pg_wal folder: only this row's server writes to it.
  sizes="$(mib "${v[wal_bytes]}") | $(mib "${v[db_bytes]}")"
  if [[ -z "${v[mode]:-}" ]]; then
    echo "| $name | $journal | (no report) | | | | | | | | | | | | | | $sizes |"
    unset v
    continue
  fi
  live="-"
  [[ ${v[mode]} == idle ]] && live="${v[liveness_ok]}/${v[liveness_sent]}"
  # No answered move, no latency: show '-' rather than zeros.
  if [[ ${v[lat_n]:-0} == 0 ]]; then
    for k in lat_p50_us lat_p99_us lat_p999_us lat_max_us; do v[$k]=""; done
  fi
  echo "| $name | $journal | ${v[mode]} ${v[tables]}×${v[seats]} | ${v[held]} | ${v[moves_per_s]} |" \
    "${v[diffs_per_s]} | $(ms "${v[lat_p50_us]}") | $(ms "${v[lat_p99_us]}") |" \
    "$(ms "${v[lat_p999_us]}") | $(ms "${v[lat_max_us]}") | ${v[server_cpu_pct]:-?} % |" \
    "${v[server_us_per_diff]:-?} | ${v[server_kib_per_conn]:-?} | $live | ${v[errors]} | ${v[closes]} |" \
    "$sizes |"
  unset v
done <"$RAW.rows"

# Issue 32's target for real play: with the journal on, p99 at most twice its p99 without, plus
# 1 ms, at both speeds, on the medians of the rounds. One line per play scenario run both ways.
p99s() {
  awk -v n="$1" -v j="$2" '$1 == "name=" n && $2 == "journal=" j' "$RAW.rows" \
    | grep -o 'lat_p99_us=[0-9]*' | cut -d= -f2
}
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
shown() { local list=""; for us in $1; do list+="${list:+/}$(ms "$us")"; done; echo "$list"; }
for name in play fastplay; do
  on=$(p99s "$name" on)
  off=$(p99s "$name" off)
  [[ -n "$on" && -n "$off" ]] || continue
  on_median=$(echo "$on" | median)
  off_median=$(echo "$off" | median)
  verdict=$(awk -v on="$on_median" -v off="$off_median" 'BEGIN { print (on <= 2 * off + 1000) ? "met" : "NOT met" }')
  echo "$name: journal on p99 $(shown "$on") ms (median $(ms "$on_median")) against 2 ×" \
    "$(ms "$off_median") + 1 ms without (median of $(shown "$off")): target $verdict"
done
