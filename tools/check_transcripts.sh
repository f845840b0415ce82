#!/usr/bin/env bash
# Checks that the transcripts in the documentation are what the binary really prints.
# In each ```console block of the given Markdown files, a line "$ COMMAND" is run with bash
# (the directory of EMBDEMO first on PATH, NO_COLOR=1, LC_ALL=C, stdin from /dev/null) and its
# stdout+stderr must equal the lines that follow, up to the next "$ " line or the end of the block.
# usage: check_transcripts.sh EMBDEMO FILE.md...
set -u
binary_dir=$(cd "$(dirname "$1")" && pwd)
shift

failures=0
checked=0
run_check() {  # file, line number, command, expected output
  local actual
  actual=$(cd "$binary_dir" && env NO_COLOR=1 LC_ALL=C PATH="$binary_dir:$PATH" bash -c "$3" 2>&1 </dev/null)
  checked=$((checked + 1))
  if [ "$actual" != "$4" ]; then
    failures=$((failures + 1))
    echo "$1:$2: transcript differs for: $3"
    diff -u <(printf '%s\n' "$4") <(printf '%s\n' "$actual") | head -40
  fi
}

for file in "$@"; do
  in_block=0 command="" expected="" line_number=0 command_line=0
  while IFS= read -r line || [ -n "$line" ]; do
    line_number=$((line_number + 1))
    if [ $in_block -eq 0 ]; then
      [ "$line" = '```console' ] && in_block=1
      continue
    fi
    if [ "$line" = '```' ] || [ "${line#\$ }" != "$line" ]; then
      [ -n "$command" ] && run_check "$file" "$command_line" "$command" "$expected"
      command="" expected=""
      if [ "$line" = '```' ]; then in_block=0; continue; fi
      command=${line#\$ } command_line=$line_number
      continue
    fi
    expected+=${expected:+$'\n'}$line
  done <"$file"
done

echo "checked $checked transcripts, $failures differ"
[ $checked -gt 0 ] && [ $failures -eq 0 ]
