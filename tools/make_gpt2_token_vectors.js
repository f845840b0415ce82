#!/usr/bin/env node
// Writes tests/data/gpt2_token_vectors.txt: GPT-2 token ids of fixed and random texts as
// tiktoken's own code gives them (npm's `tiktoken`: the Rust tiktoken compiled to WebAssembly,
// encode(text, ["<|endoftext|>"]) as the book calls it), plus the bytes of a sample of token ids.
// Reference data only: CI needs neither node nor tiktoken. Run once after changing the cases:
//   npm install --prefix /tmp/gpt2ref tiktoken
//   NODE_PATH=/tmp/gpt2ref/node_modules node tools/make_gpt2_token_vectors.js > tests/data/gpt2_token_vectors.txt
// It first checks that ids derived from src/data/gpt2/vocab.bpe the way embdemo derives them
// (bytes in GPT-2's printable-alphabet order, then one id per merge) are tiktoken's ids.
"use strict";
const fs = require("fs");
const path = require("path");
const { get_encoding } = require("tiktoken");

const enc = get_encoding("gpt2");
const hex = (bytes) => Buffer.from(bytes).toString("hex");

function derivedTokens() {
  const printable = (b) => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  const order = [];
  for (let b = 0; b < 256; b++) if (printable(b)) order.push(b);
  for (let b = 0; b < 256; b++) if (!printable(b)) order.push(b);
  const byteOfChar = new Map();
  let next = 0x100;
  for (let b = 0; b < 256; b++) byteOfChar.set(printable(b) ? b : next++, b);
  const spell = (s) => Buffer.from([...s].map((c) => byteOfChar.get(c.codePointAt(0))));
  const tokens = order.map((b) => Buffer.from([b]));
  const lines = fs.readFileSync(path.join(__dirname, "../src/data/gpt2/vocab.bpe"), "utf8").split("\n").slice(1);
  for (const line of lines) {
    if (!line) continue;
    const [a, b] = line.split(" ");
    tokens.push(Buffer.concat([spell(a), spell(b)]));
  }
  return tokens;
}

const tokens = derivedTokens();
if (tokens.length !== 50256) throw new Error(`vocab.bpe gives ${tokens.length} tokens, not 50256`);
tokens.forEach((bytes, id) => {
  const theirs = Buffer.from(enc.decode_single_token_bytes(id));
  if (!theirs.equals(bytes)) throw new Error(`id ${id}: vocab.bpe gives ${hex(bytes)}, tiktoken ${hex(theirs)}`);
});

// Deterministic random texts (mulberry32), mixing what GPT-2's pattern treats differently.
let state = 20261123;
const random = () => {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (list) => list[Math.floor(random() * list.length)];
const assigned = (cp) => !/\p{Cn}|\p{Cs}/u.test(String.fromCodePoint(cp));
const fragments = [
  () => pick(["the", "The", "journey", "LLM", "embedding", "rows", "x", "I", "Hello", "naïve", "café", "über"]),
  () => pick(["'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", "'T", "'RE", "'x", "'", "''", "n't", "’s"]),
  () => String(Math.floor(random() * 10 ** Math.floor(random() * 9))),
  () => pick([".", ",", "!?", "...", "--", "(", ")", "\"", "#", "$", "%", "&&", "<|", "|>", "<", ">", "©", "€", "™"]),
  () => pick([" ", "  ", "   ", "\t", "\n", "\n\n", "\r\n", " \n ", "\u00a0", "\u3000", "\u2028", "\u0085", "\u2009", "\t\t "]),
  () => pick(["é", "ñ", "e\u0301", "Å", "ß", "ø", "Ωμέγα", "Привет", "مرحبا", "नमस्ते", "日本語", "漢字", "ひらがな", "한국어"]),
  () => pick(["😀", "👍🏽", "👩‍💻", "🇩🇪", "❤️", "🤖", "🫠", "𝔘𝔫𝔦", "Ⅻ", "²", "½", "١٢٣", "５６", "٣"]),
  () => "<|endoftext|>",
  () => {
    let cp;
    do {
      cp = random() < 0.8 ? Math.floor(random() * 0x3000) : Math.floor(random() * 0x20000);
    } while (!assigned(cp));
    return String.fromCodePoint(cp);
  },
];
const fixed = [
  "Your journey starts with one step",
  "Hello, do you like tea? <|endoftext|> In the sunlit terraces of someunknownPlace.",
  "Akwirw ier",
  "I HAD always thought Jack Gisburn rather a cheap genius--though a good fellow enough",
  "It's been a long day, isn't it? We're sure they'll say I'd've done it.",
  "   leading spaces and trailing   ",
  "tabs\tand\nnewlines\n\n\nand\r\nwindows",
  "digits 1234567890 and 3.14159 and 1,000,000",
  "Ünïcödé àccents, 中文字符, 日本語のテキスト, 한국어",
  "emoji 😀👍🏽👩‍💻🇩🇪 and symbols ©®™€",
  "<|endoftext|>",
  "<|endoftext|><|endoftext|> <|endoftext",
  " ",
  "\n",
  "a",
  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
];
const texts = [...fixed];
for (let i = 0; i < 400; i++) {
  let text = "";
  const parts = 1 + Math.floor(random() * 14);
  for (let k = 0; k < parts; k++) text += pick(fragments)();
  texts.push(text);
}

const out = [
  "# GPT-2 token ids from tiktoken (npm tiktoken, gpt2, allowed_special <|endoftext|>);",
  "# written by tools/make_gpt2_token_vectors.js. text <hex of UTF-8> ids <comma list>;",
  "# token <id> <hex of its bytes>.",
];
for (const text of texts) {
  const ids = Array.from(enc.encode(text, ["<|endoftext|>"]));
  out.push(`text ${hex(Buffer.from(text, "utf8"))} ids ${ids.join(",")}`);
}
for (let id = 0; id < 50256; id += 97) out.push(`token ${id} ${hex(tokens[id])}`);
process.stdout.write(out.join("\n") + "\n");
enc.free();
