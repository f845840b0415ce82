// `embdemo tokens --tokenizer`: one text through GPT-2's byte-level BPE, BERT's WordPiece, and a
// Unigram and a BPE model that SentencePiece trains on the text itself, side by side: their
// pieces, tokens per word, unknowns, the rows each table needs against the text's distinct
// words, and the embedding table each implies (V x d) and its share of a model's parameters.
// Pure: the vocabularies come in, nothing is printed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/gpt2/gpt2_vocab.hpp"
#include "core/parse_result.hpp"
#include "core/tokenizers/sentencepiece_trained.hpp"
#include "core/tokenizers/tokenized.hpp"
#include "core/tokenizers/wordpiece.hpp"

namespace embdemo {

// The largest well-known word-level table: word2vec's Google News vectors (Mikolov et al., 2013),
// 3,000,000 words and phrases: "millions of words".
inline constexpr std::uint64_t k_word2vec_google_news_words = 3000000;

struct TokenizerComparisonRequest {
    std::string text;                          // valid UTF-8, not empty (the caller checks)
    std::vector<TokenizerKind> tokenizers;     // in the order shown
    std::uint64_t trained_vocab_size = 1000;   // --vocab-size: unigram's and bpe's V
    bool vocab_size_given = false;             // if not, a text too short for it trains to its most
    std::uint64_t dim = 768;                   // d of the tables
    const SentencePieceLibrary* sentencepiece = nullptr;  // for unigram and bpe (the caller opens it)
};

// The parameters of a GPT-2-small-shaped model of width d besides its token table: 12 layers of
// attention (4d^2 + 4d), MLP (8d^2 + 5d) and two layer norms (4d), a final layer norm (2d) and
// 1,024 learnt positions (1,024 d). At d = 768 that is 85,842,432, GPT-2 small's 124,439,808
// less its 50,257 x 768 token table.
std::uint64_t gpt2_small_body_parameters(std::uint64_t dim);

struct TokenizerRun {
    Tokenized tokenized;
    std::uint64_t table_parameters = 0;  // V x d
    double model_share = 0;              // V d / (V d + gpt2_small_body_parameters(d))
};

struct TokenizerComparison {
    TokenizerComparisonRequest request;
    std::size_t words = 0;           // the book's word split, as `tokens` counts words
    std::size_t distinct_words = 0;
    std::uint64_t body_parameters = 0;
    std::vector<TokenizerRun> runs;
};

// wordpiece needs `bert`; gpt2 needs `gpt2`. Fails with the trainer's message (--vocab-size the
// text cannot reach).
ParseResult<TokenizerComparison> compare_tokenizers(const TokenizerComparisonRequest& request,
                                                    const Gpt2Vocabulary* gpt2, const WordPieceVocabulary* bert);

}  // namespace embdemo
