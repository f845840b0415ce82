#!/usr/bin/env bash
# The parse phase opens no file: a mistyped --format is answered at once, exit 2, even when
# --text-file names a FIFO that nobody writes (reading it would wait for ever). Every lesson
# that takes both options, from the binary's own list.
# Usage: phases.sh EMBDEMO
. "$(dirname "$0")/common.sh" "$1"
mkfifo "$work/book.txt"
lessons=$("$binary" --completion-data | awk '$1 == "options" && ($0 " ") ~ / --text-file / && ($0 " ") ~ / --format / { print $2 }')
[ -n "$lessons" ] || fail "the completion data lists no lesson with --text-file and --format"
for lesson in $lessons; do
  [ "$lesson" = "-" ] && lesson_args=() || lesson_args=("$lesson")
  cases=$((cases + 1))
  status=0
  timeout 10 "$binary" "${lesson_args[@]}" --text-file "$work/book.txt" --dim 4 --format nope \
    >"$work/out" 2>"$work/err" || status=$?
  if [ "$status" -eq 124 ]; then
    fail "$lesson: waited on the FIFO before refusing --format nope"
  elif [ "$status" -ne 2 ] || ! grep -q -- '--format "nope"' "$work/err"; then
    fail "$lesson: exit $status, stderr: $(cat "$work/err")"
  fi
  [ -s "$work/out" ] && fail "$lesson: wrote to stdout: $(head -c 200 "$work/out")"
done
echo "$cases lessons checked, $failures failed"
[ "$failures" -eq 0 ]
