#!/usr/bin/env bash
# The Debian package (tools/package.sh): it builds, lintian finds no error in it, its Depends name
# what embdemo loads at run time, it holds the binary, man page, completion, GPT-2 data, licence
# and docs, and embdemo unpacked from it (dpkg-deb -x into a scratch root) runs the demo and
# tokenizes with the packaged vocabulary.
# usage: package.sh SOURCE_DIR BUILD_DIR
set -u
source_dir=$1
build_dir=$2
for tool in dpkg-deb dpkg-shlibdeps lintian cpack; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed (tools/setup.sh --tests installs it)"; exit 77; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "package: $*"; failures=$((failures + 1)); }

deb=$("$source_dir/tools/package.sh" "$build_dir") || { echo "package: tools/package.sh failed"; exit 1; }
[ -f "$deb" ] || { echo "package: no .deb ($deb)"; exit 1; }
echo "package: $(basename "$deb"), $(stat -c %s "$deb") bytes"

# lintian: errors fail the test; its warnings are printed.
lintian --tag-display-limit 0 "$deb" >"$work/lintian" 2>&1
cat "$work/lintian"
grep -q '^E: ' "$work/lintian" && fail "lintian reports errors"

depends=$(dpkg-deb -f "$deb" Depends)
echo "package: Depends: $depends"
grep -q 'libc6' <<<"$depends" || fail "Depends lacks libc6"
grep -q 'libopenblas0' <<<"$depends" || fail "Depends lacks the BLAS embdemo dlopens (libopenblas0)"
grep -q 'libsentencepiece0' <<<"$depends" || fail "Depends lacks SentencePiece (libsentencepiece0), which the SentencePiece module tokens --tokenizer opens links"

root=$work/root
dpkg-deb -x "$deb" "$root" || { echo "package: dpkg-deb -x failed"; exit 1; }
for file in usr/bin/embdemo usr/share/man/man1/embdemo.1.gz usr/share/bash-completion/completions/embdemo \
            usr/share/embdemo/gpt2/vocab.bpe usr/share/embdemo/gpt2/LICENSE usr/share/doc/embdemo/copyright \
            usr/share/embdemo/bert/vocab.txt usr/share/embdemo/bert/LICENSE \
            usr/share/doc/embdemo/changelog.gz usr/share/doc/embdemo/README.md usr/share/doc/embdemo/LICENSE \
            usr/share/doc/embdemo/walkthrough.md usr/share/doc/embdemo/schema.md; do
  [ -f "$root/$file" ] || fail "missing in the package: /$file"
done

# The unpacked binary prints the demo as the build's binary does, and finds GPT-2's data
# under its own prefix (../share/embdemo/gpt2), not in the build tree.
expected=$("$build_dir/embdemo" --ids 2,3,1 --dim 5 --color never)
actual=$(cd "$work" && env -u EMBDEMO_DATA_DIR "$root/usr/bin/embdemo" --ids 2,3,1 --dim 5 --color never) ||
  fail "the packaged embdemo failed: $actual"
[ "$actual" = "$expected" ] || fail "the packaged embdemo prints another demo"
grep -q '^verdict: IDENTICAL' <<<"$actual" || fail "no verdict from the packaged embdemo"
tokens=$(cd "$work" && env -u EMBDEMO_DATA_DIR "$root/usr/bin/embdemo" --text "Your journey" --dim 2 --format json 2>&1)
grep -q '"tokens": \["Your", " journey"\]' <<<"$tokens" || fail "the packaged embdemo cannot tokenize: $tokens"
compared=$(cd "$work" && env -u EMBDEMO_DATA_DIR "$root/usr/bin/embdemo" tokens --text "Your journey" --tokenizer all \
  --format json 2>&1)
grep -q '"ids": \[2115, 4990\]' <<<"$compared" || fail "the packaged embdemo cannot run WordPiece and SentencePiece: $compared"
zcat "$root/usr/share/man/man1/embdemo.1.gz" | grep -q '^\.TH EMBDEMO' || fail "the packaged man page is not a man page"

echo "package: $failures problems"
[ $failures -eq 0 ]
