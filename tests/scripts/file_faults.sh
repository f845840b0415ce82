#!/usr/bin/env bash
# Faults while --save-weights and --export-projector write, through the real binary (issue 11;
# docs/usage.md, "Output faults"):
# - a write that fails half-way (ulimit -f with SIGXFSZ at its default, a full tmpfs when one
#   can be mounted, a failing write or fsync injected with strace) leaves the previous file
#   byte for byte, exits 1 and names the file;
# - a rename that fails during the commit puts every replaced file back (also without hard
#   links); a signal during the commit takes effect after it; SIGKILL between the two renames
#   leaves what docs/usage.md says; a signal while the files are written removes them;
# - two runs saving to the same path at once leave one run's complete output (for the projector,
#   one run's pair of files), and no temporary file.
# strace (fault injection) is optional: without it those cases are skipped with a note.
# usage: file_faults.sh EMBDEMO
set -u
binary=$(realpath "$1")
work=$(mktemp -d)
mounted=""
trap '[ -n "$mounted" ] && umount "$mounted"; rm -rf "$work"' EXIT
export NO_COLOR=1 LC_ALL=C
failures=0
cases=0
notes=()
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cd "$work" || exit 1

# A run whose output and files are small; OLD and NEW differ in size and content.
old_args=(--ids 1 --vocab 3 --dim 2)
new_args=(--ids 1 --vocab 100 --dim 50)  # E is 20 KB as .npy, about 55 KB as vectors.tsv

# reference NAME ARGS...: the files ARGS write, kept as NAME.npy and NAME/ for comparisons.
reference() {
  local name=$1
  shift
  "$binary" "$@" --save-weights "$work/$name.npy" --export-projector "$work/$name" >/dev/null 2>&1 ||
    fail "reference $name: embdemo $*"
}
reference old "${old_args[@]}"
reference new "${new_args[@]}"

# prepare DIR: DIR/e.npy and DIR/p/ hold the old files.
prepare() {
  mkdir -p "$1"  # not removed itself: it may be a mount point
  rm -rf "${1:?}/e.npy" "$1/p" "$1"/.embdemo-*
  mkdir "$1/p"
  cp old.npy "$1/e.npy"
  cp old/vectors.tsv old/metadata.tsv "$1/p/"
}

# unchanged DIR WHAT: the old files are there byte for byte, and nothing else.
unchanged() {
  cmp -s "$1/e.npy" old.npy || fail "$2: e.npy changed"
  cmp -s "$1/p/vectors.tsv" old/vectors.tsv || fail "$2: vectors.tsv changed"
  cmp -s "$1/p/metadata.tsv" old/metadata.tsv || fail "$2: metadata.tsv changed"
  local left
  left=$(find "$1" -name '.embdemo-*')
  [ -z "$left" ] || fail "$2: left $left"
}

# failed WHAT EXPECTED STATUS: exit 1, one line on stderr containing EXPECTED, and nothing on
# stdout (files are written before stdout, and renamed into place after it: a failing rename,
# "cannot rename", comes after the output).
failed() {
  cases=$((cases + 1))
  [ "$3" -eq 1 ] || fail "$1: status $3, expected 1"
  [[ "$2" == *"cannot rename"* ]] || [ ! -s "$work/out" ] || fail "$1: wrote to stdout"
  [ "$(wc -l <"$work/err")" -eq 1 ] && grep -qF -- "$2" "$work/err" || fail "$1: stderr $(cat "$work/err")"
}

# ---- A write that fails half-way: ulimit -f, SIGXFSZ left at its default ----
# Run in a subshell so that the limit stays there. Each file is limited on its own.
limited() {
  local blocks=$1
  shift
  (ulimit -f "$blocks" && exec "$binary" "$@") >"$work/out" 2>"$work/err" </dev/null
}
prepare t1
limited 8 "${new_args[@]}" --save-weights t1/e.npy
failed "ulimit -f, --save-weights" "--save-weights \"t1/e.npy\": cannot write: File too large" $?
unchanged t1 "ulimit -f, --save-weights"
limited 8 "${new_args[@]}" --export-projector t1/p
failed "ulimit -f, vectors.tsv" "--export-projector \"t1/p/vectors.tsv\": cannot write: File too large" $?
unchanged t1 "ulimit -f, vectors.tsv"
# The .npy (20 KB) fits, vectors.tsv (55 KB) does not: the .npy is not replaced either.
limited 30 "${new_args[@]}" --save-weights t1/e.npy --export-projector t1/p
failed "ulimit -f, the second file" "--export-projector \"t1/p/vectors.tsv\": cannot write: File too large" $?
unchanged t1 "ulimit -f, the second file"
# vectors.tsv fits and metadata.tsv does not: long labels make it the larger of the two.
for i in 0 1 2; do printf 'label %d %09000d\n' "$i" 0; done >labels.txt
limited 8 "${old_args[@]}" --export-projector t1/p --labels labels.txt
failed "ulimit -f, metadata.tsv" "--export-projector \"t1/p/metadata.tsv\": cannot write: File too large" $?
unchanged t1 "ulimit -f, metadata.tsv"

# ---- A full file system: a 64 KiB tmpfs, where mounting is allowed (root, not in a container
# that forbids it) ----
mkdir small
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=64k embdemo-test "$work/small" 2>/dev/null; then
  mounted="$work/small"
  prepare small
  "$binary" --ids 1 --vocab 1000 --dim 20 --save-weights small/e.npy >"$work/out" 2>"$work/err" </dev/null
  failed "full tmpfs" "--save-weights \"small/e.npy\": cannot write: No space left on device" $?
  unchanged small "full tmpfs"
  [ "$(df --output=used -k small | tail -1)" -lt 32 ] || fail "full tmpfs: the space was not given back"
  umount "$work/small" && mounted=""
else
  notes+=("no tmpfs could be mounted (not root, or not allowed here): the full-disk case ran only through strace")
fi

# ---- Faults injected with strace: write, fsync, rename, link, signals ----
# injected FILTER... -- ARGS...: embdemo ARGS under strace with the given -e options; the trace
# is kept in $work/trace to check that the fault was really injected.
injected() {
  local filters=()
  while [ "$1" != "--" ]; do filters+=(-e "$1"); shift; done
  shift
  # In a subshell that reports a death by a signal as a status, not as a line from bash.
  (strace -f -qq -o "$work/trace" "${filters[@]}" "$binary" "$@" >"$work/out" 2>"$work/err" </dev/null
   exit $?) 2>/dev/null
}
if ! command -v strace >/dev/null || ! strace -qq -o /dev/null true 2>/dev/null; then
  notes+=("strace is missing or cannot trace here: the injected faults, the signal and the race cases did not run")
else
  # A disk that fills up after the header (the second write), and a failing fsync.
  prepare t2
  injected trace=write inject=write:error=ENOSPC:when=2 -- "${new_args[@]}" --save-weights t2/e.npy
  failed "ENOSPC half-way" "--save-weights \"t2/e.npy\": cannot write: No space left on device" $?
  unchanged t2 "ENOSPC half-way"
  injected trace=fsync inject=fsync:error=EIO:when=2 -- "${new_args[@]}" --save-weights t2/e.npy --export-projector t2/p
  failed "fsync fails" "--export-projector \"t2/p/vectors.tsv\": cannot write: Input/output error" $?
  unchanged t2 "fsync fails"

  # The second rename fails: vectors.tsv, already replaced, is put back; with hard links
  # refused (the fourth rename: each old file is moved aside just before it is replaced).
  injected trace=rename inject=rename:error=EIO:when=2 -- "${new_args[@]}" --export-projector t2/p
  failed "second rename fails" "--export-projector \"t2/p/metadata.tsv\": cannot rename the temporary file to it: Input/output error" $?
  grep -q INJECTED "$work/trace" || fail "second rename fails: nothing was injected"
  unchanged t2 "second rename fails"
  injected trace=link,rename inject=link:error=EPERM inject=rename:error=EIO:when=4 -- \
    "${new_args[@]}" --export-projector t2/p
  failed "no hard links, last rename fails" "\"t2/p/metadata.tsv\": cannot rename the temporary file to it" $?
  unchanged t2 "no hard links, last rename fails"
  injected trace=link inject=link:error=EPERM -- "${new_args[@]}" --export-projector t2/p
  cases=$((cases + 1))
  [ $? -eq 0 ] && cmp -s t2/p/vectors.tsv new/vectors.tsv && cmp -s t2/p/metadata.tsv new/metadata.tsv ||
    fail "no hard links: the new pair was not written"

  # A signal that arrives between the two renames ends the run after the second: never a new
  # vectors.tsv beside an old metadata.tsv. The status is the signal's; nothing is left.
  for signal in SIGTERM SIGINT SIGHUP; do
    cases=$((cases + 1))
    prepare t3
    injected trace=rename "inject=rename:signal=$signal:when=1" -- "${new_args[@]}" --export-projector t3/p
    status=$?
    [ $status -ge 128 ] || fail "$signal during the commit: status $status, expected death by the signal"
    cmp -s t3/p/vectors.tsv new/vectors.tsv && cmp -s t3/p/metadata.tsv new/metadata.tsv ||
      fail "$signal during the commit: not the new pair"
    [ -z "$(find t3 -name '.embdemo-*')" ] || fail "$signal during the commit: temporary files left"
  done
  # SIGKILL cannot be held. Killed between the two renames, a run leaves exactly what
  # docs/usage.md describes: the new vectors.tsv, the old metadata.tsv, and hidden .embdemo-*
  # files beside them (the new metadata.tsv and the old files' links); the same command again
  # writes the pair.
  cases=$((cases + 1))
  prepare t3
  injected trace=rename inject=rename:signal=SIGKILL:when=2 -- "${new_args[@]}" --export-projector t3/p
  status=$?
  [ $status -eq 137 ] || fail "SIGKILL between the renames: status $status"
  cmp -s t3/p/vectors.tsv new/vectors.tsv && cmp -s t3/p/metadata.tsv old/metadata.tsv ||
    fail "SIGKILL between the renames: not the documented new vectors.tsv beside the old metadata.tsv"
  [ -n "$(find t3/p -name '.embdemo-*')" ] || fail "SIGKILL between the renames: no .embdemo-* files (docs say there are)"
  "$binary" "${new_args[@]}" --export-projector t3/p >/dev/null 2>&1
  cmp -s t3/p/vectors.tsv new/vectors.tsv && cmp -s t3/p/metadata.tsv new/metadata.tsv ||
    fail "SIGKILL between the renames: running again did not write the pair"

  # A signal while the temporary files are written (Ctrl-C during a large save): the run ends
  # as the signal says, no file changes, and neither the temporary files nor a directory the
  # run created stay behind.
  for signal in SIGINT SIGTERM SIGHUP; do
    cases=$((cases + 1))
    prepare t4
    rm -rf t4/new
    injected trace=write "inject=write:signal=$signal:when=3" -- "${new_args[@]}" --save-weights t4/e.npy \
      --export-projector t4/new
    status=$?
    [ $status -ge 128 ] || fail "$signal while writing: status $status, expected death by the signal"
    grep -q -- "--- $signal {si_signo=$signal, si_code=SI_KERNEL" "$work/trace" || fail "$signal while writing: nothing was injected"
    unchanged t4 "$signal while writing"
    [ ! -e t4/new ] || fail "$signal while writing: the directory it created stays"
  done
  # Every other signal whose default ends the process cleans up the same way: those from
  # outside (a power monitor's SIGPWR, SIGIO, SIGSTKFLT, the first and last real-time signals)
  # and those of a fault of the process itself (abort's SIGABRT, SIGBUS, SIGSEGV, SIGTRAP,
  # SIGSYS, SIGILL, SIGFPE). They used to leave the .embdemo-* files and the new directory.
  for signal in SIGPWR SIGIO SIGSTKFLT "$(kill -l SIGRTMIN)" "$(kill -l SIGRTMAX)" SIGABRT SIGBUS SIGSEGV SIGTRAP \
    SIGSYS SIGILL SIGFPE; do
    cases=$((cases + 1))
    prepare t4
    rm -rf t4/new
    (ulimit -c 0 && injected trace=write "inject=write:signal=$signal:when=3" -- "${new_args[@]}" --save-weights t4/e.npy \
      --export-projector t4/new)
    status=$?
    [ $status -ge 128 ] || fail "signal $signal while writing: status $status, expected death by the signal"
    grep -q -- "si_code=SI_KERNEL" "$work/trace" || fail "signal $signal while writing: nothing was injected"
    unchanged t4 "signal $signal while writing"
    [ ! -e t4/new ] || fail "signal $signal while writing: the directory it created stays"
  done
  # An ignored SIGINT (a background job, nohup's SIGHUP alike) stays ignored: the run completes.
  cases=$((cases + 1))
  prepare t4
  (trap '' INT && injected trace=write inject=write:signal=SIGINT:when=3 -- "${new_args[@]}" --save-weights t4/e.npy)
  status=$?
  grep -q -- "--- SIGINT {si_signo=SIGINT, si_code=SI_KERNEL" "$work/trace" || fail "ignored SIGINT while writing: nothing was injected"
  [ $status -eq 0 ] && cmp -s t4/e.npy new.npy || fail "ignored SIGINT while writing: status $status, or not the new file"
fi

# ---- Two runs saving to the same path at once ----
# Both start together; whichever renames last wins, but the file is always one run's whole
# output, and neither leaves a temporary file.
race_args_a=(--ids 1 --vocab 300 --dim 40 --seed 1)
race_args_b=(--ids 1 --vocab 200 --dim 60 --seed 2)
reference race_a "${race_args_a[@]}"
reference race_b "${race_args_b[@]}"
mkdir race
for round in $(seq 1 40); do
  "$binary" "${race_args_a[@]}" --save-weights race/e.npy >/dev/null 2>&1 &
  "$binary" "${race_args_b[@]}" --save-weights race/e.npy >/dev/null 2>&1 &
  wait
  cmp -s race/e.npy race_a.npy || cmp -s race/e.npy race_b.npy || { fail "race, round $round: e.npy is neither run's"; break; }
done
cases=$((cases + 1))
[ -z "$(find race -name '.embdemo-*')" ] || fail "race: temporary files left"

# The projector's pair. With strace, the renames are delayed so that two runs' commits overlap
# in the worst order every time: run a waits 100 ms before its second rename, run b 50 ms before
# its first, so that unguarded the order would be a's vectors.tsv, b's vectors.tsv, b's
# metadata.tsv, a's metadata.tsv; the lock on the directory keeps each pair together. Without
# strace, plain runs (the overlap is then rare).
pair_of() {
  { cmp -s race/p/vectors.tsv "$1/vectors.tsv" && cmp -s race/p/metadata.tsv "$1/metadata.tsv"; }
}
slow_a=()
slow_b=()
rounds=100
if command -v strace >/dev/null && strace -qq -o /dev/null true 2>/dev/null; then
  slow_a=(strace -f -qq -o /dev/null -e trace=rename -e inject=rename:delay_enter=100000:when=2)
  slow_b=(strace -f -qq -o /dev/null -e trace=rename -e inject=rename:delay_enter=50000:when=1)
  rounds=10
fi
for round in $(seq 1 "$rounds"); do
  "${slow_a[@]}" "$binary" "${race_args_a[@]}" --export-projector race/p >/dev/null 2>&1 &
  "${slow_b[@]}" "$binary" "${race_args_b[@]}" --export-projector race/p >/dev/null 2>&1 &
  wait
  pair_of race_a || pair_of race_b || { fail "race, round $round: vectors.tsv and metadata.tsv of different runs"; break; }
done
cases=$((cases + 1))
[ -z "$(find race -name '.embdemo-*')" ] || fail "projector race: temporary files left"

[ $failures -eq 0 ] || { echo "$failures failures in $cases file fault checks"; exit 1; }
for note in "${notes[@]}"; do echo "note: $note"; done
echo "all $cases file fault checks passed"
