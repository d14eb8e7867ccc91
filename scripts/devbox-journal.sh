#!/usr/bin/env bash
# Issue 17's figures on a many-core machine: the journal on (the server's defaults), off, and an
# older build, beside the C relay, with the peer kit's load generator. Runs there from a folder
# made by ../shared/bench/devbox/pack.sh (its bundle.tar.xz holds bin/ and lib/), with the older
# build added to the bundle as bin/matchismo-base (unpack it, copy the stripped binary into bin/,
# pack it again) and this script and devbox-setup.sh copied beside it:
#   bash .devbox/devbox-journal.sh .devbox OUTDIR [small]     (small: a try on this machine first)
# Scenario a: one load generator, 250 tables x 4, open loop at 5,000 moves/s. Scenario b: the
# same closed loop (one load generator, as the kit runs it), then four load generators (1,000
# tables). Then a short soak: 2,000 moves/s for SOAK seconds with RSS, WAL and database sizes
# every 10 s. Servers on three quarters of the cores, load generators on the rest.
set -u
# shellcheck source=scripts/devbox-setup.sh
source "$(dirname "$0")/devbox-setup.sh"
N=$(nproc); SC="0-$((N * 3 / 4 - 1))"; LC="$((N * 3 / 4))-$((N - 1))"
DUR=8; REPS=${REPS:-2}; SOAK=${SOAK:-90}
# SERVER_OPTIONS: added to every game server's command line (e.g. --executors 0: the lobby on
# the service thread, as on a machine of 2 cores). PARTS: which of a, b, b4, soak to run.
SERVER_OPTIONS=${SERVER_OPTIONS:-}; PARTS=${PARTS:-a b b4 soak}
part() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
[ -n "$small" ] && { SC=0; LC=1; DUR=2; REPS=1; SOAK=20; }
port=19100; spid=""
start() { # label kind(relay|head|base) options...
  port=$((port + 1)); local label=$1 kind=$2; shift 2
  if [ "$kind" = relay ]; then
    taskset -c "$SC" "$ldso" --library-path "$L" "$B/relay_lws" "$port" ev >"$out/$label.srv" 2>&1 &
  else
    local bin=$B/matchismo; [ "$kind" = base ] && bin=$B/matchismo-base
    # head1024: the experiment build of 2026-11-26 read the page size of a new journal from
    # MATCHISMO_PAGE_SIZE; builds since make 1 KiB the default and ignore the variable.
    local page=""; [ "$kind" = head1024 ] && page=1024
    rm -rf "$out/data"
    MATCHISMO_PAGE_SIZE=$page taskset -c "$SC" "$ldso" --library-path "$L" "$bin" --port "$port" --countdown 0 \
      --log-level warning --rate-limit 1000000000 --data-dir "$out/data" $SERVER_OPTIONS "$@" >"$out/$label.srv" 2>&1 &
  fi
  spid=$!
  for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done
}
metrics() { # saves the journal's lines of /metrics
  { exec 3<>"/dev/tcp/127.0.0.1/$port" && printf 'GET /metrics HTTP/1.0\r\nHost: x\r\n\r\n' >&3 && cat <&3; } 2>/dev/null |
    grep -E '^matchismo_(journal|move_broadcast)' >"$out/$1.metrics"
}
stop() { kill "$spid" 2>/dev/null; sleep 0.3; kill -9 "$spid" 2>/dev/null; wait "$spid" 2>/dev/null; rm -rf "$out/data"; }
load() { # label procs mode rate duration; prints one summary line
  local label=$1 n=$2 mode=$3 rate=$4 d=$5 pids=() i x=mlive
  case $label in *relay*) x=relay ;; esac
  for i in $(seq "$n"); do
    local pf=""; [ "$i" = 1 ] && pf="-P $spid"
    taskset -c "$LC" "$B/loadgen" -X "$x" -p "$port" -t 250 -n 4 -m "$mode" -r "$rate" -w 2 -d "$d" $pf \
      >"$out/$label.lg$i" 2>"$out/$label.lg$i.err" &
    pids+=($!)
  done
  wait "${pids[@]}"
  awk -v l="$label" '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      d += v["diffs_per_s"]; e += v["errors"]; w += v["diffs_win"]
      if (FNR == NR) { p50 = v["p50_us"]; p99 = v["p99_us"]; p999 = v["p999_us"]; cpu = v["srv_cpu_win_s"] } }
    END { printf "%s diffs/s=%.0f errors=%d p50=%s p99=%s p999=%s srv_cpu_win_s=%s us_per_diff=%.2f\n",
      l, d, e, p50, p99, p999, cpu, (w > 0 ? cpu * 1e6 / w : 0) }' "$out/$label".lg[0-9] | tee -a "$out/summary.txt"
}
case1() { # label procs mode rate kind options...
  local label=$1 n=$2 mode=$3 rate=$4 kind=$5; shift 5
  start "$label" "$kind" "$@"; load "$label" "$n" "$mode" "$rate" "$DUR"
  [ "$kind" = relay ] || metrics "$label"; stop
}
rounds() { # scenario mode rate: REPS rounds of the relay, the head (4 KiB and 1 KiB pages),
  # the base and the head without the journal, in that order
  local rep
  for rep in $(seq "$REPS"); do
    case1 "$1-relay-$rep" 1 "$2" "$3" relay
    case1 "$1-journal-$rep" 1 "$2" "$3" head
    case1 "$1-journal-p1024-$rep" 1 "$2" "$3" head1024
    case1 "$1-base-journal-$rep" 1 "$2" "$3" base
    case1 "$1-nojournal-$rep" 1 "$2" "$3" head --no-journal
  done
}
part a && rounds a open 5000
part b && rounds b max 1
if part b4; then
  case1 b4-relay 4 max 1 relay
  case1 b4-journal 4 max 1 head
  case1 b4-journal-p1024 4 max 1 head1024
  case1 b4-journal-x6 4 max 1 head --executors 6
fi
# The soak: the journal on, sizes every 10 s while the load runs; 4 KiB pages, then 1 KiB.
soak() { # label kind
  start "$1" "$2"
  ( t=0; while kill -0 "$spid" 2>/dev/null; do
      echo "$t rss_kib=$(awk '/^VmRSS/{print $2}' /proc/$spid/status) wal=$(stat -c %s "$out/data/journal.sqlite-wal" 2>/dev/null || echo 0) db=$(stat -c %s "$out/data/journal.sqlite" 2>/dev/null || echo 0) written=$(awk '/^write_bytes/{print $2}' /proc/$spid/io)"
      sleep 10; t=$((t + 10)); done >"$out/$1-sizes.txt" ) &
  local sampler=$!
  load "$1" 1 open 2000 "$SOAK"
  kill "$sampler" 2>/dev/null; metrics "$1"; stop
}
if part soak; then
  soak soak head
  soak soak-p1024 head1024
fi
for f in "$out"/soak*-sizes.txt; do echo "$f"; tail -2 "$f"; done
