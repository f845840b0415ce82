// dL/dX for the one-hot form, whole or a block of positions at a time, and the ranking of its
// scores.
#include "core/kernels/onehot_input.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include "core/kernels/embedding.hpp"
#include "core/kernels/torch_matmul.hpp"

namespace embdemo {

Matrix onehot_input_gradient(const Matrix& upstream, const Matrix& weight) {
    // X.grad after (X @ E).backward(G): autograd's mm_mat1_backward computes G @ E.T, or
    // (E @ G.T).T when X is "column-major" (n = V = 1), through the BLAS as PyTorch does.
    if (upstream.rows == 1 && weight.rows == 1) return transpose(torch_linear(weight, upstream));
    return torch_linear(upstream, weight);
}

bool OneHotInputScores::kept(std::size_t t) const {
    return std::binary_search(kept_positions.begin(), kept_positions.end(), t);
}

const float* OneHotInputScores::row(std::size_t t) const {
    const auto at = std::lower_bound(kept_positions.begin(), kept_positions.end(), t);
    if (at == kept_positions.end() || *at != t) throw std::logic_error("dL/dX: a row that was not kept");
    return values.row(static_cast<std::size_t>(at - kept_positions.begin()));
}

OneHotInputScores onehot_input_scores(const Matrix& upstream, const Matrix& weight, std::uint64_t kept_values,
                                      const std::vector<std::size_t>& shown, const OneHotProductSettings& settings) {
    OneHotInputScores scores;
    const std::size_t n = upstream.rows;
    const std::size_t vocab = weight.rows;
    const std::size_t d = upstream.cols;
    scores.positions = n;
    scores.vocab_size = vocab;
    if (static_cast<std::uint64_t>(n) * vocab <= kept_values) {
        scores.kept_positions.resize(n);
        std::iota(scores.kept_positions.begin(), scores.kept_positions.end(), std::size_t{0});
        scores.values = onehot_input_gradient(upstream, weight);
        return scores;
    }
    scores.kept_positions = shown;
    scores.values = Matrix(shown.size(), vocab);
    // Row t of G @ E.T reads only row t of G: a block of G's rows is the same call with fewer
    // rows, each output the BLAS's sum over d in the same order. n = V = 1 never gets here.
    for_each_block(cut_into_blocks(n, aligned_block_rows(vocab, settings.block_values)), n, settings,
                   [&](const RowBlock& block) {
                       const auto first = std::lower_bound(shown.begin(), shown.end(), block.first);
                       const auto last = std::lower_bound(first, shown.end(), block.first + block.count);
                       if (first == last) return;  // no shown row here: nothing of this block is kept
                       Matrix rows(block.count, d);
                       std::memcpy(rows.values.data(), upstream.row(block.first), rows.values.size() * sizeof(float));
                       const Matrix block_scores = torch_linear(rows, weight);
                       for (auto t = first; t != last; ++t) {
                           std::memcpy(scores.values.values.data() + static_cast<std::size_t>(t - shown.begin()) * vocab,
                                       block_scores.row(*t - block.first), vocab * sizeof(float));
                       }
                   });
    return scores;
}

std::vector<std::size_t> lowest_scores(const float* row, std::size_t vocab_size, std::size_t count) {
    std::vector<std::size_t> order(vocab_size);
    std::iota(order.begin(), order.end(), std::size_t{0});
    const auto before = [row](std::size_t a, std::size_t b) {
        const bool nan_a = std::isnan(row[a]);
        const bool nan_b = std::isnan(row[b]);
        if (nan_a != nan_b) return nan_b;
        if (!nan_a && row[a] != row[b]) return row[a] < row[b];
        return a < b;
    };
    count = std::min(count, order.size());
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count), order.end(), before);
    order.resize(count);
    return order;
}

std::vector<std::size_t> lowest_scores(const Matrix& scores, std::size_t t, std::size_t count) {
    return lowest_scores(scores.row(t), scores.cols, count);
}

}  // namespace embdemo
