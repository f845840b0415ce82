// word2vec's skip-gram with negative sampling (Mikolov et al. 2013; word2vec.c's train_model with
// -cbow 0 -hs 0), two lookup tables trained together: the input vectors W (syn0, the embedding
// one keeps) and the output vectors C (syn1neg). For each kept word and each context word within
// a window shrunk at random, the context word's row of W is pushed towards the word's row of C
// and away from `negative` rows of C drawn from the unigram distribution raised to 0.75. Every
// draw comes from the project's Mersenne Twister (core/torch) in a fixed order, so a seed gives
// the same tables on every machine; tests/scripts/train_live.py re-implements the same draws.
// Pure: no printing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/matrix.hpp"

namespace embdemo {

struct SkipgramSettings {
    std::size_t dim = 100;
    std::size_t window = 5;
    std::size_t negative = 5;
    double sample = 1e-3;     // subsampling threshold t; 0 keeps every word
    std::size_t epochs = 5;
    double alpha = 0.025;     // the starting learning rate, decayed linearly to alpha * 1e-4
    std::uint64_t seed = 1;
    std::size_t loss_points = 20;  // the mean loss is kept over this many equal stretches of the run
    // Told (words processed, words in all epochs) after each sentence, and at the end; may be empty.
    std::function<void(std::size_t done, std::size_t total)> progress;
};

// word2vec.c's MAX_EXP and EXP_TABLE_SIZE: sigmoid(f) read from a table on (-6, 6); past it the
// gradient is taken as saturated.
inline constexpr float k_skipgram_max_exp = 6.0f;
inline constexpr std::size_t k_skipgram_exp_table = 1000;
// word2vec.c restarts its alpha every this many words.
inline constexpr std::size_t k_skipgram_alpha_words = 10000;
// The noise distribution is drawn as gensim draws it: a cumulative table of count^0.75 scaled to
// this, searched for a uniform draw below it.
inline constexpr std::uint32_t k_skipgram_domain = 0x7fffffffu;

// The corpus: ids into a vocabulary sorted by count (0 the most frequent), cut into sentences
// (a window never crosses one), and each id's count in it.
struct SkipgramCorpus {
    std::vector<std::vector<std::uint32_t>> sentences;
    std::vector<std::uint64_t> counts;  // per id, >= 1
    std::uint64_t words() const;
};

struct SkipgramResult {
    Matrix initial;  // W as drawn: (uniform[0, 1) - 0.5) / dim, as word2vec.c
    Matrix input;    // W after training, V x d
    Matrix output;   // C after training, V x d (starts at 0)
    std::vector<double> loss;         // mean -log sigmoid over each stretch's pairs (positive and negative)
    std::uint64_t trained_words = 0;  // centre words kept by the subsampling, over all epochs
    std::uint64_t pairs = 0;          // (word, context) pairs trained
    std::vector<bool> moved;          // rows of W that any update touched
};

// The keep probability of a word seen `count` times in `total`: word2vec.c's
// (sqrt(c / (t * total)) + 1) * (t * total) / c, compared with a uniform draw.
double skipgram_keep_probability(std::uint64_t count, std::uint64_t total, double sample);

// The noise table: cumulative count^0.75, scaled so the last entry is k_skipgram_domain.
std::vector<std::uint32_t> skipgram_noise_table(const std::vector<std::uint64_t>& counts);

SkipgramResult train_skipgram(const SkipgramCorpus& corpus, const SkipgramSettings& settings);

}  // namespace embdemo
