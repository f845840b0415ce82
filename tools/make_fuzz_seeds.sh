#!/usr/bin/env bash
# Writes the fuzz targets' seed corpora into tests/fuzz/corpus/<target>/ (tests/fuzz/README.md):
# typed ids, the weight files of tests/data, texts for the tokenizer, and every golden case's
# command line for the pipeline. Inputs found by fuzzing (regressions) are added by hand beside
# them and never removed by this script, which only (re)writes files named seed_*.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=tests/fuzz/corpus
export LC_ALL=C

# seed TARGET NAME SELECTOR_BYTE_OCTAL FILE_OR_TEXT...: the selector byte, then the bytes.
put() { mkdir -p "$corpus/$1"; printf "$3" > "$corpus/$1/seed_$2"; }

# ids: the first byte picks parse_decimal (0), parse_id_list (1), parse_id_batch (2),
# parse_bags (3), bags|weights (4).
i=0
for entry in '\x000' '\x0018446744073709551615' '\x00007' '\x01-1' '\x012, 3 ,1' '\x012,,3' '\x010x10' \
             '\x022,3,1;0,1,1' '\x022,3;1' '\x021;' '\x031;;2' '\x03;2,3' '\x032,3;' \
             '\x042,3;1|0.5,2;1' '\x042;|nan' '\x041,1|1e3,-inf'; do
  put ids $((i++)) "$entry"
done

# weights: the first byte picks .npy (0), CSV (1), TSV (2) or labels (3 + 4k: k+1 labels).
mkdir -p "$corpus/weights" "$corpus/tokenizer" "$corpus/pipeline"
for file in tests/data/weights/*.npy tests/data/bad/*.npy; do
  { printf '\x00'; cat "$file"; } > "$corpus/weights/seed_$(basename "$file")"
done
for file in tests/data/weights/*.csv tests/data/bad/*.csv tests/data/lessons/*.csv; do
  { printf '\x01'; cat "$file"; } > "$corpus/weights/seed_$(basename "$file")"
done
for file in tests/data/weights/*.tsv tests/data/bad/*.tsv; do
  { printf '\x02'; cat "$file"; } > "$corpus/weights/seed_$(basename "$file")"
done
put weights labels_3 '\x0bYour\n journey\r\nstarts\n'
put weights labels_bom '\x07\357\273\277a\nb\n'
put weights labels_tab '\x03a\tb\n'

# tokenizer: any bytes.
cp tests/data/text/journey.txt "$corpus/tokenizer/seed_journey"
put tokenizer contractions "I'm sure they'll say it's what we'd've done  \n\n  ok"
put tokenizer unicode 'caf\303\251 \344\270\255\346\226\207 \360\237\230\200 42\342\205\253 x\314\201'
put tokenizer special 'a<|endoftext|>b <|endoftext|><|endof'
put tokenizer invalid '\377\376a \300\200 \355\240\200'
# Characters of no width (issue 28): combining marks, zero-width space, Hangul filler, U+3000.
put tokenizer zero_width "$(printf '\314\201%.0s' {1..64})e\314\201e\314\201\342\200\213\342\200\213"
put tokenizer no_glyph "$(printf '\341\205\240%.0s' {1..32})\343\200\200\302\240\302\205"

# pipeline: every golden case's arguments as literal words (0xff, length, bytes), run in tests/data.
for case_file in tests/golden/cases/*.args; do
  name=$(basename "$case_file" .args)
  case $name in *bench*) continue ;; esac
  args=() stdout_file="" env_vars=()
  # shellcheck source=/dev/null
  source "$case_file"
  [ -z "$stdout_file" ] && [ ${#env_vars[@]} -eq 0 ] && [ ${#args[@]} -le 24 ] || continue
  out="$corpus/pipeline/seed_$name"
  : > "$out"
  for word in "${args[@]}"; do
    [ ${#word} -lt 64 ] || { rm -f "$out"; continue 2; }
    printf "\\377\\$(printf %03o ${#word})" >> "$out"
    printf '%s' "$word" >> "$out"
  done
done
