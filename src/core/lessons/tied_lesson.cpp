#include "core/lessons/tied_lesson.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <utility>

#include "core/kernels/embedding.hpp"
#include "core/torch/init.hpp"
#include "core/kernels/torch_matmul.hpp"
#include "core/torch/torch_rng.hpp"

namespace embdemo {
namespace {

// The K largest logits of a row, larger first; equal logits by smaller id (torch.topk leaves
// the order of ties unspecified).
// torch.topk's order: larger first, NaN above everything (as torch.sort puts it); equal values,
// NaNs among themselves, by the smaller id (torch leaves that order open; this one is stable).
bool ranks_above(float x, std::uint64_t a, float y, std::uint64_t b) {
    const bool x_nan = std::isnan(x);
    const bool y_nan = std::isnan(y);
    if (x_nan != y_nan) return x_nan;
    if (!x_nan && x != y) return x > y;
    return a < b;
}

std::vector<TopLogit> top_of_row(const Matrix& logits, std::size_t row, std::size_t k) {
    std::vector<std::uint64_t> order(logits.cols);
    std::iota(order.begin(), order.end(), std::uint64_t{0});
    const auto larger = [&](std::uint64_t a, std::uint64_t b) {
        return ranks_above(logits.at(row, a), a, logits.at(row, b), b);
    };
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(), larger);
    std::vector<TopLogit> top;
    for (std::size_t i = 0; i < k; ++i) top.push_back({order[i], logits.at(row, order[i])});
    return top;
}

// How many logits of the row rank above the one of `id`, in top_of_row's order.
std::size_t rank_of(const Matrix& logits, std::size_t row, std::uint64_t id) {
    const float own = logits.at(row, id);
    std::size_t rank = 0;
    for (std::size_t k = 0; k < logits.cols; ++k) rank += ranks_above(logits.at(row, k), k, own, id);
    return rank;
}

}  // namespace

ParameterCounts gpt2_parameters(const Gpt2Config& config) {
    const std::uint64_t d = config.dim;
    const std::uint64_t table = config.vocab * d;
    const std::uint64_t block = 12 * d * d + 10 * d;
    ParameterCounts counts;
    counts.untied = table + config.context * d + config.layers * block + 2 * d + table;
    counts.tied = counts.untied - table;
    return counts;
}

Matrix linear_forward(const Matrix& x, const Matrix& weight) {
    // Shapes: x is n x d, weight is V x d (out x in), the result n x V: F.linear(x, weight),
    // through the BLAS exactly as PyTorch calls it, so the logits are PyTorch's bit for bit.
    return torch_linear(x, weight);
}

TiedLesson run_tied_lesson(const TiedRequest& request, Matrix hidden) {
    TiedLesson lesson;
    lesson.request = request;
    TorchGenerator generator(request.seed);
    lesson.weight = torch_embedding_weight(generator, request.vocab_size, request.dim);
    const TokenIds& ids = request.ids.values;
    lesson.hidden = request.hidden_given ? std::move(hidden) : lookup(lesson.weight, ids);
    // out_head = nn.Linear(d, V, bias=False) with out_head.weight = E: logits = H @ E.T.
    lesson.logits = linear_forward(lesson.hidden, lesson.weight);
    for (std::size_t i = 0; i < lesson.logits.rows; ++i) {
        lesson.top.push_back(top_of_row(lesson.logits, i, request.top));
        if (!request.hidden_given) lesson.own_rank.push_back(rank_of(lesson.logits, i, ids[i]));
    }
    lesson.rows_used = std::set<std::uint64_t>(ids.begin(), ids.end()).size();
    const std::uint64_t table = request.vocab_size * request.dim;
    lesson.here = {2 * table, table};
    lesson.gpt2 = gpt2_parameters(Gpt2Config{});
    return lesson;
}

}  // namespace embdemo
