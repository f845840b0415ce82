#!/usr/bin/env bash
# Standard output appended or redirected to a file the run reads is refused on every lesson, as
# `cat f >> f` is: exit 2, one line naming the option and the file, and the file untouched
# (`--ids 1 --weights w.npy >> w.npy` used to exit 0 and leave w.npy unreadable); the tokenizers'
# vocabularies (GPT-2's vocab.bpe, BERT's vocab.txt) likewise.
# usage: stdout_inputs.sh EMBDEMO DATA_DIR
set -u
binary=$1
data=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failures=0
cases=0

"$binary" --ids 1 --vocab 4 --dim 3 --save-weights w.npy >/dev/null || exit 1
printf 'the cat sat on the mat\n' >t.txt
printf '0\n1\n2\n3\n' >labels.txt
"$binary" grad --ids 1,2 --vocab 4 --dim 3 --format csv --show G >/dev/null 2>&1
printf '0.5,0.25,1\n1,2,3\n' >g.csv
printf '0.5,0.25,1\n1,2,3\n' >h.csv
mkdir -p d/gpt2 d/bert && cp "$data"/gpt2/* d/gpt2/ && cp "$data"/bert/* d/bert/

# refused OPTION FILE ARGS...: the run with stdout appended to FILE.
refused() {
  local option=$1 file=$2
  shift 2
  cases=$((cases + 1))
  cp "$file" before
  EMBDEMO_DATA_DIR="$work/d" "$binary" "$@" >>"$file" 2>err
  local status=$?
  if [ $status -ne 2 ] || [ "$(wc -l <err)" -ne 1 ] || ! grep -qF -- "$option" err || ! cmp -s before "$file"; then
    echo "FAIL: $* >> $file: status $status, $(cat err)"
    failures=$((failures + 1))
  fi
}

for lesson in "" "positions" "factor --rank 1" "tied" "bag --context 2 --batch 1"; do
  read -ra args <<<"$lesson"
  refused '--text-file "t.txt"' t.txt "${args[@]}" --text-file t.txt --dim 2
done
refused '--text-file "t.txt"' t.txt grad --text-file t.txt --dim 2
refused '--text-file "t.txt"' t.txt tokens --text-file t.txt
refused '--text-file "t.txt"' t.txt cost --text-file t.txt --dim 2
refused '--weights "w.npy"' w.npy --ids 1 --weights w.npy
refused '--weights "w.npy"' w.npy grad --ids 1 --weights w.npy
ln -s w.npy link.npy
refused '--weights "link.npy"' w.npy --ids 1 --weights link.npy
refused '--labels "labels.txt"' labels.txt --ids 1 --vocab 4 --dim 3 --export-projector p --labels labels.txt
refused '--upstream "g.csv"' g.csv grad --ids 1,2 --vocab 4 --dim 3 --upstream g.csv
refused '--hidden "h.csv"' h.csv tied --ids 1,2 --vocab 4 --dim 3 --hidden h.csv
refused "GPT-2's vocabulary" d/gpt2/vocab.bpe tokens --text hi
refused "GPT-2's vocabulary" d/gpt2/vocab.bpe --ids 1 --vocab 4 --dim 3
refused "BERT's vocabulary" d/bert/vocab.txt --text hi --tokenizer wordpiece --dim 2
refused "BERT's vocabulary" d/bert/vocab.txt --ids 1 --vocab 4 --dim 3

# Not an input: an ordinary file, and /dev/null.
cases=$((cases + 1))
if ! "$binary" --ids 1 --weights w.npy >>out.txt || [ ! -s out.txt ] || ! "$binary" tokens --text-file t.txt >/dev/null; then
  echo "FAIL: stdout to a file that is no input"
  failures=$((failures + 1))
fi
echo "$cases cases, $failures failures"
[ $failures -eq 0 ]
