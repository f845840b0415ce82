#!/usr/bin/python3
"""tokens --tokenizer against live Python references (label torch-live, with the other checks
against a live reference), on fixed texts and on random texts drawn with a printed seed.

wordpiece: BERT's uncased tokenizer as its paper's code and Hugging Face's and torchtext's
BertTokenizer(do_lower_case=True) define it, re-run here on Python's own Unicode database
(unicodedata, str.lower, str.split), independent of the utf8proc tables embdemo uses. Debian's
python3-torchtext would be the packaged reference, but its 0.14.1 build ships its C++ extension
without a module (import torchtext fails), so its BERTTokenizer is used only where it loads.
Also every character Python's Unicode knows, in two texts (the Basic Multilingual Plane and
beyond it), each between two letters.

unigram, bpe: python3-sentencepiece trained with the same options (model type, vocab size, one
thread, every line, the same seed) on the same lines: pieces and ids must be equal; a vocab size
that the text cannot reach must fail in both.
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import unicodedata

BINARY = sys.argv[1]
VOCAB = sys.argv[2]
SEED = int(os.environ.get("EMBDEMO_LIVE_SEED", random.SystemRandom().randrange(1 << 30)))
print(f"tokenizers_live: seed {SEED}")
rng = random.Random(SEED)
failures = []


def run(text, *args):
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "text.txt")
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        result = subprocess.run([BINARY, "tokens", "--text-file", path, "--format", "json", *args],
                                capture_output=True, text=True, timeout=600)
    return result


def load_vocab(path):
    with open(path, encoding="utf-8") as f:
        return {line.rstrip("\n"): i for i, line in enumerate(f)}


VOCAB_IDS = load_vocab(VOCAB)
assert len(VOCAB_IDS) == 30522 and VOCAB_IDS["[PAD]"] == 0 and VOCAB_IDS["[UNK]"] == 100
assert VOCAB_IDS["[CLS]"] == 101 and VOCAB_IDS["[SEP]"] == 102 and VOCAB_IDS["the"] == 1996


def is_whitespace(c):
    return c in " \t\n\r" or unicodedata.category(c) == "Zs"


def is_control(c):
    return c not in "\t\n\r" and unicodedata.category(c) in ("Cc", "Cf")


def is_punctuation(c):
    cp = ord(c)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(c).startswith("P")


CJK = [(0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F), (0x2B740, 0x2B81F),
       (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F)]


def basic_words(text):
    cleaned = []
    for c in text:
        if ord(c) in (0, 0xFFFD) or is_control(c):
            continue
        if is_whitespace(c):
            cleaned.append(" ")
        elif any(lo <= ord(c) <= hi for lo, hi in CJK):
            cleaned.append(f" {c} ")
        else:
            cleaned.append(c)
    words = []
    for token in "".join(cleaned).split():
        token = unicodedata.normalize("NFD", token.lower())
        token = "".join(c for c in token if unicodedata.category(c) != "Mn")
        run_ = ""
        for c in token:
            if is_punctuation(c):
                if run_:
                    words.append(run_)
                words.append(c)
                run_ = ""
            else:
                run_ += c
        if run_:
            words.append(run_)
    return words


def wordpiece_ids(text):
    ids = []
    for word in basic_words(text):
        if len(word) > 100:
            ids.append(100)
            continue
        start, pieces = 0, []
        while start < len(word):
            end = len(word)
            while end > start:
                piece = ("##" if start else "") + word[start:end]
                if piece in VOCAB_IDS:
                    break
                end -= 1
            if end == start:
                pieces = [100]
                break
            pieces.append(VOCAB_IDS[piece])
            start = end
        ids.extend(pieces)
    return ids


def torchtext_reference():
    try:
        from torchtext.transforms import BERTTokenizer
        tokenizer = BERTTokenizer(VOCAB, do_lower_case=True, return_tokens=False)
        return lambda text: [int(i) for i in tokenizer(text)]
    except Exception as error:  # Debian 12's build: "dynamic module does not define module export function"
        print(f"tokenizers_live: torchtext's BERTTokenizer does not load ({type(error).__name__}); "
              "the Python re-run alone is the reference")
        return None


TORCHTEXT = torchtext_reference()
FIXED = [
    "Your journey starts with one step", "Héllo, wörld! naïve café Ångström", "東京タワーと北京烤鸭", "ΟΔΟΣ Σίσυφος ΣΑΣ",
    "İstanbul ǅemal ß ẞ", "unaffable unbelievably antidisestablishmentarianism", "a" * 100, "a" * 101,
    "x\u0000y\u0007z\u200bw\ufeffv\ufffdu", "tab\there\nnew\rline\u2028sep\u2029para\u00a0nbsp\u3000ideo",
    "emoji 🙂🎉👩‍👩‍👧 ✓ ™ © ½", "[CLS] [SEP] [UNK] ##ing", "$^`~|<>=+ 1,000.50 -- (a) 'b' \"c\"", "\u0301\u0301 e\u0301",
    "한국어 텍스트", "Привет, мир!", "مرحبا بالعالم", "ﬁ ﬂ Ⅻ ①", "   ",
]
POOL = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789     .,;:!?'\"()[]{}-_#@$%^&*`~|\\/"
        "éèêëàâäîïôöùûüçñÉÀÇÑßøåæœΣσςΟΔαβγδ東京中文字日本語한국ひらがなカタカナПриветمرحبا🙂🎉👍\u0301\u0308\u200d"
        "\t\n\r\u00a0\u2028\u3000\u0007\u200b\ufeff½™©①ﬁ")


def random_text():
    return "".join(rng.choice(POOL) for _ in range(rng.randrange(1, 120)))


def check_wordpiece(text, label):
    result = run(text, "--tokenizer", "wordpiece")
    if result.returncode != 0:
        failures.append(f"wordpiece {label}: exit {result.returncode}: {result.stderr.strip()}")
        return
    got = json.loads(result.stdout)["tokenizers"][0]["ids"]
    want = wordpiece_ids(text)
    if got != want:
        failures.append(f"wordpiece {label} {text[:60]!r}: embdemo {got[:20]} python {want[:20]}")
    if TORCHTEXT and TORCHTEXT(text) != got:
        failures.append(f"wordpiece {label}: torchtext {TORCHTEXT(text)[:20]} embdemo {got[:20]}")


for i, text in enumerate(FIXED):
    check_wordpiece(text, f"fixed {i}")
for i in range(60):
    check_wordpiece(random_text(), f"random {i}")
# Every BMP character Python's Unicode knows (not a surrogate, not unassigned), each between two
# letters, "x<c>y": a character that is white space, punctuation or an ideograph splits the pair,
# a control joins it, a mark or a cased letter changes it.
bmp = " ".join(f"x{chr(c)}y" for c in range(1, 0x10000)
               if not 0xD800 <= c <= 0xDFFF and unicodedata.category(chr(c)) != "Cn")
check_wordpiece(bmp, "every BMP character")
# And every one beyond it (emoji, CJK extensions B to G, historic scripts, tags, private use).
beyond = " ".join(f"x{chr(c)}y" for c in range(0x10000, 0x110000) if unicodedata.category(chr(c)) != "Cn")
check_wordpiece(beyond, "every character beyond the BMP")


def sentencepiece_reference(text, model_type, vocab_size):
    import io
    import sentencepiece as spm
    lines = text.split("\n")
    spm.set_random_generator_seed(42)
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_writer=model, model_type=model_type,
                                   vocab_size=vocab_size, num_threads=1, minloglevel=2,
                                   max_sentence_length=max(4192, max(len(line.encode()) for line in lines)))
    processor = spm.SentencePieceProcessor(model_proto=model.getvalue())
    pieces, ids = [], []
    for line in lines:
        pieces += processor.encode(line, out_type=str)
        ids += processor.encode(line, out_type=int)
    return pieces, ids


def random_corpus():
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyzéö東") for _ in range(rng.randrange(1, 9)))
             for _ in range(rng.randrange(20, 80))]
    lines = [" ".join(rng.choice(words) for _ in range(rng.randrange(1, 16))) for _ in range(rng.randrange(5, 60))]
    return "\n".join(lines) + rng.choice(["", "\n", "\n\n"])


for i in range(16):
    text = random_corpus() if i else open(os.path.join(os.path.dirname(VOCAB), "..", "..", "..", "README.md"),
                                          encoding="utf-8").read()[:20000]
    for model_type in ("unigram", "bpe"):
        vocab_size = rng.randrange(20, 400)
        result = run(text, "--tokenizer", model_type, "--vocab-size", str(vocab_size))
        try:
            want = sentencepiece_reference(text, model_type, vocab_size)
        except Exception as error:
            want = None
            if result.returncode != 2 or f"--vocab-size {vocab_size}: " not in result.stderr:
                failures.append(f"{model_type} case {i} V={vocab_size}: python fails ({error}), embdemo exit "
                                f"{result.returncode}: {result.stderr.strip()}")
            continue
        if result.returncode != 0:
            failures.append(f"{model_type} case {i} V={vocab_size}: exit {result.returncode}: {result.stderr.strip()}")
            continue
        run_ = json.loads(result.stdout)["tokenizers"][0]
        if run_["ids"] != want[1] or run_["pieces"] != want[0] or run_["vocab_size"] != vocab_size:
            failures.append(f"{model_type} case {i} V={vocab_size}: pieces or ids differ: embdemo "
                            f"{run_['pieces'][:10]} python {want[0][:10]}")

# Short random texts of any characters: a bad text is exit 2 with one line, never a crash.
for i in range(30):
    text = "".join(rng.choice(POOL) for _ in range(rng.randrange(1, 12)))
    for model_type in ("unigram", "bpe"):
        result = run(text, "--tokenizer", model_type)
        if result.returncode not in (0, 2) or (result.returncode == 2 and len(result.stderr.splitlines()) != 1):
            failures.append(f"{model_type} {text!r}: exit {result.returncode}: {result.stderr.strip()[:200]}")



# Every lesson's --tokenizer: lookup, grad and positions on a text cut by WordPiece, Unigram and
# BPE take the reference's ids and its V (BERT's 30,522, the trained size), and their numbers are
# PyTorch's for those ids: nn.Embedding(V, d) after torch.manual_seed(123) looked up, its
# gradient for G = torch.randn(n, d), and the token plus learned position embedding.
def run_lesson(lesson, text, *args):
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "text.txt")
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return subprocess.run([BINARY, lesson, "--text-file", path, "--format", "json", "--dim", "3", *args],
                              capture_output=True, text=True, timeout=600)


lesson_runs = []


def check_lessons(text, tokenizer, want_ids, vocab_size, args, label):
    import torch
    for lesson in ("lookup", "grad", "positions"):
        result = run_lesson(lesson, text, "--tokenizer", tokenizer, *args)
        # grad exits 3 when one_hot(ids).T @ G rounds a repeated id's sum otherwise than the
        # scatter-add, which is still PyTorch's gradient.
        if result.returncode != 0 and not (lesson == "grad" and result.returncode == 3):
            failures.append(f"{lesson} {tokenizer} {label}: exit {result.returncode}: {result.stderr.strip()}")
            continue
        report = json.loads(result.stdout)
        lesson_runs.append((lesson, tokenizer))
        if report["ids"] != want_ids or report["vocab"] != vocab_size or report.get("tokenizer") != tokenizer:
            failures.append(f"{lesson} {tokenizer} {label}: ids {report['ids'][:10]} V {report['vocab']} "
                            f"({report.get('tokenizer')}), python {want_ids[:10]} V {vocab_size}")
            continue
        ids = torch.tensor(want_ids)
        torch.manual_seed(123)
        embedding = torch.nn.Embedding(vocab_size, 3)
        if lesson == "lookup":
            ok = torch.equal(torch.tensor(report["lookup"], dtype=torch.float32), embedding(ids).detach())
        elif lesson == "grad":
            upstream = torch.randn(len(want_ids), 3)
            embedding(ids).backward(upstream)
            ok = torch.equal(torch.tensor(report["grad_lookup"], dtype=torch.float32), embedding.weight.grad)
        else:
            positions = torch.nn.Embedding(len(want_ids), 3)
            want = embedding(ids) + positions(torch.arange(len(want_ids)))
            ok = torch.equal(torch.tensor(report["output"], dtype=torch.float32), want.detach())
        if not ok:
            failures.append(f"{lesson} {tokenizer} {label}: the numbers differ from PyTorch's")


for i in range(4):
    text = random_text() if i else "Héllo, wörld! Your journey starts with one step."
    if wordpiece_ids(text):
        check_lessons(text, "wordpiece", wordpiece_ids(text), len(VOCAB_IDS), (), f"text {i}")
# Three corpora each for unigram and bpe: a drawn size the corpus cannot reach (refused above, in
# both) is drawn again, so that no seed leaves a tokenizer out.
for model_type in ("unigram", "bpe"):
    ran = 0
    for i in range(30):
        if ran == 3:
            break
        text = random_corpus()
        vocab_size = rng.randrange(20, 60)
        try:
            want = sentencepiece_reference(text, model_type, vocab_size)
        except Exception:
            continue
        check_lessons(text, model_type, want[1], vocab_size, ("--vocab-size", str(vocab_size)),
                      f"corpus {i} V={vocab_size}")
        ran += 1

for tokenizer in ("wordpiece", "unigram", "bpe"):
    if not any(run_[1] == tokenizer for run_ in lesson_runs):
        failures.append(f"no lesson ran with --tokenizer {tokenizer}")
print(f"tokenizers_live: {len(lesson_runs)} lesson runs against PyTorch")
for failure in failures[:40]:
    print(failure)
print(f"tokenizers_live: {len(failures)} failures (seed {SEED})")
sys.exit(1 if failures else 0)
