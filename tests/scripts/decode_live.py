#!/usr/bin/python3
"""embdemo tokens --ids against Python's own UTF-8 decoder (label torch-live, with the other
checks against a live reference).

For every GPT-2 token that is not UTF-8 on its own, and for random runs of such tokens with
valid ones between them: embdemo's "text" must be bytes.decode("utf-8", errors="replace"), its
"replacements" the number of U+FFFD that decode puts in, and each token's "utf8" must say which
of its bytes Python replaces: "valid" (UTF-8 alone), "joined" (none replaced), "partial" (some)
or "broken" (all). The bytes Python replaces are those an error handler is called for. The text
view must name, for a partial token, exactly the bytes replaced. The random seed is printed.
"""
import codecs
import json
import random
import subprocess
import sys

BINARY = sys.argv[1]
seed = int(sys.argv[2]) if len(sys.argv) > 2 else random.randrange(2**32)
print("seed", seed)
rng = random.Random(seed)

replaced_spans = []


def recording_replace(error):
    replaced_spans.append((error.start, error.end))
    return ("\ufffd", error.end)


codecs.register_error("embdemo_record", recording_replace)


def python_decode(data: bytes):
    replaced_spans.clear()
    text = data.decode("utf-8", errors="embdemo_record")
    return text, list(replaced_spans)


def run(ids, *extra):
    result = subprocess.run([BINARY, "tokens", "--ids", ",".join(map(str, ids)), *extra], capture_output=True,
                            text=True, timeout=120)
    if result.returncode != 0:
        raise SystemExit(f"embdemo tokens --ids {ids[:10]}...: exit {result.returncode}: {result.stderr}")
    return result.stdout


token_bytes = []
for first in range(0, 50257, 10000):  # in chunks: one argument holds at most 128 KiB
    chunk = json.loads(run(range(first, min(first + 10000, 50257)), "--format", "json"))
    token_bytes += [bytes.fromhex(t["hex"]) for t in chunk["tokens"]]
broken_alone = [i for i, b in enumerate(token_bytes) if python_decode(b)[1]]
print(len(broken_alone), "tokens are not UTF-8 on their own")

failures = []


def check(ids):
    report = json.loads(run(ids, "--format", "json"))
    data = b"".join(token_bytes[i] for i in ids)
    text, spans = python_decode(data)
    where = f"--ids {','.join(map(str, ids))}"
    if report["text"] != text:
        failures.append(f"{where}: text {report['text']!r}, Python decodes {text!r}")
    if report["replacements"] != len(spans):
        failures.append(f"{where}: {report['replacements']} replacements, Python puts {len(spans)}")
    replaced = [False] * len(data)
    for start, end in spans:
        for b in range(start, end):
            replaced[b] = True
    offset = 0
    for k, i in enumerate(ids):
        size = len(token_bytes[i])
        count = sum(replaced[offset:offset + size])
        expected = ("valid" if not python_decode(token_bytes[i])[1]
                    else "joined" if count == 0 else "broken" if count == size else "partial")
        got = report["tokens"][k]["utf8"]
        if got != expected:
            failures.append(f"{where}: ids[{k}] = {i} is {got!r}, Python replaces {count} of its {size} bytes "
                            f"({expected})")
        offset += size
    return report


for i in broken_alone:
    check([i])
for ids in ([127, 21253], [21253, 4204], [8582, 21253], [127, 21253, 4204], [8582, 9968, 21253, 4204]):
    check(ids)
for _ in range(300):
    ids = []
    for _ in range(rng.randint(2, 6)):
        ids.append(rng.choice(broken_alone) if rng.random() < 0.8 else rng.randrange(50257))
    check(ids)

# The text view of the case names the one replaced byte of the partial token.
view = run([127, 21253])
if '"\\x9a\\xe9"' not in view or "U+FFFD for \\xe9" not in view or "even joined" in view:
    failures.append("tokens --ids 127,21253: the view does not say that only \\xe9 becomes U+FFFD:\n" + view)

for failure in failures[:20]:
    print("FAIL:", failure)
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
