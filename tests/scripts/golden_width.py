#!/usr/bin/env python3
"""Every line of every text-view golden stdout fits 80 columns (issue 25, item 11).

A golden is a text view unless its arguments ask for a machine or picture format (--format json,
csv, tsv, markdown, svg, html, python, ipynb), the projector's files or nothing on stdout. Columns are
counted as UTF-8 code points (the text views print ASCII, but a --text run quotes the user's
text), not bytes. Usage: golden_width.py CASES_DIR
"""
import pathlib
import re
import subprocess
import sys

WIDTH = 80
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # colour decorates; it takes no columns
MACHINE = {"json", "csv", "tsv", "markdown", "svg", "html", "python", "ipynb"}


def arguments(case):
    """The case's args=(...) as bash reads them (the .args files are bash snippets)."""
    script = 'args=(); stdout_file=""; env_vars=(); source "$1"; printf "%s\\0" "$stdout_file" "${args[@]}"'
    out = subprocess.run(["bash", "-c", script, "bash", str(case)], check=True, capture_output=True).stdout
    fields = out.split(b"\0")[:-1]
    return fields[0].decode("utf-8", "replace"), [f.decode("utf-8", "replace") for f in fields[1:]]


def output_format(args):
    for i, arg in enumerate(args):
        if arg == "--format" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--format="):
            return arg.split("=", 1)[1]
    return "text"


def main():
    cases = pathlib.Path(sys.argv[1])
    failures = 0
    checked = 0
    for case in sorted(cases.glob("*.args")):
        stdout_file, args = arguments(case)
        if stdout_file or output_format(args) in MACHINE or "--export-projector" in args:
            continue
        checked += 1
        text = ANSI.sub("", case.with_suffix(".stdout").read_bytes().decode("utf-8", "replace"))
        for number, line in enumerate(text.split("\n"), 1):
            if len(line) > WIDTH:
                failures += 1
                print(f"FAIL: {case.stem}.stdout line {number} has {len(line)} columns: {line[:100]}")
    print(f"{checked} text goldens checked, {failures} lines over {WIDTH} columns")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
