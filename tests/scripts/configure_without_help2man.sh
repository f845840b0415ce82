#!/usr/bin/env bash
# Configuring without help2man works: one status line says there is no man page, and the build
# has no man page target (cmake used to stop with a fatal error). help2man is hidden from
# find_program by ignoring the system's program directories; the compiler, make and pkg-config
# (which finds SentencePiece) are given.
# usage: configure_without_help2man.sh SOURCE_DIR
set -u
source_dir=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake -S "$source_dir" -B "$work/build" -DEMBDEMO_BUILD_TESTS=OFF -DEMBDEMO_BENCH=OFF \
  "-DCMAKE_IGNORE_PATH=/usr/bin;/bin;/usr/local/bin;/usr/sbin;/sbin" \
  -DCMAKE_CXX_COMPILER="$(command -v c++)" -DCMAKE_MAKE_PROGRAM="$(command -v make)" \
  -DPKG_CONFIG_EXECUTABLE="$(command -v pkg-config)" >"$work/log" 2>&1 ||
  { cat "$work/log"; echo "configure without help2man failed"; exit 1; }
grep -qx -- '-- help2man not found: no man page (Debian package help2man)' "$work/log" ||
  { cat "$work/log"; echo "no line saying that there is no man page"; exit 1; }
! grep -q 'embdemo_man' "$work/build/Makefile" || { echo "a man page target without help2man"; exit 1; }
echo "configure without help2man: no man page, said once"
