// --text and --text-file: a text's token ids stand in for --ids, cut by GPT-2's tokenizer or the
// one --tokenizer names. A tokenizer's data (GPT-2's vocab.bpe, BERT's vocab.txt, the
// SentencePiece module) is read from disk on first use, so runs with --ids never pay for it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/gpt2/gpt2_vocab.hpp"
#include "core/ids.hpp"
#include "core/parse_result.hpp"
#include "core/tokenizers/sentencepiece_trained.hpp"
#include "core/tokenizers/wordpiece.hpp"

namespace embdemo {

// A text file larger than this is refused before it is read (the book's the-verdict.txt is 20 KB;
// the tokenizer takes about 0.1 s per MB).
constexpr std::uint64_t k_max_text_file_bytes = 16ull << 20;

// GPT-2's vocabulary, loaded once from the first of: $EMBDEMO_DATA_DIR/gpt2, share/embdemo/gpt2
// beside the binary (a build tree), ../share/embdemo/gpt2 from it (an install), and the install
// prefix this binary was configured with.
ParseResult<const Gpt2Vocabulary*> gpt2_vocabulary();

// BERT's uncased WordPiece vocabulary (bert/vocab.txt), loaded once from the same directories.
ParseResult<const WordPieceVocabulary*> bert_vocabulary();

// embdemo's SentencePiece module (embdemo_sentencepiece.so), opened on first use: beside the
// program (a build tree: also one directory up), then where it is installed. Loaded once.
ParseResult<const SentencePieceLibrary*> sentencepiece_library();

// The vocab.txt that bert_vocabulary reads, or "": protected from outputs as vocab.bpe is.
std::string bert_vocabulary_file();

// The vocab.bpe that gpt2_vocabulary reads (the first of those directories that has one), or ""
// when none does: an output must never replace it, whether this run tokenizes or not.
std::string gpt2_vocabulary_file();

// A text and where it came from, as messages name it ("--text", "--text-file 'notes.txt':").
struct GivenText {
    std::string text;
    std::string option;
};

// The tokenizer a text is cut by (--tokenizer, --vocab-size), read from the words alone.
struct TextTokenizer {
    TokenizerKind kind = TokenizerKind::gpt2;
    std::uint64_t vocab_size = k_default_trained_vocab;  // unigram and bpe: the pieces to train
    bool vocab_size_given = false;  // without it, 1,000 or the most the text allows
};

// Why the text cannot be tokenized, if it cannot: it is not UTF-8, it is empty (no tokens), or
// the tokenizer's data is missing.
std::optional<std::string> check_text(const GivenText& given, TokenizerKind kind = TokenizerKind::gpt2);

// The ids of the text as one flat sequence, with its tokens, the tokenizer and its V, once
// check_text passes. Unigram and BPE are trained on the text first; a --vocab-size the text
// cannot reach is refused then, with the bounds SentencePiece found.
ParseResult<IdBatch> ids_from_text(GivenText given, const TextTokenizer& tokenizer = {});

// --text-file's content: a regular file of at most k_max_text_file_bytes. `option` is the option
// that named the file, for the message (embdemo bench reads its --tokenizer file here too).
ParseResult<std::string> read_text_file(const std::string& path, const char* option = "--text-file");

}  // namespace embdemo
