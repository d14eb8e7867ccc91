#!/usr/bin/env bash
# Fails when a Python file of the end-to-end tests (a test file or a support module in e2e/) is
# longer than LIMIT lines (default 400): split such a file by feature, its shared helpers into a
# support module. Run by `make test` (`make e2e-sizes`).
set -euo pipefail
limit=${1:-400}
cd "$(dirname "$0")/.."
status=0
for file in e2e/*.py; do
  lines=$(wc -l < "$file")
  if (( lines > limit )); then
    echo "$file: $lines lines, more than $limit: split it by feature (shared helpers into a support module)" >&2
    status=1
  fi
done
exit "$status"
