#!/usr/bin/env python3
"""Writes tests/data/torch_encoding_vectors.txt: the sinusoidal table and RoPE rotations as
PyTorch code computes them, for embdemo positions --encoding sinusoidal|rope to be checked
against (within a stated tolerance: torch computes the angles in float32, embdemo in double).

- sinusoidal: the PyTorch tutorial's PositionalEncoding (pe[:, 0::2] = sin(position * div_term),
  pe[:, 1::2] = cos(position * div_term), div_term = exp(arange(0, d, 2) * (-log(10000) / d))),
  with an odd d ending in a sin column.
- rope: the book's Llama conversion (ch05/07_gpt_to_llama): precompute_rope_params(head_dim,
  theta_base=10_000, context_length) and compute_rope(x, cos, sin) on x = torch.randn(T, d).

Reference data only; CI does not need torch. Run: /usr/bin/python3 tools/make_torch_encoding_vectors.py
"""
import math
import pathlib
import torch

from book_rope import compute_rope, precompute_rope_params


def sinusoidal(context, d):
    pe = torch.zeros(context, d)
    position = torch.arange(context, dtype=torch.float32).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d, 2, dtype=torch.float32) * (-math.log(10000.0) / d))
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term[: d // 2])
    return pe


def values(t):
    return " ".join(repr(float(v)) for v in t.flatten().tolist())


lines = ["# sinusoidal C d <C*d values>; rope T d <T*d input values> <T*d rotated values>",
         "# written by tools/make_torch_encoding_vectors.py (torch %s)" % torch.__version__]
for context, d in [(1, 1), (4, 4), (6, 5), (16, 8), (50, 7), (128, 16), (512, 6), (1024, 2)]:
    lines.append("sinusoidal %d %d %s" % (context, d, values(sinusoidal(context, d))))
torch.manual_seed(2026)
for seq, d in [(1, 2), (3, 4), (7, 6), (12, 8), (33, 16), (64, 10), (300, 4), (1024, 2)]:
    x = torch.randn(seq, d)
    cos, sin = precompute_rope_params(d, context_length=seq)
    out = compute_rope(x.view(1, 1, seq, d), cos, sin).view(seq, d)
    lines.append("rope %d %d %s %s" % (seq, d, values(x), values(out)))
path = pathlib.Path(__file__).resolve().parent.parent / "tests/data/torch_encoding_vectors.txt"
path.write_text("\n".join(lines) + "\n")
print("wrote", path)
