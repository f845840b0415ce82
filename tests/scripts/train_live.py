#!/usr/bin/env python3
"""embdemo train against real PyTorch and a plain re-implementation (label torch-live).

Random cases of bigram and tied with SGD, Adam and AdamW, on flat lists, batches of rows and
texts cut into characters or words: each run's --format python script runs in PyTorch and
asserts the losses, the rows every step moved and E after the steps (bit for bit on PyTorch's
AVX2 kernels). Skip-gram: the same draws from the same Mersenne Twister (numpy's legacy
RandomState seeds it as torch.manual_seed does) replayed in numpy float32, and W, C and the
losses compared bit for bit with embdemo's JSON.

    train_live.py EMBDEMO [--cases N] [--seed S]
"""
import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile

os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np

F = np.float32
WORDS = "the cat eats fish a dog likes meat some birds want corn and every cow wants hay".split()


def run(embdemo, args):
    done = subprocess.run([embdemo, "train", *args], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"embdemo train {' '.join(args)} exited {done.returncode}: {done.stderr}")
    return done.stdout


def next_token_case(rng):
    model = rng.choice(["bigram", "tied"])
    args = ["--model", model]
    if model == "tied":
        args += ["--dim", str(rng.randint(1, 12))]
    shape = rng.choice(["flat", "batch", "char", "word"])
    if shape == "flat":
        v = rng.randint(1, 40)
        args += ["--ids", ",".join(str(rng.randrange(v)) for _ in range(rng.randint(2, 30)))]
    elif shape == "batch":
        v, t = rng.randint(2, 20), rng.randint(2, 8)
        args += ["--ids", ";".join(",".join(str(rng.randrange(v)) for _ in range(t)) for _ in range(rng.randint(2, 4)))]
    else:
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 40)))
        args += ["--text", text, "--level", shape]
    optimizer = rng.choice(["sgd", "adam", "adamw"])
    args += ["--optimizer", optimizer, "--lr", str(rng.choice([0.01, 0.1, 0.5, 2.0])), "--steps", str(rng.randint(1, 12))]
    if optimizer != "sgd" or rng.random() < 0.3:
        args += ["--weight-decay", str(rng.choice([0.0, 0.01, 0.3]))]
    args += ["--seed", str(rng.randrange(2**32))]
    return args


class Twister:
    """torch.manual_seed's Mersenne Twister, 32-bit draws in order."""

    def __init__(self, seed):
        self.bits = np.random.RandomState(seed & 0xFFFFFFFF)._bit_generator

    def draw(self):
        return int(self.bits.random_raw())


def lanes_dot(a, b):
    d = a.shape[0]
    lanes = np.zeros(8, dtype=F)
    j = 0
    while j + 8 <= d:
        lanes = lanes + a[j:j + 8] * b[j:j + 8]
        j += 8
    if j < d:
        lanes[: d - j] = lanes[: d - j] + a[j:] * b[j:]
    for width in (4, 2, 1):
        lanes[:width] = lanes[:width] + lanes[width:2 * width]
    return lanes[0]


def skipgram(sentences, counts, dim, window, negative, sample, epochs, alpha, seed, points=20):
    """word2vec.c's skip-gram as embdemo's core/kernels/skipgram.cpp runs it, in float32."""
    g = Twister(seed)
    v = len(counts)
    w = np.array([(F(g.draw() >> 8) / F(16777216.0) - F(0.5)) / F(dim) for _ in range(v * dim)], dtype=F).reshape(v, dim)
    initial = w.copy()
    c = np.zeros((v, dim), dtype=F)
    total_pow = sum(float(n) ** 0.75 for n in counts)
    cum, running = [], 0.0
    for n in counts:
        running += float(n) ** 0.75
        cum.append(int(math.floor(running / total_pow * 0x7FFFFFFF + 0.5)))
    cum[-1] = 0x7FFFFFFF
    table = []
    for i in range(1000):
        e = F(math.exp(float((F(i) / F(1000) * F(2) - F(1)) * F(6))))
        table.append(e / (e + F(1)))
    words = sum(len(s) for s in sentences)
    total = words * epochs
    keep = [1.0 if sample <= 0 or n == 0 else (math.sqrt(n / (sample * words)) + 1) * (sample * words) / n for n in counts]
    a0, a = F(alpha), F(alpha)
    processed = 0
    npoints = max(1, min(points, max(total, 1)))
    loss_sum, loss_pairs = [0.0] * npoints, [0] * npoints
    for _ in range(epochs):
        for sentence in sentences:
            kept = []
            for word in sentence:
                if processed % 10000 == 0 and processed > 0:
                    left = 1.0 - processed / (total + 1)
                    a = max(F(alpha * left), a0 * F(1e-4))
                processed += 1
                if keep[word] < 1.0 and g.draw() / 4294967296.0 >= keep[word]:
                    continue
                kept.append(word)
            stretch = min(npoints - 1, int((processed - 1) / max(total, 1) * npoints))
            for pos, word in enumerate(kept):
                reach = window - g.draw() % window
                for ctx in range(max(0, pos - reach), min(len(kept) - 1, pos + reach) + 1):
                    if ctx == pos:
                        continue
                    l1 = kept[ctx]
                    neu1e = np.zeros(dim, dtype=F)
                    for k in range(negative + 1):
                        target, label = word, F(1)
                        if k > 0:
                            draw = g.draw() % 0x7FFFFFFF
                            target = next(i for i, x in enumerate(cum) if x > draw)
                            if target == word:
                                continue
                            label = F(0)
                        f = lanes_dot(w[l1], c[target])
                        if f > F(6):
                            s = F(1)
                        elif f < F(-6):
                            s = F(0)
                        else:
                            s = table[min(int((f + F(6)) * (F(1000) / F(6) / F(2))), 999)]
                        seen = min(max(s, table[0]), table[999])
                        loss_sum[stretch] -= math.log(float(seen if label > 0 else F(1) - seen))
                        gr = (label - s) * a
                        neu1e = neu1e + gr * c[target]
                        c[target] = c[target] + gr * w[l1]
                    loss_pairs[stretch] += 1
                    w[l1] = w[l1] + F(1) * neu1e
    loss = [s / n for s, n in zip(loss_sum, loss_pairs) if n > 0]
    return initial, w, c, loss


def skipgram_case(embdemo, rng):
    text = "\n".join(" ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 12))) for _ in range(rng.randint(2, 12)))
    dim, window, negative = rng.randint(1, 19), rng.randint(1, 4), rng.randint(0, 6)
    sample, epochs, min_count = rng.choice([0.0, 0.01, 0.1]), rng.randint(1, 3), rng.randint(1, 3)
    seed = rng.randrange(2**32)
    args = ["--model", "skipgram", "--text", text, "--level", "word", "--dim", str(dim), "--window", str(window),
            "--negative", str(negative), "--sample", str(sample), "--epochs", str(epochs), "--min-count", str(min_count),
            "--seed", str(seed), "--format", "json"]
    total_words = len(text.split())
    if window >= total_words:
        return
    out = json.loads(run(embdemo, args))
    rows = out["rows"]
    index = {word: k for k, word in enumerate(rows)}
    counts = [0] * len(rows)
    for word in text.split():
        counts[index[word]] += 1
    counts = [n if n >= min_count else 0 for n in counts]
    if not any(counts):  # every word rarer than --min-count: nothing trains, no noise table to replay
        return
    sentences = []
    for line in text.split("\n"):
        sentence = [index[word] for word in line.split() if counts[index[word]] > 0]
        if sentence:
            sentences.append(sentence)
    initial, w, c, loss = skipgram(sentences, counts, dim, window, negative, sample, epochs, 0.025, seed)
    for name, mine in (("initial", initial), ("weight", w), ("output", c)):
        theirs = np.array(out[name], dtype=np.float64).astype(F).reshape(mine.shape)
        if not np.array_equal(theirs.view(np.int32), mine.view(np.int32)):
            sys.exit(f"skipgram {name} differs from the re-implementation: embdemo train {' '.join(args)}")
    if out["loss"] != loss:
        sys.exit(f"skipgram's losses differ from the re-implementation: embdemo train {' '.join(args)}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("embdemo")
    parser.add_argument("--cases", type=int, default=24)
    parser.add_argument("--seed", type=int, default=random.randrange(2**31))
    options = parser.parse_args()
    print(f"train_live.py --seed {options.seed}")
    rng = random.Random(options.seed)
    with tempfile.TemporaryDirectory() as directory:
        script = os.path.join(directory, "train.py")
        for case in range(options.cases):
            args = next_token_case(rng)
            with open(script, "w") as out:
                out.write(run(options.embdemo, args + ["--format", "python"]))
            done = subprocess.run([sys.executable, script], capture_output=True, text=True)
            if done.returncode != 0:
                sys.exit(f"PyTorch disagrees with embdemo train {' '.join(args)}:\n{done.stderr[-2000:]}")
    for case in range(max(1, options.cases // 3)):
        skipgram_case(options.embdemo, rng)
    print(f"{options.cases} bigram/tied runs agree with PyTorch, skip-gram with its re-implementation")


if __name__ == "__main__":
    main()
