#!/usr/bin/env bash
# Weights in and out through the real binary: --save-weights writes numpy.save's exact bytes,
# --weights reads them (and CSV) back bit for bit, --export-projector writes the projector's
# files. If Debian's python3-numpy happens to be installed, numpy.load is asked too; CI does not
# need it.
# usage: weights_roundtrip.sh EMBDEMO DATA_DIR
set -u
binary=$1
data=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
run() { "$binary" "$@" 2>"$work/stderr" </dev/null; }

# The notebook's E, saved: byte for byte the file real numpy wrote for the same values.
run --ids 2,3,1 --dim 5 --save-weights "$work/notebook.npy" >/dev/null || fail "save notebook"
cmp -s "$work/notebook.npy" "$data/weights/notebook_f32.npy" || fail "saved .npy differs from numpy.save's bytes"

# A larger table: save, load, save again -> identical files; every value identical in CSV.
run --ids 0,999 --vocab 1000 --dim 33 --seed 7 --save-weights "$work/a.npy" --format csv --show weight \
  >"$work/a.csv" || fail "save 1000 x 33"
run --ids 0,999 --weights "$work/a.npy" --save-weights "$work/b.npy" --format csv --show weight \
  >"$work/b.csv" || fail "load 1000 x 33"
cmp -s "$work/a.npy" "$work/b.npy" || fail "save -> load -> save changed the .npy"
cmp -s "$work/a.csv" "$work/b.csv" || fail "values loaded from .npy differ"
# CSV written by --show weight reads back to the same bits.
run --ids 0,999 --weights "$work/a.csv" --save-weights "$work/c.npy" >/dev/null || fail "load CSV"
cmp -s "$work/a.npy" "$work/c.npy" || fail "CSV round trip changed a value"

# Overwriting keeps no temporary files around.
run --ids 1 --dim 2 --save-weights "$work/a.npy" >/dev/null || fail "overwrite"
[ -z "$(find "$work" -name '*.tmp-*')" ] || fail "temporary file left behind"

# Projector export: vectors.tsv is E, metadata.tsv the ids or the labels.
run --ids 2,3,1 --dim 5 --export-projector "$work/projector" >/dev/null || fail "export"
run --ids 2,3,1 --dim 5 --format tsv --show weight | cmp -s - "$work/projector/vectors.tsv" || fail "vectors.tsv"
[ "$(cat "$work/projector/metadata.tsv")" = $'0\n1\n2\n3' ] || fail "metadata.tsv with ids"
printf 'the\ncat\nsat\non\n' >"$work/labels.txt"
run --ids 2,3,1 --dim 5 --export-projector "$work/projector" --labels "$work/labels.txt" >/dev/null ||
  fail "export with labels"
[ "$(cat "$work/projector/metadata.tsv")" = $'the\ncat\nsat\non' ] || fail "metadata.tsv with labels"
# With --text, metadata.tsv holds each row's GPT-2 token beside its id or label, under a header
# (the projector reads a header when there are two columns), one line per row of E, one tab each.
run --text 'Your journey' --vocab 7121 --dim 2 --export-projector "$work/p3" >/dev/null ||
  fail "export with --text"
[ "$(wc -l <"$work/p3/metadata.tsv")" -eq 7122 ] || fail "metadata.tsv with --text: $(wc -l <"$work/p3/metadata.tsv") lines"
[ "$(head -1 "$work/p3/metadata.tsv")" = $'id\ttoken' ] || fail "metadata.tsv header: $(head -1 "$work/p3/metadata.tsv")"
awk -F'\t' 'NF != 2 { exit 1 }' "$work/p3/metadata.tsv" || fail "a metadata.tsv line without exactly one tab"
for row in $'7002\t" journey"' $'198\t"\\n"' $'197\t"\\t"' $'220\t" "' $'1\t"\\""'; do
  grep -qxF -- "$row" "$work/p3/metadata.tsv" || fail "metadata.tsv lacks the line $row"
done
printf 'w%d\n' $(seq 0 7120) >"$work/labels7121.txt"
run --text 'Your journey' --vocab 7121 --dim 2 --export-projector "$work/p4" --labels "$work/labels7121.txt" >/dev/null ||
  fail "export with --text and --labels"
[ "$(sed -n '1p;7004p' "$work/p4/metadata.tsv")" = $'label\ttoken\nw7002\t" journey"' ] ||
  fail "metadata.tsv with labels and tokens: $(sed -n '1p;7004p' "$work/p4/metadata.tsv")"
printf 'the\ncat\n' >"$work/short.txt"
run --ids 2,3,1 --dim 5 --export-projector "$work/p2" --labels "$work/short.txt" >"$work/stdout"
status=$?
[ $status -eq 2 ] && [ ! -s "$work/stdout" ] && [ ! -e "$work/p2" ] || fail "short labels: status $status"
grep -qF 'has 2 lines but E has 4 rows' "$work/stderr" || fail "short labels message: $(cat "$work/stderr")"

# A missing directory is bad input, found before any work: exit 2, nothing on stdout.
run --ids 2,3,1 --dim 5 --save-weights "$work/missing/e.npy" >"$work/stdout"
status=$?
[ $status -eq 2 ] && [ ! -s "$work/stdout" ] || fail "unwritable --save-weights: status $status"

# Replacing a file keeps what the user set up: a symbolic link stays a link (its target is
# rewritten), an existing file keeps its permissions, and a long file name still works.
run --ids 1 --dim 2 --save-weights "$work/real.npy" >/dev/null || fail "save real.npy"
chmod 600 "$work/real.npy"
ln -s real.npy "$work/link.npy"
run --ids 1 --dim 3 --save-weights "$work/link.npy" >/dev/null || fail "save through a link"
[ -L "$work/link.npy" ] || fail "--save-weights replaced a symbolic link"
[ "$(stat -c %a "$work/real.npy")" = 600 ] || fail "--save-weights lost the file's permissions"
[ "$(stat -c %s "$work/real.npy")" = 152 ] || fail "the link's target was not rewritten (2 x 3 floats)"
long_name="$work/$(printf 'w%.0s' {1..250}).npy"
run --ids 1 --dim 2 --save-weights "$long_name" >/dev/null || fail "a 254-character file name"

# A file too large to print in full: json refuses once the header is read (a sparse 5000 x 4000
# float32 file, 80 MB of zeros, made without numpy).
header="{'descr': '<f4', 'fortran_order': False, 'shape': (5000, 4000), }"
while [ $(( (10 + ${#header} + 1) % 64 )) -ne 0 ]; do header+=" "; done
header+=$'\n'
{ printf '\x93NUMPY\x01\x00'; printf "\\x$(printf %02x $(( ${#header} % 256 )))\\x$(printf %02x $(( ${#header} / 256 )))"; printf '%s' "$header"; } >"$work/big.npy"
truncate -s +80000000 "$work/big.npy"
run --ids 1 --weights "$work/big.npy" --format json >"$work/stdout"
status=$?
[ $status -eq 2 ] && [ ! -s "$work/stdout" ] || fail "json of a 5000 x 4000 file: status $status"
grep -qF 'the limit for json, csv and tsv is 16,777,216' "$work/stderr" || fail "json cap message: $(cat "$work/stderr")"
run --ids 1 --weights "$work/big.npy" --format csv --show lookup >"$work/stdout" || fail "csv --show lookup of a big file"

if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  /usr/bin/python3 - "$work/b.npy" "$work/b.csv" <<'PY' || fail "numpy.load does not read back the same bits"
import sys, numpy as np
saved = np.load(sys.argv[1])
text = np.loadtxt(sys.argv[2], delimiter=",", dtype=np.float64).astype(np.float32)
assert saved.dtype == np.float32 and saved.shape == (1000, 33), (saved.dtype, saved.shape)
assert saved.tobytes() == text.tobytes()
PY
else
  echo "SKIP: numpy.load check (python3-numpy not installed)"
fi

echo "weights round trip: $failures failures"
[ $failures -eq 0 ]
