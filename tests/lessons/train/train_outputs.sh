#!/usr/bin/env bash
# embdemo train's files: --save-weights writes the trained table, which the lookup lesson reads
# back with --weights, the same values as the JSON's "weight"; --export-projector writes the
# vectors and the rows' words; a refused run writes nothing.
# usage: train_outputs.sh BINARY
set -eu
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; exit 1; }

"$bin" train --ids 1,2,3,1,2 --steps 3 --save-weights e.npy > /dev/null
[ -s e.npy ] || fail "--save-weights wrote no file"
trained=$("$bin" train --ids 1,2,3,1,2 --steps 3 --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["weight"])')
read_back=$("$bin" --weights e.npy --ids 0,1,2,3 --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["weight"])')
[ "$trained" = "$read_back" ] || fail "the saved table read back is not the trained one: $read_back vs $trained"

"$bin" train --model skipgram --dim 3 --text 'the cat eats fish the dog eats meat' --level word --min-count 1 \
    --export-projector proj > /dev/null
[ "$(wc -l < proj/vectors.tsv)" = 6 ] || fail "the projector's vectors are not one line a row"
sed -n 2p proj/metadata.tsv | grep -q '^the' || fail "the projector's first row is not the text's commonest word: $(sed -n 2p proj/metadata.tsv)"

if "$bin" train --ids 1,2,3 --steps 0 --save-weights refused.npy 2> err.txt; then fail "--steps 0 was accepted"; fi
[ ! -e refused.npy ] || fail "a refused run wrote its file"
grep -q -- '--steps "0"' err.txt || fail "the refusal does not name the value: $(cat err.txt)"
echo "train's files: saved, read back, exported; nothing written when refused"
