#!/usr/bin/env bash
# Builds the libFuzzer target Fuzz/TARGET.swift and runs it for RUNS inputs, then prints one
# summary line (inputs, crashes, time, exec/s). Extra arguments go to libFuzzer, e.g.
# `-max_total_time=20`. Exits non-zero when the target crashed, leaked or timed out.
#
# A target names the project modules it needs, in dependency order, on a line of its own:
#   // fuzz-modules: Model Protocol
# Each is compiled once from Sources/NAME (Logging from swift-log's checkout) into
# .build-fuzz/modules, with coverage and AddressSanitizer, and rebuilt when its sources change.
# The corpus grows in .build-fuzz/corpus/TARGET; Fuzz/corpus/TARGET holds the checked-in seeds,
# which libFuzzer only reads. Crashing inputs land in .build-fuzz/artifacts/TARGET/.
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: scripts/fuzz.sh TARGET RUNS [libFuzzer options...]"
target=${1:?$usage}
runs=${2:?$usage}
shift 2
source_file=Fuzz/$target.swift
[ -f "$source_file" ] || { echo "No fuzz target $source_file." >&2; exit 2; }

out=.build-fuzz
mkdir -p "$out/modules" "$out/corpus/$target" "$out/artifacts/$target" "Fuzz/corpus/$target"
swift_flags=(-O -parse-as-library -swift-version 6 -enable-upcoming-feature ExistentialAny
  -package-name matchismo_fuzz
  -sanitize=fuzzer,address -I "$out/modules")

modules=$(sed -n 's#^// fuzz-modules: ##p' "$source_file" | head -n 1)
objects=()
rebuilt=false
for module in $modules; do
  case $module in
    Logging) dir=.build/checkouts/swift-log/Sources/Logging ;;
    *) dir=Sources/$module ;;
  esac
  if [ "$module" = Logging ] && [ ! -d "$dir" ]; then swift package resolve; fi
  [ -d "$dir" ] || { echo "No sources for module $module in $dir." >&2; exit 2; }
  object=$out/modules/$module.o
  # A module is rebuilt when its sources changed or a module it may import was rebuilt.
  if $rebuilt || [ ! -f "$object" ] || [ -n "$(find "$dir" -name '*.swift' -newer "$object")" ]
  then
    echo "fuzz: compiling $module"
    mapfile -t sources < <(find "$dir" -name '*.swift' | sort)
    swiftc "${swift_flags[@]}" -wmo -module-name "$module" -emit-module \
      -emit-module-path "$out/modules/$module.swiftmodule" -c "${sources[@]}" -o "$object"
    rebuilt=true
  fi
  objects+=("$object")
done

binary=$out/$target
if $rebuilt || [ ! -f "$binary" ] || [ "$source_file" -nt "$binary" ]; then
  echo "fuzz: linking $target"
  swiftc "${swift_flags[@]}" -use-ld=lld -module-name "${target}Fuzz" "$source_file" \
    "${objects[@]}" -o "$binary"
fi

options=(-runs="$runs" -max_len=8192 -timeout=10 -print_final_stats=1
  -artifact_prefix="$out/artifacts/$target/")
[ -f "Fuzz/$target.dict" ] && options+=(-dict="Fuzz/$target.dict")
command="$binary ${options[*]} $* $out/corpus/$target Fuzz/corpus/$target"
log=$out/$target.log
echo "fuzz: $command"
start=$(date +%s)
set +e
"$binary" "${options[@]}" "$@" "$out/corpus/$target" "Fuzz/corpus/$target" >"$log" 2>&1
status=$?
set -e
seconds=$(($(date +%s) - start))

inputs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
corpus=$(find "$out/corpus/$target" -type f | wc -l)
if [ "$status" -eq 0 ]; then
  echo "fuzz $target: ${inputs:-?} inputs, crashes 0, ${seconds} s, ${speed:-?} exec/s," \
    "working corpus $corpus files"
else
  # libFuzzer stops at the first failure, so this is one crash (or leak, or timeout).
  echo "fuzz $target: FAILED (exit $status) after ${seconds} s; crashes 1. The end of $log:"
  tail -n 60 "$log"
  echo "Failing input(s):"
  ls -1 "$out/artifacts/$target/"
  exit 1
fi
