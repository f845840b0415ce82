#!/usr/bin/python3
"""Write PyTorch reference weights for embdemo's torch-compatible initialisation.

Run with Debian's python3-torch (torch 1.13.1, CPU, AVX2 kernels), which is installed for
/usr/bin/python3, not for a pyenv python:

    /usr/bin/python3 tools/make_torch_vectors.py [output path]

The default output is tests/data/torch_vectors.txt. The C++ unit tests compare every value in it
bit for bit, so the file is committed and CI does not need torch. The output is deterministic:
the random cases come from random.Random(2026).

File format (plain ASCII, one case per line, fields separated by single spaces):

    # ...                                         comment lines, ignored
    <kind> <seed> <rows>x<cols> full <w_0> <w_1> ... <w_{n-1}>
    <kind> <seed> <rows>x<cols> hash <fnv> <k> <i_1>:<w_1> ... <i_k>:<w_k>

  kind   "embedding": torch.manual_seed(seed); torch.nn.Embedding(rows, cols).weight
         "linear":    torch.manual_seed(seed); torch.nn.Linear(cols, rows, bias=False).weight
                      (the shape is always the weight's shape, and torch stores a Linear weight
                      as out x in, so Linear(in=4, out=5) is written "linear <seed> 5x4")
  seed   the seed as an unsigned decimal in [0, 2^64) (2^64-1 is what manual_seed(-1) uses)
  w      a float32 bit pattern as exactly 8 lowercase hex digits, row-major order
  full   all rows*cols values follow (used when rows*cols <= FULL_LIMIT)
  hash   fnv is the 64-bit FNV-1a hash (16 lowercase hex digits) of all rows*cols values as
         little-endian float32 bytes in row-major order, then k sampled values as
         <row-major index>:<bits>; used for big weights to keep the file small
"""

import random
import struct
import sys
from pathlib import Path

import torch

FULL_LIMIT = 3200  # values; larger weights are stored as a hash plus samples

FIXED_SEEDS = [0, 1, 42, 123, 2**31 - 1, 2**32 + 5, 2**63 - 1, 2**64 - 1]

# nn.Embedding(V, d) shapes: both normal_ paths (numel < 16 is scalar Box-Muller), the 16 boundary,
# and partial tails of every kind.
EMBEDDING_SHAPES = [
    (1, 1), (3, 5), (4, 4), (4, 5), (3, 7), (17, 1), (50, 64), (1000, 33), (1, 15), (1, 16),
    (1, 17), (2, 8), (31, 1), (33, 1), (7, 9), (5, 13),
]

# nn.Linear(in, out) feature counts; the weight is out x in.
LINEAR_FEATURES = [(4, 5), (1, 1), (5, 3), (4, 4), (3, 7), (33, 64), (50257, 8)]

RANDOM_EMBEDDING_CASES = 40
RANDOM_LINEAR_CASES = 20
RANDOM_SEED = 2026

FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3


def fnv1a64(data: bytes) -> int:
    h = FNV_OFFSET
    for byte in data:
        h ^= byte
        h = (h * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return h


def embedding_weight(seed: int, vocab: int, dim: int) -> torch.Tensor:
    torch.manual_seed(seed)
    return torch.nn.Embedding(vocab, dim).weight.detach()


def linear_weight(seed: int, in_features: int, out_features: int) -> torch.Tensor:
    torch.manual_seed(seed)
    return torch.nn.Linear(in_features, out_features, bias=False).weight.detach()


def sample_positions(n: int, rng: random.Random) -> list:
    # The edges and the 16-block/tail boundaries, where a layout mistake would show first,
    # plus a few random positions.
    fixed = [0, 1, 7, 8, 15, 16, n // 2, n - 17, n - 16, n - 9, n - 8, n - 1]
    extra = [rng.randrange(n) for _ in range(8)]
    return sorted({i for i in fixed + extra if 0 <= i < n})


def case_line(kind: str, seed: int, weight: torch.Tensor, rng: random.Random) -> str:
    rows, cols = weight.shape
    raw = weight.contiguous().numpy().astype("<f4").tobytes()
    words = struct.unpack(f"<{rows * cols}I", raw)
    head = f"{kind} {seed} {rows}x{cols}"
    if rows * cols <= FULL_LIMIT:
        return head + " full " + " ".join(f"{w:08x}" for w in words)
    positions = sample_positions(rows * cols, rng)
    samples = " ".join(f"{i}:{words[i]:08x}" for i in positions)
    return f"{head} hash {fnv1a64(raw):016x} {len(positions)} {samples}"


def cpu_capability() -> str:
    """The kernel family torch chose on this CPU (AVX2, AVX512, DEFAULT), as its config reports it:
    the reference data's bits depend on it, so every data file records it."""
    return next((line.split(":", 1)[1].strip() for line in torch.__config__.show().splitlines()
                 if "CPU capability usage" in line), "unknown")


def main() -> None:
    out_path = Path(sys.argv[1]) if len(sys.argv) > 1 else (
        Path(__file__).resolve().parent.parent / "tests" / "data" / "torch_vectors.txt")
    torch.set_num_threads(1)  # not needed for the values (the kernels are serial), just tidy
    sample_rng = random.Random(RANDOM_SEED + 1)

    lines = []
    for seed in FIXED_SEEDS:
        for vocab, dim in EMBEDDING_SHAPES:
            lines.append(case_line("embedding", seed, embedding_weight(seed, vocab, dim), sample_rng))
        for in_features, out_features in LINEAR_FEATURES:
            weight = linear_weight(seed, in_features, out_features)
            lines.append(case_line("linear", seed, weight, sample_rng))

    case_rng = random.Random(RANDOM_SEED)
    for _ in range(RANDOM_EMBEDDING_CASES):
        seed = case_rng.randrange(2**64)
        vocab = case_rng.randint(1, 300)
        dim = case_rng.randint(1, 40)
        lines.append(case_line("embedding", seed, embedding_weight(seed, vocab, dim), sample_rng))
    for _ in range(RANDOM_LINEAR_CASES):
        seed = case_rng.randrange(2**64)
        in_features = case_rng.randint(1, 300)
        out_features = case_rng.randint(1, 40)
        weight = linear_weight(seed, in_features, out_features)
        lines.append(case_line("linear", seed, weight, sample_rng))

    capability = cpu_capability()
    header = [
        "# embdemo torch reference vectors, written by tools/make_torch_vectors.py; do not edit.",
        f"# torch {torch.__version__}, CPU capability {capability}, {len(lines)} cases.",
        "# Format (see the script for details):",
        "#   <embedding|linear> <seed> <rows>x<cols> full <8-hex float32 bits, row-major> ...",
        "#   <embedding|linear> <seed> <rows>x<cols> hash <FNV-1a 64 of LE bytes> <k> <index>:<bits> ...",
        "# linear rows x cols is the weight shape out x in: Linear(in=4, out=5) is 'linear <seed> 5x4'.",
    ]
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text("\n".join(header + lines) + "\n", encoding="ascii")
    print(f"wrote {len(lines)} cases to {out_path} ({out_path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
