#!/usr/bin/env bash
# `swift build` with the tests' flags (no DWARF, see the Makefile) and the given arguments, one
# after the other (`--product matchismo-load --product matchismo`: each a `swift build` of its
# own, as SwiftPM builds one product a call); fails on any warning.
set -uo pipefail
log=$(mktemp)
trap 'rm -f "$log"' EXIT
flags=(-Xswiftc -gnone -Xcc -g0)
build() {
  swift build "$@" "${flags[@]}" 2>&1 | tee -a "$log"
}
if [ "${1:-}" = --product ]; then
  while [ $# -ge 2 ] && [ "$1" = --product ]; do
    build --product "$2" || exit 1
    shift 2
  done
else
  build "$@" || exit 1
fi
if grep -q "warning:" "$log"; then
  echo "The build has warnings (see above)."
  exit 1
fi
