#!/usr/bin/env bash
# Instructions per move: a release server under callgrind, driven by matchismo-load in the open
# loop at a low fixed rate (250 tables × 4). The counters are zeroed once moves flow and dumped
# WINDOW seconds later; the moves in between are the calls of `ClientMessageDecoder.decode`
# recorded in the dump (every message of the open loop is one `choose`). Prints the
# instructions (Ir) in the window, the moves, Ir per move and per delivered diff (× 4).
#
#   scripts/callgrind-moves.sh [SERVER_BINARY] [RATE] [WINDOW]     # defaults: release, 200, 15
#
# LOAD_ARGS="--mode play --tables 20 --seats 2 --reaction 0.3" measures real play instead (sets,
# deals, games ending): each message is then a choice or a re-deal vote, counted alike. Many
# tables take long to seat under valgrind: LOAD_SECONDS (default WINDOW + 15) keeps the load
# going past the window, so that its connections' closes at its end stay out of the count, e.g.
# LOAD_SECONDS=135 LOAD_ARGS="--mode play --tables 2000 --seats 2 --reaction 40" (people's pace).
#
# Debian's valgrind 3.19 needs two work-arounds for a Swift 6.3 binary, both applied here to
# copies in a temporary directory, never to the build: the binary's DWARF 5 debug info is
# stripped (valgrind cannot read it; function names stay), and libdispatch's main thread, parked
# in `sigsuspend` after `dispatch_main`, crashes valgrind, so an LD_PRELOAD shim parks it in a
# sleep loop instead. The server is killed after the dump (under the shim it does not exit
# cleanly).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.build/release/matchismo}
RATE=${2:-200}
WINDOW=${3:-15}
LOAD=.build/release/matchismo-load
WORK=$(mktemp -d "${TMPDIR:-/tmp}/callgrind-moves.XXXXXX")
objcopy --strip-debug "$BIN" "$WORK/matchismo"
cat >"$WORK/park.c" <<'EOF'
#include <signal.h>
#include <unistd.h>
int sigsuspend(const sigset_t *mask) { (void)mask; for (;;) sleep(1000); return -1; }
EOF
cc -shared -fPIC -O2 -o "$WORK/park.so" "$WORK/park.c"
PORT=$(python3 scripts/free_port.py)
ulimit -n "$(ulimit -Hn)"
# The journal: JOURNAL=off by default here (the instruction counts in Package.swift and
# docs/BENCHMARKS.md were taken without it); on, full or postgres as in scripts/journal-args.sh.
# shellcheck source=scripts/journal-args.sh
source scripts/journal-args.sh
KIND=$(journal_kinds off)
read -r KIND _ <<<"$KIND"
journal_begin "$BIN" "$KIND"
LD_PRELOAD="$WORK/park.so" valgrind --tool=callgrind --callgrind-out-file="$WORK/cg.out" \
  "$WORK/matchismo" --host 127.0.0.1 --port "$PORT" --countdown 0 --log-level warning \
  "${JOURNAL_ARGS[@]}" \
  >"$WORK/server.log" 2>&1 &
VPID=$!
trap 'kill -KILL $VPID 2>/dev/null || true; journal_cleanup' EXIT
for _ in $(seq 300); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break; sleep 0.2; done
moves() { curl -s "http://127.0.0.1:$PORT/metrics" | awk '/^matchismo_moves_accepted_total/ {print $2}'; }
# shellcheck disable=SC2086 # LOAD_ARGS is a list of options
"$LOAD" --port "$PORT" ${LOAD_ARGS:---mode open --tables 250 --seats 4 --rate "$RATE"} --warmup 5 \
  --duration "${LOAD_SECONDS:-$((WINDOW + 15))}" --setup-timeout 200 >"$WORK/load.txt" 2>&1 &
for _ in $(seq 600); do
  m=$(moves)
  [[ "$m" =~ ^[0-9]+$ ]] && ((m > 100)) && break
  sleep 0.5
done
sleep 3
callgrind_control -z "$VPID" >/dev/null 2>&1
sleep "$WINDOW"
callgrind_control -d "$VPID" >/dev/null 2>&1
sleep 1
DUMPS=("$WORK"/cg.out.*)
DUMP=${DUMPS[0]}
python3 - "$DUMP" <<'EOF'
import re, sys
names, calls, cfn, total = {}, 0, None, None
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r'^(c?fn)=\((\d+)\)(?: (.*))?$', line.rstrip("\n"))
    if m:
        if m.group(3): names[m.group(2)] = m.group(3)
        if m.group(1) == "cfn": cfn = m.group(2)
        continue
    m = re.match(r'^calls=(\d+)', line)
    if m and "ClientMessageDecoderO6decode" in names.get(cfn, ""): calls += int(m.group(1))
    m = re.match(r'^summary: (\d+)', line)
    if m: total = int(m.group(1))
print(f"Ir {total:,} moves {calls:,} Ir/move {total / calls:,.0f} Ir/diff {total / calls / 4:,.0f}")
EOF
echo "callgrind dump: $DUMP (callgrind_annotate --inclusive=yes $DUMP | swift demangle --simplified)"
