#!/usr/bin/env bash
# --timing: the one output that changes from run to run, so no golden can hold it. Checks its
# shape (text and JSON), that it is there only when asked, that its sentence follows the verdict
# (a run whose forms differ must not say "the same bits"), and that other lessons refuse it.
# usage: timing.sh BINARY
set -u
binary=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$binary" --ids 2,3,1 --dim 5 --timing >"$work/text" || fail "--timing exited $?"
grep -Eq '^time on this machine: lookup [0-9.]+ (us|ms|s), one-hot product [0-9.]+ (us|ms|s) \(1 thread\),' "$work/text" ||
  fail "no timing sentence: $(tail -2 "$work/text")"
# ASCII under LC_ALL=C (and everywhere): no micro sign.
LC_ALL=C "$binary" --ids 2,3,1 --dim 5 --timing | LC_ALL=C grep -q '[^ -~]' && fail "--timing prints a non-ASCII byte"
grep -q 'for the same bits; X (3 x 4) is 75% zeros' "$work/text" || fail "the sentence's end: $(tail -2 "$work/text")"
"$binary" --ids 2,3,1 --dim 5 | grep -q 'time on this machine' && fail "timing without --timing"

"$binary" --ids 5,40000,50256 --dim 8 --timing --format json >"$work/json" || fail "--timing json exited $?"
python3 - "$work/json" <<'PY' || fail "the JSON timing object"
import json, sys
timing = json.load(open(sys.argv[1]))["timing"]
assert set(timing) == {"lookup_seconds", "onehot_matmul_seconds", "threads"}, timing
assert timing["lookup_seconds"] >= 0 and timing["onehot_matmul_seconds"] > 0 and timing["threads"] == 1, timing
PY
"$binary" --ids 2,3,1 --dim 5 --format json | grep -q '"timing"' && fail "JSON timing without --timing"

# E with -0.0 in row 1: the product gives +0.0 there, so the forms differ and the sentence says so.
printf '1,2\n-0.0,3\n' >"$work/e.csv"
"$binary" --ids 1,0 --weights "$work/e.csv" --timing >"$work/differ"
[ $? -eq 3 ] || fail "a differing run should exit 3"
grep -q 'for a result that differs' "$work/differ" || fail "differing run's sentence: $(tail -3 "$work/differ")"

# EMBDEMO_THREADS chooses the threads of a product past one block, and the sentence counts
# those it used: one for a product that is one block whatever the setting.
EMBDEMO_THREADS=2 "$binary" --ids "$(seq -s, 0 199)" --vocab 30000 --dim 8 --timing | grep -q '(2 threads)' ||
  fail "EMBDEMO_THREADS=2 is not in the sentence"
EMBDEMO_THREADS=2 "$binary" --ids 2,3,1 --dim 5 --timing | grep -q '(1 thread)' ||
  fail "a one-block product claims more than one thread"

"$binary" grad --ids 2,3,1 --dim 5 --timing >/dev/null 2>"$work/err"
grep -q -- '--timing belongs to the lookup lesson' "$work/err" || fail "grad --timing: $(cat "$work/err")"

echo "timing: $failures failures"
[ $failures -eq 0 ]
