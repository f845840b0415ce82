#!/usr/bin/env bash
# The bash completion script, driven as bash drives it (COMP_WORDS, COMP_CWORD, then the function
# that `complete -p embdemo` names), in a shell without the bash-completion package and, where it
# is installed, in one with it. Each lesson must be offered its own options and the shared ones it
# reads, never another lesson's; values, files and directories where an option takes them; and
# nothing may reach stderr (once: "_filedir: command not found"). Every option a lesson's --help
# lists must be offered, and every fixed value offered must be one the parser accepts.
# usage: completion.sh BINARY COMPLETION_SCRIPT
set -u
binary=$(realpath "$1")
script=$(realpath "$2")
bash_completion=/usr/share/bash-completion/bash_completion
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cases=0
failures=0
mkdir "$work/dir.d" && : >"$work/weights.npy"
cd "$work" || exit 1

# complete MODE WORD...: what completion offers for the command line WORD... (the last word is the
# one being completed), one per line; stderr goes to $work/stderr.
complete_words() {
  local mode=$1
  shift
  bash --norc --noprofile -c '
    mode=$1 script=$2
    shift 2
    if [ "$mode" = with ]; then source '"$bash_completion"'; fi
    source "$script"
    function=$(complete -p embdemo | sed -n "s/.*-F \([^ ]*\) embdemo$/\1/p")
    [ -n "$function" ] || { echo "embdemo is not registered" >&2; exit 1; }
    COMP_WORDS=("$@")
    COMP_CWORD=$(( $# - 1 ))
    COMP_LINE="$*"
    COMP_POINT=${#COMP_LINE}
    "$function" embdemo "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]:-}"
    printf "%s\n" "${COMPREPLY[@]}"' _ "$mode" "$script" "$binary" "$@" 2>"$work/stderr"
}

fail() {
  echo "FAIL ($1, $2): embdemo ${3}"
  failures=$((failures + 1))
}

# check MODE "WORDS" "OFFERED..." "NOT OFFERED...": each word of the third argument must be
# offered, none of the fourth.
check() {
  local mode=$1 words=$2 offered=$3 refused=${4-}
  cases=$((cases + 1))
  local got argv
  eval "argv=($words)"  # '' is an empty word, the one being completed
  got=$(complete_words "$mode" "${argv[@]}")
  [ -s "$work/stderr" ] && fail "$mode" "stderr: $(head -c 200 "$work/stderr")" "$words"
  for word in $offered; do
    grep -qxF -- "$word" <<<"$got" || fail "$mode" "$word not offered" "$words"
  done
  for word in $refused; do
    grep -qxF -- "$word" <<<"$got" && fail "$mode" "$word offered" "$words"
  done
}

modes=(without)
if [ -f "$bash_completion" ]; then
  modes+=(with)
else
  echo "completion: the bash-completion package is not installed; only the shell without it is checked"
fi

for mode in "${modes[@]}"; do
  check "$mode" "''" "lookup grad cost bench positions tied factor tokens bag help" "--ids"
  check "$mode" "g" "grad" "lookup"
  check "$mode" "--" "--ids --dim --format --version --help --show --walkthrough --context" "--momentum --encoding --bags"
  check "$mode" "grad --" "--momentum --padding-idx --optimizer --ids --dim --format --trace --context" "--encoding --bags --walkthrough --version"
  check "$mode" "bag --" "--bags --mode --per-sample-weights --dim --text --context" "--momentum --ids --show"
  check "$mode" "positions --" "--context --encoding --stride --batch --ids" "--momentum --bags --trace --weights"
  check "$mode" "cost --" "--model --tokens --ids --dim --format" "--seed --show --momentum"
  check "$mode" "tokens --" "--piece --text --text-file --ids" "--seed --context"
  check "$mode" "--format ''" "text json csv tsv markdown svg html python"
  check "$mode" "--format = j" "json" "text"
  check "$mode" "grad --optimizer a" "adam adamw" "sgd"
  check "$mode" "grad --upstream ''" "randn ones weights.npy"
  check "$mode" "--show ''" "weight onehot lookup onehot_matmul linear_output"
  check "$mode" "cost --model ''" "gpt2 gpt2-xl llama3-8b" "bigram skipgram"
  check "$mode" "train --model ''" "bigram tied skipgram" "gpt2 llama3-8b"
  check "$mode" "train --level ''" "gpt2 token word char"
  check "$mode" "tokens --tokenizer ''" "gpt2 wordpiece unigram bpe all"
  check "$mode" "grad --tokenizer ''" "gpt2 wordpiece unigram bpe" "all"
  check "$mode" "--tokenizer ''" "gpt2 wordpiece unigram bpe" "all"
  check "$mode" "cost --tokenizer w" "wordpiece" "all"
  check "$mode" "--weights w" "weights.npy"
  check "$mode" "--export-projector d" "dir.d" "weights.npy"
  check "$mode" "--dim ''" "" "--ids lookup"
  check "$mode" "help ''" "grad bag tokens" "help --ids"
  check "$mode" "--ids 2 grad --m" "--momentum" "--mode"
  check "$mode" "--text grad --m" "--max-memory --max-norm" "--momentum"
  check "$mode" "--ids 2 help --" "--ids --dim" ""
  if "$binary" bench --help >/dev/null 2>&1; then
    check "$mode" "bench --" "--threads --repeats --tokenizer --model" "--ids --momentum"
    check "$mode" "bench --model ''" "gpt2 llama3-8b"
  fi
done

# Every option a lesson's --help lists is offered after the lesson's name.
data=$("$binary" --completion-data)
lessons=$(sed -n 's/^lessons //p' <<<"$data")
for lesson in $lessons; do
  [ "$lesson" = help ] || [ "$lesson" = bench ] && continue
  offered=$(complete_words without "$lesson" --)
  for option in $("$binary" "$lesson" --help | sed -n '/^Options:/,/^$/p' | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
    cases=$((cases + 1))
    grep -qxF -- "$option" <<<"$offered" || fail without "$option, listed by its --help, not offered" "$lesson --"
  done
done
offered=$(complete_words without --)
for option in $("$binary" --help | sed -n '/^Options:/,/^$/p' | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
  cases=$((cases + 1))
  grep -qxF -- "$option" <<<"$offered" || fail without "$option, listed by --help, not offered" "--"
done

# Every fixed value offered is one the parser takes: after the first lesson that reads the option,
# the run may fail for other reasons, never by naming the value ("--mode \"max\": ..."), unless to
# say what else it needs (the parse checks the words before any input, so that comes first).
while read -r _ option values; do
  lesson=""
  if [[ $option != --* ]]; then  # "values LESSON --option ...": that lesson's own
    lesson=$option
    read -r option values <<<"$values"
  else
    lesson=$(sed -n "s/^options \([a-z]*\) .* $option\( .*\)\{0,1\}$/\1/p" <<<"$data" | head -1)
  fi
  for value in $values; do
    cases=$((cases + 1))
    message=$("$binary" $lesson "$option" "$value" 2>&1 >/dev/null)
    # A value named with what it needs beside it (--show needs a machine format) is taken.
    grep -qF -- "$option \"$value\"" <<<"$message" && ! grep -qF -- "$option \"$value\": needs " <<<"$message" &&
      fail without "$value refused: $message" "$lesson $option $value"
  done
done < <(grep '^values ' <<<"$data")

echo "completion: $cases cases, $failures failures"
[ "$failures" -eq 0 ]
