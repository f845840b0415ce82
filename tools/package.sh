#!/usr/bin/env bash
# Builds embdemo's Debian package from a configured build folder (tools/setup.sh makes build/):
#   tools/package.sh [BUILD_DIR]      writes BUILD_DIR/package/embdemo_VERSION_ARCH.deb, prints its path
# It builds what is missing, then runs `cpack -G DEB`: the binaries, the man page, the bash
# completion, GPT-2's vocabulary and the documentation, under /usr. Needs dpkg-dev
# (dpkg-shlibdeps, for Depends), which `tools/setup.sh --tests` installs. Install the result with
# `sudo apt install ./BUILD_DIR/package/embdemo_*.deb`.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=$(cd "${1:-build}" && pwd)
command -v dpkg-shlibdeps >/dev/null || { echo "package: dpkg-shlibdeps is missing (Debian package dpkg-dev)" >&2; exit 2; }
cmake --build "$build_dir" -j"$(nproc)" >/dev/null
rm -rf "$build_dir/package"
(cd "$build_dir" && cpack -G DEB -B "$build_dir/package" >/dev/null)
ls "$build_dir"/package/embdemo_*.deb
