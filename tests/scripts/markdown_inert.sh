#!/usr/bin/env bash
# --format markdown is inert (issue 28): the user's text (--text, --text-file, its tokens, a
# --weights file name) must not become HTML, a comment, a link or emphasis when the Markdown is
# rendered by a CommonMark renderer that passes raw HTML through (Debian's `cmark --unsafe`).
# Every lesson with a markdown view runs with hostile texts; the rendered HTML may hold only the
# tags embdemo's own Markdown makes (h2, p, ul, li, strong, code), and no list item may lose its
# name (a wrapped tokens row once became "- : ids[3] ...") or gain a list of its own. Issue 27:
# every table row keeps its header's cell count by GFM's rule (cmark has no tables: each '|' not
# behind a backslash ends a cell, in code spans too), and a printable text comes back whole in
# the rendered page's text (its first 40 characters), neither lost nor shown with escapes.
# usage: markdown_inert.sh BINARY DATA_DIR
set -u
. "$(dirname "$0")/common.sh" "$1"
data=$(realpath "$2")
command -v cmark >/dev/null || { echo "markdown_inert: cmark is not installed (apt-get install cmark); skipped"; exit 77; }

texts=(
  '<img src=x onerror=alert(1)>'
  'x` <img src=x onerror=alert(1)> `'
  'a `` b ``` <script>alert(1)</script> ```` c'
  '<!-- the rest of the page is hidden'
  '*em* _em_ **strong** [link](javascript:alert(1)) ![image](x.png)'
  'a | b | c'
  $'one\n# heading\n<div onclick=alert(1)>\n- item\n    code'
  '&lt;b&gt; &amp; <b>bold</b> &#60;i&#62;'
  '<http://example.com> <a href="x">link</a> ~~strike~~'
  '\` \<b\> \\<i>'
  $'tab\there\r\nand <svg onload=alert(1)>'
  ' `x` *y*'
  '- item | a | b'
  $'- a\n- b\n1. c\n> d\n    e\n| f | g |\n---'
  '| a | b |'
)

# check LABEL ARGS...: one run, its Markdown rendered and inspected.
check() {
  local label=$1
  shift
  cases=$((cases + 1))
  "$binary" "$@" >"$work/md" 2>"$work/err" </dev/null
  local status=$?
  local problem=""
  if [ "$status" -ne 0 ] && [ "$status" -ne 3 ]; then
    problem="exit $status: $(head -c 200 "$work/err")"
  elif grep -q '^- :' "$work/md"; then
    problem="a list item without its name"
  elif ! cmark --unsafe "$work/md" >"$work/html"; then
    problem="cmark failed"
  elif ! problem=$(python3 - "$work/html" "$work/md" "${text_shown-}" <<'PY'
import html as html_module, re, sys
html = open(sys.argv[1], encoding='utf-8', errors='replace').read()
markdown = open(sys.argv[2], encoding='utf-8', errors='replace').read().split('\n')
text = sys.argv[3]
def cells(row):
    return len(re.findall(r'(?<!\\)\|', row))
header = None
for line in markdown:
    if not line.startswith('|'):
        header = None
    elif header is None:
        header = line
    elif cells(line) != cells(header):
        print('a table row with %d cells under %d: %s' % (cells(line) - 1, cells(header) - 1, line[:120]))
        sys.exit(1)
items = sum(1 for line in markdown if line.startswith('- '))
if html.count('<li>') != items:
    print('%d list items written, %d rendered' % (items, html.count('<li>')))
    sys.exit(1)
plain = html_module.unescape(re.sub(r'<[^>]*>', '', html))
if text and text[:40] not in plain:  # the lookup view cuts a text at about 60 columns
    print('the text is not shown as typed: ' + text[:60])
    sys.exit(1)
allowed = {'h2', 'p', 'ul', 'li', 'strong', 'code'}
found = set(re.findall(r'<\s*/?\s*([A-Za-z][A-Za-z0-9-]*)', html))
bad = sorted(found - allowed)
if bad:
    print('tags from the text: ' + ', '.join(bad))
    sys.exit(1)
if '<!' in html or '<?' in html:
    print('a comment or declaration survives')
    sys.exit(1)
PY
); then
    :
  else
    problem=""
  fi
  if [ -n "$problem" ]; then
    printf 'FAIL (%s): %s: embdemo' "$problem" "$label"
    printf ' %q' "$@"
    printf '\n'
    failures=$((failures + 1))
  fi
}

for text in "${texts[@]}"; do
  printf '%s' "$text" >"$work/text.txt"
  # A printable text without quotes or backslashes is shown as typed (views escape the others);
  # --show, --max-norm and cost do not show the text.
  text_shown=""
  [[ $text =~ ^[\ -~]*$ && $text != *[\"\\]* ]] && text_shown=$text
  for source in --text --text-file; do
    value=$text
    [ "$source" = --text-file ] && value=$work/text.txt
    check lookup --format markdown "$source" "$value" --dim 2
    text_shown="" check "lookup --show" --format markdown "$source" "$value" --dim 2 --show lookup,weight
    text_shown="" check max_norm --format markdown "$source" "$value" --dim 2 --max-norm 1
    check grad grad --format markdown "$source" "$value" --dim 2
    check positions positions --format markdown "$source" "$value" --dim 2
    check tied tied --format markdown "$source" "$value" --dim 2
    check factor factor --format markdown "$source" "$value" --dim 4 --rank 2
    check tokens tokens --format markdown "$source" "$value"
    check optimizer grad --format markdown "$source" "$value" --dim 2 --optimizer sgd --steps 2
    text_shown="" check cost cost --format markdown "$source" "$value" --dim 2
    check train train --format markdown "$source" "$value" --level char --steps 2
  done
done
# The loader's batch (a text of at least 3 tokens here).
text_shown=""
check loader positions --format markdown --text "${texts[0]} ${texts[1]}" --dim 2 --context 2 --batch 1

# A --weights file whose name is hostile: shown in code, never as HTML.
for name in 'a`<img src=x onerror=alert(1)>`.csv' '<!-- x.csv' '``` <b>.csv'; do
  cp "$data/weights/notebook.csv" "$work/$name"
  check "--weights name" --format markdown --ids 2,3,1 --weights "$work/$name"
  check "--weights name, --show" --format markdown --ids 2,3,1 --weights "$work/$name" --show weight
  check "grad --weights name" grad --format markdown --ids 2,3,1 --weights "$work/$name"
done

echo "markdown_inert: $cases cases, $failures failures"
[ "$failures" -eq 0 ]
