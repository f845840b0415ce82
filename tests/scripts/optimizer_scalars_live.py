#!/usr/bin/python3
"""The optimizer hyper-parameters PyTorch refuses, against live PyTorch (label torch-live).

For grad --optimizer and train (which read them through one function), for each optimizer and each of --lr and --weight-decay, values on both sides of float32's
largest value (and of that value times 1 - 0.9 for Adam's and AdamW's lr): embdemo must refuse
(exit 2, one line naming the option, with PyTorch's own reason) exactly where torch.optim's
step raises, and run where it does not. Then a run that PyTorch accepts and that turns E into
NaN: every value that became NaN is counted as such in embdemo's JSON, and no row is "moved by"
a distance it did not move; and train's python export of a run whose losses overflow to inf and
NaN passes in PyTorch. Needs Debian's python3-torch; run with /usr/bin/python3.
"""
import json
import math
import subprocess
import sys
import tempfile

import torch

BINARY = sys.argv[1]
FLT_MAX = float.fromhex("0x1.fffffep+127")
failures = []


def torch_refusal(optimizer, lr, weight_decay):
    """torch.optim's message when three steps of the lesson's setting raise, else None."""
    torch.manual_seed(123)
    emb = torch.nn.Embedding(3, 2)
    make = {"sgd": torch.optim.SGD, "adam": torch.optim.Adam, "adamw": torch.optim.AdamW}[optimizer]
    opt = make(emb.parameters(), lr=lr, weight_decay=weight_decay)
    try:
        for _ in range(3):
            opt.zero_grad()
            emb(torch.tensor([1, 2])).backward(torch.ones(2, 2))
            opt.step()
    except RuntimeError as error:
        return str(error)
    return None


LESSON_ARGS = {"grad": ["grad", "--ids", "1,2", "--dim", "2", "--upstream", "ones"],
               "train": ["train", "--ids", "1,2,1", "--model", "bigram"]}


def embdemo(*args, lesson="grad"):
    return subprocess.run([BINARY, *LESSON_ARGS[lesson], *args], capture_output=True, text=True, timeout=60)


def check_refusals(lesson):
    near = [FLT_MAX, math.nextafter(FLT_MAX, math.inf), 1e39, 1e300]
    adam_lr = FLT_MAX * (1 - 0.9)
    adam_near = [math.nextafter(adam_lr, 0), adam_lr, math.nextafter(adam_lr, math.inf), 3.5e37, 1e38]
    cases = []
    for optimizer in ("sgd", "adam", "adamw"):
        default_lr = (0.1 if lesson == "grad" else 1.0) if optimizer == "sgd" else 1e-3
        default_wd = 1e-2 if optimizer == "adamw" else 0.0
        for lr in near + (adam_near if optimizer != "sgd" else [1e38]):
            cases.append((optimizer, "--lr", lr, lr, default_wd))
        for wd in near:
            cases.append((optimizer, "--weight-decay", wd, default_lr, wd))
    for optimizer, option, value, lr, wd in cases:
        refusal = torch_refusal(optimizer, lr, wd)
        text = repr(value)
        run = embdemo("--optimizer", optimizer, option, text, "--steps", "3", "--format", "json", lesson=lesson)
        where = f"{lesson} {optimizer} {option} {text}"
        if refusal is not None:
            if run.returncode != 2:
                failures.append(f"{where}: torch refuses ({refusal}), embdemo exits {run.returncode}")
            elif run.stdout or run.stderr.count("\n") != 1 or option not in run.stderr or refusal not in run.stderr:
                failures.append(f"{where}: the refusal is not one line naming {option} with torch's reason: "
                                f"{run.stderr!r}")
        elif run.returncode != 0:
            failures.append(f"{where}: torch runs it, embdemo exits {run.returncode}: {run.stderr.strip()}")
    print(f"{lesson}: {len(cases)} hyper-parameter values checked against torch.optim")


def check_nan_rows():
    lr, wd = 3.4e38, 1e38
    run = embdemo("--optimizer", "sgd", "--lr", repr(lr), "--weight-decay", repr(wd), "--steps", "3",
                  "--format", "json")
    if run.returncode != 0:
        failures.append(f"the NaN run exits {run.returncode}: {run.stderr.strip()}")
        return
    report = json.loads(run.stdout)
    torch.manual_seed(123)
    emb = torch.nn.Embedding(3, 2)
    opt = torch.optim.SGD(emb.parameters(), lr=lr, weight_decay=wd)
    for t, step in enumerate(report["steps"]):
        before = emb.weight.detach().clone()
        opt.zero_grad()
        emb(torch.tensor([1, 2])).backward(torch.ones(2, 2))
        opt.step()
        after = emb.weight.detach()
        changed = {c["row"]: c for c in step["changed"]}
        for k in range(after.shape[0]):
            became = int((torch.isnan(after[k]) & ~torch.isnan(before[k])).sum())
            moved = ~torch.isnan(after[k]) & (before[k].view(torch.int32) != after[k].view(torch.int32))
            entry = changed.get(k)
            got = entry.get("became_nan", 0) if entry else 0
            if got != became:
                failures.append(f"step {t + 1} row {k}: {became} values became NaN in torch, embdemo says {got}")
            if entry and not bool(moved.any()) and entry["max_abs_delta"] is not None:
                failures.append(f"step {t + 1} row {k}: no value moved to a number, yet max_abs_delta is "
                                f"{entry['max_abs_delta']}")
    text = embdemo("--optimizer", "sgd", "--lr", repr(lr), "--weight-decay", repr(wd), "--steps", "3").stdout
    if "moved by up to 0 " in text or "became NaN" not in text:
        failures.append("the text view calls a row that became NaN moved by 0, or never says NaN")
    print("a run whose rows become NaN checked step by step against torch.optim.SGD")


def check_diverging_script():
    """train's script holds losses of inf and NaN as PyTorch computes them (a NaN agrees with a NaN)."""
    for optimizer, option, value in (("adamw", "--weight-decay", "1e39"), ("sgd", "--lr", "3e38")):
        run = embdemo("--optimizer", optimizer, option, value, "--steps", "3", "--format", "python", lesson="train")
        if run.returncode != 0:
            failures.append(f"train {optimizer} {option} {value} --format python exits {run.returncode}: {run.stderr}")
            continue
        with tempfile.NamedTemporaryFile("w", suffix=".py") as script:
            script.write(run.stdout)
            script.flush()
            ran = subprocess.run([sys.executable, script.name], capture_output=True, text=True, timeout=300)
        if ran.returncode != 0:
            failures.append(f"train {optimizer} {option} {value}: its script fails in PyTorch: "
                            f"{ran.stderr.strip().splitlines()[-1:]}")
    print("train's scripts of diverging runs run in PyTorch")


for lesson in LESSON_ARGS:
    check_refusals(lesson)
check_nan_rows()
check_diverging_script()
for failure in failures:
    print("FAIL:", failure)
sys.exit(1 if failures else 0)
