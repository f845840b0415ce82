#!/usr/bin/env bash
# Builds one libFuzzer target (tests/fuzz) with clang++ under ASan+UBSan in build-fuzz/ (or
# $EMBDEMO_FUZZ_BUILD_DIR) and runs it for SECONDS: usage tools/fuzz.sh TARGET SECONDS [libFuzzer flags].
# TARGET: ids, weights, tokenizer or pipeline. New inputs go to build-fuzz/corpus/TARGET (the
# committed tests/fuzz/corpus/TARGET is read, never written); a crash is saved under
# build-fuzz/artifacts/TARGET/ — copy it into tests/fuzz/corpus/TARGET as a regression case.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "usage: tools/fuzz.sh TARGET SECONDS [libFuzzer flags]  (TARGET: ids, weights, tokenizer, pipeline)" >&2
  exit 2
fi
target=$1 seconds=$2
shift 2
case $target in ids|weights|tokenizer|pipeline) ;; *) echo "fuzz.sh: unknown target '$target'" >&2; exit 2 ;; esac
root=$(pwd)
build_dir=$root/${EMBDEMO_FUZZ_BUILD_DIR:-build-fuzz}
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S . -B "$build_dir" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DEMBDEMO_FUZZ=ON -DEMBDEMO_BENCH=OFF >/dev/null
fi
cmake --build "$build_dir" -j"${EMBDEMO_JOBS:-2}" --target "fuzz_$target"
mkdir -p "$build_dir/corpus/$target" "$build_dir/artifacts/$target"
# Sanitizer findings abort; leaks are findings too. Allocation stacks of 4 frames and a 16 MB
# quarantine (ASan's defaults: 30 and 256 MB) halve the pipeline target's time per input (a
# stack saved per malloc, fresh pages after every big free); a finding's input, rerun alone with
# ASan's defaults, gives the full report.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:malloc_context_size=4:quarantine_size_mb=16}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# tests/fuzz/TARGET.dict, where there is one: words libFuzzer splices into its inputs.
dict=()
[ -f "$root/tests/fuzz/$target.dict" ] && dict=(-dict="$root/tests/fuzz/$target.dict")
exec "$build_dir/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 "${dict[@]}" \
     -print_final_stats=1 -artifact_prefix="$build_dir/artifacts/$target/" "$@" \
     "$build_dir/corpus/$target" "$root/tests/fuzz/corpus/$target"
