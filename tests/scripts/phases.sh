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
# --tokenizer and --vocab-size are words too: a bad one is refused before the text is read.
lessons=$("$binary" --completion-data | awk '$1 == "options" && $2 != "tokens" && ($0 " ") ~ / --text-file / && ($0 " ") ~ / --tokenizer / { print $2 }')
[ -n "$lessons" ] || fail "the completion data lists no lesson with --text-file and --tokenizer"
for lesson in $lessons tokens; do
  [ "$lesson" = "-" ] && lesson_args=() || lesson_args=("$lesson")
  for bad in "--tokenizer nope" "--tokenizer unigram --vocab-size 0" "--tokenizer wordpiece --vocab-size 5"; do
    cases=$((cases + 1))
    status=0
    # shellcheck disable=SC2086 # $bad is two or four words
    timeout 10 "$binary" "${lesson_args[@]}" --text-file "$work/book.txt" --dim 4 $bad \
      >"$work/out" 2>"$work/err" || status=$?
    if [ "$status" -eq 124 ]; then
      fail "$lesson: waited on the FIFO before refusing $bad"
    elif [ "$status" -ne 2 ] || [ "$(wc -l <"$work/err")" -ne 1 ] || ! grep -q -- '--tokenizer\|--vocab-size' "$work/err"; then
      fail "$lesson $bad: exit $status, stderr: $(cat "$work/err")"
    fi
    [ -s "$work/out" ] && fail "$lesson $bad: wrote to stdout: $(head -c 200 "$work/out")"
  done
done
echo "$cases cases checked, $failures failed"
[ "$failures" -eq 0 ]
