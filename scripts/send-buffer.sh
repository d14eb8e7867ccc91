#!/usr/bin/env bash
# What a client that never reads costs the kernel, with the server's fixed send buffer and with
# the kernel's own sizing: a release server with --drain-timeout 0 (nobody is cut), ten busy
# tables from matchismo-load (three players at the rate limit, the fourth only reads), and at
# two of them the fourth seat stops reading 5 s into the window. Every second, `ss -m` gives the
# bytes the kernel queues for each of the server's sockets (`w`); the report is the largest
# socket and the total, for each --send-buffer in SIZES (default "65536 0"), STALL_SECONDS
# (default 30) of stall each; and the most the server's own queue held for a blocked
# connection (`matchismo_outbound_largest_waiting_bytes`, sampled each second).
#
#   scripts/send-buffer.sh            (builds the release server if needed)
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=${SIZES:-"65536 0"}
SECONDS_EACH=${STALL_SECONDS:-30}
swift build -c release --product matchismo >/dev/null
swift build -c release --product matchismo-load >/dev/null
free_port() {
  python3 scripts/free_port.py
}
for size in $SIZES; do
  data=$(mktemp -d)
  port=$(free_port)
  .build/release/matchismo --port "$port" --data-dir "$data" --countdown 0 --log-level warning \
    --drain-timeout 0 --send-buffer "$size" &
  server=$!
  while ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do sleep 0.1; done
  .build/release/matchismo-load --mode open --port "$port" --tables 10 --seats 4 --rate 760 \
    --warmup 1 --duration $((SECONDS_EACH + 5)) --stall-at 5 --stall-window 5 --stall-tables 2 \
    >/dev/null &
  load=$!
  largest=0 total=0 queued=0
  while kill -0 "$load" 2>/dev/null; do
    waiting=$(curl -s "http://127.0.0.1:$port/metrics" |
      awk '/^matchismo_outbound_largest_waiting_bytes/ { printf "%d", $2 }')
    ((${waiting:-0} > queued)) && queued=$waiting
    read -r big sum < <(ss -tmnH state established "( sport = :$port )" |
      grep -o ',w[0-9]*' | tr -d ',w' | awk '{ if ($1 > m) m = $1; s += $1 } END { print m + 0, s + 0 }')
    ((big > largest)) && largest=$big
    ((sum > total)) && total=$sum
    sleep 1
  done
  kill -TERM "$server"
  wait "$server" 2>/dev/null || true
  rm -rf "$data"
  echo "send-buffer=$size: kernel bytes queued for one socket at most $largest, all sockets at most $total; the most waiting for one blocked connection (its queue and its unsent bytes) $queued"
done
