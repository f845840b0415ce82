#!/usr/bin/env bash
# Paths that must neither hang a run nor lose a file (issue 28, items 3-8; docs/usage.md, "Weight
# files" and "Saving E"), through the real binary:
# - every input (--text-file, --weights, --labels, --upstream, --hidden) that is a named pipe is
#   refused at once, and so is a symbolic link swapped between a file and a pipe while runs read
#   it (a run that blocks in open() fails the test through `timeout`);
# - an output that is one of the run's inputs (same name, a hard link, a symbolic link, a file
#   inside --export-projector) is refused with exit 2 naming both options, the input unchanged;
# - --save-weights through a dangling symbolic link writes the file the link names and keeps
#   the link; a link into a missing directory, or to itself, is refused before any work;
# - a symbolic link planted inside an --export-projector directory is refused, and the file it
#   points to is never replaced;
# - names too long, missing directories, dangling or looping --export-projector links: exit 2
#   before any work, nothing on stdout;
# - as an unprivileged user (setpriv, when run as root): a read-only file and another user's
#   file are refused, and root replacing another user's file keeps its owner, group and mode.
# usage: unsafe_paths.sh EMBDEMO
set -u
. "$(dirname "$0")/common.sh" "$1"
chmod 0755 "$work"
cd "$work" || exit 1

# refused WHAT EXPECTED ARGS...: exit 2 within 10 s, nothing on stdout, one line containing EXPECTED;
# embdemo runs under the command in `runner` (none, or another user's).
runner=()
refused() {
  local what=$1 expected=$2
  shift 2
  cases=$((cases + 1))
  timeout 10 "${runner[@]}" "$binary" "$@" >out 2>err </dev/null
  local status=$?
  [ $status -eq 2 ] || { fail "$what: status $status, expected 2 ($(head -c 300 err))"; return; }
  [ ! -s out ] || fail "$what: wrote to stdout"
  [ "$(wc -l <err)" -eq 1 ] && grep -q '^embdemo: error: ' err || fail "$what: not one error line: $(cat err)"
  grep -qF -- "$expected" err || fail "$what: message $(cat err)"
}

# ---- Inputs that are named pipes: refused at once, never opened for a blocking read ----
mkfifo pipe
"$binary" --ids 0,1 --dim 2 --save-weights e.npy >/dev/null || fail "setup e.npy"
refused "--text-file a pipe" '--text-file "pipe" is not a regular file' --text-file pipe --dim 2
refused "--weights a pipe" '--weights "pipe": is not a regular file' --ids 0 --weights pipe
refused "--labels a pipe" '--labels "pipe": is not a regular file' --ids 0 --vocab 2 --dim 2 --export-projector p --labels pipe
refused "--upstream a pipe" '--upstream "pipe": is not a regular file' grad --ids 0,1 --dim 2 --upstream pipe
refused "--hidden a pipe" '--hidden "pipe": is not a regular file' tied --ids 0,1 --dim 2 --hidden pipe
refused "tokens --text-file a pipe" '"pipe" is not a regular file' tokens --text-file pipe

# A symbolic link swapped between a file and a pipe while runs read it: a reader that checks the
# name and then opens it again can block in open() (about 1 run in 400 before the fix).
printf 'hello\n' >text.txt
ln -s text.txt swap
( while :; do ln -sfn pipe swap.new && mv -T swap.new swap; ln -sfn text.txt swap.new && mv -T swap.new swap; done ) &
swapper=$!
hung=0
for round in $(seq 1 300); do
  timeout 10 "$binary" --text-file swap --dim 2 >/dev/null 2>&1 </dev/null
  [ $? -eq 124 ] && hung=$((hung + 1))
done
kill "$swapper"
wait "$swapper" 2>/dev/null
cases=$((cases + 1))
[ $hung -eq 0 ] || fail "a link swapped to a pipe: $hung of 300 runs hung"

# The same race made certain: strace holds the open of the name for 0.8 s, during which the link
# becomes a pipe. A reader that checked the name before would now block in open() for ever.
if command -v strace >/dev/null && strace -qq -o /dev/null true 2>/dev/null; then
  ln -sfn text.txt held
  ( sleep 0.3; ln -sfn pipe held.new && mv -T held.new held ) &
  cases=$((cases + 1))
  # -P names the link as given (strace notes on stderr what it resolves to; that line is dropped).
  # LeakSanitizer cannot run under ptrace: the sanitizer pass runs this one without it.
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    timeout 10 strace -f -qq -o /dev/null -P held -e trace=openat,open -e inject=openat:delay_enter=800000 \
    "$binary" --text-file held --dim 2 >out 2>err </dev/null
  status=$?
  grep -v '^strace: ' err >err.embdemo
  [ $status -eq 2 ] && [ ! -s out ] && [ "$(wc -l <err.embdemo)" -eq 1 ] &&
    grep -qF -- '--text-file "held" is not a regular file' err.embdemo ||
    fail "a link that becomes a pipe while it is opened: status $status, $(cat err)"
  wait
else
  echo "note: strace is missing or cannot trace here: the held-open race did not run"
fi

# ---- An output that is one of the run's inputs ----
python_free_f8() {  # a 1 x 2 float64 .npy, made without numpy
  local header="{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2), }"
  while [ $(((10 + ${#header} + 1) % 64)) -ne 0 ]; do header+=" "; done
  { printf '\x93NUMPY\x01\x00'; printf "\\x$(printf %02x $(((${#header} + 1) % 256)))\\x00"; printf '%s\n' "$header"
    printf '\x9a\x99\x99\x99\x99\x99\xb9\x3f\x9a\x99\x99\x99\x99\x99\xc9\x3f'; } >"$1"
}
python_free_f8 f8.npy
cp f8.npy f8.orig
"$binary" --ids 0 --weights f8.npy >/dev/null || fail "setup: f8.npy is not a valid weights file"
refused "--save-weights is --weights" '--save-weights "f8.npy": is the same file as --weights "f8.npy"' \
  --ids 0 --weights f8.npy --save-weights f8.npy
ln f8.npy hard.npy
ln -s f8.npy soft.npy
refused "--save-weights a hard link of --weights" 'is the same file as --weights "f8.npy"' \
  --ids 0 --weights f8.npy --save-weights hard.npy
refused "--save-weights a symbolic link to --weights" 'is the same file as --weights "soft.npy"' \
  --ids 0 --weights soft.npy --save-weights f8.npy
cmp -s f8.npy f8.orig || fail "the --weights file was changed"
printf 'hello world\n' >t.npy
cp t.npy t.orig
refused "--save-weights is --text-file" '--save-weights "t.npy": is the same file as --text-file "t.npy"' \
  --text-file t.npy --dim 2 --save-weights t.npy
mkdir proj
printf 'hello world\n' >proj/vectors.tsv
refused "--export-projector holds --text-file" \
  '--export-projector "proj/vectors.tsv": is the same file as --text-file "proj/vectors.tsv"' \
  --text-file proj/vectors.tsv --dim 2 --export-projector proj
printf '0\n1\n' >proj/metadata.tsv
refused "--export-projector holds --labels" \
  '--export-projector "proj/metadata.tsv": is the same file as --labels "proj/metadata.tsv"' \
  --ids 0 --vocab 2 --dim 2 --export-projector proj --labels proj/metadata.tsv
cmp -s t.npy t.orig && cmp -s proj/vectors.tsv t.orig || fail "a --text-file was changed"
[ "$(cat proj/metadata.tsv)" = $'0\n1' ] || fail "the --labels file was changed"

# GPT-2's vocabulary is no output, through any name, whether the run tokenizes or not (a copy of
# the data, so that a failure damages nothing the other tests read).
mkdir -p data
cp -r "$(dirname "$binary")/share/embdemo/gpt2" data/gpt2
cp data/gpt2/vocab.bpe vocab.orig
ln -s "$work/data/gpt2/vocab.bpe" v.npy
EMBDEMO_DATA_DIR="$work/data" refused "--save-weights a link to GPT-2's vocab.bpe" \
  '--save-weights "v.npy": is GPT-2'"'"'s vocabulary' --text hello --dim 2 --save-weights v.npy
EMBDEMO_DATA_DIR="$work/data" refused "--save-weights a link to GPT-2's vocab.bpe, --ids" \
  '--save-weights "v.npy": is GPT-2'"'"'s vocabulary' --ids 0 --dim 2 --save-weights v.npy
cmp -s data/gpt2/vocab.bpe vocab.orig || fail "GPT-2's vocab.bpe was changed"
# BERT's vocab.txt likewise, with --tokenizer wordpiece and without.
cp -r "$(dirname "$binary")/share/embdemo/bert" data/bert
cp data/bert/vocab.txt bert.orig
ln -s "$work/data/bert/vocab.txt" b.npy
EMBDEMO_DATA_DIR="$work/data" refused "--save-weights a link to BERT's vocab.txt, --tokenizer wordpiece" \
  '--save-weights "b.npy": is BERT'"'"'s vocabulary' --text hello --tokenizer wordpiece --dim 2 --save-weights b.npy
EMBDEMO_DATA_DIR="$work/data" refused "--save-weights a link to BERT's vocab.txt, --ids" \
  '--save-weights "b.npy": is BERT'"'"'s vocabulary' --ids 0 --dim 2 --save-weights b.npy
cmp -s data/bert/vocab.txt bert.orig || fail "BERT's vocab.txt was changed"

# Standard output redirected to an output: refused, as `cat f > f` is (the shell has emptied the
# file already; nothing else is written to it).
refused_stdout() {  # WHAT EXPECTED STDOUT_TARGET ARGS...
  local what=$1 expected=$2 target=$3
  shift 3
  cases=$((cases + 1))
  timeout 10 "$binary" "$@" >"$target" 2>err </dev/null
  local status=$?
  [ $status -eq 2 ] || { fail "$what: status $status, expected 2 ($(head -c 300 err))"; return; }
  [ ! -s "$target" ] || fail "$what: wrote into the file"
  [ "$(wc -l <err)" -eq 1 ] && grep -qF -- "$expected" err || fail "$what: message $(cat err)"
}
refused_stdout "--save-weights e.npy > e.npy" '--save-weights "e.npy": is also standard output' e.npy \
  --ids 0,1 --dim 2 --save-weights e.npy
mkdir -p stdproj
refused_stdout "--export-projector p > p/vectors.tsv" '"stdproj/vectors.tsv": is also standard output' \
  stdproj/vectors.tsv --ids 0,1 --dim 2 --export-projector stdproj
ln -s /proc/self/fd/1 fd1.npy
refused_stdout "--save-weights a link to /proc/self/fd/1" '--save-weights "fd1.npy": is also standard output' \
  view.txt --ids 0,1 --dim 2 --save-weights fd1.npy
cases=$((cases + 1))
"$binary" --ids 0,1 --dim 2 --save-weights fd1.npy 2>err | cat >/dev/null
grep -qF 'is also standard output' err || fail "--save-weights a link to /proc/self/fd/1, stdout a pipe: $(cat err)"

# A directory another process keeps locked (flock) makes no write wait without end: after the
# bounded wait, exit 1 naming the directory, nothing replaced.
if command -v flock >/dev/null; then
  cases=$((cases + 1))
  mkdir -p lockeddir
  exec 9<lockeddir  # this shell holds the lock, as `flock lockeddir sleep 600 &` would
  flock 9
  timeout 60 "$binary" --ids 0,1 --dim 2 --save-weights lockeddir/mine.npy >out 2>err </dev/null 9<&-
  status=$?
  exec 9<&-
  [ $status -eq 1 ] || fail "a held directory: status $status, expected 1 ($(head -c 300 err))"
  grep -qF 'lock (flock) on its directory "lockeddir"' err || fail "a held directory: message $(cat err)"
  [ ! -e lockeddir/mine.npy ] || fail "a held directory: the file was written anyway"
  [ -z "$(ls -A lockeddir)" ] || fail "a held directory: left $(ls -A lockeddir)"
fi

# ---- --save-weights through symbolic links ----
"$binary" --ids 0 --dim 2 --seed 5 --save-weights expected.npy >/dev/null || fail "setup expected.npy"
ln -s target.npy dangling.npy
"$binary" --ids 0 --dim 2 --seed 5 --save-weights dangling.npy >/dev/null 2>err
status=$?
cases=$((cases + 1))
[ $status -eq 0 ] && [ -L dangling.npy ] && cmp -s target.npy expected.npy ||
  fail "a dangling link: status $status, not written through to its target ($(cat err))"
ln -s missing/e.npy into_missing.npy
refused "a link into a missing directory" \
  '--save-weights "into_missing.npy": is a symbolic link to "missing/e.npy", which is in the directory "missing", which does not exist' \
  --ids 0 --dim 2 --save-weights into_missing.npy
[ -L into_missing.npy ] || fail "a link into a missing directory was replaced"
ln -s self.npy self.npy
refused "a link to itself" '--save-weights "self.npy": is a symbolic link that loops' --ids 0 --dim 2 --save-weights self.npy
[ -L self.npy ] || fail "a link to itself was replaced"

# ---- A symbolic link planted inside an --export-projector directory ----
mkdir planted
echo precious >outside.tsv
ln -s ../outside.tsv planted/vectors.tsv
refused "a link as DIR/vectors.tsv" '--export-projector "planted/vectors.tsv": exists and is a symbolic link' \
  --ids 0 --dim 2 --export-projector planted
rm planted/vectors.tsv
ln -s ../outside.tsv planted/metadata.tsv
refused "a link as DIR/metadata.tsv" '--export-projector "planted/metadata.tsv": exists and is a symbolic link' \
  --ids 0 --dim 2 --export-projector planted
[ "$(cat outside.tsv)" = precious ] && [ -L planted/metadata.tsv ] || fail "the file outside the directory was replaced"
[ ! -e planted/vectors.tsv ] || fail "vectors.tsv written although metadata.tsv was refused"

# ---- Checked before any work: long names, missing directories, bad --export-projector links ----
long=$(printf 'w%.0s' {1..252})
refused "a 256-byte --save-weights name" 'is too long (allowed: names of at most 255 bytes' \
  --ids 0 --dim 2 --save-weights "$long.npy"
"$binary" --ids 0 --dim 2 --save-weights "${long:1}.npy" >/dev/null || fail "a 255-byte name was refused"
refused "a 256-byte --export-projector name" 'is too long' --ids 0 --dim 2 --export-projector "${long}abcd"
# Paths that access() lets through but that fail after the work (status 1, the view printed):
# a directory whose path leaves no room for ".embdemo-XXXXXX-old" beside the file (a 4,083-byte
# path, the file there already), a kernel's file system (root may "write" in /proc and /sys),
# and with chattr, an append-only file or directory (whose temporary file could not be removed).
deep=deep
while [ ${#deep} -lt 3800 ]; do deep="$deep/$(printf 'd%.0s' {1..250})"; done
deep="$deep/$(printf 'x%.0s' $(seq 1 $((4077 - ${#deep} - 1))))"
mkdir -p "$deep" && touch "$deep/e.npy"
refused "a 4,083-byte --save-weights path" 'make 4,097 bytes (allowed: a directory path of at most 4,075 bytes)' \
  --ids 0 --dim 2 --save-weights "$deep/e.npy"
refused "a 4,083-byte --export-projector path" 'is too long for the hidden file written beside it' \
  --ids 0 --dim 2 --export-projector "$deep/p.tsv"
refused "--save-weights in /proc" '--save-weights "/proc/e.npy": ' --ids 0 --dim 2 --save-weights /proc/e.npy
refused "--save-weights in /sys" '--save-weights "/sys/e.npy": ' --ids 0 --dim 2 --save-weights /sys/e.npy
refused "--export-projector in /proc" '--export-projector "/proc/p": ' --ids 0 --dim 2 --export-projector /proc/p
mkdir appendonly && touch appendonly/e.npy
if chattr +a appendonly/e.npy 2>/dev/null; then
  refused "an append-only --save-weights file" 'exists and is append-only (chattr +a)' --ids 0 --dim 2 --save-weights appendonly/e.npy
  chattr -a appendonly/e.npy && chattr +a appendonly
  refused "--save-weights in an append-only directory" 'that is append-only or immutable' \
    --ids 0 --dim 2 --save-weights appendonly/f.npy
  refused "an append-only --export-projector directory" 'is a directory that is append-only' \
    --ids 0 --dim 2 --export-projector appendonly
  cases=$((cases + 1))
  [ -z "$(find appendonly -name '.embdemo-*')" ] || fail "append-only directory: temporary files left"
  chattr -a appendonly
else
  echo "note: chattr +a is not allowed here (not root, or a file system without it): the append-only cases did not run"
fi
refused "--save-weights in a missing directory" '--save-weights "nodir/e.npy": is in the directory "nodir", which does not exist' \
  --ids 0 --dim 2 --save-weights nodir/e.npy
refused "--export-projector in a missing directory" 'is in the directory "nodir", which does not exist' \
  --ids 0 --dim 2 --export-projector nodir/p
ln -s nowhere dangling_dir
refused "--export-projector a dangling link" '--export-projector "dangling_dir": is a symbolic link to a name that does not exist' \
  --ids 0 --dim 2 --export-projector dangling_dir
ln -s loop_dir loop_dir
refused "--export-projector a looping link" '--export-projector "loop_dir": is a symbolic link that loops' \
  --ids 0 --dim 2 --export-projector loop_dir
[ -L dangling_dir ] && [ -L loop_dir ] || fail "an --export-projector link was replaced"

# ---- Permissions and owners ----
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
  nobody=(setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups)
  mkdir shared
  chmod 0777 shared  # not sticky: the renames would otherwise be refused by the kernel
  cp e.npy shared/ro.npy && chown nobody shared/ro.npy && chmod 0444 shared/ro.npy
  runner=("${nobody[@]}")
  refused "a read-only file (unprivileged)" '--save-weights "shared/ro.npy": exists and this user may not write it: Permission denied' \
    --ids 0 --dim 3 --save-weights shared/ro.npy
  cmp -s shared/ro.npy e.npy || fail "a read-only file was replaced"
  cp e.npy shared/root.npy && chmod 0666 shared/root.npy
  refused "another user's file (unprivileged)" '--save-weights "shared/root.npy": belongs to another user (uid 0)' \
    --ids 0 --dim 3 --save-weights shared/root.npy
  [ "$(stat -c '%u %a' shared/root.npy)" = "0 666" ] && cmp -s shared/root.npy e.npy || fail "root's file was taken over"
  mkdir shared/closed && chmod 0555 shared/closed
  refused "an unwritable directory (unprivileged)" 'cannot be created in its directory "shared/closed": Permission denied' \
    --ids 0 --dim 3 --save-weights shared/closed/e.npy
  refused "an unwritable --export-projector (unprivileged)" 'is a directory this user may not write in' \
    --ids 0 --dim 3 --export-projector shared/closed
  runner=()
  # Root replacing another user's file keeps its owner, group and mode.
  cp e.npy shared/theirs.npy && chown nobody:"$(id -g nobody)" shared/theirs.npy && chmod 0640 shared/theirs.npy
  "$binary" --ids 0 --dim 3 --save-weights shared/theirs.npy >/dev/null || fail "root could not replace a user's file"
  cases=$((cases + 1))
  [ "$(stat -c '%u %g %a' shared/theirs.npy)" = "$(id -u nobody) $(id -g nobody) 640" ] ||
    fail "root's replacement changed owner or mode: $(stat -c '%u %g %a' shared/theirs.npy)"
  cmp -s shared/theirs.npy e.npy && fail "root's replacement was not written"
else
  echo "note: not root, or no setpriv or nobody: the unprivileged cases did not run"
fi

[ $failures -eq 0 ] || { echo "$failures failures in $cases unsafe path checks"; exit 1; }
echo "all $cases unsafe path checks passed"
