#!/usr/bin/env bash
# Output files through the real binary: what may stand where --save-weights and
# --export-projector write, and that a run which fails leaves nothing behind.
# Devices are made in a temporary directory (mknod as root); /dev/null itself is never a target
# when running as root, where a regression could replace it.
# usage: output_files.sh EMBDEMO
set -u
binary=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
run() { "$binary" "$@" 2>"$work/stderr" </dev/null; }

# refused TARGET_DESCRIPTION EXPECTED_MESSAGE ARGS...: exit 2, nothing on stdout, the message.
refused() {
  local what=$1 message=$2
  shift 2
  run --ids 2,3,1 --dim 5 "$@" >"$work/stdout"
  local status=$?
  [ $status -eq 2 ] || fail "$what: status $status, expected 2"
  [ ! -s "$work/stdout" ] || fail "$what: wrote to stdout"
  grep -qF -- "$message" "$work/stderr" || fail "$what: message $(cat "$work/stderr")"
}

# A named pipe, directly and through a symbolic link: refused, and still a pipe.
mkfifo "$work/pipe.npy"
ln -s pipe.npy "$work/to_pipe.npy"
refused "fifo" 'exists and is a named pipe (allowed: a regular file' --save-weights "$work/pipe.npy"
refused "link to a fifo" 'exists and is a named pipe' --save-weights "$work/to_pipe.npy"
[ -p "$work/pipe.npy" ] && [ -L "$work/to_pipe.npy" ] || fail "the pipe or its link was replaced"

# A character device: a node of our own as root, otherwise /dev/null (which we cannot replace).
if [ "$(id -u)" -eq 0 ] && mknod "$work/null" c 1 3 2>/dev/null; then
  device="$work/null"
else
  device=/dev/null
fi
ln -s "$device" "$work/to_null.npy"
refused "link to a device" 'exists and is a character device' --save-weights "$work/to_null.npy"
[ -c "$device" ] && [ -L "$work/to_null.npy" ] || fail "the device or its link was replaced"

# A directory named like the file; a file, a pipe or a device where the projector's files go.
mkdir "$work/dir.npy"
refused "directory" 'exists and is a directory' --save-weights "$work/dir.npy"
touch "$work/plain"
refused "file as projector dir" '--export-projector "'"$work"'/plain": exists and is a regular file (allowed: a directory' \
  --export-projector "$work/plain"
mkdir "$work/projector"
mkfifo "$work/projector/metadata.tsv"
refused "fifo as metadata.tsv" 'metadata.tsv": exists and is a named pipe' --export-projector "$work/projector"
[ ! -e "$work/projector/vectors.tsv" ] || fail "vectors.tsv written although metadata.tsv was refused"
ln -s "$device" "$work/projector/vectors.tsv"
rm "$work/projector/metadata.tsv"
refused "device as vectors.tsv" 'vectors.tsv": exists and is a character device' --export-projector "$work/projector"
[ -c "$device" ] || fail "the device behind vectors.tsv was replaced"

[ $failures -eq 0 ] && echo "all output file checks passed"
exit $((failures > 0))
