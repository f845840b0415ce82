#!/usr/bin/python3
"""Write PyTorch reference values for embdemo's positions, tied, factor and bag lessons.

Run with Debian's python3-torch (torch 1.13.1, CPU, AVX2 kernels) for /usr/bin/python3:

    /usr/bin/python3 tools/make_torch_lesson_vectors.py [output path]

The default output is tests/data/torch_lesson_vectors.txt, in the format of
tests/data/torch_grad_vectors.txt (see tools/make_torch_grad_vectors.py): blocks of

    case <kind> <key>=<value> ...
    tensor <name> <rows>x<cols> full <8-hex float32 bits> ... | fnv <FNV-1a 64 of the LE bytes>
    end

The C++ unit tests (lessons_torch_test.cpp) recompute every case. Tables, sums and the bag
outputs are compared bit for bit; the products that PyTorch hands to BLAS (tied's logits,
factor's output) are compared within the float32 error bound of a dot product, because BLAS does
not promise a summation order (see the test). Every table comes from torch.manual_seed(seed),
a second table drawn right after the first.

  kind "positions": tok = nn.Embedding(V, d); pos = nn.Embedding(C, d);
                    output = tok(ids) + pos(torch.arange(T))
    keys: seed vocab dim ids context      tensors: weight, position_weight, output (n x d)
  kind "tied":      emb = nn.Embedding(V, d); H = emb(ids) (hidden=lookup) or torch.randn(n, d)
                    drawn after it (hidden=randn); logits = F.linear(H, emb.weight)
    keys: seed vocab dim ids hidden       tensors: weight, hidden, logits (n x V)
  kind "factor":    e1 = nn.Embedding(V, r); proj = nn.Linear(r, d, bias=False);
                    output = proj(e1(ids))
    keys: seed vocab dim rank ids         tensors: e1 (V x r), e2 (r x d = proj.weight.T), output
  kind "bag":       bag = nn.EmbeddingBag(V, d, mode=mode, padding_idx=padding);
                    output = bag(flat ids, offsets, per_sample_weights)
    keys: seed vocab dim bags mode padding weights
          bags as embdemo's --bags reads them ("2,3;;1": the middle bag is empty); weights are
          the per-sample weights in the same layout as Python reprs, or "none"
    tensors: weight, output (B x d)
"""

import random
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

from make_torch_grad_vectors import ids_text
from make_torch_grad_vectors import tensor_line as grad_tensor_line
from make_torch_vectors import cpu_capability

FULL_LIMIT = 600
# The products compared within a tolerance cannot be checked through a hash: kept in full.
FULL_LIMIT_PRODUCTS = 4000
RANDOM_SEED = 2028


def tensor_line(name: str, tensor: torch.Tensor, limit: int = FULL_LIMIT) -> str:
    return grad_tensor_line(name, tensor, limit)


def header(kind: str, keys: dict) -> str:
    return f"case {kind} " + " ".join(f"{k}={v}" for k, v in keys.items())


def positions_case(seed, vocab, dim, ids, context=None) -> list:
    seq = len(ids[0]) if isinstance(ids[0], list) else len(ids)
    context = seq if context is None else context
    torch.manual_seed(seed)
    tok = torch.nn.Embedding(vocab, dim)
    pos = torch.nn.Embedding(context, dim)
    out = tok(torch.tensor(ids)) + pos(torch.arange(seq))
    keys = {"seed": seed, "vocab": vocab, "dim": dim, "ids": ids_text(ids), "context": context}
    return [header("positions", keys), tensor_line("weight", tok.weight),
            tensor_line("position_weight", pos.weight), tensor_line("output", out), "end"]


def tied_case(seed, vocab, dim, ids, hidden="lookup") -> list:
    torch.manual_seed(seed)
    emb = torch.nn.Embedding(vocab, dim)
    index = torch.tensor(ids).reshape(-1)
    h = emb(index) if hidden == "lookup" else torch.randn(len(index), dim)
    logits = F.linear(h, emb.weight)
    keys = {"seed": seed, "vocab": vocab, "dim": dim, "ids": ids_text(ids), "hidden": hidden}
    return [header("tied", keys), tensor_line("weight", emb.weight), tensor_line("hidden", h),
            tensor_line("logits", logits, FULL_LIMIT_PRODUCTS), "end"]


def factor_case(seed, vocab, dim, rank, ids) -> list:
    torch.manual_seed(seed)
    e1 = torch.nn.Embedding(vocab, rank)
    proj = torch.nn.Linear(rank, dim, bias=False)
    out = proj(e1(torch.tensor(ids)))
    keys = {"seed": seed, "vocab": vocab, "dim": dim, "rank": rank, "ids": ids_text(ids)}
    return [header("factor", keys), tensor_line("e1", e1.weight), tensor_line("e2", proj.weight.t()),
            tensor_line("output", out, FULL_LIMIT_PRODUCTS), "end"]


def bag_case(seed, vocab, dim, bags, mode="mean", padding=None, weights=None) -> list:
    torch.manual_seed(seed)
    bag = torch.nn.EmbeddingBag(vocab, dim, mode=mode, padding_idx=padding)
    flat = [k for b in bags for k in b]
    offsets = [0]
    for b in bags[:-1]:
        offsets.append(offsets[-1] + len(b))
    psw = None if weights is None else torch.tensor([w for b in weights for w in b], dtype=torch.float32)
    out = bag(torch.tensor(flat, dtype=torch.long), torch.tensor(offsets), per_sample_weights=psw)
    keys = {"seed": seed, "vocab": vocab, "dim": dim, "bags": ";".join(",".join(map(str, b)) for b in bags),
            "mode": mode, "padding": "none" if padding is None else padding,
            "weights": "none" if weights is None else ";".join(",".join(repr(w) for w in b) for b in weights)}
    return [header("bag", keys), tensor_line("weight", bag.weight), tensor_line("output", out), "end"]


def fixed_cases() -> list:
    lines = []
    lines += positions_case(123, 4, 5, [2, 3, 1])
    lines += positions_case(123, 4, 5, [2, 3, 1], context=6)
    lines += positions_case(7, 6, 4, [[2, 3, 2], [1, 1, 0]])
    lines += positions_case(8, 1, 1, [0])
    lines += positions_case(9, 50, 33, [[5, 17, 5, 49], [0, 5, 17, 17]], context=40)
    lines += tied_case(123, 4, 5, [2, 3, 1])
    lines += tied_case(123, 4, 5, [2, 3, 1], hidden="randn")
    lines += tied_case(11, 7, 3, [[1, 6], [6, 0]])
    lines += tied_case(12, 300, 64, [3, 299, 3, 0, 150])
    lines += tied_case(13, 1000, 768, [464, 3, 999], hidden="randn")
    lines += factor_case(123, 4, 8, 2, [2, 3, 1])
    lines += factor_case(5, 10, 6, 5, [[9, 0], [3, 3]])
    lines += factor_case(6, 3, 2, 1, [0, 1, 2, 1])
    lines += factor_case(7, 300, 768, 128, [1, 299, 42])
    lines += bag_case(123, 4, 5, [[2, 3], [1, 1, 0]])
    lines += bag_case(123, 4, 5, [[2, 3], [1, 1, 0]], mode="sum")
    lines += bag_case(123, 4, 5, [[2, 3], [1, 1, 0]], mode="max")
    lines += bag_case(123, 4, 5, [[2, 3], [1, 1, 0]], mode="sum", weights=[[0.5, 2.0], [1.0, 1.0, 1.0]])
    lines += bag_case(123, 4, 5, [[2, 3], [], [1, 1, 0]], mode="mean")
    lines += bag_case(123, 4, 5, [[], [2]], mode="max")
    lines += bag_case(3, 6, 4, [[2, 0, 2], [0, 0], [5]], mode="mean", padding=0)
    lines += bag_case(3, 6, 4, [[2, 0, 2], [0, 0], [5]], mode="max", padding=0)
    lines += bag_case(3, 6, 4, [[2, 0, 2], [0, 0], [5]], mode="sum", padding=-6,
                      weights=[[0.1, 3.0, -0.7], [1.5, 2.5], [0.3]])
    lines += bag_case(3, 6, 4, [[2, 0, 2], [0, 0], [5]], mode="sum",
                      weights=[[0.1, 3.0, -0.7], [1.5, 2.5], [0.3]])
    lines += bag_case(4, 200, 129, [list(range(0, 200, 3)), [7] * 30, [199, 0]], mode="mean")
    lines += bag_case(4, 200, 129, [list(range(0, 200, 3)), [7] * 30, [199, 0]], mode="sum", padding=7)
    return lines


def random_ids(rng: random.Random, vocab: int) -> list:
    batch, seq = rng.randint(1, 3), rng.randint(1, 6)
    rows = [[rng.randrange(vocab) for _ in range(seq)] for _ in range(batch)]
    return rows if rng.random() < 0.5 else rows[0]


def random_cases(rng: random.Random) -> list:
    lines = []
    for _ in range(12):
        vocab, dim = rng.randint(1, 30), rng.randint(1, 20)
        ids = random_ids(rng, vocab)
        seq = len(ids[0]) if isinstance(ids[0], list) else len(ids)
        lines += positions_case(rng.randrange(2**64), vocab, dim, ids, seq + rng.choice([0, 0, 1, 9]))
    for _ in range(12):
        vocab, dim = rng.randint(1, 40), rng.randint(1, 40)
        lines += tied_case(rng.randrange(2**64), vocab, dim, random_ids(rng, vocab),
                           rng.choice(["lookup", "randn"]))
    for _ in range(12):
        vocab, dim = rng.randint(1, 30), rng.randint(2, 40)
        lines += factor_case(rng.randrange(2**64), vocab, dim, rng.randint(1, dim - 1), random_ids(rng, vocab))
    for _ in range(24):
        vocab, dim = rng.randint(1, 30), rng.randint(1, 40)
        bags = [[rng.randrange(vocab) for _ in range(rng.choice([0, 1, 2, 3, 6]))] for _ in range(rng.randint(1, 4))]
        if not any(bags):
            bags[0] = [0]
        mode = rng.choice(["sum", "mean", "max"])
        padding = rng.choice([None, None, rng.randrange(vocab), -rng.randint(1, vocab)])
        weights = None
        if mode == "sum" and rng.random() < 0.5:
            weights = [[rng.choice([0.5, 2.0, 0.1, 1.3, -0.7, 3.25]) for _ in b] for b in bags]
        lines += bag_case(rng.randrange(2**64), vocab, dim, bags, mode, padding, weights)
    return lines


def main() -> None:
    out_path = Path(sys.argv[1]) if len(sys.argv) > 1 else (
        Path(__file__).resolve().parent.parent / "tests" / "data" / "torch_lesson_vectors.txt")
    torch.set_num_threads(1)
    lines = fixed_cases() + random_cases(random.Random(RANDOM_SEED))
    capability = cpu_capability()
    head = [
        "# embdemo torch vectors for the positions, tied, factor and bag lessons, written by",
        "# tools/make_torch_lesson_vectors.py; do not edit. Format: see the script's docstring.",
        f"# torch {torch.__version__}, CPU capability {capability}, "
        f"{sum(line.startswith('case ') for line in lines)} cases.",
    ]
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text("\n".join(head + lines) + "\n", encoding="ascii")
    print(f"wrote {out_path} ({out_path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
