#!/usr/bin/env bash
# Output faults on the standard streams, through the real binary (issue 11; docs/usage.md,
# "Output faults"):
# - stdout to /dev/full and stdout closed, for every lesson, every format it takes and every
#   view: exit 1, one line on stderr, no file left behind;
# - `| head -1` on long outputs: nothing on stderr, embdemo exits 1 (the pipeline's status is
#   head's), nothing left on disk; with --save-weights one line says the file was not written;
# - stderr closed, and stdin closed: the exit status of a run that has no stderr to talk to.
# usage: output_faults.sh EMBDEMO
set -u
. "$(dirname "$0")/common.sh" "$1"
mkdir "$work/cwd"
cd "$work/cwd" || exit 1

# Every lesson with every format and view it takes, one run per line (no argument has a space).
runs=""
add() { runs+="$*"$'\n'; }
# with_formats "FORMATS" ARGS...: ARGS with each format in turn.
with_formats() {
  local format
  for format in $1; do add "${@:2}" --format "$format"; done
}
all_formats="text json csv tsv markdown svg html python"
table_formats="text json csv tsv markdown"
# Every lesson the binary lists (bench runs a program of its own; help is no lesson).
lessons=$("$binary" --completion-data | awk '$1 == "lessons" { for (i = 2; i <= NF; i++) if ($i != "bench" && $i != "help") print $i }')
[ -n "$lessons" ] || { echo "FAIL: the completion data lists no lesson"; exit 1; }
for lesson in "" $lessons; do add $lesson --help; done
add --version
with_formats "$all_formats" --ids 2,3,1 --dim 5
add --ids 2,3,1 --dim 5 --trace
add --ids 2,3,1 --dim 5 --walkthrough
add --ids 2,3,1 --dim 5 --walkthrough --pause
add --text unbelievably --dim 4
with_formats "$table_formats" --ids 2,3,1,3 --dim 5 --max-norm 1
with_formats "$all_formats" grad --ids 2,3,1,3 --dim 5
add grad --ids 2,3,1,3 --dim 5 --trace
add grad --ids 2,3,1,3 --dim 5 --sparse
add grad --ids 2,3,1,3 --dim 5 --max-norm 1 --format json
with_formats "text json" grad --ids 2,3,1,3 --dim 5 --optimizer adam --steps 2
with_formats "text json" cost --model gpt2
with_formats "$table_formats" positions --ids 2,3,1 --dim 5
add positions --ids 2,3,1 --dim 4 --encoding rope
add positions --text unbelievably,unbelievably --dim 4 --context 2 --batch 1
with_formats "$table_formats" tied --ids 2,3,1 --dim 5
with_formats "$table_formats" factor --ids 2,3,1 --dim 8 --rank 2
with_formats "$table_formats" bag --bags "2,3;1,1,0" --dim 5
with_formats "text json" tokens --text unbelievably
with_formats "$table_formats" train --ids 2,3,1,2 --steps 2
add train --model skipgram --dim 2 --text abab --level char --probe a
# embdemo bench is embdemo-bench (src/bench), whose own writes are checked here when it is built.
if [ -x "$(dirname "$binary")/embdemo-bench" ]; then
  with_formats "text json" bench --tokens 4 --vocab 8 --dim 4 --repeats 1
  add bench --help
fi

# one_failed_write WHAT EXPECTED ARGS...: with stdout already redirected by the caller, the run
# exits 1 with one line on stderr starting EXPECTED, and leaves the directory as it was.
check_failed_write() {
  local what=$1 status=$2 expected=$3
  shift 3
  cases=$((cases + 1))
  local problem=""
  if [ "$status" -ne 1 ]; then problem="status $status, expected 1"
  elif [ "$(wc -l <"$work/err")" -ne 1 ]; then problem="not one line on stderr"
  elif ! head -n 1 "$work/err" | grep -qF -- "$expected"; then problem="message"
  elif [ -n "$(ls -A)" ]; then problem="left $(ls -A | tr '\n' ' ')"
  fi
  if [ -n "$problem" ]; then
    fail "$what ($problem): embdemo $*"
    echo "  stderr: $(head -c 300 "$work/err" | cat -v)"
  fi
  rm -rf ./* ./.[!.]* 2>/dev/null
}

while read -r line; do
  read -ra args <<<"$line"
  "$binary" "${args[@]}" >/dev/full 2>"$work/err" </dev/null
  check_failed_write "/dev/full" $? "embdemo: error: cannot write to standard output" "${args[@]}"
  "$binary" "${args[@]}" >&- 2>"$work/err" </dev/null
  check_failed_write "stdout closed" $? "embdemo: error: cannot write to standard output" "${args[@]}"
done < <(printf '%s' "$runs")
# The reason is given too.
"$binary" --ids 2,3,1 --dim 5 >/dev/full 2>"$work/err"
check_failed_write "/dev/full" $? "cannot write to standard output: No space left on device" --ids 2,3,1 --dim 5
"$binary" --ids 2,3,1 --dim 5 >&- 2>"$work/err"
check_failed_write "stdout closed" $? "cannot write to standard output: Bad file descriptor" --ids 2,3,1 --dim 5

# With output files: none appears, an existing one keeps its bytes, and the line says so.
files=(--save-weights a.npy --export-projector p)
"$binary" --ids 2,3,1 --dim 5 "${files[@]}" >/dev/full 2>"$work/err"
check_failed_write "/dev/full with files" $? \
  'cannot write to standard output: No space left on device, so --save-weights "a.npy" and --export-projector "p" were not written' \
  --ids 2,3,1 --dim 5 "${files[@]}"
"$binary" --ids 2,3,1 --dim 5 "${files[@]}" >&- 2>"$work/err"
check_failed_write "stdout closed with files" $? 'Bad file descriptor, so --save-weights "a.npy" and' \
  --ids 2,3,1 --dim 5 "${files[@]}"
"$binary" --ids 1 --dim 2 --save-weights "$work/kept.npy" >/dev/null 2>&1
cp "$work/kept.npy" "$work/kept.before"
"$binary" --ids 2,3,1 --dim 5 --save-weights "$work/kept.npy" >/dev/full 2>/dev/null
cmp -s "$work/kept.npy" "$work/kept.before" || fail "/dev/full: an existing --save-weights file changed"
[ -z "$(find "$work" -name '.embdemo-*')" ] || fail "/dev/full: temporary files left"

# `| head -1` on long outputs (each well over a pipe's 64 KiB, so that embdemo is still writing
# when head leaves): nothing on stderr, embdemo exits 1 (not killed by SIGPIPE), the pipeline
# exits with head's 0, and nothing is left on disk. The text views are summarised: the longest
# (64 traced positions, about 52 KB) fits in the pipe, so embdemo may finish first (0) or meet
# the closed pipe (1), but says nothing either way. An output over stdio's 4 KiB buffer and under
# the pipe's 64 KiB goes in one write(), so it is all written before head can leave: 0.
ids_55=$(seq -s, 0 54)  # GPT-2's table at the product limit
ids_64=$(seq -s, 1000 1063)
positions_64=$(seq -s, 0 63)
head_runs=(
  "1 --ids $ids_55 --vocab 50257 --dim 768 --format json --show lookup"
  "1 --ids $ids_55 --vocab 50257 --dim 768 --format python"
  "1 --ids 1 --vocab 1000 --dim 100 --format csv --show weight"
  "0|1 --ids $ids_64 --vocab 10000 --dim 768 --trace --trace-positions $positions_64"
  "3 bag --bags 2,3,3;1;0,1;2;3;1,2;0;3,3 --dim 3 --trace"  # written whole; its verdict is DIFFERENT
)
for line in "${head_runs[@]}"; do
  read -ra args <<<"$line"
  expected=${args[0]}
  args=("${args[@]:1}")
  cases=$((cases + 1))
  "$binary" "${args[@]}" 2>"$work/err" </dev/null | head -1 >/dev/null
  statuses=("${PIPESTATUS[@]}")
  [[ "${statuses[0]}" =~ ^($expected)$ ]] && [ "${statuses[1]}" -eq 0 ] ||
    fail "| head -1: statuses ${statuses[*]}, expected $expected 0: embdemo ${args[*]:0:4} ..."
  [ ! -s "$work/err" ] || fail "| head -1: stderr: $(head -c 200 "$work/err"): embdemo ${args[*]:0:4} ..."
  [ -z "$(ls -A)" ] || fail "| head -1: left $(ls -A | tr '\n' ' ')"
done
# With --save-weights the dropped file is worth one line; it is not written, nothing is left.
cases=$((cases + 1))
"$binary" --ids 1 --vocab 1000 --dim 100 --format csv --show weight --save-weights w.npy 2>"$work/err" </dev/null |
  head -1 >/dev/null
status=${PIPESTATUS[0]}
[ "$status" -eq 1 ] || fail "| head -1 with --save-weights: status $status"
grep -qxF 'embdemo: error: cannot write to standard output: Broken pipe, so --save-weights "w.npy" was not written' \
  "$work/err" || fail "| head -1 with --save-weights: stderr $(cat "$work/err")"
[ -z "$(ls -A)" ] || fail "| head -1 with --save-weights: left $(ls -A | tr '\n' ' ')"

# stderr closed: the exit status still tells, nothing crashes, and stdout or the saved file
# hold exactly what they hold with stderr open (a file opened as descriptor 2 must not
# receive a message).
cases=$((cases + 1))
"$binary" --ids 2,3,1 --dim 5 >"$work/expected" 2>/dev/null
"$binary" --ids 2,3,1 --dim 5 --save-weights "$work/expected.npy" >/dev/null 2>&1
"$binary" --ids 2,3,1 --dim 5 >"$work/out" 2>&-
status=$?
[ $status -eq 0 ] && cmp -s "$work/out" "$work/expected" || fail "stderr closed, success: status $status or output"
"$binary" --ids 2,3,1 --dim 5 --save-weights "$work/closed.npy" >"$work/out" 2>&-
status=$?
[ $status -eq 0 ] && cmp -s "$work/closed.npy" "$work/expected.npy" || fail "stderr closed, --save-weights: status $status or file"
"$binary" --ids 2,,3 --dim 5 >"$work/out" 2>&-
status=$?
[ $status -eq 2 ] && [ ! -s "$work/out" ] || fail "stderr closed, bad input: status $status, expected 2"
"$binary" --ids 2,3,1 --dim 5 >/dev/full 2>&-
status=$?
[ $status -eq 1 ] || fail "stderr closed, stdout full: status $status, expected 1"
printf '0,1\n-0.0,2\n' >"$work/negative_zero.csv"  # the lookup keeps -0.0, the product does not
"$binary" --ids 1 --weights "$work/negative_zero.csv" --format csv >"$work/out" 2>&-
status=$?
[ $status -eq 3 ] && [ -s "$work/out" ] || fail "stderr closed, results differ (a note on stderr): status $status, expected 3"
cases=$((cases + 1))
"$binary" --ids 2,3,1 --dim 5 --walkthrough --pause >"$work/out" 2>/dev/null <&-
status=$?
[ $status -eq 0 ] && [ -s "$work/out" ] || fail "stdin closed with --pause: status $status"

[ $failures -eq 0 ] || { echo "$failures of $cases output fault checks failed"; exit 1; }
echo "all $cases output fault checks passed"
