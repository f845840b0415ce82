#!/usr/bin/python3
"""The tokens lesson's count of the book's words against live Python (label torch-live, with
the other checks against a live reference).

The book (chapter 2) splits with re.split(r'([,.:;?_!"()\\']|--|\\s)', text) and drops the items
for which item.strip() is empty. For every code point of the Basic Multilingual Plane that a
text file may hold (and every white-space one beyond it, of which there are none today), the
text "x<c>y" must give embdemo's "words" and "distinct_words" as Python counts them: a code
point that Python's \\s matches splits the pair, any other does not.
"""
import re
import subprocess
import sys
import tempfile

BINARY = sys.argv[1]
PATTERN = re.compile(r'([,.:;?_!"()\']|--|\s)')


def book_words(text):
    return [item for item in PATTERN.split(text) if item.strip()]


def embdemo_counts(text):
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".txt", delete=False) as f:
        f.write(text)
        path = f.name
    result = subprocess.run([BINARY, "tokens", "--text-file", path, "--format", "json"], capture_output=True,
                            text=True, timeout=300)
    if result.returncode != 0:
        return None, result.stderr.strip()
    import json
    report = json.loads(result.stdout)
    return (report["words"], report["distinct_words"]), ""


failures = []
spaces = [c for c in range(sys.maxunicode + 1) if chr(c).isspace()]
candidates = [c for c in range(0x10000) if not 0xD800 <= c <= 0xDFFF and c not in (0,)]
# One text of all of them: each "x<c>y" apart by a plain space, so that a disagreement shows in
# the total; then each white-space code point on its own, so that a failure names it.
pairs = " ".join(f"x{chr(c)}y" for c in candidates)
counts, error = embdemo_counts(pairs)
if counts is None:
    # Some code points may be refused as input (control bytes): keep those a text file allows.
    failures.append(f"the text of every code point was refused: {error}")
else:
    words = book_words(pairs)
    expected = (len(words), len(set(words)))
    if counts != expected:
        failures.append(f"x<c>y for every BMP code point: embdemo counts {counts} (words, distinct), "
                        f"Python {expected}")
for c in spaces + [0x180E, 0x200B, 0xFEFF]:
    text = f"a{chr(c)}b"
    counts, error = embdemo_counts(text)
    words = book_words(text)
    expected = (len(words), len(set(words)))
    if counts != expected:
        failures.append(f"U+{c:04X}: embdemo counts {counts} {error}, Python {expected}")
print(f"{len(spaces)} white-space code points in Python; {len(candidates)} code points checked")
for failure in failures:
    print("FAIL:", failure)
sys.exit(1 if failures else 0)
