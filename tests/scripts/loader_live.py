#!/usr/bin/env python3
"""The data loader's first batch in every lesson that takes a text (bag: its bags), against the book's own
GPTDatasetV1 and torch's DataLoader(shuffle=False, drop_last=True): fresh random (T, S, B) on
a text of the project's own, ids, targets and the window count compared exactly (JSON).
Run with Debian's python3-torch (/usr/bin/python3); the seed is printed.
usage: loader_live.py BINARY TEXT_FILE [--seed N] [--cases N]"""
import argparse
import json
import random
import subprocess
import sys

import torch
from torch.utils.data import DataLoader, Dataset

LESSONS = [[], ["grad"], ["positions"], ["tied"], ["factor", "--rank", "1"], ["bag"]]


class GPTDatasetV1(Dataset):
    """The book's chapter-2 dataset, as its listing 2.5 writes it (ids already tokenized)."""

    def __init__(self, token_ids, max_length, stride):
        self.input_ids, self.target_ids = [], []
        for i in range(0, len(token_ids) - max_length, stride):
            self.input_ids.append(torch.tensor(token_ids[i:i + max_length]))
            self.target_ids.append(torch.tensor(token_ids[i + 1: i + max_length + 1]))

    def __len__(self):
        return len(self.input_ids)

    def __getitem__(self, idx):
        return self.input_ids[idx], self.target_ids[idx]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("text_file")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--cases", type=int, default=40)
    options = parser.parse_args()
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    print(f"loader_live: seed {seed} (repeat with --seed {seed})", flush=True)
    tokens = subprocess.run([options.binary, "tokens", "--text-file", options.text_file, "--format", "json"],
                            capture_output=True, text=True, check=True)
    ids = json.loads(tokens.stdout)["ids"]
    bad = 0
    for case in range(options.cases):
        lesson = LESSONS[case % len(LESSONS)]
        T = rng.randint(1, 12)
        S = rng.randint(1, 12)
        dataset = GPTDatasetV1(ids, T, S)
        B = rng.randint(1, min(8, len(dataset)))
        x, y = next(iter(DataLoader(dataset, batch_size=B, shuffle=False, drop_last=True)))
        args = [options.binary, *lesson, "--text-file", options.text_file, "--context", str(T), "--stride", str(S),
                "--batch", str(B), "--dim", "2", "--format", "json"]
        run = subprocess.run(args, capture_output=True, text=True)
        try:
            report = json.loads(run.stdout)
            # bag: each window is one bag, as nn.EmbeddingBag reads a 2-D input
            batch = report["bags"] if lesson == ["bag"] else report["ids"]
            ok = (batch == x.tolist() and report["targets"] == y.tolist()
                  and report["loader"] == {"batch_size": B, "max_length": T, "stride": S, "windows": len(dataset)})
        except (json.JSONDecodeError, KeyError) as error:
            ok = False
            print(f"  no report: {error}; stderr: {run.stderr.strip()}")
        if not ok:
            bad += 1
            print(f"FAIL: {' '.join(args[1:])}")
    print(f"loader_live: {options.cases - bad} of {options.cases} first batches equal the book's")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
