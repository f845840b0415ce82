#!/usr/bin/env bash
# Terminal behaviour that only a real pseudo-terminal can show (util-linux `script` makes one):
# colour on a terminal and never in a pipe, NO_COLOR / TERM=dumb / --color respected, and
# --pause waiting for Enter on a terminal but never blocking a script.
# usage: terminal.sh EMBDEMO
set -u
binary=$1
demo=("$binary" --ids 2,3,1 --dim 5)
esc=$'\x1b['
failures=0
check() {  # description, command status (0 = passed)
  if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; failures=$((failures + 1)); fi
}
on_pty() {  # runs the arguments on a pseudo-terminal, prints what the terminal showed
  local command
  printf -v command '%q ' "$@"
  timeout 20 script -qec "$command" /dev/null
}
has_colour() { [[ "$1" == *"$esc"* ]]; }

if ! command -v script >/dev/null; then
  echo "SKIP: util-linux 'script' is not installed, no pseudo-terminal available"
  exit 77  # ctest reports it as skipped (SKIP_RETURN_CODE), not as passed
fi

out=$(unset NO_COLOR; TERM=xterm on_pty "${demo[@]}" </dev/null)
has_colour "$out"; check "colour on a terminal" $?
[[ "$out" == *"verdict: "*"IDENTICAL"* ]]; check "the verdict is there on a terminal" $?

out=$(NO_COLOR=1 TERM=xterm on_pty "${demo[@]}" </dev/null)
! has_colour "$out"; check "NO_COLOR=1 turns colour off on a terminal" $?

out=$(unset NO_COLOR; TERM=xterm on_pty "${demo[@]}" --color never </dev/null)
! has_colour "$out"; check "--color never on a terminal" $?

out=$(unset NO_COLOR; TERM=dumb on_pty "${demo[@]}" </dev/null)
! has_colour "$out"; check "TERM=dumb turns colour off" $?

out=$(env -u NO_COLOR TERM=xterm "${demo[@]}" </dev/null | cat)
! has_colour "$out"; check "no colour when piped" $?

out=$(NO_COLOR=1 "${demo[@]}" --color always </dev/null | cat)
has_colour "$out"; check "--color always in a pipe" $?

plain=$(NO_COLOR=1 "${demo[@]}" </dev/null)
coloured=$(unset NO_COLOR; TERM=xterm on_pty "${demo[@]}" </dev/null | tr -d '\r' | sed 's/\x1b\[[0-9;]*m//g; s/\x1b\]11;?\x1b\\//g')
[ "$plain" = "$coloured" ]; check "the characters are the same with and without colour" $?

# --pause with stdin an open pipe that never sends anything: must not wait. The silent writer
# keeps no stdout of ours open (ctest waited its 30 s for that pipe to close) and is then ended.
start=$SECONDS
exec {silent}< <(exec sleep 30 >/dev/null 2>&1)
writer=$!
timeout 10 "${demo[@]}" --walkthrough --pause >/dev/null <&"$silent"
status=$?
exec {silent}<&-
kill "$writer" 2>/dev/null
[ $status -eq 0 ] && [ $((SECONDS - start)) -lt 5 ]; check "--pause does not block when stdin is not a terminal" $?

# --pause on a terminal: one prompt per step boundary, and every step arrives after Enter.
out=$( (for _ in 1 2 3 4 5 6 7; do sleep 0.3; printf '\r'; done) |
  NO_COLOR=1 on_pty "${demo[@]}" --walkthrough --pause)
prompts=$(grep -c -- "-- Enter: next step, q: quit --" <<<"$out")
[ "$prompts" -eq 6 ] && [[ "$out" == *"Step 7 of 7"* ]]; check "--pause waits at each of the 6 step boundaries on a terminal (saw $prompts)" $?

# q ends the lesson at once: step 2 is shown, step 3 never is, and the exit status is the verdict's.
out=$( (sleep 0.3; printf '\r'; sleep 0.3; printf 'q\r'; sleep 0.5) |
  NO_COLOR=1 on_pty "${demo[@]}" --walkthrough --pause)
status=$?
[[ "$out" == *"Step 2 of 7"* ]] && [[ "$out" != *"Step 3 of 7"* ]] && [ $status -eq 0 ]
check "q at the --pause prompt ends the lesson cleanly (status $status)" $?

# Ctrl-D (end of input) ends it too.
out=$( (sleep 0.3; printf '\004'; sleep 0.5) | NO_COLOR=1 on_pty "${demo[@]}" --walkthrough --pause)
[[ "$out" == *"Step 1 of 7"* ]] && [[ "$out" != *"Step 2 of 7"* ]]; check "Ctrl-D at the --pause prompt ends the lesson" $?

# --palette light on a terminal that says it has a white background: dark blue, not bright cyan.
out=$(unset NO_COLOR; COLORFGBG='0;15' TERM=xterm on_pty "${demo[@]}" </dev/null)
[[ "$out" == *$'\x1b[34m'* ]] && [[ "$out" != *$'\x1b[96m'* ]]; check "COLORFGBG=0;15 picks the light palette" $?

# Side by side on a terminal wide enough for it (as ls uses the terminal's width); the fixed
# 80-column layout (row pairs) whenever stdout is a pipe, whatever the terminal.
out=$(NO_COLOR=1 timeout 20 script -qec "stty cols 100; $(printf '%q ' "${demo[@]}")" /dev/null </dev/null)
[[ "$out" == *"side by side"* ]]; check "a 100-column terminal puts the lookup and the product side by side" $?
out=$(NO_COLOR=1 timeout 20 script -qec "stty cols 100; $(printf '%q ' "${demo[@]}") | cat" /dev/null </dev/null)
[[ "$out" == *"row by row"* ]]; check "piped output keeps the fixed 80-column layout" $?

echo "$((15 - failures)) passed, $failures failed"
[ $failures -eq 0 ]
