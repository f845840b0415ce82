#!/usr/bin/python3
"""The --format python scripts of every lesson PyTorch can re-run, run in real PyTorch (ctest
label torch-live): tests/python/python_cases writes each lesson's hand-picked cases and CASES
random ones (default 20 a lesson) from a seed printed first (`--seed S` repeats a run), and
- every script must run to its end: PyTorch agrees with embdemo bit for bit on every tensor and
  every claim the script asserts;
- every claim must be able to fail: for each `expected_...` literal and each assert with a number
  in it, the script is run again with one bit (or one integer) of embdemo's changed, and must stop
  with an AssertionError.
Scripts run in this one interpreter (torch loads once); the first script of each lesson also runs
as a program of its own, as a student runs it.
Usage: python_exports_live.py PYTHON_CASES_BINARY [--seed S] [--cases N]
"""
import argparse
import contextlib
import io
import os
import random
import re
import runpy
import subprocess
import sys
import tempfile

os.environ["OPENBLAS_NUM_THREADS"] = "1"
if os.path.exists("/proc/cpuinfo") and "avx" in open("/proc/cpuinfo").read().split():
    os.environ["OPENBLAS_CORETYPE"] = "Sandybridge"
import torch  # noqa: E402 (after the pin: torch loads OpenBLAS)

HEX = re.compile(r"0x[0-9a-f]{8}")
NUMBER = re.compile(r"(?<![\w.])-?\d+")


def statements(text):
    """(first line, last line) of each top-level statement: a line at column 0 and the indented
    or closing lines that continue it."""
    lines = text.split("\n")
    start = None
    for i, line in enumerate(lines + ["#end"]):
        if line and not line[0].isspace() and not line.startswith((")", "]")):
            if start is not None:
                yield start, i
            start = i


def mutations(text):
    """Scripts with one of embdemo's numbers changed: the first bit pattern of an expected literal
    (its lowest bit flipped, or a NaN made 1.0), or else the first integer of an expected value or of an assert's
    right-hand side (plus one). Each must make the script fail."""
    lines = text.split("\n")
    for first, end in statements(text):
        block = "\n".join(lines[first:end])
        if not block.startswith(("expected_", "assert ")) or ".all()" in block:
            continue
        hit = HEX.search(block)
        if hit:
            value = int(hit.group(), 16)
            # The lowest bit flipped; a NaN becomes 1.0 instead (another NaN may match any NaN).
            value = 0x3F800000 if (value & 0x7F800000) == 0x7F800000 and value & 0x7FFFFF else value ^ 1
            changed = block[:hit.start()] + f"0x{value:08x}" + block[hit.end():]
        elif "from_bits(" in block:
            continue  # an empty literal: nothing of embdemo's to change
        else:
            if block.startswith("assert "):
                if "==" not in block:
                    continue
                right = block.index("==")
            else:
                right = block.index("=") + 1
            hit = NUMBER.search(block, right)
            if not hit:
                continue
            changed = block[:hit.start()] + str(int(hit.group()) + 1) + block[hit.end():]
        yield first + 1, "\n".join(lines[:first] + [changed] + lines[end:])


def run_in_process(path, text=None):
    """None when the script runs to its end, else the exception it stopped with."""
    if text is not None:
        with open(path, "w") as out:
            out.write(text)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            runpy.run_path(path, run_name="__main__")
    except Exception as error:  # noqa: BLE001 (any failure is the answer)
        return error
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--cases", type=int, default=20)
    options = parser.parse_args()
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"python_exports_live: seed {seed} (repeat with --seed {seed}), torch {torch.__version__}", flush=True)
    failures = []
    passed, killed, scripts_by_lesson = 0, 0, {}
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([options.binary, tmp, str(seed), str(options.cases)], check=True)
        os.chdir(tmp)
        cases = [line.split("\t", 1) for line in open("cases.txt").read().splitlines()]
        for name, what in cases:
            lesson = name.rsplit("_", 1)[0]
            scripts_by_lesson.setdefault(lesson, []).append(name)
            text = open(name).read()
            error = run_in_process(name)
            if error is not None:
                failures.append(f"FAIL {name} ({what}): {type(error).__name__}: {error}")
                continue
            passed += 1
            for line, mutated in mutations(text):
                error = run_in_process("mutated.py", mutated)
                if isinstance(error, AssertionError):
                    killed += 1
                else:
                    failures.append(f"FAIL {name} line {line} ({what}): a changed value of embdemo's "
                                    f"{'passed' if error is None else 'raised ' + type(error).__name__ + ': ' + str(error)}")
        for lesson, names in scripts_by_lesson.items():
            run = subprocess.run([sys.executable, names[0]], capture_output=True, text=True)
            last = (run.stdout.strip() or run.stderr.strip()).splitlines()
            if run.returncode != 0:
                failures.append(f"FAIL {names[0]} as a program: {last[-1] if last else run.returncode}")
            print(f"{lesson}: {len(names)} scripts; {names[0]} as a program: {last[-1] if last else ''}", flush=True)
    for failure in failures[:30]:
        print(failure, flush=True)
    print(f"{passed} of {len(cases)} scripts agree with torch {torch.__version__}; "
          f"{killed} changed values of embdemo's each stopped its script", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
