#!/usr/bin/env bash
# --text-file and the tokenizer's data, the cases a golden file cannot set up: a file over the
# 16 MiB cap (sparse, so it costs no disk), a named pipe, a binary with no data beside it, and
# damaged data. Each must be one line on stderr, nothing on stdout, exit 2.
# usage: text_input.sh BINARY
set -u
binary=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

expect_error() {  # expect_error PATTERN COMMAND...
  local pattern=$1
  shift
  "$@" >"$work/out" 2>"$work/err"
  local status=$?
  if [ "$status" -ne 2 ] || [ -s "$work/out" ] || [ "$(wc -l <"$work/err")" -ne 1 ] ||
     ! grep -q -- "$pattern" "$work/err"; then
    echo "FAIL: $* -> exit $status, stderr: $(head -c 300 "$work/err")"
    failures=$((failures + 1))
  fi
}

truncate -s 17M "$work/huge.txt"
expect_error 'is 17,825,792 bytes (allowed: at most 16,777,216 bytes)' "$binary" --text-file "$work/huge.txt" --dim 2
mkfifo "$work/pipe"
expect_error 'is not a regular file' timeout 10 "$binary" --text-file "$work/pipe" --dim 2

# A copy of the binary with nothing beside it, and no prefix data: the message names the fix.
mkdir "$work/bin"
cp "$binary" "$work/bin/embdemo"
if [ ! -e /usr/local/share/embdemo/gpt2/vocab.bpe ]; then
  expect_error 'run tools/setup.sh, or cmake --install' env -u EMBDEMO_DATA_DIR "$work/bin/embdemo" --text hi --dim 2
fi
mkdir -p "$work/data/gpt2"
printf '#version: 0.2\nnot a merge line\n' >"$work/data/gpt2/vocab.bpe"
expect_error 'is damaged: line 2 is not a merge' env EMBDEMO_DATA_DIR="$work/data" "$work/bin/embdemo" --text hi --dim 2
# --ids never reads the data, so a damaged file cannot break a run that does not need it.
EMBDEMO_DATA_DIR="$work/data" "$work/bin/embdemo" --ids 1 --dim 2 >/dev/null ||
  { echo "FAIL: --ids needed the tokenizer's data"; failures=$((failures + 1)); }

echo "text_input: $failures problems"
[ $failures -eq 0 ]
