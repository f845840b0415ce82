#!/usr/bin/env bash
# Redraws docs/figure.svg, the README's picture, with the arguments on its <?embdemo-args ...?>
# line (kept as the file's second line). tests/scripts/pictures.sh fails when the committed
# figure and the binary's drawing drift apart. Usage: tools/update_figure.sh [EMBDEMO]
set -euo pipefail
binary=${1:-build/embdemo}
figure=$(dirname "$0")/../docs/figure.svg
args=$(sed -n 's/^<?embdemo-args \(.*\)?>$/\1/p' "$figure")
# shellcheck disable=SC2086
{ head -2 "$figure"; "$binary" $args | tail -n +2; } >"$figure.new"
mv "$figure.new" "$figure"
