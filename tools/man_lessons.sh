#!/usr/bin/env bash
# Writes a help2man include file with one section per lesson subcommand, made from the real
# `embdemo LESSON --help` of every lesson that `embdemo --help` lists under "Subcommands:", so
# the man page documents each lesson's own options and can never disagree with the binary.
# usage: man_lessons.sh EMBDEMO OUTPUT
set -euo pipefail
binary=$1
output=$2
lessons=$("$binary" --help | sed -n '/^Subcommands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
{
  for lesson in $lessons; do
    [ "$lesson" = lookup ] && continue  # the default: the main options are the lookup lesson's
    # A lesson whose help cannot run here (bench without its program) is left out, not fatal.
    help=$("$binary" "$lesson" --help 2>/dev/null) || continue
    printf '[LESSON: %s]\n.nf\n' "${lesson^^}"
    # troff: a leading dot or quote would start a request, and a backslash an escape.
    sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/" <<<"$help"
    printf '.fi\n\n'
  done
} >"$output"
