#!/usr/bin/env python3
"""embdemo train beside the references, measured side by side in one run.

Skip-gram: embdemo train --model skipgram against Debian's python3-gensim Word2Vec (sg=1,
negative sampling, the same corpus, window, negatives, dim, epochs, min-count and sample,
workers=1): words per second of each (the corpus's words times the epochs over each one's CPU
time, vocabulary and all), their ratio, and how much the top-10 neighbour lists of frequent
words overlap, beside the overlap of two gensim runs with different seeds (word2vec's own
spread). Bigram and tied: embdemo's steps per second against the same model, batch and
optimizer in PyTorch on one thread.

    tools/bench_train.py EMBDEMO [--corpus FILE] [--dim 100] [--epochs 1]

Without --corpus the King James Bible of Debian's bible-kjv (the `bible` program, over
bible-kjv-text's data) is used, lower-cased and cut into words of letters, a verse a line.
The references are not test tools, so the test command does not install them:
apt-get install python3-gensim bible-kjv (python3-torch comes with the tests).
"""
import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ["OMP_NUM_THREADS"] = "1"


def kjv_corpus(path):
    text = subprocess.run(["bible", "-f", "Gen1:1-Rev22:21"], capture_output=True, text=True, check=True).stdout
    lines = []
    for line in text.splitlines():
        line = re.sub(r"[^a-z]+", " ", re.sub(r"^\S+\s", "", line).lower()).strip()
        if line:
            lines.append(line)
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")


def child_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_embdemo(embdemo, args):
    before = child_cpu()
    done = subprocess.run([embdemo, "train", *args], capture_output=True, text=True)
    if done.returncode not in (0, 3):  # 3: the one-hot product's sums differ from the scatter-add's
        sys.exit(f"embdemo train {' '.join(args[:6])}...: {done.stderr}")
    return child_cpu() - before, done.stdout


def overlap(a, b):
    shared = total = 0
    for word, listed in a.items():
        if word in b:
            shared += len(set(listed) & set(b[word]))
            total += len(listed)
    return shared / total if total else 0.0


def skipgram(embdemo, corpus, options):
    from gensim.models import Word2Vec

    sentences = [line.split() for line in open(corpus)]
    words = sum(len(s) for s in sentences) * options.epochs
    counts = {}
    for s in sentences:
        for w in s:
            counts[w] = counts.get(w, 0) + 1
    ranked = sorted(counts, key=lambda w: -counts[w])
    probes = ranked[50:50 + options.probes]  # frequent, past the commonest function words
    settings = dict(vector_size=options.dim, window=5, negative=5, min_count=5, sample=1e-3, epochs=options.epochs)
    args = ["--model", "skipgram", "--text-file", corpus, "--level", "word", "--dim", str(options.dim),
            "--window", "5", "--negative", "5", "--min-count", "5", "--sample", "0.001",
            "--epochs", str(options.epochs), "--seed", "1"]
    embdemo_cpu, _ = run_embdemo(embdemo, args)
    _, out = run_embdemo(embdemo, args + ["--probe", ",".join(probes), "--top", "10", "--format", "json"])
    report = json.loads(out)
    rows = report["rows"]
    mine = {rows[p["row"]]: [rows[n["row"]] for n in p["after"]] for p in report["neighbours"]}
    gensim_runs = []
    for seed in (1, 2):
        start = time.process_time()
        model = Word2Vec(sentences, sg=1, hs=0, workers=1, seed=seed, **settings)
        gensim_runs.append((time.process_time() - start, model))
    gensim_cpu, model = gensim_runs[0]
    theirs = {w: [n for n, _ in model.wv.most_similar(w, topn=10)] for w in probes}
    again = {w: [n for n, _ in gensim_runs[1][1].wv.most_similar(w, topn=10)] for w in probes}
    print(f"skipgram  {words:,} words x epochs, d = {options.dim}, window 5, negative 5, min-count 5, sample 1e-3, one thread")
    print(f"  embdemo  {words / embdemo_cpu:12,.0f} words/s  ({embdemo_cpu:.2f} s CPU, reading and cutting the text included)")
    print(f"  gensim   {words / gensim_cpu:12,.0f} words/s  ({gensim_cpu:.2f} s CPU, building its vocabulary included)")
    print(f"  ratio    {gensim_cpu / embdemo_cpu:.2f}x gensim's words per second")
    print(f"  top-10 neighbours of {len(probes)} frequent words: embdemo and gensim share {overlap(mine, theirs):.0%}; "
          f"gensim with seeds 1 and 2 shares {overlap(theirs, again):.0%}")


def next_token(embdemo, corpus, options):
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    text = open(corpus).read()[: options.chars]
    for model, dim in (("bigram", None), ("tied", 64)):
        args = ["--model", model, "--text", text, "--level", "char", "--steps", str(options.steps), "--lr", "1"]
        if dim:
            args += ["--dim", str(dim)]
        embdemo_cpu, _ = run_embdemo(embdemo, args)
        chars = sorted(set(text), key=lambda c: (-text.count(c), text.index(c)))
        index = {c: k for k, c in enumerate(chars)}
        ids = torch.tensor([index[c] for c in text])
        x, y = ids[:-1], ids[1:]
        v = len(chars)
        torch.manual_seed(123)
        emb = torch.nn.Embedding(v, dim or v)
        opt = torch.optim.SGD(emb.parameters(), lr=1.0)
        start = time.process_time()
        for _ in range(options.steps):
            opt.zero_grad()
            h = emb(x)
            logits = h if dim is None else F.linear(h, emb.weight)
            F.cross_entropy(logits, y).backward()
            opt.step()
        torch_cpu = time.process_time() - start
        print(f"{model:8}  {len(x):,} pairs, V = {v}, d = {dim or v}, {options.steps} SGD steps, one thread")
        print(f"  embdemo  {options.steps / embdemo_cpu:10,.1f} steps/s  ({embdemo_cpu:.2f} s CPU, the whole run)")
        print(f"  PyTorch  {options.steps / torch_cpu:10,.1f} steps/s  ({torch_cpu:.2f} s CPU, the steps alone)")
        print(f"  ratio    {torch_cpu / embdemo_cpu:.2f}x PyTorch's steps per second")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("embdemo")
    parser.add_argument("--corpus")
    parser.add_argument("--dim", type=int, default=100)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--probes", type=int, default=20)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--chars", type=int, default=20000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        corpus = options.corpus
        if corpus is None:
            corpus = os.path.join(directory, "kjv.txt")
            kjv_corpus(corpus)
        skipgram(options.embdemo, corpus, options)
        next_token(options.embdemo, corpus, options)


if __name__ == "__main__":
    main()
