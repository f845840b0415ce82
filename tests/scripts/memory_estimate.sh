#!/usr/bin/env bash
# The memory estimate behind --max-memory against the real thing: for each kind of run, the
# estimate (read from the refusal that --max-memory 1M provokes) must be within 25% of the peak
# resident set size that /usr/bin/time -f %M measures for the same run (10% where a case says
# so). Skipped (77) without GNU time.
# usage: memory_estimate.sh EMBDEMO
set -u
binary=$1
if [ -n "${EMBDEMO_SANITIZED:-}" ]; then
  echo "SKIP: a sanitizer build's peak RSS is mostly the sanitizer's (shadow memory, quarantine)"
  exit 77
fi
[ -x /usr/bin/time ] && /usr/bin/time -f %M true >/dev/null 2>&1 || { echo "SKIP: needs GNU time (/usr/bin/time)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# compare NAME ARGS...: estimate vs measured peak RSS, both in KiB, within `tolerance` per cent
# (25 unless the caller sets it).
compare() {
  local name=$1
  shift
  "$binary" "$@" --max-memory 1M >/dev/null 2>"$work/refusal" </dev/null
  local estimate
  estimate=$(sed -n 's/.*would need about \([0-9.]*\) \([MG]\)iB.*/\1 \2/p' "$work/refusal" |
    awk '{ print int($1 * ($2 == "G" ? 1048576 : 1024)) }')
  if [ -z "$estimate" ]; then
    echo "FAIL: $name: no estimate in: $(cat "$work/refusal")"
    failures=$((failures + 1))
    return
  fi
  rm -rf "$work/out" && mkdir "$work/out"
  /usr/bin/time -o "$work/rss" -f %M "$binary" "$@" >/dev/null 2>"$work/stderr" </dev/null
  local status=$? measured
  measured=$(tail -1 "$work/rss")
  local ratio=$((estimate * 100 / measured))
  echo "$name: estimate $estimate KiB, measured $measured KiB ($ratio%), status $status"
  local within=${tolerance:-25}
  if [ "$status" -ne 0 ] || [ $ratio -lt $((100 - within)) ] || [ $ratio -gt $((100 + within)) ]; then
    echo "FAIL: $name: $(cat "$work/stderr")"
    failures=$((failures + 1))
  fi
}

compare "grad, GPT-2's table" grad --ids 5,40000,5 --vocab 50257 --dim 768
compare "grad past one block of X" grad --ids "$(seq -s, 0 125 50000)" --vocab 50257 --dim 64
compare "grad, optimizer steps" grad --ids "5,9;40000,9" --vocab 50257 --dim 128 --optimizer adam --steps 3
compare "text, GPT-2's table" --ids 5,40000,50256 --dim 768
compare "text, a wide X" --ids 0,1 --vocab 16777216 --dim 1
# A wide table: the text view chose its columns by listing and spelling every value of every
# shown row first (484 MiB against an estimate of 164 MiB here, 900 MiB at 16 Mi columns).
tolerance=10 compare "text, a wide table" --ids 0,1 --vocab 4 --dim 4194304
compare "json, every matrix" --ids 1,2 --vocab 2048 --dim 2000 --format json
compare "csv, one matrix" --ids 1 --vocab 2048 --dim 2000 --format csv --show weight
# One column: JSON spends a line on each row, 18 bytes a value rather than 12 (counted at 12, the
# estimate was 78% of the peak).
tolerance=10 compare "json, one column" --ids 1 --vocab 4194304 --dim 1 --format json --show weight
compare "walkthrough" --ids 2,3,1 --vocab 20000 --dim 768 --walkthrough
compare "both exports" --ids 1 --vocab 20000 --dim 768 --save-weights "$work/out/e.npy" \
  --export-projector "$work/out/p"
cp "$work/out/e.npy" "$work/e.npy"
compare "from a .npy file" --ids 1 --weights "$work/e.npy" --format tsv --show lookup
# 3,000 rows: the plan's fixed 4 MiB for the BLAS (a file's table may hold inf or nan; this one does
# not, so the BLAS is never opened) is a quarter of a 2,000-row run's 16 MB once embdemo links
# without PIE, which left 0.8 MiB of relocated pages clean (docs/performance.md, "Start-up").
"$binary" --ids 1 --vocab 3000 --dim 768 --format csv --show weight >"$work/e.csv"
compare "from a CSV file" --ids 1 --weights "$work/e.csv"

# --labels: the file and one string per row (short labels), plus their characters (long ones).
# The budget did not count them: --max-memory 64M let 4 Mi short labels take 307 MiB.
seq 0 1048575 >"$work/short_labels.txt"
awk '{ printf "token number %08d of the vocabulary\n", $1 }' "$work/short_labels.txt" >"$work/long_labels.txt"
compare "short labels" --ids 1 --vocab 1048576 --dim 1 --export-projector "$work/out/p" --labels "$work/short_labels.txt"
compare "long labels" --ids 1 --vocab 1048576 --dim 1 --export-projector "$work/out/p" --labels "$work/long_labels.txt"

# A labels file over its cap is refused by its size, without being read (it used to be read up
# to the cap, 256 MiB, first).
truncate -s 1G "$work/labels.txt"
/usr/bin/time -o "$work/rss" -f %M "$binary" --ids 1 --dim 2 --export-projector "$work/p" \
  --labels "$work/labels.txt" >/dev/null 2>"$work/stderr" </dev/null
status=$?
rss=$(tail -1 "$work/rss")
echo "1 GiB labels file: status $status, peak $rss KiB"
if [ $status -ne 2 ] || [ "$rss" -gt 20480 ] || ! grep -qF 'is 1,073,741,824 bytes (allowed: at most' "$work/stderr"; then
  echo "FAIL: 1 GiB labels file: $(cat "$work/stderr")"
  failures=$((failures + 1))
fi

# tokens: 4 MiB of "a1" is 4 Mi one-byte pieces (each a token), the most pieces a text can have;
# English prose has a piece per 5 bytes. 16 MiB of "a1" took 1.2 GiB with no budget at all.
python3 -c "open('$work/a1.txt', 'w').write('a1' * (2 << 20))"
python3 -c "
w = 'the quick brown fox jumps over a lazy dog while seventeen curious engineers measured it. '
open('$work/prose.txt', 'w').write((w * ((4 << 20) // len(w) + 1))[:4 << 20])"
compare "tokens, one-byte pieces" tokens --text-file "$work/a1.txt"
compare "tokens, one-byte pieces, csv" tokens --text-file "$work/a1.txt" --format csv
compare "tokens, prose, json" tokens --text-file "$work/prose.txt" --format json
compare "tokens, prose, csv" tokens --text-file "$work/prose.txt" --format csv
compare "tokens, prose, markdown" tokens --text-file "$work/prose.txt" --format markdown
# Past the budget, refused before the cut: the count that decides holds nothing per piece.
/usr/bin/time -o "$work/rss" -f %M "$binary" tokens --text-file "$work/a1.txt" --max-memory 64M \
  >/dev/null 2>"$work/stderr" </dev/null
status=$?
rss=$(tail -1 "$work/rss")
echo "tokens past its budget: status $status, peak $rss KiB"
if [ $status -ne 2 ] || [ "$rss" -gt 40960 ] || ! grep -qF 'the budget is 64.0 MiB (allowed: --max-memory SIZE to raise it, e.g. --max-memory 4G, or a shorter text)' "$work/stderr"; then
  echo "FAIL: tokens past its budget: $(cat "$work/stderr")"
  failures=$((failures + 1))
fi

[ $failures -eq 0 ] || exit 1
echo "every estimate within its tolerance of the measured peak"
