// `embdemo train`: an embedding table learned end to end. Three models, each a lookup:
// - bigram: nn.Embedding(V, V) whose row for a token is the logits of the next (Karpathy's
//   bigram), trained with F.cross_entropy;
// - tied: E = nn.Embedding(V, d), H = E[x], logits = H @ E.T (the tied head with no transformer
//   block between: each token predicts the next from its own vector), F.cross_entropy;
// - skipgram: word2vec's skip-gram with negative sampling (core/kernels/skipgram.hpp).
// bigram and tied take torch.optim's steps (core/kernels/optim.hpp, grad's own code) on the whole
// batch at every step, and record for every step its loss and the rows it moved, with why. Pure:
// no printing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/ids.hpp"
#include "core/kernels/embedding.hpp"
#include "core/kernels/optim.hpp"
#include "core/kernels/skipgram.hpp"
#include "core/matrix.hpp"
#include "core/table_sizes.hpp"

namespace embdemo {

enum class TrainModel { bigram, tied, skipgram };

const char* train_model_name(TrainModel model);

// The pairs bigram and tied learn from: x[i] -> y[i], each token's next.
struct NextTokenPairs {
    TokenIds inputs;
    TokenIds targets;
};
// The batches of pairs: a flat list is one batch, every step's; a batch of rows (typed with ';',
// or the book's loader's windows and their targets) gives one per row, and step t takes row
// t mod B, as grad's --optimizer steps do.
std::vector<NextTokenPairs> next_token_batches(const IdBatch& ids);
// Every batch's pairs, in order.
NextTokenPairs all_pairs(const std::vector<NextTokenPairs>& batches);

struct TrainRequest : TableSizes {
    TrainModel model = TrainModel::bigram;
    IdBatch ids;  // every id < vocab_size (the caller checks)
    // Where each skip-gram sentence ends (exclusive positions in ids.values, ascending, the last
    // is ids.values.size()); a window never crosses one.
    std::vector<std::size_t> sentence_ends;
    OptimizerSettings optimizer;  // bigram, tied
    std::size_t steps = 1;        // bigram, tied
    SkipgramSettings skipgram;    // skipgram; its dim and seed are the request's
    std::uint64_t min_count = 1;  // skipgram: ids seen fewer times are dropped from the corpus
    std::vector<std::size_t> probes;  // rows whose neighbours the lesson lists
    std::size_t top = 5;              // neighbours per probe
    // Runs with seeds seed, seed + 1, ...: how stable the probes' neighbours are across them.
    std::size_t seeds = 1;
    // Told (done, total) as the run goes: steps for bigram and tied, words for skipgram; done ==
    // total at the end. The CLI draws a bar on a terminal; empty: nothing is told.
    std::function<void(std::size_t done, std::size_t total)> progress;
};

struct Neighbour {
    std::size_t row = 0;
    double cosine = 0.0;
};

struct ProbeNeighbours {
    std::size_t row = 0;
    std::vector<Neighbour> before, after;
    std::size_t overlap = 0;  // rows in both lists
    // With seeds > 1: the rows of the list after training in each run, this one first.
    std::vector<std::vector<std::size_t>> by_seed;
};

// The mean, over every pair of runs, of the rows two lists share, as a fraction of the longer:
// 1 when every seed finds the same neighbours. 1 for fewer than two lists.
double list_stability(const std::vector<std::vector<std::size_t>>& lists);

// The nearest rows of `table` to row `probe` by cosine similarity (computed in double; a zero
// row has cosine 0 with everything), the probe itself left out, ties by the lower row.
std::vector<Neighbour> nearest_rows(const Matrix& table, std::size_t probe, std::size_t top);

// How many of the words skipgram's check looks up in W, both ways.
inline constexpr std::size_t k_train_lookup_ids = 16;

struct TrainStep {
    float loss = 0.0f;                // the loss on the step's batch, before its update
    std::vector<RowChange> changed;   // rows its update moved, ascending
};

struct TrainLesson {
    TrainRequest request;
    Matrix initial;  // the table as drawn
    Matrix weight;   // after training (skipgram: the input vectors W)
    Matrix output;   // skipgram's output vectors C; empty otherwise
    std::vector<TrainStep> steps;  // bigram, tied
    float final_loss = 0.0f;       // bigram, tied: the loss over every pair after the last step
    std::vector<double> skipgram_loss;
    std::uint64_t trained_words = 0, pairs = 0;
    std::vector<std::uint64_t> counts;  // per row, its count in the ids
    std::uint64_t kept_vocab = 0;       // skipgram: rows seen min_count or more times
    // The first step's gradient through the lookup, as the gather's scatter-add and as the
    // one-hot product one_hot(x).T @ G, and their comparison.
    // skipgram instead: the trained W looked up at the first k_train_lookup_ids words, and
    // one_hot(words) @ W.
    Matrix scatter_grad, onehot_grad;
    Comparison onehot_check;
    std::vector<ProbeNeighbours> neighbours;
};

// The request must be valid (every id < V, at least one pair, sizes within the caps).
TrainLesson run_train_lesson(const TrainRequest& request);

}  // namespace embdemo
