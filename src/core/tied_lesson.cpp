#include "core/tied_lesson.hpp"

#include <algorithm>
#include <numeric>
#include <set>
#include <utility>

#include "core/embedding.hpp"
#include "core/init.hpp"
#include "core/torch_matmul.hpp"
#include "core/torch_rng.hpp"

namespace embdemo {
namespace {

// The K largest logits of a row, larger first; equal logits by smaller id (torch.topk leaves
// the order of ties unspecified).
std::vector<TopLogit> top_of_row(const Matrix& logits, std::size_t row, std::size_t k) {
    std::vector<std::uint64_t> order(logits.cols);
    std::iota(order.begin(), order.end(), std::uint64_t{0});
    const auto larger = [&](std::uint64_t a, std::uint64_t b) {
        const float x = logits.at(row, a);
        const float y = logits.at(row, b);
        return x != y ? x > y : a < b;
    };
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(), larger);
    std::vector<TopLogit> top;
    for (std::size_t i = 0; i < k; ++i) top.push_back({order[i], logits.at(row, order[i])});
    return top;
}

// How many logits of the row beat the one of `id` (ties go to the smaller id, as in top_of_row).
std::size_t rank_of(const Matrix& logits, std::size_t row, std::uint64_t id) {
    const float own = logits.at(row, id);
    std::size_t rank = 0;
    for (std::size_t k = 0; k < logits.cols; ++k) {
        const float value = logits.at(row, k);
        rank += value > own || (value == own && k < id);
    }
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
