#!/usr/bin/env python3
"""The CPU time (user + system, from wait4's rusage) of two binaries' start-ups, in turns.

usage: startup_cpu_turns.py BINARY_A BINARY_B [TURNS] [-- ARGS...]

Each turn runs both once (which goes first alternates), stdout to /dev/null, with ARGS (default:
the notebook demo, --ids 2,3,1 --dim 5), and prints each binary's mean and median in ms. For
docs/performance.md, "Start-up": keep both binaries on the same file system (copy them to one
directory), since the path an exec reads from changes the figure by more than the changes measured.
"""
import os
import statistics
import sys


def main():
    argv = sys.argv[1:]
    args = ["--ids", "2,3,1", "--dim", "5"]
    if "--" in argv:
        args = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    if len(argv) < 2:
        sys.exit(__doc__)
    binaries = argv[:2]
    turns = int(argv[2]) if len(argv) > 2 else 1500
    devnull = os.open(os.devnull, os.O_WRONLY)
    cpu = {binary: [] for binary in binaries}
    for turn in range(turns):
        for binary in binaries if turn % 2 == 0 else binaries[::-1]:
            pid = os.fork()
            if pid == 0:
                os.dup2(devnull, 1)
                os.execv(binary, [binary] + args)
            _, _, usage = os.wait4(pid, 0)
            cpu[binary].append((usage.ru_utime + usage.ru_stime) * 1e3)
    for binary in binaries:
        times = cpu[binary]
        print(f"{binary}: mean {statistics.mean(times):.3f} ms, median {statistics.median(times):.3f} ms")


if __name__ == "__main__":
    main()
