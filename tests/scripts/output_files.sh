#!/usr/bin/env bash
# Output files through the real binary: what may stand where --save-weights and
# --export-projector write, and that a run which fails leaves nothing behind.
# Devices are made in a temporary directory (mknod as root); /dev/null itself is never a target
# when running as root, where a regression could replace it.
# usage: output_files.sh EMBDEMO
set -u
binary=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
skipped=""
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
# Inside the directory a link is refused whatever it points to (tests/scripts/unsafe_paths.sh).
ln -s "$device" "$work/projector/vectors.tsv"
rm "$work/projector/metadata.tsv"
refused "link to a device as vectors.tsv" 'vectors.tsv": exists and is a symbolic link' --export-projector "$work/projector"
[ -c "$device" ] && [ -L "$work/projector/vectors.tsv" ] || fail "the device behind vectors.tsv was replaced"

# Two outputs naming the same path: refused before any work, nothing written.
refused "clash" '--save-weights "'"$work"'/x.npy": is also the --export-projector directory' \
  --save-weights "$work/x.npy" --export-projector "$work/x.npy"
refused "clash, spelled differently" 'is also the --export-projector directory' \
  --save-weights "$work/./x.npy" --export-projector "$work/sub/../x.npy"
[ ! -e "$work/x.npy" ] || fail "clashing outputs wrote x.npy"

# stdout fails (a full disk): exit 1 and no file appears, not even a new directory or a
# temporary file; an existing file keeps its content.
echo old >"$work/kept.npy"
if [ -w /dev/full ]; then
  "$binary" --ids 2,3,1 --dim 5 --save-weights "$work/a.npy" --export-projector "$work/new_dir" \
    >/dev/full 2>"$work/stderr" </dev/null
  status=$?
  [ $status -eq 1 ] || fail "/dev/full: status $status, expected 1"
  grep -qF 'cannot write to standard output' "$work/stderr" || fail "/dev/full message: $(cat "$work/stderr")"
  [ ! -e "$work/a.npy" ] && [ ! -e "$work/new_dir" ] || fail "/dev/full: files were left behind"
  "$binary" --ids 2,3,1 --dim 5 --save-weights "$work/kept.npy" >/dev/full 2>/dev/null </dev/null
  [ "$(cat "$work/kept.npy")" = old ] || fail "/dev/full: an existing file was replaced"
  [ -z "$(find "$work" -name '.embdemo-*')" ] || fail "/dev/full: temporary files left behind"
else
  skipped="/dev/full is not writable here"
fi

# A write that fails (a full disk, here a file size limit) names the file that failed, and
# leaves neither it nor the new directory behind. SIGXFSZ is ignored so that write() fails
# with EFBIG instead of killing the process.
(
  cd "$work" || exit 1
  trap '' XFSZ
  ulimit -f 8
  "$binary" --ids 1 --vocab 100 --dim 50 --save-weights "$work/small.npy" --export-projector "$work/full" \
    >"$work/stdout" 2>"$work/stderr" </dev/null
)
status=$?
[ $status -eq 1 ] && [ ! -s "$work/stdout" ] || fail "file size limit: status $status"
grep -qF -- "--save-weights \"$work/small.npy\": cannot write: File too large" "$work/stderr" ||
  fail "file size limit message: $(cat "$work/stderr")"
[ ! -e "$work/small.npy" ] && [ ! -e "$work/full" ] || fail "file size limit: files left behind"
(
  cd "$work" || exit 1
  trap '' XFSZ
  ulimit -f 40
  "$binary" --ids 1 --vocab 100 --dim 50 --export-projector "$work/full" >/dev/null 2>"$work/stderr" </dev/null
)
grep -qF -- "--export-projector \"$work/full/vectors.tsv\": cannot write: File too large" "$work/stderr" ||
  fail "projector file size limit message: $(cat "$work/stderr")"
[ ! -e "$work/full" ] || fail "projector file size limit: directory left behind"

# A directory where no file can be created (even by root): refused before any work.
if [ -d /proc/1 ]; then
  refused "unwritable directory" '--export-projector "/proc/1": is a directory this user may not write in' \
    --export-projector /proc/1
fi

[ $failures -eq 0 ] || exit 1
if [ -n "${skipped:-}" ]; then
  echo "SKIP: $skipped, so the stdout failure cases did not run"
  exit 77
fi
echo "all output file checks passed"
