#!/usr/bin/env bash
# Builds the libFuzzer target Fuzz/TARGET.swift and runs it for RUNS inputs, then prints one
# summary line (inputs, crashes, time, exec/s). Extra arguments go to libFuzzer, e.g.
# `-max_total_time=20`. Exits non-zero when the target crashed, leaked or timed out.
#
# A target names the project modules it needs, in dependency order, on a line of its own:
#   // fuzz-modules: Model Protocol
# Each is compiled once from Sources/NAME (Logging from swift-log's checkout) into
# .build-fuzz/modules, with coverage and AddressSanitizer, and rebuilt when its sources change.
# The coverage is libFuzzer's default: edges, and every comparison traced so that libFuzzer can
# put the values compared into its inputs. A target whose bytes mostly pick events rather than
# reach the code as data can ask for edges alone, which makes each input much cheaper (its
# modules go to .build-fuzz/modules-edges):
#   // fuzz-coverage: edges
#
# A target may also bound its inputs' length (libFuzzer's -max_len, 8192 unless it says):
#   // fuzz-max-len: 64
#
# A target's helpers go in the folder of its name, Fuzz/TARGET/ (every .swift file there is
# compiled with Fuzz/TARGET.swift, as one module): only the files directly in Fuzz/ are targets.
#
# AddressSanitizer runs with malloc_context_size=0 (no stack recorded for every allocation and
# free; that bookkeeping was a third of the cost of the lobby target): it finds the same errors,
# and when one is found its input is run again with full stacks for the report. An ASAN_OPTIONS
# of your own replaces that default.
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
# FUZZ_BUILD=quick compiles without optimisation: a third of the compile time for slower
# inputs, for `make test`'s bounded smoke run (its modules and binaries are kept apart).
case ${FUZZ_BUILD:-fast} in
  fast) optimize=(-O -cross-module-optimization); suffix= ;;
  quick) optimize=(-Onone); suffix=-quick ;;
  *) echo "Unknown FUZZ_BUILD '$FUZZ_BUILD' (fast or quick)." >&2; exit 2 ;;
esac
coverage=$(sed -n 's#^// fuzz-coverage: ##p' "$source_file" | head -n 1)
case ${coverage:-default} in
  default) modules_dir=$out/modules$suffix; instrument=(-sanitize=fuzzer,address) ;;
  edges)
    modules_dir=$out/modules-edges$suffix
    instrument=(-sanitize=address -sanitize-coverage=edge,inline-8bit-counters,pc-table) ;;
  *) echo "Unknown fuzz-coverage '$coverage' in $source_file (edges, or no line)." >&2; exit 2 ;;
esac
mkdir -p "$modules_dir" "$out/corpus/$target" "$out/artifacts/$target" "Fuzz/corpus/$target"
# Cross-module optimisation lets a target's calls into generic code of the modules (the game,
# the table) be specialised, as in one whole program; it changes speed, not behaviour.
swift_flags=("${optimize[@]}" -parse-as-library -swift-version 6
  -enable-upcoming-feature ExistentialAny -package-name matchismo_fuzz -I "$modules_dir")

modules=$(sed -n 's#^// fuzz-modules: ##p' "$source_file" | head -n 1)
objects=()
# Everything is rebuilt when the flags differ from those the modules were built with.
flags_stamp=$modules_dir/flags
flags="${swift_flags[*]} ${instrument[*]}"
rebuilt=false
[ -f "$flags_stamp" ] && [ "$(cat "$flags_stamp")" = "$flags" ] || rebuilt=true
for module in $modules; do
  case $module in
    Logging) dir=.build/checkouts/swift-log/Sources/Logging ;;
    *) dir=Sources/$module ;;
  esac
  if [ "$module" = Logging ] && [ ! -d "$dir" ]; then swift package resolve; fi
  [ -d "$dir" ] || { echo "No sources for module $module in $dir." >&2; exit 2; }
  object=$modules_dir/$module.o
  # A module is rebuilt when its sources changed or a module it may import was rebuilt.
  if $rebuilt || [ ! -f "$object" ] || [ -n "$(find "$dir" -name '*.swift' -newer "$object")" ]
  then
    echo "fuzz: compiling $module"
    mapfile -t sources < <(find "$dir" -name '*.swift' | sort)
    swiftc "${swift_flags[@]}" "${instrument[@]}" -wmo -module-name "$module" -emit-module \
      -emit-module-path "$modules_dir/$module.swiftmodule" -c "${sources[@]}" -o "$object"
    rebuilt=true
  fi
  objects+=("$object")
done
echo "$flags" >"$flags_stamp"

# The target's file and its helpers (Fuzz/TARGET/*.swift, if any); the folder itself is
# watched too, so that a helper added or removed relinks the target.
target_sources=("$source_file")
watched=("$source_file")
if [ -d "Fuzz/$target" ]; then
  mapfile -t helpers < <(find "Fuzz/$target" -name '*.swift' | sort)
  target_sources+=("${helpers[@]}")
  watched+=("Fuzz/$target")
fi

binary=$out/$target$suffix
if $rebuilt || [ ! -f "$binary" ] ||
  [ -n "$(find "${watched[@]}" "${objects[@]}" -newer "$binary")" ]; then
  echo "fuzz: linking $target"
  # The target is compiled with the same instrumentation as its modules, then linked with
  # libFuzzer (which -sanitize=fuzzer would also use to instrument a source file).
  swiftc "${swift_flags[@]}" "${instrument[@]}" -wmo -module-name "${target}Fuzz" \
    -c "${target_sources[@]}" -o "$out/$target$suffix.o"
  swiftc -sanitize=fuzzer,address -use-ld=lld "$out/$target$suffix.o" "${objects[@]}" -o "$binary"
fi
export ASAN_OPTIONS=${ASAN_OPTIONS-malloc_context_size=0}
# The Swift runtime's own crash handler (swift-backtrace) is off: under AddressSanitizer its
# memory server trips a false stack-buffer-overflow, which replaced the real failure in the
# report, and the reproduction below then waited for ever. A failed precondition prints its
# message and traps; libFuzzer reports the deadly signal with the sanitizer's stack.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE-enable=no}

max_len=$(sed -n 's#^// fuzz-max-len: ##p' "$source_file" | head -n 1)
options=(-runs="$runs" -max_len="${max_len:-8192}" -timeout=10 -print_final_stats=1
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
  # The newest artifact again, with allocation and free stacks in the report.
  artifact=$(ls -1t "$out/artifacts/$target/" | head -n 1)
  if [ -n "$artifact" ]; then
    echo "Reproducing $artifact with full stacks:"
    ASAN_OPTIONS=malloc_context_size=30 "$binary" "$out/artifacts/$target/$artifact" 2>&1 |
      tail -n 60 || true
  fi
  exit 1
fi
