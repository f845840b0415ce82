#!/usr/bin/env bash
# Hostile values for every option of every lesson (issue 11): empty, negative, huge, float, hex,
# octal, exponent, nan, inf, non-UTF-8 and control bytes, each option given twice, and options
# that belong to another lesson. Each must be refused the same way: exit 2, nothing on stdout,
# one line on stderr starting "embdemo: error: ", naming the option, with no raw control byte,
# within 10 seconds. Values an option really accepts (inf for --norm-type, -1 for --padding-idx)
# are left out of its list on purpose.
# The two longest arguments (a 128 KiB value and 1.1M ids) run apart with `long`, as the test
# hostile.long_arguments: the sanitizer pass runs that one and leaves the 491 short cases, each a
# process refused at the parse, to the release pass (.ci/run says why).
# usage: hostile_options.sh BINARY DATA_DIR [short|long]  (default: both)
set -u
. "$(dirname "$0")/common.sh" "$1"
cd "$2" || exit 1  # weight files named as the golden cases name them
part=${3:-both}

# refused NAME_IN_MESSAGE ARGS...: one run that must be refused, and say NAME_IN_MESSAGE.
refused() {
  local name=$1
  shift
  cases=$((cases + 1))
  timeout "${seconds:-10}" "$binary" "$@" >"$work/out" 2>"$work/err" </dev/null
  local status=$?
  local problem=""
  if [ "$status" -ne 2 ]; then problem="exit $status"
  elif [ -s "$work/out" ]; then problem="stdout not empty"
  elif [ "$(wc -l <"$work/err")" -ne 1 ] || [ "$(tail -c 1 "$work/err" | od -An -c | tr -d ' ')" != '\n' ]; then
    problem="not one line on stderr"
  elif ! head -c 16 "$work/err" | grep -q '^embdemo: error: '; then problem="no 'embdemo: error: '"
  elif tr -d '\n' <"$work/err" | LC_ALL=C grep -q '[[:cntrl:]]'; then problem="raw control byte"
  elif ! grep -qF -- "$name" "$work/err"; then problem="does not name $name"
  fi
  if [ -n "$problem" ]; then
    printf 'FAIL (%s): embdemo' "$problem"
    printf ' %q' "$@"
    printf '\n  stderr: %s\n' "$(head -c 300 "$work/err" | cat -v)"
    failures=$((failures + 1))
  fi
}

# each_value BASE_ARGS -- OPTION VALUE...: the option with each value after the base arguments.
each_value() {
  local base=()
  while [ "$1" != "--" ]; do base+=("$1"); shift; done
  shift
  local option=$1
  shift
  local value
  for value in "$@"; do refused "$option" "${base[@]}" "$option" "$value"; done
}

utf8_bad=$'\xff\xfe'
control=$'\x1b[2J\x07'
huge=99999999999999999999999999
# Every class of hostile value that no integer option accepts.
not_counts=("" -1 1.5 0x10 010 1e3 nan inf -inf "$huge" "$utf8_bad" "$control" "3 3" +3)
not_floats=("" nan inf -inf 1e999 0x1p3 "$utf8_bad" "$control" 1,5 "1 5" 1.5.5)
not_words=("" JSON "text " 1 "$utf8_bad" "$control")
not_id_lists=("" -1 1.5 0x10 010 1e3 nan "$huge" "$utf8_bad" "$control" "2,,3" , "2;3,1")
not_files=("" no-such-file . "$utf8_bad" "$control" /dev/null /dev/zero)

lookup=(--ids 2,3,1 --dim 3)
if [ "$part" != long ]; then
# The shared options.
each_value --dim 3 -- --ids "${not_id_lists[@]}"
each_value --ids 2,3,1 -- --dim "${not_counts[@]}" 0
each_value "${lookup[@]}" -- --vocab "${not_counts[@]}" 0 2
each_value "${lookup[@]}" -- --seed "${not_counts[@]/-1/18446744073709551616}"
each_value "${lookup[@]}" -- --precision "${not_counts[@]}" 10
each_value "${lookup[@]}" -- --init "${not_words[@]}"
each_value "${lookup[@]}" -- --format "${not_words[@]}"
each_value "${lookup[@]}" -- --color "${not_words[@]}"
each_value "${lookup[@]}" -- --palette "${not_words[@]}"
each_value "${lookup[@]}" --format json -- --show "${not_words[@]}" lookup,,weight
each_value "${lookup[@]}" --trace -- --trace-positions "${not_id_lists[@]}" 3
each_value "${lookup[@]}" -- --max-memory "" -1 0x10 nan inf 1e3 "$huge" "$utf8_bad" "$control" 1Q 4GG 0
each_value "${lookup[@]}" -- --max-norm "${not_floats[@]}" -1 0
each_value "${lookup[@]}" --max-norm 1 -- --norm-type "${not_floats[@]/inf/}" 
each_value --dim 3 -- --text "" "$utf8_bad"
each_value --dim 3 -- --text-file "${not_files[@]}"
each_value --ids 2,3,1 -- --weights "${not_files[@]}" bad/ragged.csv bad/huge_shape.npy
each_value "${lookup[@]}" --export-projector "$work/projector" -- --labels "${not_files[@]}"
# (A directory that does not exist is a failed write, exit 1: tests/scripts/output_files.sh.)
each_value "${lookup[@]}" -- --save-weights "" "$utf8_bad" "$work/e.txt"
each_value "${lookup[@]}" -- --export-projector ""

# grad's options.
each_value grad "${lookup[@]}" -- --padding-idx "" 1.5 0x1 010 1e1 nan inf 4 -5 "$huge" "$utf8_bad" "$control"
each_value grad "${lookup[@]}" -- --upstream "${not_words[@]}" no-such-file.npy
each_value grad "${lookup[@]}" -- --optimizer "${not_words[@]}" SGD
each_value grad "${lookup[@]}" --optimizer sgd -- --steps "${not_counts[@]}" 0 101
each_value grad "${lookup[@]}" --optimizer sgd -- --lr "${not_floats[@]}" -1
each_value grad "${lookup[@]}" --optimizer sgd -- --momentum "${not_floats[@]}" -1
each_value grad "${lookup[@]}" --optimizer adamw -- --weight-decay "${not_floats[@]}" -1
each_value grad "${lookup[@]}" -- --top "${not_counts[@]}" 0 11

# cost, positions, tied, factor, bag, tokens.
each_value cost --vocab 10 --dim 4 -- --tokens "${not_counts[@]}" 0 1048577
each_value cost --tokens 3 -- --model "${not_words[@]}" GPT2
each_value positions "${lookup[@]}" -- --context "${not_counts[@]}" 0 2
each_value positions "${lookup[@]}" -- --encoding "${not_words[@]}"
each_value positions --text "one two three four" --dim 2 --context 2 -- --stride "${not_counts[@]}" 0
each_value positions --text "one two three four" --dim 2 --context 2 -- --batch "${not_counts[@]}" 0
each_value tied "${lookup[@]}" -- --top "${not_counts[@]}" 0 5
each_value tied "${lookup[@]}" -- --hidden "${not_files[@]}" weights/notebook.csv
each_value factor "${lookup[@]}" -- --rank "${not_counts[@]}" 0 3
each_value bag --dim 3 -- --bags "${not_id_lists[@]/2;3,1/}" ";;;"x
each_value bag --bags "2,3;1" --dim 3 -- --mode "${not_words[@]}"
each_value bag --bags "2,3;1" --dim 3 --mode sum -- --per-sample-weights "${not_floats[@]}" "1,2;3,4" "1,2"
each_value bag --bags "2,3;1" --dim 3 -- --padding-idx "" 1.5 0x1 010 nan 4 -5 "$huge" "$utf8_bad"
each_value tokens --text "one two" -- --piece "${not_counts[@]}" 2
each_value tokens --text "one two" -- --dim "${not_counts[@]}" 0
each_value tokens -- --ids "${not_id_lists[@]}" 50257 "2,3,1;4,5,6"

# Every option given twice: said as "was given N times", on the main command and on every
# lesson (issue 28: subcommands said "needs a value").
refused "--dim was given 2 times" "${lookup[@]}" --dim 4
refused "--ids was given 2 times" "${lookup[@]}" --ids 1
refused "--seed was given 3 times" "${lookup[@]}" --seed 1 --seed 2 --seed 3
refused "--format was given 2 times" "${lookup[@]}" --format json --format csv
refused "--trace was given 2 times" "${lookup[@]}" --trace --trace
refused "--max-norm was given 2 times" "${lookup[@]}" --max-norm 1 --max-norm 2
refused "--lr was given 2 times" grad "${lookup[@]}" --optimizer sgd --lr 0.1 --lr 0.2
refused "--padding-idx was given 2 times" grad "${lookup[@]}" --padding-idx 0 --padding-idx 1
refused "--steps was given 2 times" grad "${lookup[@]}" --optimizer sgd --steps 2 --steps 2
refused "--sparse was given 2 times" grad "${lookup[@]}" --sparse --sparse
refused "--scale-grad-by-freq was given 2 times" grad "${lookup[@]}" --scale-grad-by-freq --scale-grad-by-freq
refused "--upstream was given 2 times" grad "${lookup[@]}" --upstream ones --upstream ones
refused "--tokens was given 2 times" cost --vocab 10 --dim 4 --tokens 3 --tokens 4
refused "--model was given 2 times" cost --model gpt2 --model gpt2
refused "--context was given 2 times" positions "${lookup[@]}" --context 4 --context 5
refused "--encoding was given 2 times" positions "${lookup[@]}" --encoding rope --encoding rope
refused "--top was given 2 times" tied "${lookup[@]}" --top 2 --top 2
refused "--hidden was given 2 times" tied "${lookup[@]}" --hidden lessons/hidden_3x5.csv --hidden lessons/hidden_3x5.csv
refused "--rank was given 2 times" factor "${lookup[@]}" --rank 1 --rank 2
refused "--mode was given 2 times" bag --bags "2,3;1" --dim 3 --mode sum --mode max
refused "--bags was given 2 times" bag --bags "2,3;1" --dim 3 --bags 1
refused "--per-sample-weights was given 2 times" bag --bags "2,3;1" --dim 3 --mode sum --per-sample-weights "1,1;1" --per-sample-weights "1,1;1"
refused "--piece was given 2 times" tokens --text "one two" --piece 0 --piece 1

# A flag with a value (CLI11 would convert "=no" or say "Could not convert").
refused '--sparse "maybe": is a flag' grad "${lookup[@]}" --sparse=maybe
refused '--trace "no": is a flag' "${lookup[@]}" --trace=no
refused '--scale-grad-by-freq "": is a flag' grad "${lookup[@]}" --scale-grad-by-freq=

# embdemo bench parses its own options (src/bench/options.cpp): the same rules, in its words.
if [ -x "$(dirname "$binary")/embdemo-bench" ]; then
  refused "--tokens was given 2 times" bench --tokens 1 --tokens 1
  refused "--model was given 2 times" bench --model gpt2 --model gpt2 --threads 1
  refused 'unknown option "--bogus"' bench --bogus 1
  refused 'unknown option "-x"' bench -x
  refused 'unexpected argument "fast"' bench --model gpt2 fast
  refused '--tokens "": is empty' bench --tokens=
  refused "--dim needs a value" bench --tokens 1 --vocab 2 --dim
  refused "--tokens needs a value" bench --tokens --vocab 5 --dim 2
  refused '--tokenizer "no-such-file"' bench --tokenizer no-such-file
  refused '--threads "x=y"' bench --model gpt2 --threads=x=y
fi

# Messages that must name what the user typed (issue 28).
refused '--max-memory "010": has a leading zero' "${lookup[@]}" --max-memory 010
refused '--max-memory "00": has a leading zero' "${lookup[@]}" --max-memory 00
refused '--max-memory "01M": has a leading zero' "${lookup[@]}" --max-memory 01M
refused '--norm-type "-inf": is not positive' "${lookup[@]}" --max-norm 1 --norm-type -inf
refused '(allowed: a 2-D array, 3 x 3, n x d' grad "${lookup[@]}" --upstream bad/three_d.npy
refused "the text's token ids[0]" --text hello --weights weights/notebook_f32.npy
refused "--text-file/--context/--batch/--dim:" positions --text-file text/journey.txt --context 4 --batch 10 --dim 65536
refused '--context "52": the text has 52 tokens' positions --text-file text/journey.txt --context 52 --dim 2
refused '--batch "7": the text makes 6 windows' positions --text-file text/journey.txt --context 8 --batch 7 --dim 2

# Options that belong to another lesson.
refused --rank "${lookup[@]}" --rank 2
refused --optimizer "${lookup[@]}" --optimizer sgd
refused --mode grad "${lookup[@]}" --mode sum
refused --context tied "${lookup[@]}" --context 3
refused --top bag --bags "2,3;1" --dim 3 --top 2
refused --hidden positions "${lookup[@]}" --hidden lessons/hidden_3x5.csv
refused --piece "${lookup[@]}" --piece 0
refused --model grad "${lookup[@]}" --model gpt2
refused --bags factor "${lookup[@]}" --rank 1 --bags 1
refused --encoding cost --vocab 10 --dim 4 --tokens 3 --encoding rope

fi

if [ "$part" != short ]; then
# The largest single argument Linux passes (MAX_ARG_STRLEN, 128 KiB; a 100 MB one cannot reach a
# program): refused in one short line, the value cut in the message.
long_value=$(head -c 131000 /dev/zero | tr '\0' 'x')
refused --ids --ids "$long_value" --dim 2
[ "$(wc -c <"$work/err")" -lt 400 ] || { echo "FAIL: the message for a 128 KiB --ids is $(wc -c <"$work/err") bytes"; failures=$((failures + 1)); }
# 1,100,000 ids (only a file can hold a million): tokenized in linear time, then refused by the
# cap on the one-hot product's work, 2^40 multiply-adds (3.7 s here in a release build; the
# sanitizer build is slower, hence 120 s). At --dim 2 the same text runs (X a block at a time).
head -c 1100000 /dev/zero | sed 's/\x0/! /g' >"$work/many.txt"
seconds=120 refused "1,100,001 x 50,257 x 32" --text-file "$work/many.txt" --dim 32
fi

echo "hostile_options: $cases cases, $failures failures"
[ "$failures" -eq 0 ]
