#!/usr/bin/python3
"""Write PyTorch reference data for where the lookup and the one-hot product part ways (issue #15):
max_norm, sparse gradients and the one-hot form's input gradient.

Run with Debian's python3-torch (torch 1.13.1, CPU), which is installed for /usr/bin/python3:

    /usr/bin/python3 tools/make_torch_partways_vectors.py [output path]

The default output is tests/data/torch_partways_vectors.txt, read by tests/unit/partways_test.cpp
(the same file format as tools/make_torch_grad_vectors.py; see its docstring). Every tensor is
stored in full, because several are compared within a tolerance rather than bit for bit:

  case partways seed=S vocab=V dim=d ids=2,3;1,1 padding=K|none max_norm=M|none norm_type=P
                sparse=0|1 indices=1,3,1|none coalesced_indices=1,3|none
      torch.manual_seed(S); emb = nn.Embedding(V, d, padding_idx=K, max_norm=M, norm_type=P,
      sparse=...); G = torch.randn(*ids.shape, d); out = emb(ids); out.backward(G)
    tensors:
      weight       V x d  the table as drawn (bit for bit)
      upstream     n x d  G (bit for bit)
      norms        u x 1  row.norm(P) of each distinct id's row before the call, ascending ids
                          (only with max_norm; within 1e-6 relative: torch's order of summation)
      weight_after V x d  emb.weight after the call (within 1e-6 relative)
      lookup       n x d  out (within 1e-6 relative)
      grad         V x d  the dense gradient (bit for bit), or with sparse=1:
      values       nnz x d  grad._values() uncoalesced (bit for bit: copies of G's rows)
      coalesced    u x d    grad.coalesce()._values() (within 1e-6 relative; bit for bit so far)
      onehot_input n x V  X.grad for X = one_hot(ids, V).float().requires_grad_() and
                          (X @ emb.weight).backward(G), emb.weight as after the call (within 1e-5
                          of max(1, sum_j |G[t][j] E[v][j]|): the BLAS order is unspecified)

  case sparse_train seed=S vocab=V dim=d ids=... padding=K|none lr=LR steps=N
      torch.manual_seed(S); emb = nn.Embedding(V, d, padding_idx=K, sparse=True);
      opt = torch.optim.SGD(emb.parameters(), lr=LR); for t in range(N): batch = ids[t % B] (a
      flat list every step); G = torch.randn(T, d); opt.zero_grad(); emb(batch).backward(G);
      opt.step()
    tensors: weight (V x d, before the first step), step<t>.weight (V x d, after step t), bit for bit
"""

import math
import random
import sys
from pathlib import Path

import torch

from make_torch_grad_vectors import ids_text, tensor_line
from make_torch_vectors import cpu_capability

RANDOM_SEED = 2615
RANDOM_CASES = 40
EVERYTHING = 10**9  # tensor_line's limit: store every value in full


def case(seed, vocab, dim, ids, padding=None, max_norm=None, norm_type=2.0, sparse=False) -> dict:
    return {"seed": seed, "vocab": vocab, "dim": dim, "ids": ids, "padding": padding,
            "max_norm": max_norm, "norm_type": norm_type, "sparse": sparse}


def flat(ids: list) -> list:
    return [i for row in ids for i in row] if isinstance(ids[0], list) else list(ids)


def run_case(c: dict) -> list:
    torch.manual_seed(c["seed"])
    emb = torch.nn.Embedding(c["vocab"], c["dim"], padding_idx=c["padding"], max_norm=c["max_norm"],
                             norm_type=c["norm_type"], sparse=c["sparse"])
    weight = emb.weight.detach().clone()
    ids = torch.tensor(c["ids"])
    g = torch.randn(*ids.shape, c["dim"])
    distinct = sorted(set(flat(c["ids"])))
    norms = torch.stack([weight[k].norm(c["norm_type"]) for k in distinct]).reshape(-1, 1)
    out = emb(ids)
    out.backward(g)
    after = emb.weight.detach().clone()
    x = torch.nn.functional.one_hot(ids.reshape(-1), c["vocab"]).float().requires_grad_()
    (x @ after).backward(g.reshape(-1, c["dim"]))
    grad = emb.weight.grad
    keys = {"seed": c["seed"], "vocab": c["vocab"], "dim": c["dim"], "ids": ids_text(c["ids"]),
            "padding": "none" if c["padding"] is None else c["padding"],
            "max_norm": "none" if c["max_norm"] is None else repr(c["max_norm"]),
            "norm_type": repr(c["norm_type"]), "sparse": int(c["sparse"])}
    tensors = [tensor_line("weight", weight, EVERYTHING), tensor_line("upstream", g, EVERYTHING)]
    if c["max_norm"] is not None:
        tensors.append(tensor_line("norms", norms, EVERYTHING))
    tensors += [tensor_line("weight_after", after, EVERYTHING), tensor_line("lookup", out, EVERYTHING)]
    if c["sparse"]:
        merged = grad.coalesce()
        keys["indices"] = ",".join(str(int(i)) for i in grad._indices()[0]) or "none"
        keys["coalesced_indices"] = ",".join(str(int(i)) for i in merged._indices()[0]) or "none"
        if grad._nnz() > 0:
            tensors += [tensor_line("values", grad._values(), EVERYTHING),
                        tensor_line("coalesced", merged._values(), EVERYTHING)]
    else:
        tensors.append(tensor_line("grad", grad, EVERYTHING))
    tensors.append(tensor_line("onehot_input", x.grad, EVERYTHING))
    head = "case partways " + " ".join(f"{k}={v}" for k, v in keys.items())
    return [head] + tensors + ["end"]


def sparse_train_case(seed, vocab, dim, ids, lr, steps, padding=None) -> list:
    torch.manual_seed(seed)
    emb = torch.nn.Embedding(vocab, dim, padding_idx=padding, sparse=True)
    opt = torch.optim.SGD(emb.parameters(), lr=lr)
    lines = [f"case sparse_train seed={seed} vocab={vocab} dim={dim} ids={ids_text(ids)} "
             f"padding={'none' if padding is None else padding} lr={lr!r} steps={steps}",
             tensor_line("weight", emb.weight, EVERYTHING)]
    batched = isinstance(ids[0], list)
    for t in range(steps):
        batch = torch.tensor(ids[t % len(ids)] if batched else ids)
        g = torch.randn(len(batch), dim)
        opt.zero_grad()
        emb(batch).backward(g)
        opt.step()
        lines.append(tensor_line(f"step{t}.weight", emb.weight, EVERYTHING))
    return lines + ["end"]


def sparse_train_cases(rng: random.Random) -> list:
    lines = sparse_train_case(20, 6, 3, [[2, 3, 2], [1, 1, 5]], 0.1, 3)
    lines += sparse_train_case(21, 7, 5, [1, 1, 1, 4, 1], 0.5, 2, padding=4)
    lines += sparse_train_case(22, 5, 4, [[0, 0], [3, 0], [0, 3]], 1.0, 4, padding=-2)
    for _ in range(8):
        vocab = rng.randint(1, 12)
        ids = [[rng.randrange(vocab) for _ in range(rng.randint(1, 9))]]
        ids.append([rng.randrange(vocab) for _ in range(len(ids[0]))])
        padding = rng.randrange(vocab) if rng.random() < 0.3 else None
        lines += sparse_train_case(rng.randrange(2**63), vocab, rng.randint(1, 9), ids,
                                   rng.choice([0.5, 0.1, 0.05, 0.01, 0.3]), rng.randint(1, 4), padding)
    return lines


def fixed_cases() -> list:
    inf = math.inf
    return [
        case(0, 5, 3, [2, 3, 1, 3], max_norm=1.0),
        case(0, 5, 3, [2, 3, 1, 3], max_norm=1.0, norm_type=1.0),
        case(0, 5, 3, [2, 3, 1, 3], max_norm=0.5, norm_type=inf),
        case(0, 5, 3, [2, 3, 1, 3], max_norm=1.5, norm_type=3.0),
        case(0, 5, 3, [2, 3, 1, 3], max_norm=0.9, norm_type=0.5),
        case(0, 5, 3, [2, 3, 1, 3], max_norm=100.0),       # nothing rescaled
        case(1, 6, 4, [[2, 3, 1], [0, 1, 1]], max_norm=1.0, padding=1),
        case(2, 4, 768, [3, 3, 1, 0], max_norm=1.0),        # GPT-2's row length
        case(3, 6, 4, [2, 0, 2, 5], sparse=True),
        case(3, 6, 4, [2, 0, 2, 5], padding=2, sparse=True),
        case(3, 6, 4, [2, 2, 2], padding=2, sparse=True),   # every entry dropped: nnz 0
        case(4, 9, 5, [[8, 1, 8, 8], [1, 0, 8, 1]], sparse=True, max_norm=1.2),
        case(5, 40, 9, [7] * 10 + [3, 39, 7], sparse=True),  # a long sum in coalesce
        case(6, 3, 2, [0, 1, 2]),                           # plain: only the one-hot input gradient
        # Over 16 entries: torch's unstable sort decides the order coalesce sums repeats in.
        case(9, 4, 3, [(7 * i) % 3 for i in range(41)], sparse=True),
        case(10, 6, 2, [[(5 * i) % 4 for i in range(13)], [(3 * i) % 5 for i in range(13)]], sparse=True,
             padding=1),
        # dL/dX over more than 320 terms: the BLAS splits the sum into blocks.
        case(11, 2, 700, [1, 0]),
        case(12, 1, 1000, [0]),
    ]


def random_case(rng: random.Random) -> dict:
    vocab = rng.randint(1, 24)
    count = rng.randint(1, 12)
    support = [rng.randrange(vocab) for _ in range(rng.randint(1, 4))]
    ids = [rng.choice(support) for _ in range(count)]
    if count % 2 == 0 and rng.random() < 0.4:
        ids = [ids[: count // 2], ids[count // 2:]]
    padding = rng.randrange(-vocab, vocab) if rng.random() < 0.3 else None
    max_norm = rng.choice([None, 0.3, 1.0, 2.5, 7.0]) if rng.random() < 0.8 else None
    norm_type = rng.choice([2.0, 2.0, 1.0, 3.0, 0.7, math.inf])
    return case(rng.randrange(2**63), vocab, rng.randint(1, 24), ids, padding=padding,
                max_norm=max_norm, norm_type=norm_type, sparse=rng.random() < 0.5)


def main() -> None:
    out_path = Path(sys.argv[1]) if len(sys.argv) > 1 else (
        Path(__file__).resolve().parent.parent / "tests" / "data" / "torch_partways_vectors.txt")
    torch.set_num_threads(1)
    rng = random.Random(RANDOM_SEED)
    cases = fixed_cases() + [random_case(rng) for _ in range(RANDOM_CASES)]
    lines = []
    for c in cases:
        lines += run_case(c)
    lines += sparse_train_cases(rng)
    head = [
        "# embdemo torch vectors for max_norm, sparse gradients and dL/d(one_hot), written by",
        "# tools/make_torch_partways_vectors.py; do not edit. Format: see the script's docstring.",
        f"# torch {torch.__version__}, CPU capability {cpu_capability()}, {len(cases)} partways cases, "
        f"{sum(line.startswith('case sparse_train') for line in lines)} sparse_train cases.",
    ]
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text("\n".join(head + lines) + "\n", encoding="ascii")
    print(f"wrote {len(cases)} cases and the sparse_train cases to {out_path} ({out_path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
