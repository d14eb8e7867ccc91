#!/usr/bin/env bash
# Packs the many-core run of scripts/devbox-crowd.sh: the peer kit's bundle (the release
# `matchismo`, its libraries, Debian's dynamic loader) with the release `matchismo-load` and the
# libraries it loads added, and the scripts beside it. From the project root, after
#   swift build -c release --product matchismo && swift build -c release --product matchismo-load
#   scripts/devbox-pack-load.sh [.devbox]          (a git-ignored folder)
# With OLD=path/to/an/older/matchismo, that build goes in too, as bin/matchismo-old, for
# scripts/devbox-ab.sh (the storms, this build against it).
set -euo pipefail
out=${1:-.devbox}
../shared/bench/devbox/pack.sh "$out" >/dev/null
stage=$(mktemp -d); trap 'rm -rf "$stage"' EXIT
tar -xJf "$out/bundle.tar.xz" -C "$stage"
cp .build/release/matchismo-load "$stage/bin/"; strip "$stage/bin/matchismo-load"
ldd "$stage/bin/matchismo-load" | awk '$3 ~ /^\// {print $3}' | sort -u |
  while read -r l; do [ -e "$stage/lib/$(basename "$l")" ] || cp -L "$l" "$stage/lib/"; done
if [ -n "${OLD:-}" ]; then cp "$OLD" "$stage/bin/matchismo-old"; strip "$stage/bin/matchismo-old"; fi
tar -cJf "$out/bundle.tar.xz" -C "$stage" bin lib
cp scripts/devbox-crowd.sh scripts/devbox-setup.sh scripts/devbox-ab.sh "$out/"
du -sh "$out"
