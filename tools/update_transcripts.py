#!/usr/bin/env python3
"""Rewrites the output under every "$ command" line of the ```console blocks in the given
Markdown files with what the command prints now, byte for byte (the same rules as
check_transcripts.sh: bash, the binary's directory first on PATH, NO_COLOR=1, LC_ALL=C, stdin from
/dev/null, a scratch folder of its own for each file; trailing blank lines are kept).
Use it on purpose after a deliberate output change, then review `git diff docs README.md`.

usage: tools/update_transcripts.py build/embdemo README.md docs/*.md
"""
import os
import subprocess
import sys
import tempfile


def run(command, binary_dir, scratch):
    env = dict(os.environ, NO_COLOR="1", LC_ALL="C", PATH=binary_dir + os.pathsep + os.environ["PATH"])
    result = subprocess.run(["bash", "-c", command], cwd=scratch, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.stdout and not result.stdout.endswith("\n"):
        print(f"warning: the output of {command!r} does not end with a newline, which a transcript "
              "cannot show", file=sys.stderr)
    return result.stdout.split("\n")[:-1] if result.stdout.endswith("\n") else result.stdout.split("\n") if result.stdout else []


def update(path, binary_dir, scratch):
    lines = open(path, encoding="utf-8").read().split("\n")
    out, in_block, skipping = [], False, False
    for line in lines:
        if not in_block:
            out.append(line)
            in_block = line == "```console"
            continue
        if line == "```" or line.startswith("$ "):
            skipping = False
            out.append(line)
            if line == "```":
                in_block = False
            else:
                out.extend(run(line[2:], binary_dir, scratch))
                skipping = True
            continue
        if not skipping:
            out.append(line)
    open(path, "w", encoding="utf-8").write("\n".join(out))


def main():
    binary_dir = os.path.dirname(os.path.abspath(sys.argv[1]))
    for path in sys.argv[2:]:
        with tempfile.TemporaryDirectory() as scratch:
            update(path, binary_dir, scratch)


if __name__ == "__main__":
    main()
