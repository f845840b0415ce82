#!/usr/bin/env bash
# embdemo's start-up against /bin/true, measured in turns (issue 29, goal 3: median <= 2x).
#   tools/startup_bench.sh [--runs N] [--warmup N] [--binary PATH] [-- ARGS...]
# Defaults: 30 runs of each after 5 warm-up pairs, build/embdemo, the default demo's arguments
# (--ids 2,3,1 --dim 5). Each turn starts /bin/true and then embdemo (the order alternating
# from turn to turn), stdout to /dev/null, and times each from posix_spawn to its exit, so that
# load on a shared machine slows both alike. Prints each program's median and p90 in ms, the
# ratios of the medians and of the p90s, and the median of the per-turn ratios. Exits 1 if
# embdemo fails.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=30
warmup=5
binary=build/embdemo
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --binary) binary=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "startup_bench: unknown argument: $1" >&2; exit 2 ;;
  esac
done
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--ids 2,3,1 --dim 5)
[ -x "$binary" ] || { echo "startup_bench: $binary is not built" >&2; exit 2; }

exec python3 - "$runs" "$warmup" "$binary" "${args[@]}" <<'EOF'
import os, statistics, sys, time

runs, warmup = int(sys.argv[1]), int(sys.argv[2])
embdemo = [sys.argv[3]] + sys.argv[4:]
true = ["/bin/true"]
devnull = os.open(os.devnull, os.O_WRONLY)

def timed(argv):
    start = time.perf_counter_ns()
    pid = os.posix_spawn(argv[0], argv, os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
    _, status = os.waitpid(pid, 0)
    elapsed = time.perf_counter_ns() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"startup_bench: {' '.join(argv)} failed (status {status})")
    return elapsed / 1e6

def turn(i):
    if i % 2:
        e = timed(embdemo); t = timed(true)
    else:
        t = timed(true); e = timed(embdemo)
    return t, e

for i in range(warmup):
    turn(i)
pairs = [turn(i) for i in range(runs)]
t_ms = sorted(t for t, _ in pairs)
e_ms = sorted(e for _, e in pairs)
ratios = sorted(e / t for t, e in pairs)

def p90(values):
    return values[min(len(values) - 1, round(0.9 * (len(values) - 1)))]

t_med, e_med = statistics.median(t_ms), statistics.median(e_ms)
print(f"runs: {runs} of each, in turns, after {warmup} warm-up turns")
print(f"/bin/true: median {t_med:.3f} ms, p90 {p90(t_ms):.3f} ms")
print(f"embdemo:   median {e_med:.3f} ms, p90 {p90(e_ms):.3f} ms  ({' '.join(embdemo)})")
print(f"median ratio: {e_med / t_med:.2f}x   p90 ratio: {p90(e_ms) / p90(t_ms):.2f}x   "
      f"median of per-turn ratios: {statistics.median(ratios):.2f}x")
EOF
