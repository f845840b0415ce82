#!/usr/bin/python3
"""Time PyTorch making embdemo's GPT-2-size table, as the baseline of docs/performance.md.

Run with Debian's python3-torch (torch 1.13.1) on /usr/bin/python3; CI does not need it:

    /usr/bin/python3 tools/measure_torch_init.py [--vocab 50257] [--dim 768] [--seed 123]
                                                [--threads 1] [--repeat 11]

Each repetition times `torch.manual_seed(seed); torch.nn.Embedding(vocab, dim)` inside one
process (so importing torch, about a second, is not counted) and frees the table before the
next one, so every repetition pays for fresh pages as embdemo does. Prints every time and the
median, in seconds. The first repetition is a warm-up and is not part of the median.
"""

import argparse
import statistics
import time

import torch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vocab", type=int, default=50257)
    parser.add_argument("--dim", type=int, default=768)
    parser.add_argument("--seed", type=int, default=123)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=11)
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    times = []
    for _ in range(args.repeat + 1):
        start = time.perf_counter()
        torch.manual_seed(args.seed)
        table = torch.nn.Embedding(args.vocab, args.dim)
        times.append(time.perf_counter() - start)
        del table
    measured = times[1:]
    capability = [line.split(":", 1)[1].strip() for line in torch.__config__.show().splitlines()
                  if "CPU capability usage" in line]
    print(f"torch {torch.__version__}, capability {capability[0] if capability else '?'}, "
          f"threads {torch.get_num_threads()}, Embedding({args.vocab}, {args.dim})")
    print("times (s): " + " ".join(f"{t:.3f}" for t in measured))
    print(f"median: {statistics.median(measured):.3f} s")


if __name__ == "__main__":
    main()
