#!/usr/bin/env bash
# The whole test suite: installs what is missing and builds (tools/setup.sh --tests), then runs every
# unit, golden and documentation test with ctest.
#   tools/test.sh             release build in build/
#   tools/test.sh --sanitize  AddressSanitizer + UndefinedBehaviorSanitizer build in build-sanitize/
# Further arguments go to ctest (e.g. -LE browser).
set -euo pipefail
cd "$(dirname "$0")/.."

cmake_args=()
if [ "${1:-}" = "--sanitize" ]; then
  export EMBDEMO_BUILD_DIR=build-sanitize
  # -O1 -g1 (line tables, enough for the sanitizers' stack traces) compile in half the time of
  # RelWithDebInfo's -O2 -g (CLI11's options.cpp: 26 s against 55 s), which the pass's run
  # time does not win back.
  cmake_args=(-DEMBDEMO_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
              "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG")
  shift
fi
build_dir=${EMBDEMO_BUILD_DIR:-build}
tools/setup.sh --tests "${cmake_args[@]}"
ctest --test-dir "$build_dir" --output-on-failure -j"$(nproc)" "$@"
