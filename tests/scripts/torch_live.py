#!/usr/bin/python3
"""Live differential test against real PyTorch (ctest label torch-live).

For every lesson that PyTorch can re-run, CASES fresh random cases (default 200 a lesson): random
shapes from 1 to a few hundred, seeds up to 2^64 - 1, repeated ids, padding, and .npy weight files
holding nan, -nan, inf, -inf, -0.0, subnormals, signalling NaNs and NaN payloads. Each case runs
embdemo --format json and the same computation in PyTorch, then checks
- every tensor embdemo writes against PyTorch's, bit for bit (the JSON spells floats so that they
  round-trip; -0 and nan are spelled), and
- every verdict (identical / differing) and the exit status against PyTorch's own comparison of
  the same tensors: torch.equal on their int32 views, so NaN payloads and -0.0 count, as in
  embdemo.

The generator's seed is printed first: `torch_live.py BINARY --seed S` repeats a run exactly.
Needs Debian's python3-torch (tools/setup.sh --tests installs it); run with /usr/bin/python3.
"""
import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile

def pin_blas_kernel():
    """OpenBLAS as embdemo runs it: one thread (OpenBLAS's threads can split a product's sums
    differently) and, where the CPU has AVX, the Sandybridge kernel. Set before torch loads
    OpenBLAS, so that both sides run the same arithmetic."""
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            flags = next((line.split(":", 1)[1].split() for line in cpuinfo if line.startswith("flags")), [])
    except OSError:
        flags = []
    if "avx" in flags:
        os.environ["OPENBLAS_CORETYPE"] = "Sandybridge"


pin_blas_kernel()

import numpy as np  # noqa: E402 (after the pin: torch loads OpenBLAS)
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

SPECIAL_BITS = [0x7FC00000, 0xFFC00000, 0x7F800000, 0xFF800000, 0x80000000, 0x00000001, 0x807FFFFF,
                0x7FA00001, 0x7FC00123, 0xFFE00042]


class Failure(Exception):
    pass


def as_bits(t: torch.Tensor) -> torch.Tensor:
    return t.detach().contiguous().view(torch.int32)


def same_bits(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.shape == b.shape and torch.equal(as_bits(a), as_bits(b))


def from_json(value) -> torch.Tensor:
    def number(x):
        if isinstance(x, list):
            return [number(y) for y in x]
        if isinstance(x, str):
            return float(x)  # "nan", "inf", "-inf"
        return float(x)
    return torch.tensor(number(value), dtype=torch.float32)


def json_equal(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Equal as JSON can tell: every value, -0.0 apart from +0.0, any NaN equal to any NaN."""
    if a.shape != b.shape:
        return False
    a, b = a.detach().flatten(), b.detach().flatten()
    nan = torch.isnan(a) & torch.isnan(b)
    same = as_bits(a) == as_bits(b)
    return bool(torch.all(nan | same))


class Runner:
    def __init__(self, binary: str, workdir: str):
        self.binary = binary
        self.workdir = workdir
        self.runs = 0
        self.last = []

    def last_args(self) -> str:
        return " ".join(self.last)

    def run(self, args, env=None):
        self.runs += 1
        self.last = [*[f"{k}={v}" for k, v in (env or {}).items()], "embdemo", *args, "--format", "json"]
        proc = subprocess.run([self.binary, *args, "--format", "json"], cwd=self.workdir, capture_output=True,
                              text=True, env={**os.environ, "NO_COLOR": "1", "LC_ALL": "C", **(env or {})})
        if proc.returncode not in (0, 3):
            raise Failure(f"exit {proc.returncode}: {proc.stderr.strip()}")
        try:
            return proc.returncode, json.loads(proc.stdout, parse_int=float)  # "-0" stays -0.0
        except json.JSONDecodeError as error:
            raise Failure(f"stdout is not JSON ({error})")


def expect_tensor(report, key, expected: torch.Tensor):
    if key not in report:
        raise Failure(f"JSON has no {key!r}")
    got = from_json(report[key]).reshape(expected.shape) if expected.numel() else from_json(report[key])
    if not json_equal(got, expected):
        where = (~((torch.isnan(got) & torch.isnan(expected)) | (as_bits(got) == as_bits(expected)))).nonzero()
        first = tuple(where[0].tolist()) if len(where) else ()
        raise Failure(f"{key}{list(first)}: embdemo {got[first].item() if first else got} vs torch "
                      f"{expected[first].item() if first else expected}")


def expect(condition: bool, message: str):
    if not condition:
        raise Failure(message)


def expect_verdict(status, report, key, torch_same: bool, exit_follows=True):
    expect(report[key] == torch_same, f"{key} = {report[key]}, but torch.equal on the bits says {torch_same}")
    if exit_follows:
        expect(status == (0 if torch_same else 3), f"exit {status} for {key} = {torch_same}")


# Inputs ---------------------------------------------------------------------------------------

def random_seed(rng):
    return rng.choice([123, rng.randrange(2**32), rng.randrange(2**64), 2**64 - 1, 2**32 + 123])


def random_shape(rng, most=300):
    return rng.choice([1, 1, 2, 3, rng.randint(1, 16), rng.randint(1, most)])


def random_ids(rng, vocab, most=40):
    n = rng.choice([1, rng.randint(1, 6), rng.randint(1, most)])
    pool = [rng.randrange(vocab) for _ in range(rng.randint(1, 4))]
    # Repeats on purpose: a small pool of ids, mixed with fresh ones.
    return [rng.choice(pool) if rng.random() < 0.5 else rng.randrange(vocab) for _ in range(n)]


def special_weights(rng, rows, cols) -> np.ndarray:
    values = np.array([rng.gauss(0.0, 1.0) for _ in range(rows * cols)], dtype=np.float32)
    bits = values.view(np.uint32)
    for _ in range(rng.randint(1, max(1, rows * cols // 4))):
        bits[rng.randrange(rows * cols)] = rng.choice(SPECIAL_BITS)
    return values.reshape(rows, cols)


def ids_arg(ids):
    return ",".join(map(str, ids))


def seeded_cli(lesson, ids_option, ids_text, vocab, dim, seed):
    """A lesson's command line for a table drawn by torch.manual_seed(seed), V x d."""
    return [lesson, ids_option, ids_text, "--vocab", str(vocab), "--dim", str(dim), "--seed", str(seed)]


class Cases:
    def __init__(self, runner: Runner, rng: random.Random, tmp: str):
        self.runner, self.rng, self.tmp = runner, rng, tmp
        self.files = 0

    def save(self, array: np.ndarray) -> str:
        self.files += 1
        name = f"w{self.files}.npy"
        np.save(os.path.join(self.tmp, name), array)
        return name

    def weights(self, vocab, dim):
        """Either torch's seeded nn.Embedding or a file with special values; (args, E)."""
        rng = self.rng
        if rng.random() < 0.5:
            seed = random_seed(rng)
            torch.manual_seed(seed)
            weight = torch.nn.Embedding(vocab, dim).weight.detach()
            return ["--seed", str(seed), "--vocab", str(vocab), "--dim", str(dim)], weight
        array = special_weights(rng, vocab, dim)
        return ["--weights", self.save(array)], torch.from_numpy(array.copy())

    # One method a lesson: builds a case, runs both sides, raises Failure on any disagreement.
    def lookup(self):
        vocab, dim = random_shape(self.rng), random_shape(self.rng, 64)
        ids = random_ids(self.rng, vocab)
        args, e = self.weights(vocab, dim)
        status, report = self.runner.run(["--ids", ids_arg(ids), *args])
        index = torch.tensor(ids)
        x = F.one_hot(index, vocab).float()
        looked_up = e[index]
        product = x @ e
        linear = F.linear(x, e.t().contiguous())
        expect_tensor(report, "weight", e)
        expect_tensor(report, "lookup", looked_up)
        expect_tensor(report, "onehot_matmul", product)
        expect_tensor(report, "linear_output", linear)
        if torch.isfinite(e).all():
            # embdemo reads W where it lies, in E, for such a table (performance.md, "No copy of
            # E"): the notebook's own W, nn.Parameter(embedding.weight.T), is that view of E.
            # The walkthrough says so too: .T copies nothing, W is E's memory with its strides swapped.
            notebook_w = torch.nn.Parameter(e.T)
            if notebook_w.data_ptr() != e.data_ptr() or notebook_w.stride() != e.stride()[::-1]:
                raise Failure("nn.Parameter(E.T) is not E's memory with its strides swapped")
            if notebook_w.is_contiguous() and vocab > 1 and dim > 1:
                raise Failure("nn.Parameter(E.T) is contiguous: the notebook's W is no longer a view of E")
            expect_tensor(report, "linear_output", F.linear(x, notebook_w).detach())
        expect_verdict(status, report, "identical", same_bits(looked_up, product))
        expect_verdict(status, report, "linear_identical", same_bits(looked_up, linear), exit_follows=False)
        return " ".join(["--ids", ids_arg(ids), *args])

    def lookup_blocks(self):
        """A product past one block of X (4,194,304 values), which embdemo cuts into blocks of
        rows, on one or two threads: still PyTorch's bits, special values included."""
        vocab, dim = self.rng.randint(700, 3000), self.rng.randint(1, 6)
        n = 4194304 // vocab + self.rng.randint(2, 300)
        ids = [self.rng.randrange(vocab) for _ in range(n)]
        args, e = self.weights(vocab, dim)
        if "--vocab" not in args:
            args += ["--vocab", str(vocab)]  # a file's rows are V; ids may miss the last rows
        threads = str(self.rng.randint(1, 2))
        status, report = self.runner.run(["--ids", ids_arg(ids), *args, "--show", "lookup,onehot_matmul,linear_output"],
                                         env={"EMBDEMO_THREADS": threads})
        index = torch.tensor(ids)
        x = F.one_hot(index, vocab).float()
        looked_up = e[index]
        product = x @ e
        linear = F.linear(x, e.t().contiguous())
        expect_tensor(report, "lookup", looked_up)
        expect_tensor(report, "onehot_matmul", product)
        expect_tensor(report, "linear_output", linear)
        expect_verdict(status, report, "identical", same_bits(looked_up, product))
        expect_verdict(status, report, "linear_identical", same_bits(looked_up, linear), exit_follows=False)
        return f"{n} ids, V {vocab}, d {dim}, {threads} threads"

    def max_norm(self):
        vocab, dim = random_shape(self.rng), random_shape(self.rng, 64)
        ids = random_ids(self.rng, vocab)
        args, e = self.weights(vocab, dim)
        max_norm = self.rng.choice([0.5, 1.0, 2.0, 1e-3])
        norm_type = self.rng.choice([2.0, 1.0, 3.0, math.inf])
        norm_arg = "inf" if math.isinf(norm_type) else repr(norm_type)
        cli = ["--ids", ids_arg(ids), *args, "--max-norm", repr(max_norm), "--norm-type", norm_arg]
        status, report = self.runner.run(cli)
        emb = torch.nn.Embedding(vocab, dim, max_norm=max_norm, norm_type=norm_type)
        with torch.no_grad():
            emb.weight.copy_(e)
        index = torch.tensor(ids)
        x = F.one_hot(index, vocab).float()
        drawn = x @ e
        looked_up = emb(index).detach()
        after = emb.weight.detach()
        expect_tensor(report, "weight", e)
        expect_tensor(report, "onehot_matmul", drawn)
        expect_tensor(report, "weight_after", after)
        expect_tensor(report, "lookup", looked_up)
        expect_tensor(report, "onehot_matmul_after", x @ after)
        expect(report["check_after"]["identical"] == same_bits(looked_up, x @ after), "check_after disagrees with torch")
        expect(report["check_drawn"]["identical"] == same_bits(looked_up, drawn), "check_drawn disagrees with torch")
        return " ".join(cli)

    def grad(self):
        rng = self.rng
        vocab, dim = random_shape(rng), random_shape(rng, 64)
        ids = random_ids(rng, vocab)
        seed = random_seed(rng)
        padding = rng.choice([None, None, rng.randrange(vocab), ids[0]])
        scale = rng.random() < 0.4
        cli = seeded_cli("grad", "--ids", ids_arg(ids), vocab, dim, seed)
        if padding is not None:
            cli += ["--padding-idx", str(padding)]
        if scale:
            cli.append("--scale-grad-by-freq")
        status, report = self.runner.run(cli)
        torch.manual_seed(seed)
        emb = torch.nn.Embedding(vocab, dim, padding_idx=padding, scale_grad_by_freq=scale)
        e = emb.weight.detach().clone()
        index = torch.tensor(ids)
        g = torch.randn(len(ids), dim)
        emb(index).backward(g)
        x = F.one_hot(index, vocab).float().requires_grad_()
        w = e.clone().requires_grad_()
        (x @ w).backward(g)
        expect_tensor(report, "weight", e)
        expect_tensor(report, "upstream", g)
        expect_tensor(report, "grad_lookup", emb.weight.grad)
        expect_tensor(report, "grad_onehot", w.grad)
        expect_tensor(report, "grad_onehot_input", x.grad)
        expect_verdict(status, report, "identical", same_bits(emb.weight.grad, w.grad))
        return " ".join(cli)

    def grad_blocks(self):
        """one_hot(ids).T @ G past one block of X (4,194,304 values), which embdemo computes a
        block of dE's rows at a time, on one or two threads, with special values in G (and in E
        from a file): still PyTorch's bits, the scatter-add's and dL/dX's too."""
        rng = self.rng
        vocab, dim = rng.randint(1500, 2500), rng.randint(1, 3)
        n = 4194304 // vocab + rng.randint(64, 400)
        used = [rng.randrange(vocab) for _ in range(rng.randint(1, 300))]
        ids = [rng.choice(used) for _ in range(n)]
        args, e = self.weights(vocab, dim)
        g = special_weights(rng, n, dim)
        threads = str(rng.randint(1, 2))
        status, report = self.runner.run(["grad", "--ids", ids_arg(ids), *args, "--upstream", self.save(g)],
                                         env={"EMBDEMO_THREADS": threads})
        emb = torch.nn.Embedding.from_pretrained(e.clone(), freeze=False)
        index = torch.tensor(ids)
        upstream = torch.from_numpy(g.copy())
        emb(index).backward(upstream)
        x = F.one_hot(index, vocab).float().requires_grad_()
        w = e.clone().requires_grad_()
        (x @ w).backward(upstream)
        expect_tensor(report, "grad_lookup", emb.weight.grad)
        expect_tensor(report, "grad_onehot", w.grad)
        expect_tensor(report, "grad_onehot_input", x.grad)
        expect_verdict(status, report, "identical", same_bits(emb.weight.grad, w.grad))
        return f"{n} ids ({len(set(ids))} distinct), V {vocab}, d {dim}, {threads} threads"

    def bag(self):
        rng = self.rng
        vocab, dim = random_shape(rng), random_shape(rng, 64)
        bags = [random_ids(rng, vocab, 8) if rng.random() < 0.9 else [] for _ in range(rng.randint(1, 6))]
        if not any(bags):
            bags[0] = [rng.randrange(vocab)]
        mode = rng.choice(["sum", "mean", "max"])
        padding = rng.choice([None, None, rng.randrange(vocab)])
        weights = None
        if mode == "sum" and rng.random() < 0.5:
            weights = [[rng.choice([0.1, 0.5, 2.0, -1.5, round(rng.uniform(-3, 3), 3)]) for _ in b] for b in bags]
        seed = random_seed(rng)
        spell = lambda rows: ";".join(",".join(map(str, r)) for r in rows)
        cli = seeded_cli("bag", "--bags", spell(bags), vocab, dim, seed) + ["--mode", mode]
        if padding is not None:
            cli += ["--padding-idx", str(padding)]
        if weights is not None:
            cli += ["--per-sample-weights", spell(weights)]
        status, report = self.runner.run(cli)
        torch.manual_seed(seed)
        module = torch.nn.EmbeddingBag(vocab, dim, mode=mode, padding_idx=padding)
        flat = [k for b in bags for k in b]
        offsets = [0]
        for b in bags[:-1]:
            offsets.append(offsets[-1] + len(b))
        psw = None if weights is None else torch.tensor([w for b in weights for w in b], dtype=torch.float32)
        out = module(torch.tensor(flat, dtype=torch.long), torch.tensor(offsets), per_sample_weights=psw).detach()
        e = module.weight.detach()
        expect_tensor(report, "weight", e)
        expect_tensor(report, "output", out)
        if mode != "max":
            m = from_json(report["multihot"])
            product = m @ e
            expect_tensor(report, "torch_matmul", product)
            expect_verdict(status, report, "torch_matmul_identical", same_bits(out, product), exit_follows=False)
        return " ".join(cli)

    def positions(self):
        rng = self.rng
        vocab, dim = random_shape(rng), random_shape(rng, 64)
        seq = rng.randint(1, 12)
        batch = rng.choice([None, 1, 2, 3])
        rows = [[rng.randrange(vocab) for _ in range(seq)] for _ in range(batch or 1)]
        context = seq + rng.choice([0, 0, rng.randint(1, 20)])
        seed = random_seed(rng)
        ids_text = ";".join(",".join(map(str, r)) for r in rows)
        cli = seeded_cli("positions", "--ids", ids_text, vocab, dim, seed) + ["--context", str(context)]
        status, report = self.runner.run(cli)
        torch.manual_seed(seed)
        tok = torch.nn.Embedding(vocab, dim)
        pos = torch.nn.Embedding(context, dim)
        index = torch.tensor(rows if batch else rows[0])
        tokens = tok(index).detach()
        places = pos(torch.arange(seq)).detach()
        out = tokens + places
        x = F.one_hot(index, vocab).float()
        onehot_out = x @ tok.weight.detach() + F.one_hot(torch.arange(seq), context).float() @ pos.weight.detach()
        expect_tensor(report, "weight", tok.weight.detach())
        expect_tensor(report, "position_weight", pos.weight.detach())
        expect_tensor(report, "token_lookup", tokens)
        expect_tensor(report, "position_lookup", places)
        expect_tensor(report, "output", out)
        expect_tensor(report, "onehot_output", onehot_out)
        expect_verdict(status, report, "identical", same_bits(out, onehot_out))
        return " ".join(cli)

    def tied(self):
        rng = self.rng
        vocab, dim = random_shape(rng), random_shape(rng, 64)
        ids = random_ids(rng, vocab)
        seed = random_seed(rng)
        cli = seeded_cli("tied", "--ids", ids_arg(ids), vocab, dim, seed) + ["--top", str(min(vocab, rng.randint(1, 5)))]
        status, report = self.runner.run(cli)
        torch.manual_seed(seed)
        emb = torch.nn.Embedding(vocab, dim)
        h = emb(torch.tensor(ids)).detach()
        logits = F.linear(h, emb.weight.detach())
        expect(status == 0, f"exit {status}")
        expect_tensor(report, "weight", emb.weight.detach())
        expect_tensor(report, "hidden", h)
        expect_tensor(report, "logits", logits)
        top = int(cli[-1])
        for t, row in enumerate(report["top"]):
            values, _ = torch.topk(logits[t], top)
            expect(json_equal(torch.tensor([c["logit"] for c in row], dtype=torch.float32), values),
                   f"top[{t}] logits differ from torch.topk")
        return " ".join(cli)

    def tied_blocks(self):
        """Logits past one block (4,194,304 values), which embdemo makes a block of rows of H at a
        time, on one or two threads: still F.linear's bits, H with special values (NaN payloads,
        inf, -0.0) from a --hidden file in half the cases; each row's top K in torch.sort's
        stable order."""
        rng = self.rng
        vocab, dim = rng.randint(700, 3000), rng.randint(1, 8)
        n = 4194304 // vocab + rng.randint(2, 300)
        ids = [rng.randrange(vocab) for _ in range(n)]
        seed = random_seed(rng)
        top = rng.randint(1, 5)
        cli = seeded_cli("tied", "--ids", ids_arg(ids), vocab, dim, seed) + ["--top", str(top)]
        torch.manual_seed(seed)
        emb = torch.nn.Embedding(vocab, dim)
        if rng.random() < 0.5:
            array = special_weights(rng, n, dim)
            cli += ["--hidden", self.save(array)]
            h = torch.from_numpy(array.copy())
        else:
            h = emb(torch.tensor(ids)).detach()
        threads = str(rng.randint(1, 2))
        status, report = self.runner.run(cli, env={"EMBDEMO_THREADS": threads})
        logits = F.linear(h, emb.weight.detach())
        expect(status == 0, f"exit {status}")
        expect_tensor(report, "logits", logits)
        order = torch.sort(logits, dim=1, descending=True, stable=True).indices[:, :top]
        got_ids = torch.tensor([[c["id"] for c in row] for row in report["top"]], dtype=torch.int64)
        expect(torch.equal(got_ids, order), "the top ids differ from torch.sort's stable order")
        got = torch.tensor([[float(c["logit"]) for c in row] for row in report["top"]], dtype=torch.float32)
        expect(json_equal(got, logits.gather(1, order)), "the top logits differ from torch's")
        return f"{n} ids, V {vocab}, d {dim}, {threads} threads"

    def tied_past_held(self):
        """More logits than embdemo holds (2^24): it keeps only the rows it prints, so the check
        is its --format python script, run in PyTorch: a bit sum a row of the logits, every
        row's top K and own rank."""
        rng = self.rng
        vocab, dim = rng.randint(45000, 50257), rng.randint(1, 8)
        n = (1 << 24) // vocab + rng.randint(1, 40)
        ids = [rng.randrange(vocab) for _ in range(n)]
        cli = seeded_cli("tied", "--ids", ids_arg(ids), vocab, dim, random_seed(rng)) + ["--top", str(rng.randint(1, 5))]
        threads = str(rng.randint(1, 2))
        self.runner.last = [f"EMBDEMO_THREADS={threads}", "embdemo", *cli, "--format", "python"]
        env = {**os.environ, "NO_COLOR": "1", "LC_ALL": "C", "EMBDEMO_THREADS": threads}
        made = subprocess.run([self.runner.binary, *cli, "--format", "python"], cwd=self.tmp, capture_output=True,
                              text=True, env=env)
        expect(made.returncode == 0, f"exit {made.returncode}: {made.stderr.strip()}")
        expect("expected_checksums" in made.stdout, "the script lists the logits instead of a sum a row")
        ran = subprocess.run([sys.executable, "-"], input=made.stdout, cwd=self.tmp, capture_output=True, text=True,
                             env=env)
        expect(ran.returncode == 0, f"the script fails in PyTorch: {ran.stderr.strip()[-400:]}")
        return f"{n} ids, V {vocab}, d {dim}, {threads} threads"

    def factor(self):
        rng = self.rng
        vocab, dim = random_shape(rng), rng.randint(2, 64)
        rank = rng.randint(1, dim - 1)
        ids = random_ids(rng, vocab)
        seed = random_seed(rng)
        cli = seeded_cli("factor", "--ids", ids_arg(ids), vocab, dim, seed) + ["--rank", str(rank)]
        status, report = self.runner.run(cli)
        torch.manual_seed(seed)
        e1 = torch.nn.Embedding(vocab, rank)
        proj = torch.nn.Linear(rank, dim, bias=False)
        index = torch.tensor(ids)
        out = proj(e1(index)).detach()
        onehot_out = proj(F.one_hot(index, vocab).float() @ e1.weight).detach()
        expect_tensor(report, "e1", e1.weight.detach())
        expect_tensor(report, "e2", proj.weight.detach().t())
        expect_tensor(report, "output", out)
        expect_tensor(report, "onehot_output", onehot_out)
        expect_verdict(status, report, "identical", same_bits(out, onehot_out))
        return " ".join(cli)


LESSONS = ["lookup", "max_norm", "grad", "bag", "positions", "tied", "factor"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--lessons", default=",".join(LESSONS))
    options = parser.parse_args()
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"torch_live: seed {seed} (repeat with --seed {seed}), torch {torch.__version__}", flush=True)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        runner = Runner(os.path.abspath(options.binary), tmp)
        for lesson in options.lessons.split(","):
            cases = Cases(runner, random.Random(f"{seed}/{lesson}"), tmp)
            bad = 0
            for number in range(options.cases):
                try:
                    getattr(cases, lesson)()
                except Failure as failure:
                    bad += 1
                    if bad <= 5:
                        print(f"FAIL {lesson} case {number}: {failure}\n  args: {runner.last_args()}", flush=True)
            print(f"{lesson}: {options.cases - bad} of {options.cases} cases agree with torch", flush=True)
            failures += bad
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
