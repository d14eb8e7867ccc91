#!/usr/bin/env bash
# Issue 36's storms on a lent many-core machine, this build against an older one, alternating
# (the machine's noise moves from lease to lease, so only runs of one lease compare). Packed by
#   OLD=/path/to/older/matchismo scripts/devbox-pack-load.sh .devbox
# which adds the older build to the bundle as bin/matchismo-old; run there as
#   bash .devbox/devbox-ab.sh .devbox OUTDIR [small]
# Labels end in -new or -old (and the round). STORMS (default "join reconnect join leave") picks
# the storms, in order; SERVER_OPTIONS go to every server; QUIET=1 adds a quiet table of each
# build first. Every run is devbox-crowd.sh's `crowd` (one table, 4 players, 10,000 spectators),
# its server the build that BIN names; scripts/pool-storms.py OUTDIR pools each storm's rounds of
# each build into one p99 before and from the storm.
PARTS=none
# shellcheck source=scripts/devbox-crowd.sh
source "$(dirname "$0")/devbox-crowd.sh" "$1" "$2" "${3:-}"
[ -n "$small" ] && CROWD=1000
[ -x "$B/matchismo-old" ] || { echo "no bin/matchismo-old in the bundle: pack with OLD=" >&2; exit 2; }
if [ -n "${QUIET:-}" ]; then
  BIN=matchismo TAG=-new; crowd crowd-0 0
  BIN=matchismo-old TAG=-old; crowd crowd-0 0
fi
round=0
for s in ${STORMS:-join reconnect join leave}; do
  round=$((round + 1))
  BIN=matchismo TAG=-new-$round; crowd "storm-$s" "$CROWD" "$s"
  BIN=matchismo-old TAG=-old-$round; crowd "storm-$s" "$CROWD" "$s"
done
cat "$out/done.txt"
