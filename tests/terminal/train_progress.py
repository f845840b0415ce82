#!/usr/bin/env python3
"""embdemo train's progress bar: drawn on stderr when stderr is a terminal and the run is long
(past a second), and never into a pipe. The same run twice, stderr on a pseudo-terminal and then
on a pipe: the terminal shows "train: N of 30 steps (P%)" redrawn in place and erased at the end,
the pipe gets not a byte, and stdout is the same bytes both times.

    train_progress.py EMBDEMO
"""
import os
import pty
import subprocess
import sys
import tempfile

embdemo = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
chapter = os.path.join(here, "..", "data", "text", "the-verdict.txt")
# GPT-2 tokens, V = 1,416 at d = 64: about a tenth of a second a step, so the run passes the
# bar's first second even on a fast machine.
args = [embdemo, "train", "--model", "tied", "--dim", "64", "--text-file", chapter, "--steps", "30", "--format", "json"]

primary, secondary = pty.openpty()
# stdout to a file: a pipe would fill while this reads the terminal, and both would wait.
out_file = tempfile.TemporaryFile()
terminal = subprocess.Popen(args, stdout=out_file, stderr=secondary, stdin=subprocess.DEVNULL)
os.close(secondary)
shown = b""
while True:
    try:
        chunk = os.read(primary, 4096)
    except OSError:  # EIO: the child closed its end
        break
    if not chunk:
        break
    shown += chunk
terminal.wait()
out_file.seek(0)
terminal_out = out_file.read()
os.close(primary)

piped = subprocess.run(args, capture_output=True)

failures = []
if terminal.returncode not in (0, 3) or piped.returncode != terminal.returncode:
    failures.append(f"exit status: terminal {terminal.returncode}, pipe {piped.returncode}")
if b" of 30 steps (" not in shown or not shown.startswith(b"\rtrain: "):
    failures.append(f"the terminal showed no bar: {shown[:200]!r}")
if not shown.endswith(b"\r\x1b[K"):
    failures.append(f"the bar was not erased at the end: {shown[-40:]!r}")
if piped.stderr:
    failures.append(f"the pipe got stderr bytes: {piped.stderr[:200]!r}")
if terminal_out != piped.stdout:
    failures.append("stdout differs between the two runs")
for failure in failures:
    print("FAIL:", failure)
print(f"terminal: {len(shown)} bytes of bar; pipe: {len(piped.stderr)} bytes of stderr")
sys.exit(1 if failures else 0)
