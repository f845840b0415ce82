#!/usr/bin/python3
"""--format ipynb for every lesson that has a python export (ctest label torch-live): each
notebook must be valid nbformat 4 (python3-nbformat's validator), spelled as nbformat itself
writes it (read and written back, the same bytes), the same bytes on a second run, the same
cells as the lesson's --format python script (a percent-format notebook), and it must run from
its first cell to its last in a headless kernel (jupyter nbconvert --to notebook --execute),
its last cell printing PyTorch's agreement with embdemo.
Usage: notebooks_live.py EMBDEMO DATA_DIR
"""
import os
import shutil
import subprocess
import sys
import tempfile

import nbformat

# One run a lesson and mode that has a script, and a few unlike the defaults.
CASES = {
    "lookup": ["--ids", "2,3,1", "--dim", "5"],
    "lookup_vocab_batch": ["--ids", "2,3;1,1", "--vocab", "6", "--dim", "3", "--seed", "7"],
    "lookup_inf": ["--ids", "0,1", "--weights", "weights/with_inf.npy"],
    "lookup_max_norm": ["--ids", "2,3,1,3", "--dim", "5", "--max-norm", "1"],
    "grad": ["grad", "--ids", "2,3,1,3", "--dim", "4"],
    "grad_steps": ["grad", "--ids", "2,3,1", "--dim", "3", "--optimizer", "adam", "--steps", "2"],
    "positions": ["positions", "--ids", "2,3,1", "--dim", "4"],
    "tied": ["tied", "--ids", "2,3,1", "--vocab", "6", "--dim", "4"],
    "factor": ["factor", "--ids", "2,3,1", "--dim", "6", "--rank", "2"],
    "bag": ["bag", "--bags", "2,3;1", "--dim", "4"],
}


def run(embdemo, data, args, fmt):
    done = subprocess.run([embdemo, *args, "--format", fmt], cwd=data, capture_output=True)
    if done.returncode not in (0, 3):  # 3: the run's two forms differ, which it reports
        raise AssertionError(f"embdemo {' '.join(args)} --format {fmt}: {done.stderr.decode().strip()}")
    return done.stdout.decode()


def percent_cells(script):
    """The cells of a percent-format script, as (cell_type, source) with the blank edges cut."""
    cells = [["code", []]]
    for line in script.split("\n"):
        if line == "# %%" or line.startswith("# %% "):
            cells.append(["markdown" if "[markdown]" in line else "code", []])
        elif cells[-1][0] == "markdown":
            cells[-1][1].append(line[2:] if line.startswith("# ") else "" if line == "#" else line)
        else:
            cells[-1][1].append(line)
    return [(kind, "\n".join(lines).strip("\n")) for kind, lines in cells if "\n".join(lines).strip()]


def check(embdemo, data, name, args, tmp):
    text = run(embdemo, data, args, "ipynb")
    assert text == run(embdemo, data, args, "ipynb"), "a second run gave other bytes"
    notebook = nbformat.reads(text, as_version=4)
    nbformat.validate(notebook)
    assert (notebook.nbformat, notebook.nbformat_minor) == (4, 5), (notebook.nbformat, notebook.nbformat_minor)
    assert nbformat.writes(notebook) + "\n" == text, "not spelled as nbformat writes it"
    cells = [(cell.cell_type, cell.source) for cell in notebook.cells]
    assert cells == percent_cells(run(embdemo, data, args, "python")), "the cells differ from the python script's"
    assert any(kind == "markdown" for kind, _ in cells), "no prose"
    path = os.path.join(tmp, name + ".ipynb")
    with open(path, "w") as out:
        out.write(text)
    done = subprocess.run(["jupyter", "nbconvert", "--to", "notebook", "--execute", "--output", name + ".run",
                           "--ExecutePreprocessor.timeout=300", path], cwd=tmp, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr.strip().splitlines()[-1] if done.stderr.strip() else done.returncode
    executed = nbformat.read(os.path.join(tmp, name + ".run.ipynb"), as_version=4)
    errors = [o for c in executed.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors, errors[0].evalue
    last = "".join(o.text for o in executed.cells[-1].outputs if o.output_type == "stream" and o.name == "stdout")
    assert "PyTorch agrees with embdemo" in last, f"the last cell printed {last!r}"
    return last.strip().splitlines()[-1]


def main():
    embdemo, data = os.path.abspath(sys.argv[1]), sys.argv[2]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        # The notebooks open files by the names the scripts use, relative to where they run.
        shutil.copytree(os.path.join(data, "weights"), os.path.join(tmp, "weights"))
        for name, args in CASES.items():
            try:
                print(f"ok   {name}: {check(embdemo, data, name, args, tmp)}", flush=True)
            except AssertionError as error:
                failures += 1
                print(f"FAIL {name} ({' '.join(args)}): {error}", flush=True)
    print(f"{len(CASES) - failures} of {len(CASES)} notebooks valid and executed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
