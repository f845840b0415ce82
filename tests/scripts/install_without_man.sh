#!/usr/bin/env bash
# `cmake --install` after building only embdemo (`cmake --build build --target embdemo`): the man
# page is not built yet, and the install makes it before it installs it. Simulated on the build
# folder by removing its embdemo.1 first (the test holds the build folder's lock, see
# tests/CMakeLists.txt); the install remakes it in place.
# usage: install_without_man.sh BUILD_DIR
set -u
build_dir=$1
[ -f "$build_dir/embdemo.1" ] || { echo "SKIP: this build has no man page (no help2man)"; exit 77; }
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
rm -f "$build_dir/embdemo.1"
cmake --install "$build_dir" --prefix "$prefix" >"$prefix.log" 2>&1 || { cat "$prefix.log"; rm -f "$prefix.log"; echo "cmake --install failed"; exit 1; }
rm -f "$prefix.log"
[ -f "$build_dir/embdemo.1" ] || { echo "the install did not make the man page"; exit 1; }
grep -q '^\.TH EMBDEMO' "$prefix/share/man/man1/embdemo.1" || { echo "no man page installed"; exit 1; }
echo "install without a built man page: made and installed"
