#!/usr/bin/env bash
# Checks that the transcripts in the documentation are what the binary really prints, byte for
# byte. In each ```console block of the given Markdown files, a line "$ COMMAND" is run with bash
# (the directory of EMBDEMO first on PATH, NO_COLOR=1, LC_ALL=C, stdin from /dev/null) in a
# scratch folder of its own for each file (so the commands of one file may share the files they
# write, and nothing is left behind), and its stdout+stderr must equal the lines that follow, each
# ended by a newline, up to the next "$ " line or the end of the block: trailing blank lines
# count, and so does a missing last newline.
# usage: check_transcripts.sh EMBDEMO FILE.md...
set -u
binary_dir=$(cd "$(dirname "$1")" && pwd)
shift

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
checked=0
run_check() {  # file, line number, command, scratch folder; the expected bytes are in $work/expected
  (cd "$4" && env NO_COLOR=1 LC_ALL=C PATH="$binary_dir:$PATH" bash -c "$3" </dev/null >"$work/actual" 2>&1)
  checked=$((checked + 1))
  if ! cmp -s "$work/expected" "$work/actual"; then
    failures=$((failures + 1))
    echo "$1:$2: transcript differs for: $3"
    diff -u "$work/expected" "$work/actual" | head -40
    [ -s "$work/actual" ] && [ "$(tail -c 1 "$work/actual" | od -An -c | tr -d ' ')" != '\n' ] &&
      echo "(the output does not end with a newline)"
  fi
}

file_number=0
for file in "$@"; do
  file_number=$((file_number + 1))
  scratch=$work/scratch.$file_number
  mkdir "$scratch"
  in_block=0 command="" line_number=0 command_line=0
  : >"$work/expected"
  while IFS= read -r line || [ -n "$line" ]; do
    line_number=$((line_number + 1))
    if [ $in_block -eq 0 ]; then
      [ "$line" = '```console' ] && in_block=1
      continue
    fi
    if [ "$line" = '```' ] || [ "${line#\$ }" != "$line" ]; then
      [ -n "$command" ] && run_check "$file" "$command_line" "$command" "$scratch"
      command=""
      : >"$work/expected"
      if [ "$line" = '```' ]; then in_block=0; continue; fi
      command=${line#\$ } command_line=$line_number
      continue
    fi
    printf '%s\n' "$line" >>"$work/expected"
  done <"$file"
  [ $in_block -eq 0 ] || { echo "$file: a \`\`\`console block is not closed"; failures=$((failures + 1)); }
done

echo "checked $checked transcripts, $failures differ"
[ $checked -gt 0 ] && [ $failures -eq 0 ]
