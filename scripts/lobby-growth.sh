#!/usr/bin/env bash
# The lobby's longest single decisions while a crowd arrives (docs/BENCHMARKS.md, "Growing
# without a pause"): copies scripts/lobby-growth/LobbyGrowthProbe.swift into Tests/LobbyTests,
# builds the tests in release (some minutes), runs the probe RUNS times (default 3), and takes
# the probe out again, whatever happens. PROBE=TableCountProbe runs the other probe there (the
# metrics' count of the tables, "The tables counted as they change").
#
#   scripts/lobby-growth.sh                                  # 60,000 spectators, 3 runs
#   LOBBY_GROWTH_SPECTATORS=12000 RUNS=1 scripts/lobby-growth.sh
#   PROBE=TableCountProbe [TABLE_COUNT_TABLES=10000] scripts/lobby-growth.sh
set -euo pipefail
cd "$(dirname "$0")/.."
NAME=${PROBE:-LobbyGrowthProbe}
PROBE=Tests/LobbyTests/$NAME.swift
trap 'rm -f "$PROBE"' EXIT
cp "scripts/lobby-growth/$NAME.swift" "$PROBE"
swift build -c release --build-tests -Xswiftc -enable-testing 2>&1 | grep -E "error|warning:|Build" || true
for _ in $(seq "${RUNS:-3}"); do
  swift test -c release -Xswiftc -enable-testing --skip-build --filter "$NAME" 2>&1 |
    grep -E "^slowest|^decisions|^count|✘" || true
  echo
done
