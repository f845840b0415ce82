#!/usr/bin/python3
"""positions --encoding rope against the book's compute_rope in live PyTorch (label torch-live).

embdemo rotates with cos and sin of angles in double, each rounded once to float32 (its script's
rope() does the same, and checks it bit for bit); the book's precompute_rope_params takes the
angles t * inv_freq in float32, so its rows differ in the last bits. The text view, the JSON's
rope_book_bound and the script say by how much at most: 6 (t + 1) x 2^-24 of a row's largest
value. This test holds that bound on fresh runs up to T = 4,096 and d = 128, checks the JSON's
figure, and prints the largest gap it found, in units of t x 2^-24 of the row's largest value.
"""
import json
import os
import random
import subprocess
import sys

os.environ["OPENBLAS_NUM_THREADS"] = "1"
import torch  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from book_rope import compute_rope, precompute_rope_params  # noqa: E402

BINARY = sys.argv[1]
seed = int(os.environ.get("EMBDEMO_TEST_SEED", random.randrange(1 << 30)))
print(f"seed {seed} (EMBDEMO_TEST_SEED={seed} repeats this run)")
rng = random.Random(seed)


failures = []
widest = 0.0  # the largest gap in units of t x 2^-24 x the row's largest value
cases = [(1, 2), (3, 4), (64, 16), (1024, 64), (1024, 128), (4096, 16)]
cases += [(rng.randrange(2, 600), 2 * rng.randrange(1, 40)) for _ in range(4)]
for T, d in cases:
    batch = rng.choice([1, 1, 2])
    V = rng.randrange(2, 300)
    ids = ";".join(",".join(str(rng.randrange(V)) for _ in range(T)) for _ in range(batch))
    args = [BINARY, "positions", "--encoding", "rope", "--ids", ids, "--vocab", str(V), "--dim", str(d),
            "--seed", str(rng.randrange(1 << 31)), "--format", "json"]
    run = subprocess.run(args, capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        failures.append(f"T={T} d={d}: status {run.returncode}: {run.stderr.strip()}")
        continue
    report = json.loads(run.stdout)
    tokens = torch.tensor(report["token_lookup"], dtype=torch.float32).reshape(-1, T, d)
    rotated = torch.tensor(report["rotated"], dtype=torch.float32).reshape(-1, d).double()
    book = compute_rope(tokens[:, None], *precompute_rope_params(d, context_length=T)).reshape(-1, d).double()
    rows = tokens.reshape(-1, d).double()
    t = torch.tensor([i % T for i in range(rows.shape[0])], dtype=torch.float64)
    largest = rows.abs().max(dim=1).values
    gap = (book - rotated).abs().max(dim=1).values
    bounds = 6 * (t + 1) * 2.0**-24 * largest
    if not bool((gap <= bounds).all()):
        worst = int(((gap - bounds) / largest).argmax())
        failures.append(f"T={T} d={d}: row {worst} (t = {int(t[worst])}) strays {gap[worst].item()} past the bound "
                        f"{bounds[worst].item()}")
    if report["rope_book_bound"] != bounds.max().item():
        failures.append(f"T={T} d={d}: rope_book_bound {report['rope_book_bound']}, recomputed {bounds.max().item()}")
    moved = t > 0
    if bool(moved.any()):
        widest = max(widest, (gap[moved] / (t[moved] * 2.0**-24 * largest[moved])).max().item())
    if bool((gap[t == 0] != 0).any()):
        failures.append(f"T={T} d={d}: a row at t = 0 differs, where both rotations are the identity")
print(f"{len(cases)} runs; the book's compute_rope strayed at most {widest:.2f} t x 2^-24 of a row's largest value "
      "(bound: 6 (t + 1))")
for failure in failures:
    print("FAIL:", failure)
sys.exit(1 if failures else 0)
