#!/usr/bin/env bash
# Issue 36's crowd and issue 32's real play on a many-core machine, where the load generator has
# cores of its own: the server (release, its defaults: journal on, SQLite in a fresh folder) on
# half the cores, `matchismo-load` on the other half. Runs there from a folder made by
# ../shared/bench/devbox/pack.sh, with matchismo-load and the libraries it loads added to the
# bundle and this script and devbox-setup.sh copied beside it (scripts/devbox-pack-load.sh does
# all of it):
#   bash .devbox/devbox-crowd.sh .devbox OUTDIR [small]     (small: a try on this machine first)
# Every run writes matchismo-load's JSON report to OUTDIR/LABEL.json as soon as it ends, so a run
# cut short still leaves what it finished, and the server's /metrics to OUTDIR/LABEL.metrics
# (`matchismo_loop_long_passes_total`: the service thread's passes over 1 and 5 ms of its CPU). About five minutes on 16 cores.
#   crowd-0-K, crowd-10000-K: one table, 4 players at 40 moves/s in all, 0 or 10,000 spectators
#     (on a crowd thread of their own), alternating, twice (as scripts/crowd-bench.py runs it).
#   storm-join|leave|reconnect-R: the same 10,000, and 10 s into a 20 s window all at once;
#     ROUNDS rounds of the three (1 by default). Every report holds its latency histograms
#     (--histograms): scripts/pool-storms.py OUTDIR pools each storm's rounds into one p99.
#   fastplay-on|off-K, play-on|off-K: 500 tables of two bots that play (0.3 s and 2 s
#     reactions), journal on and --no-journal, alternating (as `scripts/bench.sh fastplay play`).
# PARTS picks among crowd, storms and play (all three by default); SERVER_OPTIONS are added to
# every server's options, and TAG to every label (e.g. SERVER_OPTIONS="--executors 0" TAG=-x0).
set -u
# shellcheck source=scripts/devbox-setup.sh
source "$(dirname "$0")/devbox-setup.sh"
N=$(nproc); SC="0-$((N / 2 - 1))"; LC="$((N / 2))-$((N - 1))"
CROWD=10000; WIN=10; REPS=2; SW=5
[ -n "$small" ] && { SC=0; LC=1; CROWD=1000; WIN=4; REPS=1; SW=2; }
echo "server cores $SC, load generator cores $LC" >>"$out/env.txt"
PARTS=${PARTS:-crowd storms play}; SERVER_OPTIONS=${SERVER_OPTIONS:-}; TAG=${TAG:-}
part() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
port=19200; spid=""
start() { # label options... (the server is bin/$BIN, bin/matchismo by default)
  port=$((port + 1)); local label=$1$TAG; shift
  rm -rf "$out/data"
  taskset -c "$SC" "$ldso" --library-path "$L" "$B/${BIN:-matchismo}" --port "$port" --log-level warning \
    --data-dir "$out/data" $SERVER_OPTIONS "$@" >"$out/$label.srv" 2>&1 &
  spid=$!
  for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done
}
stop() {
  ls "/proc/$spid/task" 2>/dev/null | wc -l >"$out/$1$TAG.threads"
  # The server's own counts of the run (its long passes, moves over 1 ms, journal commits).
  (exec 3<>"/dev/tcp/127.0.0.1/$port" && printf 'GET /metrics HTTP/1.0\r\n\r\n' >&3 &&
    timeout 5 cat <&3) >"$out/$1$TAG.metrics" 2>/dev/null
  kill "$spid" 2>/dev/null; sleep 0.3; kill -9 "$spid" 2>/dev/null; wait "$spid" 2>/dev/null
  rm -rf "$out/data"
}
load() { # label options...
  local label=$1$TAG; shift
  timeout 120 taskset -c "$LC" "$ldso" --library-path "$L" "$B/matchismo-load" --port "$port" \
    --server-pid "$spid" --json "$@" >"$out/$label.json" 2>"$out/$label.err"
  echo "$label rc=$? $(date +%s)" >>"$out/done.txt"
}
crowd() { # label spectators [storm]
  local label=$1 n=$2 storm=${3:-} extra=() d=$WIN
  [ "$n" -gt 0 ] && extra=(--crowd-threads 1 --crowd-nice 10)
  [ -n "$storm" ] && { extra+=(--storm "$storm" --storm-at "$WIN" --storm-window "$SW"); d=$((WIN * 2)); }
  start "$label" --spectator-limit 20000 --countdown 0.3
  load "$label" --mode open --tables 1 --seats 4 --spectators "$n" --rate 40 --warmup 3 \
    --duration "$d" --histograms "${extra[@]}"
  stop "$label"
}
play() { # label journal(on|off) reaction
  local label=$1 j=() ; [ "$2" = off ] && j=(--no-journal)
  start "$label" --countdown 0 "${j[@]}"
  load "$label" --mode play --tables 500 --seats 2 --reaction "$3" --warmup 2 --duration "$WIN" \
    --setup-timeout 30
  stop "$label"
}
date +%s >"$out/start.txt"
if part crowd; then
  for r in $(seq "$REPS"); do
    crowd "crowd-0-$r" 0
    crowd "crowd-$CROWD-$r" "$CROWD"
  done
fi
if part storms; then
  for r in $(seq "${ROUNDS:-1}"); do
    for s in join leave reconnect; do crowd "storm-$s-$r" "$CROWD" "$s"; done
  done
fi
if part play; then
  for r in $(seq "$REPS"); do
    play "fastplay-on-$r" on 0.3
    play "fastplay-off-$r" off 0.3
  done
  play play-on-1 on 2
  play play-off-1 off 2
fi
cat "$out/done.txt" 2>/dev/null
