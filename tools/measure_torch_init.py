#!/usr/bin/python3
"""Time PyTorch making embdemo's GPT-2-size table, as the baseline of docs/performance.md.

Run with Debian's python3-torch (torch 1.13.1) on /usr/bin/python3; CI does not need it:

    /usr/bin/python3 tools/measure_torch_init.py [--vocab 50257] [--dim 768] [--seed 123]
                                                [--threads 1] [--repeat 11] [--versus COMMAND]

Each repetition times `torch.manual_seed(seed); torch.nn.Embedding(vocab, dim)` inside one
process (so importing torch, about a second, is not counted) and frees the table before the
next one, so every repetition pays for fresh pages as embdemo does. Prints every time and the
median, in seconds. The first repetition is a warm-up and is not part of the median.

With --versus, each repetition also runs COMMAND (split on spaces, stdout discarded) as a whole
process right before torch's turn, so both see the same load on a shared machine, and the median
of the per-repetition ratios COMMAND / torch is printed as well, with their 90th percentile
(issue 29's goal 1: median <= 1.0, 90th percentile <= 1.5). The load average before and after is
printed, since the machine may be shared.
"""

import argparse
import os
import statistics
import subprocess
import time

import torch

from make_torch_vectors import cpu_capability
from measure_hugepage_choices import p90


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vocab", type=int, default=50257)
    parser.add_argument("--dim", type=int, default=768)
    parser.add_argument("--seed", type=int, default=123)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=11)
    parser.add_argument("--versus", help="a command to time against torch, e.g. embdemo's")
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    load_before = os.getloadavg()[0]
    times = []
    versus_times = []
    for _ in range(args.repeat + 1):
        if args.versus:
            start = time.perf_counter()
            subprocess.run(args.versus.split(), stdout=subprocess.DEVNULL, check=True)
            versus_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        torch.manual_seed(args.seed)
        table = torch.nn.Embedding(args.vocab, args.dim)
        times.append(time.perf_counter() - start)
        del table
    measured = times[1:]
    print(f"torch {torch.__version__}, capability {cpu_capability()}, "
          f"threads {torch.get_num_threads()}, Embedding({args.vocab}, {args.dim})")
    print("times (s): " + " ".join(f"{t:.3f}" for t in measured))
    print(f"median: {statistics.median(measured):.3f} s")
    if args.versus:
        versus = versus_times[1:]
        ratios = [v / t for v, t in zip(versus, measured)]
        print(f"versus: {args.versus}")
        print("versus times (s): " + " ".join(f"{t:.3f}" for t in versus))
        print("ratios: " + " ".join(f"{r:.2f}" for r in ratios))
        print(f"versus median: {statistics.median(versus):.3f} s, "
              f"median ratio versus / torch: {statistics.median(ratios):.2f}, "
              f"90th percentile: {p90(ratios):.2f}")
    print(f"load average (1 min): {load_before:.2f} before, {os.getloadavg()[0]:.2f} after")



if __name__ == "__main__":
    main()
