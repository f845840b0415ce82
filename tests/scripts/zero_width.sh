#!/usr/bin/env bash
# Characters of no width (combining marks, zero-width spaces and joiners, variation selectors,
# Hangul fillers) cannot slip past the text views' 80 columns (issue 28): a megabyte of them
# once made `tokens` print 3 MB (50 MB for 16 MiB) and `positions --context 4` 17 MB, since the
# quoted text was cut by display width alone. Each view of a 1 MiB text of such characters must
# stay under 64 KiB, every line within 80 characters and 320 bytes (the markdown view's list
# items are paragraphs, and only their size is bounded), and say that it cut ("...").
# usage: zero_width.sh BINARY
set -u
. "$(dirname "$0")/common.sh" "$1"

# mark HEX_UTF8: 1 MiB of that character, repeated (a lone mark, or a base letter and a mark).
make_text() { python3 -c "import sys; u=bytes.fromhex(sys.argv[1]); sys.stdout.buffer.write(u*((1<<20)//len(u)))" "$1" >"$work/text"; }

check() {
  local what=$1
  shift
  cases=$((cases + 1))
  timeout 60 "$binary" "$@" >"$work/out" 2>"$work/err" </dev/null
  local status=$?
  local problem=""
  local bytes
  bytes=$(wc -c <"$work/out")
  if [ "$status" -ne 0 ]; then problem="exit $status: $(head -c 200 "$work/err")"
  elif [ "$bytes" -ge 65536 ]; then problem="$bytes bytes of output"
  elif [[ " $* " != *" markdown "* ]] && ! python3 - "$work/out" <<'PY'
import sys
lines = open(sys.argv[1], 'rb').read().split(b'\n')
bad = [(i, len(l), len(l.decode('utf-8', 'replace'))) for i, l in enumerate(lines)
       if len(l) > 320 or len(l.decode('utf-8', 'replace')) > 80]
if bad:
    print('lines over 80 characters or 320 bytes (line, bytes, characters):', bad[:3])
    sys.exit(1)
PY
  then problem="a line too long"
  elif ! grep -q '\.\.\.' "$work/out"; then problem="does not say the text was cut"
  fi
  if [ -n "$problem" ]; then
    printf 'FAIL (%s): %s: embdemo' "$problem" "$what"
    printf ' %q' "$@"
    printf '\n'
    failures=$((failures + 1))
  fi
}

# U+0301 combining acute, U+20DD combining circle, U+200B zero width space, U+200D zero width
# joiner, U+FE0F variation selector-16, U+1160 Hangul jungseong filler, U+0E31 Thai mark,
# and "e" + U+0301 (a letter with its mark: one column per two characters).
for hex in cc81 e2839d e2808b e2808d efb88f e185a0 e0b8b1 65cc81; do
  make_text "$hex"
  check "U+$hex" tokens --text-file "$work/text"
  check "U+$hex" tokens --text-file "$work/text" --piece 0
  check "U+$hex" positions --text-file "$work/text" --context 4 --dim 2
  check "U+$hex" positions --text-file "$work/text" --context 2 --batch 1 --dim 2 --format markdown
done

echo "zero_width: $cases cases, $failures failures"
[ "$failures" -eq 0 ]
