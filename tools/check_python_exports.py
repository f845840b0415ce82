#!/usr/bin/env python3
"""Runs the PyTorch scripts of the golden cases (embdemo --format python, recorded in
tests/golden/cases/*.stdout) against real torch, each in tests/data as the goldens run, and
says which pass. Each script asserts that PyTorch's numbers equal embdemo's bit for bit, so a
pass is PyTorch 1.13 agreeing with the recorded output.

Needs torch (Debian's python3-torch, which tools/setup.sh --tests installs; run with /usr/bin/python3).
ctest runs it as torch_live.python_exports (label torch-live).
Usage: tools/check_python_exports.py [CASE_NAME ...]   (default: every python case)
Exit 0 when every script passes, 1 otherwise.
"""
import glob
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = os.path.join(ROOT, "tests", "golden", "cases")
DATA = os.path.join(ROOT, "tests", "data")


def python_cases(names):
    for args in sorted(glob.glob(os.path.join(CASES, "*.args"))):
        name = os.path.basename(args)[:-5]
        if names and name not in names:
            continue
        stdout = args[:-5] + ".stdout"
        if "--format python" in open(args).read() and os.path.getsize(stdout) > 0:
            yield name, stdout


def main():
    try:
        import torch
    except ImportError:
        sys.exit("check_python_exports: needs torch (apt install python3-torch, then run with /usr/bin/python3)")
    failures = 0
    cases = list(python_cases(sys.argv[1:]))
    for name, script in cases:
        run = subprocess.run([sys.executable, script], cwd=DATA, capture_output=True, text=True)
        ok = run.returncode == 0
        failures += not ok
        last = (run.stdout.strip() or run.stderr.strip()).splitlines()
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {last[-1] if last else ''}")
    print(f"{len(cases) - failures} of {len(cases)} scripts agree with torch {torch.__version__}")
    return 1 if failures or not cases else 0


if __name__ == "__main__":
    sys.exit(main())
