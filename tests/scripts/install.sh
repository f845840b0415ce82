#!/usr/bin/env bash
# cmake --install into a temporary prefix must put the binary, the man page and the bash
# completion in their standard places; the man page (generated from --help by help2man) must
# mention every option that --help lists, and the installed completion must offer them when it
# completes the installed binary (completion.sh).
# usage: install.sh BUILD_DIR
set -u
build_dir=$1
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT

cmake --install "$build_dir" --prefix "$prefix" >/dev/null || { echo "cmake --install failed"; exit 1; }

failures=0
binary=$prefix/bin/embdemo
man_page=$prefix/share/man/man1/embdemo.1
completion=$prefix/share/bash-completion/completions/embdemo
for file in "$binary" "$man_page" "$completion"; do
  [ -f "$file" ] || { echo "missing after install: ${file#"$prefix"/}"; failures=$((failures + 1)); }
done
[ $failures -eq 0 ] || exit 1

# The installed binary finds GPT-2's tokenizer data under the prefix, wherever the build tree is.
"$binary" --text "Your journey" --dim 2 --format json 2>&1 | grep -q '"tokens": \["Your", " journey"\]' ||
  { echo "the installed embdemo cannot tokenize: $("$binary" --text x --dim 2 2>&1 >/dev/null)"; failures=$((failures + 1)); }

# Every lesson's own options count too (embdemo LESSON --help for each listed subcommand).
lessons=$("$binary" --help | sed -n '/^Subcommands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
options=$( { "$binary" --help; for lesson in $lessons; do "$binary" "$lesson" --help; done; } |
  grep -oE -- '--[a-z][a-z-]*' | sort -u)
[ -n "$options" ] || { echo "no options found in --help"; exit 1; }
man_text=$(sed 's/\\-/-/g' "$man_page")  # troff writes - as \-
for option in $options; do
  grep -qF -- "$option" <<<"$man_text" || { echo "man page lacks $option"; failures=$((failures + 1)); }
done
# The installed completion, completing the installed binary, offers every lesson's options.
bash "$(dirname "$0")/completion.sh" "$binary" "$completion" >"$prefix/completion.log" ||
  { cat "$prefix/completion.log"; echo "the installed completion fails"; failures=$((failures + 1)); }

echo "install: $(wc -w <<<"$options") options checked, $failures problems"
[ $failures -eq 0 ]
