#!/usr/bin/env bash
# JSON whose tables are GPT-2-sized (50,257 rows) is too long for a golden file; its head, where
# ids, text, tokens, targets and the sizes are, is not. For each heads/NAME.args (a bash snippet
# setting args=(...)), runs the binary in tests/data and compares the first 24 lines of stdout
# and the exit status with heads/NAME.head. EMBDEMO_REGENERATE_GOLDEN=1 rewrites them instead.
# usage: run_heads.sh BINARY
set -u
binary=$(realpath "$1")
heads=$(cd "$(dirname "$0")/heads" && pwd)
cd "$(dirname "$0")/../data" || exit 1
failures=0
output=$(mktemp)
trap 'rm -f "$output"' EXIT
for case_file in "$heads"/*.args; do
  name=$(basename "$case_file" .args)
  args=()
  # shellcheck source=/dev/null
  source "$case_file"
  NO_COLOR=1 LC_ALL=C "$binary" "${args[@]}" </dev/null >"$output" 2>&1
  status=$?
  actual=$(head -n 24 "$output"; echo "status $status")
  if [ "${EMBDEMO_REGENERATE_GOLDEN:-}" = 1 ]; then
    printf '%s\n' "$actual" > "$heads/$name.head"
  elif ! diff -u "$heads/$name.head" <(printf '%s\n' "$actual"); then
    echo "head differs for $name"
    failures=$((failures + 1))
  fi
done
[ $failures -eq 0 ]
