#!/usr/bin/python3
"""Write PyTorch reference gradients and optimizer runs for embdemo's grad lesson.

Run with Debian's python3-torch (torch 1.13.1, CPU, AVX2 kernels), which is installed for
/usr/bin/python3, not for a pyenv python:

    /usr/bin/python3 tools/make_torch_grad_vectors.py [output path]

The default output is tests/data/torch_grad_vectors.txt. The C++ unit tests (grad_test.cpp,
optim_test.cpp) recompute every case and compare every value as a float32 bit pattern, so the file
is committed and CI does not need torch. The output is deterministic: the random cases come from
random.Random(RANDOM_SEED), every tensor from torch.manual_seed(seed).

File format (plain ASCII; '#' lines are comments; one case is a block of lines):

    case <kind> <key>=<value> ...
    tensor <name> <rows>x<cols> full <w_0> <w_1> ... <w_{n-1}>
    tensor <name> <rows>x<cols> fnv <hash>
    ...
    end

  w      a float32 bit pattern as exactly 8 lowercase hex digits, row-major order
  hash   the 64-bit FNV-1a hash (16 lowercase hex digits) of all values as little-endian float32
         bytes in row-major order; used for results of more than FULL_LIMIT values and inputs
         (weight, upstream) of more than FULL_LIMIT_INPUTS

  keys of every case:
    seed      torch.manual_seed(seed), an unsigned decimal
    vocab     V, dim: d
    ids       the ids as embdemo's --ids reads them: "2,3,1" (flat) or "2,3;1,1" (rows of a batch)
    padding   nn.Embedding's padding_idx as given to torch (may be negative), or "none"
    scale     scale_grad_by_freq, 0 or 1
    upstream  "randn" (torch.randn(*ids.shape, d), drawn right after the table) or "ones"

  kind "grad": torch.manual_seed(seed); emb = nn.Embedding(V, d, padding_idx, scale_grad_by_freq);
               G = randn or ones of shape ids.shape + (d,); emb(ids).backward(G)
    tensors: weight (V x d, the table), upstream (n x d, G flattened), grad (V x d, emb.weight.grad)

  kind "train": as "grad" for the table, then opt = <optimizer>(emb.parameters(), ...) and for
               t in range(steps): batch = ids[t % B] for a batch (a flat list is every step's
               batch); G = randn(T, d) or ones(T, d); opt.zero_grad(); emb(batch).backward(G);
               opt.step()
    more keys: optimizer (sgd, adam or adamw), lr, momentum (sgd), weight_decay, steps
               (floats are Python reprs, so C++'s strtod reads back the same doubles)
    tensors: weight (V x d, before the first step), then for each step t from 0:
             step<t>.upstream (T x d), step<t>.grad (V x d), step<t>.weight (V x d, after the step)
"""

import random
import struct
import sys
from pathlib import Path

import torch

from make_torch_vectors import fnv1a64  # the same hash as tests/data/torch_vectors.txt
from make_torch_vectors import cpu_capability

# Values; larger tensors are stored as their FNV-1a hash. The inputs (tables, upstream gradients)
# are drawn by code that tests/data/torch_vectors.txt already checks value by value, so their hash
# is enough sooner; the results (gradients, weights after a step) are kept in full for longer.
FULL_LIMIT = 400
FULL_LIMIT_INPUTS = 48
RANDOM_SEED = 2027
RANDOM_GRAD_CASES = 40
RANDOM_TRAIN_CASES = 16

def tensor_line(name: str, tensor: torch.Tensor, limit: int = FULL_LIMIT) -> str:
    values = tensor.detach().contiguous().reshape(-1, tensor.shape[-1])
    rows, cols = values.shape
    raw = values.numpy().astype("<f4").tobytes()
    head = f"tensor {name} {rows}x{cols}"
    if rows * cols <= limit:
        words = struct.unpack(f"<{rows * cols}I", raw)
        return head + " full " + " ".join(f"{w:08x}" for w in words)
    return f"{head} fnv {fnv1a64(raw):016x}"


def ids_text(ids: list) -> str:
    if isinstance(ids[0], list):
        return ";".join(",".join(str(i) for i in row) for row in ids)
    return ",".join(str(i) for i in ids)


def make_embedding(c: dict) -> torch.nn.Embedding:
    torch.manual_seed(c["seed"])
    return torch.nn.Embedding(c["vocab"], c["dim"], padding_idx=c["padding"],
                              scale_grad_by_freq=c["scale"])


def upstream(kind: str, shape: tuple) -> torch.Tensor:
    return torch.randn(*shape) if kind == "randn" else torch.ones(*shape)


def header(kind: str, c: dict, extra: dict) -> str:
    padding = "none" if c["padding"] is None else str(c["padding"])
    keys = {"seed": c["seed"], "vocab": c["vocab"], "dim": c["dim"], "ids": ids_text(c["ids"]),
            "padding": padding, "scale": int(c["scale"]), "upstream": c["upstream"], **extra}
    return f"case {kind} " + " ".join(f"{k}={v}" for k, v in keys.items())


def grad_case(c: dict) -> list:
    emb = make_embedding(c)
    weight = emb.weight.detach().clone()
    ids = torch.tensor(c["ids"])
    g = upstream(c["upstream"], tuple(ids.shape) + (c["dim"],))
    emb(ids).backward(g)
    return [header("grad", c, {}), tensor_line("weight", weight, FULL_LIMIT_INPUTS),
            tensor_line("upstream", g, FULL_LIMIT_INPUTS),
            tensor_line("grad", emb.weight.grad), "end"]


def make_optimizer(c: dict, params) -> torch.optim.Optimizer:
    if c["optimizer"] == "sgd":
        return torch.optim.SGD(params, lr=c["lr"], momentum=c["momentum"],
                               weight_decay=c["weight_decay"])
    if c["optimizer"] == "adam":
        return torch.optim.Adam(params, lr=c["lr"], weight_decay=c["weight_decay"])
    return torch.optim.AdamW(params, lr=c["lr"], weight_decay=c["weight_decay"])


def train_case(c: dict) -> list:
    emb = make_embedding(c)
    lines = [header("train", c, {k: c[k] for k in
                                 ("optimizer", "lr", "momentum", "weight_decay", "steps")}),
             tensor_line("weight", emb.weight, FULL_LIMIT_INPUTS)]
    opt = make_optimizer(c, emb.parameters())
    batched = isinstance(c["ids"][0], list)
    for t in range(c["steps"]):
        batch = torch.tensor(c["ids"][t % len(c["ids"])] if batched else c["ids"])
        g = upstream(c["upstream"], (len(batch), c["dim"]))
        opt.zero_grad()
        emb(batch).backward(g)
        opt.step()
        lines += [tensor_line(f"step{t}.upstream", g, FULL_LIMIT_INPUTS),
                  tensor_line(f"step{t}.grad", emb.weight.grad),
                  tensor_line(f"step{t}.weight", emb.weight)]
    return lines + ["end"]


def case(seed, vocab, dim, ids, padding=None, scale=False, up="randn", **train) -> dict:
    return {"seed": seed, "vocab": vocab, "dim": dim, "ids": ids, "padding": padding,
            "scale": scale, "upstream": up, **train}


def counts_3_5_7(rng: random.Random) -> list:
    # Counts 3, 5 and 7 give scales 1/3, 1/5 and 1/7, which are not exact in float32, so a
    # mul-then-add would round differently from torch's fused add; id 0 appears once.
    ids = [1] * 3 + [2] * 5 + [3] * 7 + [0]
    rng.shuffle(ids)
    return ids


def many_ids(rng: random.Random, vocab: int, count: int) -> list:
    ids = [rng.randrange(vocab) for _ in range(count)]
    for i in range(0, count, 4):
        ids[i] = 7  # one id used hundreds of times, so its scale is 1/300
    return ids


def fixed_grad_cases(rng: random.Random) -> list:
    cases = [
        case(0, 5, 3, [2, 3, 1, 3]),
        case(0, 5, 3, [2, 3, 1, 3], up="ones"),
        case(1, 6, 4, [[2, 3, 1], [0, 1, 1]]),
        case(2, 4, 5, [1, 1, 1, 1, 2]),
        case(3, 6, 4, [2, 0, 2, 5], padding=2),
        case(3, 6, 4, [2, 0, 2, 5], padding=-1),
        case(3, 6, 4, [2, 0, 2, 5], padding=-6),
        case(3, 6, 4, [2, 0, 2, 5], padding=0),
        case(4, 6, 4, [[2, 2, 2], [1, 2, 3]], scale=True),
        case(4, 6, 4, [[2, 2, 2], [1, 2, 3]], padding=1, scale=True),
        case(4, 6, 4, [[2, 2, 2], [1, 2, 3]], padding=-4, scale=True, up="ones"),
        case(5, 3, 3, [2, 0]),           # 9 + 6 values: the scalar normal path and its cache
        case(6, 1, 1, [0, 0, 0], scale=True),
        case(7, 300, 33, [[5, 17, 5, 299], [0, 5, 17, 17]], padding=17, scale=True),
        case(8, 1200, 7, [1100, 3, 1100, 999, 3, 3], scale=True),  # more rows than torch's grain
    ]
    # More than 1000 ids and rows: the sizes where torch's CPU kernels start splitting work.
    cases.append(case(9, 2000, 17, many_ids(rng, 2000, 1200), padding=7, scale=True))
    for dim in range(1, 41):
        cases.append(case(100 + dim, 4, dim, counts_3_5_7(rng), scale=True))
    cases.append(case(141, 4, 40, counts_3_5_7(rng), padding=2, scale=True))
    return cases


def random_ids(rng: random.Random, vocab: int) -> list:
    support = [rng.randrange(vocab) for _ in range(rng.randint(1, 4))]  # few ids: repeats
    batch, seq = rng.randint(1, 4), rng.randint(1, 8)
    rows = [[rng.choice(support) for _ in range(seq)] for _ in range(batch)]
    return rows if rng.random() < 0.6 else rows[0]


def random_padding(rng: random.Random, vocab: int):
    roll = rng.random()
    if roll < 0.4:
        return None
    return rng.randrange(vocab) if roll < 0.7 else -rng.randint(1, vocab)


def random_grad_case(rng: random.Random) -> dict:
    vocab = rng.randint(1, 60)
    return case(rng.randrange(2**64), vocab, rng.randint(1, 40), random_ids(rng, vocab),
                padding=random_padding(rng, vocab), scale=rng.random() < 0.5,
                up="ones" if rng.random() < 0.2 else "randn")


def train(seed, vocab, dim, ids, optimizer, lr, steps, momentum=0.0, weight_decay=0.0, **embedding):
    return case(seed, vocab, dim, ids, optimizer=optimizer, lr=lr, momentum=momentum,
                weight_decay=weight_decay, steps=steps, **embedding)


def fixed_train_cases(rng: random.Random) -> list:
    batches = [[2, 3], [1, 1]]
    return [
        train(10, 5, 3, batches, "sgd", 0.1, 3),
        train(10, 5, 3, batches, "sgd", 0.1, 3, momentum=0.9),
        train(10, 5, 3, batches, "sgd", 0.1, 4, momentum=0.9, weight_decay=0.01),
        train(10, 5, 3, batches, "sgd", 0.5, 2, weight_decay=0.1),
        train(10, 5, 3, batches, "adam", 0.1, 4),
        train(10, 5, 3, batches, "adam", 0.001, 3, weight_decay=0.01),
        train(10, 5, 3, batches, "adamw", 0.1, 4, weight_decay=0.01),
        train(10, 5, 3, batches, "adamw", 0.001, 2, weight_decay=0.01),
        train(11, 6, 4, [2, 3, 2], "sgd", 0.1, 2),
        train(11, 6, 4, [2, 3, 2], "adam", 0.1, 2, up="ones"),
        train(12, 7, 5, [[1, 1, 4], [0, 6, 6], [1, 2, 3]], "adamw", 0.05, 4, weight_decay=0.1,
              padding=1, scale=True),
        train(12, 7, 5, [[1, 1, 4], [0, 6, 6], [1, 2, 3]], "sgd", 0.3, 4, momentum=0.5,
              padding=-1, scale=True),
        train(13, 50, 20, [[3, 7, 7], [49, 0, 3]], "adam", 0.01, 3),  # 1000 values: fnv
        train(14, 3, 3, [0, 2], "adamw", 0.1, 2, weight_decay=0.01),  # scalar normal path
        # 5003 x 17 = 85,051 values: torch splits each elementwise update across threads.
        train(15, 5003, 17, many_ids(rng, 5003, 1500), "adam", 0.01, 2, weight_decay=0.01,
              scale=True),
    ]


def random_train_case(rng: random.Random) -> dict:
    vocab = rng.randint(1, 12)
    optimizer = rng.choice(["sgd", "adam", "adamw"])
    lr = rng.choice([0.5, 0.1, 0.05, 0.01, 0.001])
    momentum = rng.choice([0.0, 0.9, 0.5]) if optimizer == "sgd" else 0.0
    decay = rng.choice([0.0, 0.01, 0.1]) if optimizer != "adamw" else rng.choice([0.01, 0.1, 0.0])
    return train(rng.randrange(2**64), vocab, rng.randint(1, 8), random_ids(rng, vocab), optimizer,
                 lr, rng.randint(1, 4), momentum=momentum, weight_decay=decay,
                 padding=random_padding(rng, vocab), scale=rng.random() < 0.5,
                 up="ones" if rng.random() < 0.2 else "randn")


def main() -> None:
    out_path = Path(sys.argv[1]) if len(sys.argv) > 1 else (
        Path(__file__).resolve().parent.parent / "tests" / "data" / "torch_grad_vectors.txt")
    torch.set_num_threads(1)  # tidy only: the kernels give the same bits with any thread count
    rng = random.Random(RANDOM_SEED)
    grad_cases = fixed_grad_cases(rng) + [random_grad_case(rng) for _ in range(RANDOM_GRAD_CASES)]
    train_cases = fixed_train_cases(rng) + [random_train_case(rng) for _ in range(RANDOM_TRAIN_CASES)]
    lines = []
    for c in grad_cases:
        lines += grad_case(c)
    for c in train_cases:
        lines += train_case(c)

    capability = cpu_capability()
    head = [
        "# embdemo torch gradient and optimizer vectors, written by tools/make_torch_grad_vectors.py;",
        "# do not edit. Format: see the script's docstring.",
        f"# torch {torch.__version__}, CPU capability {capability}, {len(grad_cases)} grad cases, "
        f"{len(train_cases)} train cases.",
        "#   case <grad|train> key=value ...; tensor <name> <rows>x<cols> full <8-hex float32 bits> ...",
        "#   or tensor <name> <rows>x<cols> fnv <FNV-1a 64 of the LE bytes>; end",
    ]
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text("\n".join(head + lines) + "\n", encoding="ascii")
    print(f"wrote {len(grad_cases)} grad and {len(train_cases)} train cases to {out_path} "
          f"({out_path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
