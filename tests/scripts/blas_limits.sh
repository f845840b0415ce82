#!/usr/bin/env bash
# The BLAS lessons under an address-space limit (prlimit --as, 30 MB to 1 GB), with OpenBLAS's
# variables set to what a user might set them to, and with a libblas.so.3 that is no library:
# no run may hang (OpenBLAS retries a buffer the limit refuses for ever) or end by a signal
# (SIGABRT from an exception that cannot unwind, SIGILL from a core the CPU cannot run); a run
# that fails says why in one line on stderr and writes nothing on stdout.
# Usage: blas_limits.sh EMBDEMO TESTS_DATA_DIR
set -u
[ $# -eq 2 ] || { echo "usage: $0 EMBDEMO TESTS_DATA_DIR"; exit 2; }
. "$(dirname "$0")/common.sh" "$1"
data=$(realpath "$2")
command -v prlimit >/dev/null || { echo "skipped: prlimit (util-linux) is not installed"; exit 77; }

printf 'not a shared object\n' >"$work/libblas.so.3"
lessons=(
  "grad --ids 2,3,1,3 --dim 4"
  "tied --ids 2,3 --dim 3"
  "bag --bags 1,2;3 --dim 3"
  "factor --ids 1,2 --dim 4 --rank 1"
  "--ids 0,1 --weights $data/weights/with_inf.npy"
  "bench --tokens 8 --vocab 64 --dim 8 --repeats 1"
)
settings=(
  ""
  "OPENBLAS_NUM_THREADS=2"
  "OPENBLAS_NUM_THREADS=64"
  "OPENBLAS_CORETYPE=SkylakeX"
  "OPENBLAS_CORETYPE=Bulldozer"
  "OPENBLAS_CORETYPE=Opteron"
  "OPENBLAS_CORETYPE=Haswell"
  "LD_LIBRARY_PATH=$work"
)
limits=(30000000 100000000 170000000 185000000 250000000 1000000000)

for lesson in "${lessons[@]}"; do
  read -r -a args <<<"$lesson"
  for setting in "${settings[@]}"; do
    for limit in "${limits[@]}"; do
      cases=$((cases + 1))
      # shellcheck disable=SC2086
      env -u OPENBLAS_CORETYPE -u OPENBLAS_NUM_THREADS $setting timeout 60 \
        prlimit --as="$limit" "$binary" "${args[@]}" >"$work/out" 2>"$work/err" </dev/null
      status=$?
      where="embdemo $lesson [${setting:-no OPENBLAS_* set}, --as=$limit]"
      if [ $status -eq 124 ]; then
        fail "$where hung (killed after 60 s)"
      elif [ $status -ge 128 ]; then
        fail "$where died by signal $((status - 128)): $(head -c 300 "$work/err")"
      elif [ $status -eq 1 ] || [ $status -eq 2 ]; then
        lines=$(grep -cv '^Core not found' "$work/err")
        [ "$lines" -eq 1 ] || fail "$where: exit $status with $lines lines on stderr: $(head -c 300 "$work/err")"
        [ -s "$work/out" ] && fail "$where: exit $status, yet wrote on stdout"
      elif [ $status -eq 127 ] && [ "$limit" -le 30000000 ] && grep -q "error while loading shared libraries" "$work/err"; then
        :  # embdemo-bench links OpenBLAS: under 30 MB the loader cannot map it and says so
      elif [ $status -ne 0 ] && [ $status -ne 3 ]; then
        fail "$where: exit $status: $(head -c 300 "$work/err")"
      fi
    done
  done
done

# The refusals name what is wrong.
env -u OPENBLAS_CORETYPE prlimit --as=150000000 "$binary" grad --ids 2,3,1,3 --dim 4 >/dev/null 2>"$work/err"
grep -q "address-space limit (ulimit -v, RLIMIT_AS) of 143\(\.1\)\? MiB" "$work/err" ||
  fail "grad under --as=150000000 does not name the limit: $(cat "$work/err")"
# GPT-2-sized tables past what the limit leaves are refused before the work (exit 2), not "out
# of memory" half-way (exit 1).
for lesson in "--ids 5,40000" "grad --ids 5,40000" "tied --ids 5,40000" "bag --bags 5,40000"; do
  read -r -a args <<<"$lesson"
  for limit in 30000000 100000000 150000000; do
    cases=$((cases + 1))
    prlimit --as="$limit" "$binary" "${args[@]}" --vocab 50257 --dim 768 >"$work/out" 2>"$work/err" </dev/null
    status=$?
    [ $status -eq 2 ] && [ ! -s "$work/out" ] && grep -q "the address-space limit (ulimit -v, RLIMIT_AS) of" "$work/err" ||
      fail "$lesson at GPT-2's size under --as=$limit: exit $status: $(head -c 300 "$work/err")"
  done
done
# Between "refused" and "fits" there is no "out of memory" half-way: the estimate counts what
# the BLAS and the threads that fault in E map beside the tables (grad exited 1 at 500-720 MB).
for lesson in "--ids 5,40000" "grad --ids 5,40000" "tied --ids 5,40000" "bag --bags 5,40000"; do
  read -r -a args <<<"$lesson"
  for limit in 400000000 500000000 600000000 650000000 700000000 720000000 800000000; do
    cases=$((cases + 1))
    prlimit --as="$limit" "$binary" "${args[@]}" --vocab 50257 --dim 768 >"$work/out" 2>"$work/err" </dev/null
    status=$?
    [ $status -eq 0 ] || { [ $status -eq 2 ] && [ ! -s "$work/out" ] && grep -q "RLIMIT_AS" "$work/err"; } ||
      fail "$lesson at GPT-2's size under --as=$limit: exit $status: $(head -c 300 "$work/err")"
  done
done
env LD_LIBRARY_PATH="$work" "$binary" tied --ids 1,2 --dim 3 >/dev/null 2>"$work/err"
[ $? -eq 1 ] && grep -q "cannot load the BLAS" "$work/err" ||
  fail "tied with a broken libblas.so.3 does not say so with exit 1: $(cat "$work/err")"

[ $failures -eq 0 ] || { echo "$failures failures in $cases runs"; exit 1; }
echo "all $cases runs under address-space limits and OpenBLAS settings ended with a status and one line"
