#!/usr/bin/env bash
# GPT-2's tokenizer on its worst cases (issue 27, part 6: no 1 MB input over 0.5 s on one core).
#   tools/tokenizer_worst_cases.sh [--bytes N] [--repeats N] [--binary PATH]
# Writes four texts of N bytes (default 1,000,000) to a temporary folder, each a worst case for
# BPE or the pre-tokeniser, and times `embdemo bench --tokenizer` on each (the median of
# --repeats runs, default 5, after a warm-up, one thread):
#   punctuation   one piece of "!" (GPT-2's pattern keeps a run of punctuation together)
#   one letter    one piece of "x"
#   no spaces     one piece of pseudo-random ASCII letters (thousands of ranks compete)
#   random bytes  pseudo-random bytes 0-255, each read as the Latin-1 character it names and so
#                 written as UTF-8 (the tokenizer takes UTF-8), cut to N bytes at a character
# Prints one row per case (bytes, tokens, seconds, MB/s) and whether the slowest is within 0.5 s.
# npm's js-tiktoken and tiktoken are kept out (NODE_PATH=/nonexistent): both merge a piece in n^2
# and would take hours on these texts. Exits 1 if embdemo fails.
set -euo pipefail
cd "$(dirname "$0")/.."

bytes=1000000
repeats=5
binary=build/embdemo
while [ $# -gt 0 ]; do
  case "$1" in
    --bytes) bytes=$2; shift 2 ;;
    --repeats) repeats=$2; shift 2 ;;
    --binary) binary=$2; shift 2 ;;
    *) echo "tokenizer_worst_cases: unknown argument: $1" >&2; exit 2 ;;
  esac
done
[ -x "$binary" ] || { echo "tokenizer_worst_cases: $binary is not built" >&2; exit 2; }
binary=$(realpath "$binary")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work" "$bytes" <<'PY'
import random, string, sys
work, size = sys.argv[1], int(sys.argv[2])
def write(name, text):
    data = text.encode("utf-8")[:size]
    while True:  # cut at a character boundary
        try:
            data.decode("utf-8")
            break
        except UnicodeDecodeError:
            data = data[:-1]
    open(f"{work}/{name}.txt", "wb").write(data)
rng = random.Random(27)
write("punctuation", "!" * size)
write("one_letter", "x" * size)
write("no_spaces", "".join(rng.choice(string.ascii_letters) for _ in range(size)))
write("random_bytes", bytes(rng.randrange(256) for _ in range(size)).decode("latin-1"))
PY

printf '%-14s %12s %10s %9s %9s\n' case bytes tokens seconds "MB/s"
slowest=0
for name in punctuation one_letter no_spaces random_bytes; do
  out=$(cd "$work" && NODE_PATH=/nonexistent "$binary" bench --tokenizer "$name.txt" --repeats "$repeats" --format json)
  field() { sed -n "s/^  \"$1\": \([^,]*\),*$/\1/p" <<<"$out"; }
  printf '%-14s %12s %10s %9.3f %9.2f\n' "$name" "$(field bytes)" "$(field tokens)" "$(field seconds)" "$(field mb_per_s)"
  slowest=$(python3 -c "print(max($slowest, $(field seconds)))")
done
if python3 -c "import sys; sys.exit(0 if $slowest <= 0.5 else 1)"; then
  echo "slowest: $slowest s, within 0.5 s"
else
  echo "slowest: $slowest s, over 0.5 s"
fi
