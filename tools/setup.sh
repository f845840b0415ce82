#!/usr/bin/env bash
# Installs what is missing from Debian 12's packages, then configures and builds into build/ (or
# $EMBDEMO_BUILD_DIR). Nothing is downloaded at build time: every dependency is a Debian package.
#   tools/setup.sh          embdemo and its man page only: the packages that building and running
#                           embdemo needs (about 100 MB on a fresh Debian 12)
#   tools/setup.sh --tests  also the test tools (tools/test-packages.txt), and builds the unit
#                           tests, embdemo-bench and the rest (tools/test.sh calls it so)
# Further arguments go to cmake. Installing needs root or sudo; with nothing missing it does not.
set -euo pipefail
cd "$(dirname "$0")/.."

tests=0
if [ "${1:-}" = "--tests" ]; then
  tests=1
  shift
fi

# To build embdemo: the compiler, cmake, and the header libraries it is written with; utf8proc:
# Unicode classes for GPT-2's tokenizer (and BERT's WordPiece). libsentencepiece-dev: the Unigram
# and BPE tokenizers that `tokens --tokenizer` trains on a text. help2man: the man page (without it the build has none).
# libopenblas0-pthread: the BLAS that embdemo opens at run time for the products PyTorch hands to
# its BLAS (bag, weight files with inf or nan; core/kernels/torch_matmul.cpp), the one Debian's
# PyTorch uses.
packages=(g++ cmake make libcli11-dev libfmt-dev libxtensor-dev xtl-dev libxsimd-dev
          libutf8proc-dev help2man libopenblas0-pthread libsentencepiece-dev pkg-config)
# The test tools' packages are listed apart, in tools/test-packages.txt, with what each is for.
if [ $tests -eq 1 ]; then
  while read -r package _; do
    [ -n "$package" ] && [ "${package:0:1}" != "#" ] && packages+=("$package")
  done <tools/test-packages.txt
fi
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo)
  echo "setup: installing ${missing[*]}"
  "${as_root[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" \
    >/dev/null
fi

build_dir=${EMBDEMO_BUILD_DIR:-build}
if [ $tests -eq 1 ]; then
  cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DEMBDEMO_BUILD_TESTS=ON "$@" >/dev/null
else
  cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DEMBDEMO_BUILD_TESTS=OFF "$@" >/dev/null
fi
cmake --build "$build_dir" -j"$(nproc)"
