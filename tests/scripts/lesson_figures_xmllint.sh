#!/usr/bin/env bash
# The lesson figures' SVGs (tests/unit/lesson_figures_test.cpp writes one per case when
# EMBDEMO_FIGURE_DIR is set) are well-formed XML with an SVG 1.1 root, by xmllint --noout, and
# keep their text inside the drawing (figure_fit.py --files).
# Usage: lesson_figures_xmllint.sh UNIT_TESTS
set -u
command -v xmllint >/dev/null || { echo "SKIP: xmllint is not installed (libxml2-utils; tools/setup.sh --tests)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
EMBDEMO_FIGURE_DIR=$work "$1" --test-case='*_figure:*' >"$work/log" 2>&1 || { cat "$work/log"; exit 1; }
count=0
failed=0
for svg in "$work"/*.svg; do
  [ -e "$svg" ] || break
  count=$((count + 1))
  xmllint --noout "$svg" || { echo "FAIL: $(basename "$svg") is not well-formed XML"; failed=1; }
  grep -q '<svg xmlns="http://www.w3.org/2000/svg" version="1.1"' "$svg" || { echo "FAIL: $(basename "$svg"): no SVG 1.1 root"; failed=1; }
done
[ "$count" -ge 15 ] || { echo "FAIL: only $count figures written"; failed=1; }
# No text runs past a figure's edge (Figures for slides in docs/design.md).
python3 "$(dirname "$0")/figure_fit.py" --files "$work"/*.svg || failed=1
echo "$count lesson figures checked"
exit $failed
