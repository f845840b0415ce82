#!/usr/bin/python3
"""Time embdemo making the GPT-2 table on one thread and on all cores against PyTorch's one-thread
init, in turns, with per-turn ratios (issue 29, goal 2; docs/performance.md, "Both cores").

Run with Debian's python3-torch on /usr/bin/python3 after building (tools/setup.sh):

    /usr/bin/python3 tools/measure_table_threads.py [--build build] [--turns 15]
                                                    [--vocab 50257] [--dim 768] [--seed 123]

It compiles tools/table_timer.cpp against BUILD/libembdemo_core.a, then each turn, in an order
that alternates between turns, times:
  - torch:   torch.manual_seed(seed); torch.nn.Embedding(vocab, dim) inside this process, one
             thread (torch.set_num_threads(1)), the table freed afterwards;
  - embdemo, one thread:  table_timer with EMBDEMO_THREADS=1 (a fresh process, fresh pages);
  - embdemo, all cores:   table_timer with neither EMBDEMO_THREADS nor OMP_NUM_THREADS set.
Both embdemo times are in-process too (torch_embedding_weight: allocation, zeroing and draws).
Every embdemo table's checksum must equal torch's, or the script stops. Prints each turn, then
the median and 90th percentile of the per-turn ratios embdemo / torch. On a shared machine the
load changes from turn to turn; ratios within a turn saw the same load.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy
import torch

from make_torch_vectors import cpu_capability

TOOLS = Path(__file__).resolve().parent


def compile_tool(build: Path, name: str) -> Path:
    """BUILD/NAME from tools/NAME.cpp and BUILD/libembdemo_core.a, compiled again when older."""
    tool = build / name
    source = TOOLS / f"{name}.cpp"
    library = build / "libembdemo_core.a"
    if not library.exists():
        sys.exit(f"{Path(sys.argv[0]).name}: {library} is missing: build embdemo first")
    if not tool.exists() or tool.stat().st_mtime < max(source.stat().st_mtime,
                                                        library.stat().st_mtime):
        subprocess.run(["c++", "-std=c++17", "-O2", f"-I{TOOLS.parent / 'src'}", str(source),
                        str(library), "-lpthread", "-ldl", "-o", str(tool)], check=True)
    return tool


def checksum(table: torch.Tensor) -> int:
    """sum of bits[i] * (2i + 1) modulo 2^64, as table_timer.cpp computes it."""
    bits = table.detach().contiguous().view(torch.int32).numpy().ravel().view(numpy.uint32)
    weights = numpy.arange(bits.size, dtype=numpy.uint64) * numpy.uint64(2) + numpy.uint64(1)
    with numpy.errstate(over="ignore"):
        return int(numpy.sum(bits.astype(numpy.uint64) * weights, dtype=numpy.uint64))


def time_torch(args: argparse.Namespace) -> float:
    start = time.perf_counter()
    torch.manual_seed(args.seed)
    table = torch.nn.Embedding(args.vocab, args.dim)
    elapsed = time.perf_counter() - start
    del table
    return elapsed


def time_embdemo(timer: Path, args: argparse.Namespace, threads: str | None,
                 expected: int) -> float:
    env = {k: v for k, v in os.environ.items() if k not in ("EMBDEMO_THREADS", "OMP_NUM_THREADS")}
    if threads:
        env["EMBDEMO_THREADS"] = threads
    out = subprocess.run([str(timer), str(args.vocab), str(args.dim), str(args.seed)], env=env,
                         check=True, capture_output=True, text=True).stdout.split()
    if int(out[1]) != expected:
        sys.exit(f"measure_table_threads: embdemo's table (EMBDEMO_THREADS={threads}) is not "
                 f"torch's: checksum {out[1]}, torch {expected}")
    return float(out[0])


def summary(name: str, ratios: list[float]) -> str:
    p90 = statistics.quantiles(ratios, n=10, method="inclusive")[-1] if len(ratios) > 1 else ratios[0]
    return f"{name}: median ratio {statistics.median(ratios):.2f}, p90 {p90:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", type=Path, default=TOOLS.parent / "build")
    parser.add_argument("--turns", type=int, default=15)
    parser.add_argument("--vocab", type=int, default=50257)
    parser.add_argument("--dim", type=int, default=768)
    parser.add_argument("--seed", type=int, default=123)
    args = parser.parse_args()

    timer = compile_tool(args.build, "table_timer")
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    expected = checksum(torch.nn.Embedding(args.vocab, args.dim).weight)
    print(f"torch {torch.__version__}, capability {cpu_capability()}, torch threads 1, "
          f"Embedding({args.vocab}, {args.dim}), {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}")
    print("turn  torch(s)  embdemo 1 thread(s)  embdemo all cores(s)  ratios 1/torch all/torch")
    one_ratios, all_ratios = [], []
    time_torch(args)  # warm-up: the first table of a process pays for more than the others
    for turn in range(args.turns):
        runs = [("torch", lambda: time_torch(args)),
                ("one", lambda: time_embdemo(timer, args, "1", expected)),
                ("all", lambda: time_embdemo(timer, args, None, expected))]
        if turn % 2:
            runs.reverse()
        times = {name: run() for name, run in runs}
        one_ratios.append(times["one"] / times["torch"])
        all_ratios.append(times["all"] / times["torch"])
        print(f"{turn + 1:4}  {times['torch']:8.3f}  {times['one']:19.3f}  {times['all']:20.3f}  "
              f"{one_ratios[-1]:8.2f} {all_ratios[-1]:9.2f}")
    print(f"load {os.getloadavg()[0]:.1f}; every embdemo table equal to torch's (checksum {expected})")
    print(summary("embdemo one thread / torch one thread", one_ratios))
    print(summary("embdemo all cores / torch one thread", all_ratios))
    print(summary("embdemo all cores / embdemo one thread",
                  [a / o for a, o in zip(all_ratios, one_ratios)]))


if __name__ == "__main__":
    main()
