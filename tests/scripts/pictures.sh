#!/usr/bin/env bash
# --format svg, html, python (issue 10), over the golden cases' recorded outputs and the real
# binary:
# - every SVG is well-formed XML (xmllint --noout), says it is SVG 1.1, and renders
#   (rsvg-convert, when librsvg2-bin is installed);
# - no SVG or HTML refers to anything outside itself (no http(s) URL but the SVG namespace, no
#   src=, no href= but the page's own markers);
# - every Python script compiles (py_compile; CI needs no torch to run this);
# - docs/figure.svg, the README's picture, is exactly what the binary draws today.
# Usage: pictures.sh EMBDEMO CASES_DIR FIGURE_SVG
set -u
binary=$1
cases=$2
figure=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }

command -v xmllint >/dev/null || { echo "SKIP: xmllint is not installed (libxml2-utils; tools/setup.sh --tests)"; exit 77; }
have_rsvg=0
command -v rsvg-convert >/dev/null && have_rsvg=1

checked=0
scripts=()
# One grep picks the cases (spawning a process per case and format took half a minute).
while IFS= read -r args; do
  name=$(basename "$args" .args)
  out="$cases/$name.stdout"
  [ -s "$out" ] || continue  # a refused run prints nothing
  line=$(<"$args")
  case $line in
    *"--format svg"*) kind=svg ;;
    *"--format html"*) kind=html ;;
    *) kind=python ;;
  esac
  checked=$((checked + 1))
  case $kind in
    svg)
      xmllint --noout "$out" || fail "$name: not well-formed XML"
      grep -q '<svg xmlns="http://www.w3.org/2000/svg" version="1.1"' "$out" || fail "$name: not an SVG 1.1 root"
      if [ $have_rsvg = 1 ]; then
        rsvg-convert "$out" -o "$work/$name.png" && [ -s "$work/$name.png" ] || fail "$name: rsvg-convert cannot draw it"
      fi
      ;;
    html)
      grep -q '^<!DOCTYPE html>' "$out" || fail "$name: no HTML doctype"
      sed -n '/<svg /,/<\/svg>/p' "$out" > "$work/$name.svg"
      xmllint --noout "$work/$name.svg" || fail "$name: its SVG is not well-formed XML"
      ;;
    python)
      cp "$out" "$work/$name.py"
      scripts+=("$work/$name.py")
      ;;
  esac
  if [ "$kind" != python ]; then
    grep -o 'https\?://[^" ]*' "$out" | grep -v '^http://www.w3.org/2000/svg$' && fail "$name: refers to a URL"
    grep -E -q '(src|href)="' "$out" && fail "$name: loads something (src= or href=)"
  fi
done < <(grep -l -e '--format svg' -e '--format html' -e '--format python' "$cases"/*.args)
# One python3 compiles every script and names each one that fails.
python3 - "${scripts[@]}" <<'PY' || fail "a golden script is not valid Python"
import py_compile, sys
failed = 0
for path in sys.argv[1:]:
    try:
        py_compile.compile(path, doraise=True)
    except py_compile.PyCompileError as error:
        print(f"{path}: {error.msg}")
        failed = 1
sys.exit(failed)
PY
[ $checked -ge 6 ] || fail "only $checked picture cases found in $cases"

# The committed figures (the README's and docs/figures/): the arguments in each one's
# <?embdemo-args ...?> line, run again.
for committed in "$figure" "$(dirname "$figure")"/figures/*.svg; do
  command_line=$(sed -n "s/^<?embdemo-args \(.*\)?>$/\1/p" "$committed")
  [ -n "$command_line" ] || fail "$committed: no <?embdemo-args ARGS?> line says how it was made"
  # shellcheck disable=SC2086
  { head -2 "$committed"; "$binary" $command_line | tail -n +2; } > "$work/figure.svg"
  cmp -s "$committed" "$work/figure.svg" ||
    fail "$committed differs from what embdemo $command_line draws now: tools/update_figure.sh redraws it"
done

[ $failed = 0 ] && echo "pictures: $checked svg/html/python outputs and the committed figures checked"
exit $failed
