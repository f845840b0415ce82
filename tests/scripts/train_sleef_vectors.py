#!/usr/bin/env python3
"""Writes tests/data/train/sleef_vectors.tsv: inputs and PyTorch's float32 exp and log of them,
as bit patterns, from PyTorch's AVX2 kernels (SLEEF). The unit tests hold embdemo's
sleef_expf and sleef_logf to these bits on any machine.

    train_sleef_vectors.py OUT.tsv
"""
import sys

import torch

assert "CPU capability usage: AVX2" in torch.__config__.show(), "PyTorch must run its AVX2 kernels here"
torch.manual_seed(39)
x = torch.cat([torch.rand(3000) * -90, torch.rand(500) * 20 - 10, torch.tensor([0.0, -0.0, -103.9, -104.5, 88.0])])
y = torch.cat([torch.rand(2000) * 50000 + 1, torch.rand(1000) * 2, torch.tensor([1.0, 1e-40, 3.4e38, 0.75, 1.5])])
with open(sys.argv[1], "w") as out:
    out.write("# function\tinput bits\toutput bits (PyTorch 1.13, AVX2)\n")
    for name, inputs, outputs in (("exp", x, torch.exp(x)), ("log", y, torch.log(y))):
        for a, b in zip(inputs.view(torch.int32).tolist(), outputs.view(torch.int32).tolist()):
            out.write(f"{name}\t{a & 0xFFFFFFFF:08x}\t{b & 0xFFFFFFFF:08x}\n")
