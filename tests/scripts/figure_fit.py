#!/usr/bin/env python3
"""Figures for slides: every lesson's figure keeps its text inside the drawing and reads on a slide.

For each run below (every lesson `embdemo --completion-data` lists, with its defaults, and the runs
a classroom shows: every position encoding, grad with Adam, --text runs, GPT-2's sizes):
- every <text> fits inside the svg's width and height. A text's extent is estimated as a
  monospace font draws it: code points x font-size x 0.6 wide (the font-size the text or the
  svg declares), anchored as the text says, from y - font-size to y + font-size / 4;
- fitted to a 1280 x 720 slide (scale = min(1280 / width, 720 / height)), every number in the
  figure (a <text> that is a number: a cell, a column's or row's index, a count) is at least
  12 px high: font-size x scale >= 12.
The svg of each --format html page is checked the same way, and every golden svg or html output
in CASES_DIR for the first (extent) rule.

Every run is held to the extent rule; each lesson's default figure and SLIDE_RUNS to the slide
rule as well.

Usage: figure_fit.py EMBDEMO CASES_DIR [--report]
  --report prints each figure's size, scale and smallest number on the slide, and never fails.
       figure_fit.py --files SVG...
  holds the svg files given (the unit tests' figures, tests/scripts/lesson_figures_xmllint.sh)
  to the extent rule.
"""
import pathlib
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

SLIDE_WIDTH = 1280
SLIDE_HEIGHT = 720
SMALLEST_NUMBER = 12.0
CHAR_WIDTH = 0.6  # a monospace character's advance, in font-sizes
SVG = "{http://www.w3.org/2000/svg}"

# Lessons with no figure: the timing lesson prints timings, help prints help.
NO_FIGURE = {"bench", "help"}
TEXT = "Your journey starts with one step"
# Each lesson's default figure: its first example in docs/lessons.md, drawn. A lesson that
# --completion-data lists and this does not fails the test until it is given one.
DEFAULTS = {
    "lookup": ["--ids", "2,3,1", "--dim", "5"],
    "grad": ["grad", "--ids", "2,3,1,3", "--dim", "4"],
    "cost": ["cost", "--model", "gpt2"],
    "positions": ["positions", "--ids", "2,3,2", "--dim", "3"],
    "tied": ["tied", "--ids", "2,3", "--dim", "3", "--top", "2"],
    "factor": ["factor", "--ids", "2,3", "--dim", "4", "--rank", "1"],
    "bag": ["bag", "--bags", "2,3,3;", "--dim", "3", "--mode", "sum"],
    "tokens": ["tokens", "--text", TEXT],
    "train": ["train", "--ids", "1,2,3,1,2,3,1,2", "--steps", "8"],
}
# Held to the slide rule like the defaults: every position encoding, grad with Adam.
SLIDE_RUNS = [
    ["positions", "--ids", "2,3,1", "--dim", "4", "--encoding", "learned"],
    ["positions", "--ids", "2,3,1", "--dim", "4", "--encoding", "sinusoidal"],
    ["positions", "--ids", "2,3,1", "--dim", "4", "--encoding", "rope"],
    ["positions", "--ids", "2,3,1", "--dim", "4", "--encoding", "alibi", "--heads", "4"],
    ["grad", "--ids", "2,3,1,3", "--dim", "4", "--optimizer", "adam", "--steps", "3"],
]
# Held to the extent rule only (their numbers are reported with --report): --text runs, GPT-2's
# sizes, max_norm, the decoder, more bags. A long text's matrices have more rows than a slide.
RUNS = [
    ["--text", TEXT, "--dim", "3"],
    ["grad", "--text", TEXT, "--dim", "3"],
    ["tied", "--text", TEXT, "--dim", "5", "--top", "2"],
    ["factor", "--text", TEXT, "--dim", "6", "--rank", "2"],
    ["bag", "--text", TEXT, "--context", "3", "--batch", "1", "--dim", "3"],
    ["positions", "--text", TEXT, "--context", "3", "--stride", "2", "--batch", "2", "--dim", "4"],
    ["tokens", "--ids", "40"],
    ["tokens", "--ids", "1026,447,247,82,257,40304,30325,222,198"],
    ["--ids", "464,3290,464,50256", "--vocab", "50257", "--dim", "768"],
    ["grad", "--ids", "464,3290,464", "--vocab", "50257", "--dim", "768"],
    ["--ids", "2,3,1,3", "--dim", "5", "--max-norm", "1.5"],
    ["bag", "--bags", "2,3;1,1,0", "--dim", "4"],
    ["bag", "--bags", "2,3;;1", "--dim", "3", "--mode", "max"],
]
NUMBER = re.compile(r"^[-+]?(\d[\d,]*(\.\d*)?|\.\d+)([eE][-+]?\d+)?%?$|^[-+]?(inf|nan)$")


def length(value, default):
    if value is None:
        return default
    return float(re.sub(r"px$", "", value))


def svg_of(output):
    """The <svg> element of an svg document or an html page, parsed."""
    start = output.find("<svg ")
    end = output.rfind("</svg>")
    if start < 0 or end < 0:
        raise ValueError("no <svg> element")
    return ElementTree.fromstring(output[start:end + len("</svg>")])


def texts(root):
    """(x, y, font-size, anchor, content) of every <text>, with the sizes it inherits."""
    out = []

    def walk(element, size, anchor):
        size = length(element.get("font-size"), size)
        anchor = element.get("text-anchor", anchor)
        if element.tag in (SVG + "text", "text"):
            lines = []
            # A <text> is one line, or one line per <tspan> with its own x and y.
            spans = [child for child in element if child.tag in (SVG + "tspan", "tspan")]
            if spans:
                for span in spans:
                    lines.append((length(span.get("x"), length(element.get("x"), 0)),
                                  length(span.get("y"), length(element.get("y"), 0)),
                                  length(span.get("font-size"), size), span.get("text-anchor", anchor),
                                  "".join(span.itertext())))
            else:
                lines.append((length(element.get("x"), 0), length(element.get("y"), 0), size, anchor,
                              "".join(element.itertext())))
            out.extend(lines)
            return
        for child in element:
            walk(child, size, anchor)

    walk(root, length(root.get("font-size"), 16.0), root.get("text-anchor", "start"))
    return out


def measure(output):
    """(width, height, overflowing texts, smallest number's font-size x slide scale, its text)."""
    root = svg_of(output)
    width = length(root.get("width"), 0)
    height = length(root.get("height"), 0)
    scale = min(SLIDE_WIDTH / width, SLIDE_HEIGHT / height)
    overflows = []
    smallest = None
    for x, y, size, anchor, content in texts(root):
        extent = len(content) * size * CHAR_WIDTH
        left = x - {"middle": extent / 2, "end": extent}.get(anchor, 0)
        if left < 0 or left + extent > width or y - size < 0 or y + size / 4 > height:
            overflows.append(f"{content[:60]!r} spans x {left:.0f}..{left + extent:.0f}, y {y - size:.0f}..{y + size / 4:.0f}")
        if NUMBER.match(content.strip()) and (smallest is None or size * scale < smallest[0]):
            smallest = (size * scale, content.strip())
    return width, height, scale, overflows, smallest


def run(binary, args):
    result = subprocess.run([binary] + args, capture_output=True, check=False)
    # 3: the lesson's two forms differ in a bit (bag's in-order M @ E, a rescaling --max-norm), drawn all the same.
    if result.returncode not in (0, 3) or not result.stdout:
        raise RuntimeError(f"exit {result.returncode}: {result.stderr.decode('utf-8', 'replace').strip()}")
    return result.stdout.decode("utf-8")


def check_files(paths):
    failures = []
    for path in paths:
        for overflow in measure(pathlib.Path(path).read_text(encoding="utf-8"))[3]:
            failures.append(f"{pathlib.Path(path).name}: text runs past the edge: {overflow}")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


def main():
    if sys.argv[1] == "--files":
        return check_files(sys.argv[2:])
    binary, cases = sys.argv[1], pathlib.Path(sys.argv[2])
    report = "--report" in sys.argv[3:]
    failures = []
    lessons = run(binary, ["--completion-data"]).splitlines()[0].split()[1:]
    runs = []
    for lesson in lessons:
        if lesson in NO_FIGURE:
            continue
        if lesson not in DEFAULTS:
            failures.append(f"{lesson}: no default figure in figure_fit.py's DEFAULTS")
            continue
        runs.append(DEFAULTS[lesson])
    runs += SLIDE_RUNS
    slide_runs = len(runs)
    runs += RUNS
    for index, args in enumerate(runs):
        for form in ("svg", "html"):
            name = " ".join(args + ["--format", form])
            try:
                width, height, scale, overflows, smallest = measure(run(binary, args + ["--format", form]))
            except (RuntimeError, ValueError, ElementTree.ParseError) as error:
                failures.append(f"{name}: {error}")
                continue
            if report and form == "svg":
                number = f"{smallest[0]:.1f} px ({smallest[1]!r})" if smallest else "no number"
                print(f"{name}: {width:.0f} x {height:.0f}, scale {scale:.2f}, smallest number {number}"
                      f"{', %d texts overflow' % len(overflows) if overflows else ''}")
            failures += [f"{name}: text runs past the edge: {o}" for o in overflows]
            if index < slide_runs and smallest is not None and smallest[0] < SMALLEST_NUMBER:
                failures.append(f"{name}: {width:.0f} x {height:.0f} fits a {SLIDE_WIDTH} x {SLIDE_HEIGHT} slide at "
                                f"scale {scale:.2f}, so {smallest[1]!r} is {smallest[0]:.1f} px (< {SMALLEST_NUMBER:.0f})")
    checked = 0
    for case in sorted(cases.glob("*.args")):
        line = case.read_text()
        stdout = case.with_suffix(".stdout")
        if ("--format svg" not in line and "--format html" not in line) or not stdout.exists() \
                or stdout.stat().st_size == 0:
            continue
        checked += 1
        try:
            overflows = measure(stdout.read_text(encoding="utf-8"))[3]
        except (ValueError, ElementTree.ParseError) as error:
            failures.append(f"golden {case.stem}: {error}")
            continue
        failures += [f"golden {case.stem}: text runs past the edge: {o}" for o in overflows]
    if checked < 10:
        failures.append(f"only {checked} golden svg/html outputs found in {cases}")
    for failure in failures:
        print("FAIL:", failure)
    if report:
        return 0
    if not failures:
        print(f"figure_fit: {len(runs)} runs (svg and html) and {checked} golden pictures keep their text inside; "
              f"{slide_runs} runs read at >= {SMALLEST_NUMBER:.0f} px on a {SLIDE_WIDTH} x {SLIDE_HEIGHT} slide")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
