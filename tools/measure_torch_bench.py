#!/usr/bin/python3
"""Time PyTorch's two forms of an embedding on the shapes `embdemo bench` times (docs/performance.md).

Run with Debian's python3-torch (torch 1.13.1) on /usr/bin/python3; CI does not need it:

    /usr/bin/python3 tools/measure_torch_bench.py [--vocab 50257] [--dim 768] [--tokens 1024]
                                                 [--threads 1] [--repeat 101] [--onehot-repeat 3]

Like the bench: E is V x d uniform in [-1, 1) (not nn.Embedding's normal draw: the values do not
change the timings), the ids are uniform in [0, V), every path gets one warm-up call and the
median of the timed calls is printed, in seconds, with its rate. Paths: F.embedding(ids, E);
copying the same n x d bytes (Tensor.copy_, torch's memcpy); one_hot(ids).float() @ E, which
builds X in fresh memory each call as a script would; and X @ E with X built once (the BLAS's
own rate). The one-hot paths take seconds per call at GPT-2 size, hence their own repeat count
(0 leaves them out).

With --versus "CMD" (an `embdemo bench ... --format json` command line on the same shape and
thread count), the lookups are measured in turns: --rounds times, torch's F.embedding and copy_
medians, then CMD's `lookup` and `memcpy` medians, so that load on a shared machine falls on
both; it prints each round and the median per-round ratio embdemo / torch (below 1: faster).
"""

import argparse
import json
import shlex
import statistics
import subprocess
import time

import torch
import torch.nn.functional as F


def median_seconds(call, repeat):
    call()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vocab", type=int, default=50257)
    parser.add_argument("--dim", type=int, default=768)
    parser.add_argument("--tokens", type=int, default=1024)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=101)
    parser.add_argument("--onehot-repeat", type=int, default=3)
    parser.add_argument("--versus", help="an embdemo bench --format json command on the same shape")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(123)
    n, V, d = args.tokens, args.vocab, args.dim
    E = torch.empty(V, d).uniform_(-1, 1)
    ids = torch.randint(V, (n,))
    out = F.embedding(ids, E)
    copy = torch.empty_like(out)
    X = F.one_hot(ids, V).float()
    product = torch.empty(n, d)
    row_bytes = 2 * n * d * 4  # read and written, as the bench counts them
    flops = 2 * n * V * d

    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, n={n} V={V} d={d}")
    if args.versus:
        lookups_in_turns(args, lambda: F.embedding(ids, E), lambda: copy.copy_(out))
        return
    seconds = median_seconds(lambda: F.embedding(ids, E), args.repeat)
    print(f"F.embedding          {seconds:.6g} s  {row_bytes / seconds / 1e9:.2f} GB/s")
    seconds = median_seconds(lambda: copy.copy_(out), args.repeat)
    print(f"copy_ same bytes     {seconds:.6g} s  {row_bytes / seconds / 1e9:.2f} GB/s")
    if args.onehot_repeat == 0:  # the lookups only
        return
    seconds = median_seconds(lambda: F.one_hot(ids, V).float() @ E, args.onehot_repeat)
    print(f"one_hot(ids) @ E     {seconds:.6g} s  {flops / seconds / 1e9:.2f} GFLOP/s")
    seconds = median_seconds(lambda: torch.matmul(X, E, out=product), args.onehot_repeat)
    print(f"X @ E, X prebuilt    {seconds:.6g} s  {flops / seconds / 1e9:.2f} GFLOP/s")
    same = torch.equal(X @ E, out)
    print(f"one-hot product identical to F.embedding: {same}")


def lookups_in_turns(args, lookup, copy) -> None:
    ratios = {"lookup": [], "memcpy": []}
    for round_number in range(args.rounds):
        torch_seconds = {"lookup": median_seconds(lookup, args.repeat), "memcpy": median_seconds(copy, args.repeat)}
        report = json.loads(subprocess.run(shlex.split(args.versus), check=True, capture_output=True, text=True).stdout)
        ours = {path["name"]: path["median_seconds"] for path in report["paths"]}
        cells = []
        for name, torch_median in torch_seconds.items():
            ratios[name].append(ours[name] / torch_median)
            cells.append(f"{name} {ours[name] * 1e6:.1f} us vs {torch_median * 1e6:.1f} us")
        print(f"round {round_number + 1}: " + ", ".join(cells))
    for name, values in ratios.items():
        print(f"median ratio embdemo / torch, {name}: {statistics.median(values):.3f}")


if __name__ == "__main__":
    main()
