#!/usr/bin/env bash
# The promise of docs/schema.md, tested: the same arguments give the same bytes on every run,
# under the C locale and a German one (decimal comma), piped and on a terminal (a pty made by
# script(1), with --color never for the text views; machine formats are never coloured).
# A locale that cannot be built, or a missing script(1), is reported as SKIP, not a failure.
# usage: determinism.sh EMBDEMO DATA_DIR
set -u
binary=$1
cd "$2" || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cases=(
  "--ids 2,3,1 --dim 5 --color never"
  "--ids 2,3,1 --dim 5 --format json"
  "--ids 2,3,1 --dim 5 --format csv"
  "--ids 2,3,1 --dim 5 --format tsv"
  "--ids 2,3,1 --dim 5 --format markdown"
  "--ids 5,4000,4095 --dim 64 --format markdown"
  "--ids 5,4000,4095 --dim 64 --color never"
  "--ids 2,3,1 --weights weights/values_f64.npy --format json"
  "--ids 2,3,1 --weights weights/with_inf.npy --format csv"
  "--ids 5,4000,4095 --dim 64 --format svg"
  "--ids 2,3,1 --dim 5 --format html"
  "--ids 2,3,1 --dim 5 --format python"
)

# Environments to compare; each entry is "NAME|ENV ASSIGNMENTS".
environments=("C|LC_ALL=C")
if localedef -i de_DE -f UTF-8 "$work/de_DE.UTF-8" >/dev/null 2>&1 &&
   [ "$(env LOCPATH="$work" LC_ALL=de_DE.UTF-8 /usr/bin/printf '%.1f' 0.5 2>/dev/null)" = "0,5" ]; then
  environments+=("de_DE|LOCPATH=$work LC_ALL=de_DE.UTF-8 LANG=de_DE.UTF-8")
else
  echo "SKIP: cannot build the de_DE.UTF-8 locale with localedef (package locales); testing C only"
fi
have_pty=0
if command -v script >/dev/null && [ "$(script -qec 'test -t 1 && echo tty' /dev/null </dev/null)" = $'tty\r' ]; then
  have_pty=1
else
  echo "SKIP: script(1) cannot give embdemo a terminal (package bsdutils); testing pipes only"
fi

failures=0
checks=0
compare() {  # label, reference file, actual file
  checks=$((checks + 1))
  if ! cmp -s "$2" "$3"; then
    failures=$((failures + 1))
    echo "DIFFERENT: $1"
    diff -u "$2" "$3" | head -20
  fi
}

for index in "${!cases[@]}"; do
  read -r -a args <<<"${cases[$index]}"
  reference="$work/case$index.reference"
  env -i PATH="$PATH" LC_ALL=C "$binary" "${args[@]}" >"$reference" 2>/dev/null </dev/null
  if LC_ALL=C grep -q $'\x1b' "$reference"; then
    failures=$((failures + 1))
    echo "COLOURED: ${cases[$index]}"
  fi
  for environment in "${environments[@]}"; do
    name=${environment%%|*}
    read -r -a assignments <<<"${environment#*|}"
    for run in 1 2; do
      actual="$work/case$index.$name.pipe$run"
      env -i PATH="$PATH" "${assignments[@]}" "$binary" "${args[@]}" >"$actual" 2>/dev/null </dev/null
      compare "${cases[$index]} ($name, pipe, run $run)" "$reference" "$actual"
    done
    if [ $have_pty -eq 1 ]; then
      # stty -onlcr: the pty must not turn \n into \r\n, so the bytes can be compared as they are.
      actual="$work/case$index.$name.pty"
      command=$(printf '%q ' "$binary" "${args[@]}")
      env -i PATH="$PATH" TERM=xterm-256color "${assignments[@]}" \
        script -qec "stty -onlcr; test -t 1 || echo NOT-A-TERMINAL; exec $command 2>/dev/null" /dev/null \
        </dev/null >"$actual"
      compare "${cases[$index]} ($name, terminal)" "$reference" "$actual"
    fi
  done
done

echo "determinism: $checks comparisons, $failures differ"
[ $failures -eq 0 ]
