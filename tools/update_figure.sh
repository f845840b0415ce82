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
  # shellcheck disable=SC2086
  # exit 3 is a drawing too: the figure of two forms that differ (bag's mean, say)
  { head -2 "$figure"; { "$binary" $args || [ $? -eq 3 ]; } | tail -n +2; } >"$figure.new"
  mv "$figure.new" "$figure"
done
