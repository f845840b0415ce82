#!/usr/bin/env bash
# Runs one golden case against the real binary and compares stdout, stderr and the exit status
# separately with the recorded NAME.stdout, NAME.stderr and NAME.status next to NAME.args.
#
# NAME.args is a bash snippet that sets:
#   args=(...)            the command-line arguments (bash quoting, so $'\xff' works)
#   stdout_file=PATH      optional: send stdout there instead of capturing it (e.g. /dev/full)
#   env_vars=(K=V ...)    optional: extra environment for the run
#
# Every case runs with NO_COLOR=1, LC_ALL=C and stdin from /dev/null, in tests/data, so that
# weight files are named by short relative paths (weights/notebook_f32.npy, bad/fortran.npy).
# EMBDEMO_REGENERATE_GOLDEN=1 rewrites the expected files instead of comparing: review the diff.
set -u
binary=$(realpath "$1")  # the case runs in tests/data
case_file=$2
case_dir=$(dirname "$case_file")
name=$(basename "$case_file" .args)
expected="$case_dir/$name"

args=()
stdout_file=""
env_vars=()
# shellcheck source=/dev/null
source "$case_file"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
actual_stdout="$work/stdout"
target=${stdout_file:-$actual_stdout}

(cd "$case_dir/../../data" && env NO_COLOR=1 LC_ALL=C "${env_vars[@]}" "$binary" "${args[@]}" </dev/null >"$target" 2>"$work/stderr")
echo $? >"$work/status"
[ -n "$stdout_file" ] && : >"$actual_stdout"

if [ -n "${EMBDEMO_REGENERATE_GOLDEN:-}" ]; then
  cp "$actual_stdout" "$expected.stdout"
  cp "$work/stderr" "$expected.stderr"
  cp "$work/status" "$expected.status"
  echo "regenerated $name"
  exit 0
fi

failed=0
for part in stdout stderr status; do
  actual="$work/$part"
  if [ ! -f "$expected.$part" ]; then
    echo "missing expected file $expected.$part (run with EMBDEMO_REGENERATE_GOLDEN=1)"
    failed=1
  elif ! cmp -s "$expected.$part" "$actual"; then
    echo "--- $part differs for $name (expected vs actual):"
    diff -u "$expected.$part" "$actual" | head -60
    failed=1
  fi
done
exit $failed
