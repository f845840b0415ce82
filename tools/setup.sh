#!/usr/bin/env bash
# Installs embdemo's build dependencies from Debian 12's packages (only the missing ones), then
# configures and builds into build/ (or $EMBDEMO_BUILD_DIR). Extra arguments go to cmake.
# Nothing is downloaded at build time: every dependency is a Debian package.
set -euo pipefail
cd "$(dirname "$0")/.."

# help2man: the man page; locales (localedef) and bsdutils (script): the determinism test;
# time (GNU time's peak RSS): the memory-estimate test; libopenblas-dev: embdemo-bench;
# libutf8proc-dev: Unicode classes for GPT-2's tokenizer.
# libxml2-utils (xmllint), librsvg2-bin (rsvg-convert): the SVG checks; chromium, chromium-driver,
# python3-selenium: the HTML lesson's browser test (ctest label `browser`).
# clang, libclang-rt-14-dev (libFuzzer and the sanitizers' runtimes for clang): tools/fuzz.sh.
# python3-torch, python3-numpy: the live tests against PyTorch (ctest label torch-live); cmark:
# rendering the Markdown output in tests.
packages=(g++ cmake make libcli11-dev libfmt-dev libxtensor-dev xtl-dev libxsimd-dev doctest-dev
          help2man locales bsdutils time libopenblas-dev libutf8proc-dev
          libxml2-utils librsvg2-bin chromium chromium-driver python3-selenium
          clang libclang-rt-14-dev python3-torch python3-numpy cmark)
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
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

build_dir=${EMBDEMO_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$build_dir" -j"$(nproc)"
