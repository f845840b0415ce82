#include "core/lessons/tied_lesson.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <utility>

#include "core/kernels/embedding.hpp"
#include "core/torch/init.hpp"
#include "core/kernels/torch_matmul.hpp"
#include "core/torch/torch_rng.hpp"

namespace embdemo {
namespace {

// torch.topk's order: larger first, NaN above everything (as torch.sort puts it); equal values,
// NaNs among themselves, by the smaller id (torch leaves that order open; this one is stable,
// torch.sort(stable=True)'s).
bool ranks_above(float x, std::uint64_t a, float y, std::uint64_t b) {
    const bool x_nan = std::isnan(x);
    const bool y_nan = std::isnan(y);
    if (x_nan != y_nan) return x_nan;
    if (!x_nan && x != y) return x > y;
    return a < b;
}

bool entry_ranks_above(const TopLogit& a, const TopLogit& b) { return ranks_above(a.logit, a.id, b.logit, b.id); }

// The K highest-ranked logits of a row into best[0..k), highest first. ranks_above is a strict
// total order, so the K are the same whatever the method: a heap of the best K so far, the
// weakest on top, that a logit enters only by ranking above it (one comparison for most of a
// long row).
void top_of_row(const float* row, std::size_t cols, std::size_t k, TopLogit* best) {
    std::size_t filled = 0;
    for (std::size_t j = 0; j < cols; ++j) {
        const TopLogit entry{j, row[j]};
        if (filled < k) {
            best[filled++] = entry;
            std::push_heap(best, best + filled, entry_ranks_above);
        } else if (entry_ranks_above(entry, best[0])) {
            std::pop_heap(best, best + k, entry_ranks_above);
            best[k - 1] = entry;
            std::push_heap(best, best + k, entry_ranks_above);
        }
    }
    std::sort_heap(best, best + filled, entry_ranks_above);
}

// How many logits of the row rank above the one of `id`, in top_of_row's order.
std::size_t rank_of(const float* row, std::size_t cols, std::uint64_t id) {
    std::size_t rank = 0;
    for (std::size_t k = 0; k < cols; ++k) rank += ranks_above(row[k], k, row[id], id);
    return rank;
}

std::int64_t row_bit_sum(const float* row, std::size_t cols) {
    std::uint64_t sum = 0;
    for (std::size_t j = 0; j < cols; ++j) {
        std::int32_t bits = 0;  // as torch's view(torch.int32), then .long()
        std::memcpy(&bits, &row[j], sizeof bits);
        sum += static_cast<std::uint64_t>(static_cast<std::int64_t>(bits)) * static_cast<std::uint64_t>(j + 1);
    }
    return static_cast<std::int64_t>(sum);
}

}  // namespace

std::size_t HeldLogits::index_of(std::size_t row) const {
    const auto at = std::lower_bound(held.begin(), held.end(), row);
    if (at == held.end() || *at != row) return held.size();
    return static_cast<std::size_t>(at - held.begin());
}

std::vector<std::size_t> held_logit_rows(std::size_t rows, std::size_t vocab_size) {
    std::vector<std::size_t> held;
    const bool whole = static_cast<std::uint64_t>(rows) * vocab_size <= k_max_held_logits ||
                       rows <= 2 * k_logit_edge_rows;
    for (std::size_t i = 0; i < rows; ++i) {
        if (whole || i < k_logit_edge_rows || i >= rows - k_logit_edge_rows) held.push_back(i);
    }
    return held;
}

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
    // Shapes: x is n x d, weight is V x d (out x in), the result n x V.
    return torch_linear(x, weight);
}

TiedLesson run_tied_lesson(const TiedRequest& request, Matrix hidden, const LinearBlockSettings& blocks) {
    TiedLesson lesson;
    lesson.request = request;
    TorchGenerator generator(request.seed);
    lesson.weight = torch_embedding_weight(generator, request.vocab_size, request.dim);
    const TokenIds& ids = request.ids.values;
    lesson.hidden = request.hidden_given ? std::move(hidden) : lookup(lesson.weight, ids);
    const std::size_t n = lesson.hidden.rows;
    const std::size_t v = lesson.weight.rows;
    HeldLogits& logits = lesson.logits;
    logits.rows = n;
    logits.held = held_logit_rows(n, v);
    logits.values = Matrix(logits.held.size(), v);
    lesson.top.k = request.top;
    lesson.top.entries.resize(n * request.top);
    lesson.row_bit_sums.resize(n);
    if (!request.hidden_given) lesson.own_rank.resize(n);
    // out_head = nn.Linear(d, V, bias=False) with out_head.weight = E: logits = H @ E.T, each
    // block's rows reduced here (rows of different blocks never meet, so threads need no lock).
    linear_by_blocks(lesson.hidden, lesson.weight, blocks, [&](std::size_t first, const Matrix& rows) {
        for (std::size_t r = 0; r < rows.rows; ++r) {
            const std::size_t i = first + r;
            const float* row = rows.row(r);
            top_of_row(row, v, request.top, lesson.top.entries.data() + i * request.top);
            lesson.row_bit_sums[i] = row_bit_sum(row, v);
            if (!request.hidden_given) lesson.own_rank[i] = rank_of(row, v, ids[i]);
            const std::size_t kept = logits.index_of(i);
            if (kept < logits.held.size()) std::copy(row, row + v, logits.values.values.begin() + kept * v);
        }
    });
    lesson.top_logits = Matrix(n, request.top);
    for (std::size_t e = 0; e < lesson.top.entries.size(); ++e) lesson.top_logits.values[e] = lesson.top.entries[e].logit;
    lesson.rows_used = std::set<std::uint64_t>(ids.begin(), ids.end()).size();
    const std::uint64_t table = request.vocab_size * request.dim;
    lesson.here = {2 * table, table};
    lesson.gpt2 = gpt2_parameters(Gpt2Config{});
    return lesson;
}

}  // namespace embdemo
