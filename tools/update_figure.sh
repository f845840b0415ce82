#!/usr/bin/env bash
# Redraws the committed figures, docs/figure.svg (the README's picture) and docs/figures/*.svg,
# each with the arguments on its <?embdemo-args ...?> line (kept as the file's second line).
# tests/scripts/pictures.sh fails when a committed figure and the binary's drawing drift apart.
# Usage: tools/update_figure.sh [EMBDEMO]
set -euo pipefail
binary=${1:-build/embdemo}
docs=$(dirname "$0")/../docs
for figure in "$docs"/figure.svg "$docs"/figures/*.svg; do
  args=$(sed -n 's/^<?embdemo-args \(.*\)?>$/\1/p' "$figure")
  # Exit status 3 (bag's in-order M @ E differs from its output in a bit) still draws the figure.
  # shellcheck disable=SC2086
  "$binary" $args >"$figure.out" || [ $? -eq 3 ]
  { head -2 "$figure"; tail -n +2 "$figure.out"; } >"$figure.new"
  rm "$figure.out"
  mv "$figure.new" "$figure"
done
