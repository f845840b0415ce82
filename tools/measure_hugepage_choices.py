#!/usr/bin/python3
"""Compare huge-page choices for the GPT-2 table right after PyTorch has used and freed memory
(issue 29, goal 1; docs/performance.md, "Huge pages after another program").

Run with Debian's python3-torch on /usr/bin/python3 after building (tools/setup.sh):

    /usr/bin/python3 tools/measure_hugepage_choices.py [--build build] [--turns 9]

It compiles tools/hugepage_choices.cpp against BUILD/libembdemo_core.a. Each turn first makes
and frees PyTorch's table (torch.manual_seed(123); nn.Embedding(50257, 768), one thread, timed),
which leaves memory as a user's previous program would, then runs every choice once in a fresh
process, in an order that rotates between turns, each right after its own PyTorch table. Prints
every turn, then per choice the median and 90th percentile of the per-turn ratios choice / torch
and the median minor page faults.
"""

import argparse
import statistics
import subprocess
import time
from pathlib import Path

import torch

from measure_table_threads import compile_tool

TOOLS = Path(__file__).resolve().parent
CHOICES = ["none", "before", "after", "collapse", "populate", "small", "adaptive"]


def time_torch() -> float:
    start = time.perf_counter()
    torch.manual_seed(123)
    table = torch.nn.Embedding(50257, 768)
    elapsed = time.perf_counter() - start
    del table
    return elapsed


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10, method="inclusive")[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", type=Path, default=TOOLS.parent / "build")
    parser.add_argument("--turns", type=int, default=9)
    args = parser.parse_args()
    tool = compile_tool(args.build, "hugepage_choices")
    torch.set_num_threads(1)
    thp = Path("/sys/kernel/mm/transparent_hugepage")
    print(f"THP enabled: {(thp / 'enabled').read_text().strip()}; "
          f"defrag: {(thp / 'defrag').read_text().strip()}")
    ratios = {choice: [] for choice in CHOICES}
    faults = {choice: [] for choice in CHOICES}
    time_torch()  # warm-up
    print("turn  " + "  ".join(f"{c:>17}" for c in CHOICES) + "   (seconds / torch's seconds)")
    for turn in range(args.turns):
        order = CHOICES[turn % len(CHOICES):] + CHOICES[:turn % len(CHOICES)]
        cells = {}
        for choice in order:
            torch_seconds = time_torch()
            out = subprocess.run([str(tool), choice, "50257", "768", "123"], check=True,
                                 capture_output=True, text=True).stdout.split()
            seconds, fault_count = float(out[0]), int(out[1])
            ratios[choice].append(seconds / torch_seconds)
            faults[choice].append(fault_count)
            cells[choice] = f"{seconds:.3f}/{torch_seconds:.3f}"
        print(f"{turn + 1:4}  " + "  ".join(f"{cells[c]:>17}" for c in CHOICES))
    for choice in CHOICES:
        print(f"{choice:>9}: median ratio {statistics.median(ratios[choice]):.2f}, "
              f"p90 {p90(ratios[choice]):.2f}, median faults {statistics.median(faults[choice]):.0f}")


if __name__ == "__main__":
    main()
