// A Unigram or BPE tokenizer trained on the learner's own text with SentencePiece (Debian's
// libsentencepiece, used as a library: the algorithms are Kudo's, not re-written here). Training
// is in memory (the text's lines through a SentenceIterator, the model as a serialized proto) and
// deterministic: one thread, every line used, a fixed seed. Then the same lines are encoded.
// The library is reached through embdemo's SentencePiece module (sentencepiece_module.h), which
// io/sentencepiece_library opens when a run needs it; here its answer becomes a Tokenized and its
// messages embdemo's. Pure: no files, no printing.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/parse_result.hpp"
#include "core/tokenizers/sentencepiece_module.h"
#include "core/tokenizers/tokenized.hpp"

namespace embdemo {

// SentencePiece's default line cap (max_sentence_length, 4,192 bytes) drops longer lines from
// training: here the cap is the text's longest line, so every line is learnt from.
inline constexpr std::size_t k_sentencepiece_default_line_bytes = 4192;
// The seed given to SentencePiece's random generator (SetRandomGeneratorSeed).
inline constexpr unsigned k_sentencepiece_seed = 42;
// --vocab-size's default, and its bounds: SentencePiece needs room for <unk>, <s> and </s> and
// a text's characters; the most is what the text allows (found by training).
inline constexpr std::uint64_t k_default_trained_vocab = 1000;
inline constexpr std::uint64_t k_max_trained_vocab = 1u << 20;

// The options SentencePiece trains with, as its trainer's key=value flags (the Python binding's
// keyword arguments), besides model_type and vocab_size: the tests train the reference so.
struct SentencePieceOptions {
    std::size_t max_sentence_length = k_sentencepiece_default_line_bytes;
};
SentencePieceOptions sentencepiece_options(std::string_view text);

// The module's two entry points, once opened.
struct SentencePieceLibrary {
    EmbdemoSentencePieceTrain train = nullptr;
    EmbdemoSentencePieceRelease release = nullptr;
};

// kind: unigram or bpe; text: valid UTF-8. Fails with a message starting "--vocab-size N: "
// when SentencePiece cannot train N pieces on the text (the fewest it needs or the most the text
// allows), or with SentencePiece's own reason otherwise.
// *most_allowed, when given, is set to the most the text allows when that was the failure.
ParseResult<Tokenized> train_and_tokenize(const SentencePieceLibrary& library, TokenizerKind kind,
                                          std::uint64_t vocab_size, std::string_view text,
                                          std::uint64_t* most_allowed = nullptr);

}  // namespace embdemo
