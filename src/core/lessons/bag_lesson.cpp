#include "core/lessons/bag_lesson.hpp"

#include "core/kernels/torch_matmul.hpp"

#include <algorithm>
#include <cmath>

#include "core/kernels/embedding.hpp"
#include "core/torch/init.hpp"
#include "core/kernels/rounding.hpp"
#include "core/torch/torch_rng.hpp"

namespace embdemo {
namespace {

// Sum or mean of one bag into `out` (d values, +0 on entry), each step recorded in `steps` when
// given.
void reduce_sum(const Matrix& weight, const BagRequest& request, std::size_t b,
                std::optional<std::size_t> padding_row, float* out, std::size_t& count, BagSteps* steps) {
    const Bags& bags = request.bags;
    const bool weighted = !request.per_sample_weights.empty();
    for (std::size_t i = bags.offsets[b]; i < bags.offsets[b + 1]; ++i) {
        const std::uint64_t k = bags.ids[i];
        if (padding_row && k == *padding_row) {
            if (steps) steps->record({BagStep::Kind::skip_padding, k, 1.0f, 0, {}});
            continue;
        }
        ++count;
        const float* row = weight.row(k);
        const float w = weighted ? request.per_sample_weights[i] : 1.0f;
        if (!weighted) {
            for (std::size_t j = 0; j < weight.cols; ++j) out[j] += row[j];
        } else if (!padding_row) {  // the vectorised kernel fuses
            for (std::size_t j = 0; j < weight.cols; ++j) out[j] = std::fma(w, row[j], out[j]);
        } else {  // the generic loop rounds twice
            for (std::size_t j = 0; j < weight.cols; ++j) out[j] += row[j] * w;
        }
        if (steps) steps->record({BagStep::Kind::add, k, w, 0, {out, out + weight.cols}});
    }
    if (request.mode == BagMode::mean) {
        const auto divisor = static_cast<float>(std::max<std::size_t>(count, 1));
        for (std::size_t j = 0; j < weight.cols; ++j) out[j] /= divisor;
        if (steps) steps->record({BagStep::Kind::divide, 0, divisor, 0, {out, out + weight.cols}});
    }
}

// Element-wise max of one bag: the first counted row, then any strictly larger value.
void reduce_max(const Matrix& weight, const BagRequest& request, std::size_t b,
                std::optional<std::size_t> padding_row, float* out, float* winner, std::size_t& count,
                BagSteps* steps) {
    const Bags& bags = request.bags;
    for (std::size_t j = 0; j < weight.cols; ++j) winner[j] = -1.0f;
    for (std::size_t i = bags.offsets[b]; i < bags.offsets[b + 1]; ++i) {
        const std::uint64_t k = bags.ids[i];
        if (padding_row && k == *padding_row) {
            if (steps) steps->record({BagStep::Kind::skip_padding, k, 1.0f, 0, {}});
            continue;
        }
        const float* row = weight.row(k);
        const BagStep::Kind kind = count == 0 ? BagStep::Kind::max_take : BagStep::Kind::max_offer;
        std::size_t taken = 0;
        for (std::size_t j = 0; j < weight.cols; ++j) {
            if (count == 0 || row[j] > out[j]) {
                out[j] = row[j];
                winner[j] = static_cast<float>(k);
                ++taken;
            }
        }
        ++count;
        if (steps) steps->record({kind, k, 1.0f, taken, {out, out + weight.cols}});
    }
}

bool same_bits(const std::vector<float>& row, const float* expected) {
    return std::equal(row.begin(), row.end(), expected, [](float x, float y) { return ulp_distance(x, y) == 0; });
}

// Over rows [first, end) of a and b.
UlpDifference compare_ulps(const Matrix& a, const Matrix& b, std::size_t first, std::size_t end) {
    UlpDifference diff;
    diff.bag = first;
    bool is_zero_sign = false;  // the pair kept is +0 against -0
    for (std::size_t r = first; r < end; ++r) {
        for (std::size_t c = 0; c < a.cols; ++c) {
            const float x = a.at(r, c);
            const float y = b.at(r, c);
            const std::uint64_t ulps = ulp_distance(x, y);
            if (ulps == 0) continue;
            const bool zero_sign = x == 0.0f && y == 0.0f;
            if (diff.differing++ == 0 || (!zero_sign && (is_zero_sign || ulps > diff.ulps))) {
                // A real difference outranks +0 against -0, which the distance puts at 1 ulp.
                diff.ulps = ulps;
                diff.bag = r;
                diff.column = c;
                is_zero_sign = zero_sign;
            }
            diff.zero_signs += zero_sign;
            diff.non_finite += !std::isfinite(x) || !std::isfinite(y);
        }
    }
    return diff;
}

}  // namespace

const char* bag_mode_name(BagMode mode) { return name_of(k_bag_modes, mode); }

Matrix embedding_bag_forward(const Matrix& weight, const BagRequest& request, std::optional<std::size_t> padding_row,
                             Matrix* winners) {
    const std::size_t bag_count = request.bags.count();
    Matrix out(bag_count, weight.cols);  // +0.0: where every bag starts, and what an empty one stays
    if (winners) *winners = Matrix(bag_count, weight.cols);
    for (std::size_t b = 0; b < bag_count; ++b) {
        std::size_t count = 0;
        float* row = out.values.data() + b * weight.cols;
        if (request.mode == BagMode::max) {
            reduce_max(weight, request, b, padding_row, row, winners->values.data() + b * weight.cols, count, nullptr);
        } else {
            reduce_sum(weight, request, b, padding_row, row, count, nullptr);
        }
    }
    return out;
}

Matrix multihot_matrix(const BagRequest& request, std::optional<std::size_t> padding_row) {
    const Bags& bags = request.bags;
    Matrix m(bags.count(), request.vocab_size);
    for (std::size_t b = 0; b < bags.count(); ++b) {
        std::size_t count = 0;
        for (std::size_t i = bags.offsets[b]; i < bags.offsets[b + 1]; ++i) {
            const std::uint64_t k = bags.ids[i];
            if (padding_row && k == *padding_row) continue;
            ++count;
            m.at(b, k) += request.per_sample_weights.empty() ? 1.0f : request.per_sample_weights[i];
        }
        if (request.mode == BagMode::mean && count > 0) {
            for (std::size_t k = 0; k < m.cols; ++k) m.at(b, k) /= static_cast<float>(count);
        }
    }
    return m;
}

BagLesson run_bag_lesson(const BagRequest& request) {
    BagLesson lesson;
    lesson.request = request;
    if (request.padding_idx) lesson.padding_row = resolve_padding_idx(*request.padding_idx, request.vocab_size).value();
    // nn.EmbeddingBag draws its weight as nn.Embedding does, padding row zeroed.
    TorchGenerator generator(request.seed);
    lesson.weight = torch_embedding_weight(generator, request.vocab_size, request.dim, lesson.padding_row);
    lesson.output = embedding_bag_forward(lesson.weight, request, lesson.padding_row,
                                          request.mode == BagMode::max ? &lesson.winners : nullptr);
    const Bags& bags = request.bags;
    for (std::size_t b = 0; b < bags.count(); ++b) {
        std::size_t count = 0;
        for (std::size_t i = bags.offsets[b]; i < bags.offsets[b + 1]; ++i) {
            count += !(lesson.padding_row && bags.ids[i] == *lesson.padding_row);
        }
        lesson.bag_sizes.push_back(count);
    }
    if (request.mode != BagMode::max) {
        lesson.multihot = multihot_matrix(request, lesson.padding_row);
        lesson.multihot_matmul = matmul(lesson.multihot, lesson.weight);
        lesson.difference = compare_ulps(lesson.output, lesson.multihot_matmul, 0, lesson.output.rows);
        lesson.torch_matmul = torch_mm(lesson.multihot, lesson.weight);
        lesson.torch_difference = compare_ulps(lesson.output, lesson.torch_matmul, 0, lesson.output.rows);
    }
    return lesson;
}

void BagSteps::record(BagStep step) {
    if (head.size() < k_head) {
        head.push_back(std::move(step));
        return;
    }
    if (tail.size() == k_tail + 1) {
        tail.erase(tail.begin());
        ++dropped;
    }
    tail.push_back(std::move(step));
}

std::size_t BagSteps::hidden() const { return dropped == 0 ? 0 : dropped + tail.size() - k_tail; }

std::vector<const BagStep*> BagSteps::shown() const {
    std::vector<const BagStep*> steps;
    for (const BagStep& step : head) steps.push_back(&step);
    for (std::size_t i = hidden() == 0 ? 0 : tail.size() - k_tail; i < tail.size(); ++i) steps.push_back(&tail[i]);
    return steps;
}

namespace {

// Which of M @ E's departures from the kernel a computation of one bag takes (`merged` only
// with `sorted`, as the path takes them).
struct Route {
    bool sorted = false;
    bool merged = false;
    bool divide_first = false;
    bool fused = false;
};

// Bag b computed along `route`. The kernel's own route (nothing taken, `fused` as the kernel
// does it) gives the output row; all of them with `fused` false give M @ E's row (M @ E also
// adds 0 * E[k] for the ids the bag lacks: +-0 on a sum that starts at +0 and, without fused
// products, is never -0, so no bit changes).
std::vector<float> reduce_along(const BagLesson& lesson, std::size_t b, const Route& route) {
    const BagRequest& request = lesson.request;
    const Bags& bags = request.bags;
    struct Term {
        std::uint64_t id;
        float scale;
    };
    std::vector<Term> terms;
    for (std::size_t i = bags.offsets[b]; i < bags.offsets[b + 1]; ++i) {
        if (lesson.padding_row && bags.ids[i] == *lesson.padding_row) continue;
        terms.push_back({bags.ids[i], request.per_sample_weights.empty() ? 1.0f : request.per_sample_weights[i]});
    }
    const auto n = static_cast<float>(std::max<std::size_t>(terms.size(), 1));
    const bool mean = request.mode == BagMode::mean;
    if (route.sorted) {
        std::stable_sort(terms.begin(), terms.end(), [](const Term& x, const Term& y) { return x.id < y.id; });
    }
    if (route.merged) {  // M's entry: the counts or weights of one id summed in bag order
        // Merging follows sorting on the path, so an id's terms are adjacent and still in bag order.
        std::vector<Term> merged;
        for (const Term& term : terms) {
            if (!merged.empty() && merged.back().id == term.id) {
                merged.back().scale += term.scale;
            } else {
                merged.push_back(term);
            }
        }
        terms = std::move(merged);
    }
    if (mean && route.divide_first) {
        for (Term& term : terms) term.scale /= n;
    }
    std::vector<float> row(lesson.weight.cols, 0.0f);
    for (const Term& term : terms) {
        const float* e = lesson.weight.row(term.id);
        for (std::size_t j = 0; j < row.size(); ++j) {
            row[j] = route.fused ? std::fma(term.scale, e[j], row[j]) : row[j] + term.scale * e[j];
        }
    }
    if (mean && !route.divide_first) {
        for (float& value : row) value /= n;
    }
    return row;
}

BagRouteDifferences bag_route_differences(const BagLesson& lesson, std::size_t b) {
    BagRouteDifferences ways;
    if (lesson.request.mode == BagMode::max) return ways;
    Route route;
    route.fused = !lesson.request.per_sample_weights.empty() && !lesson.padding_row;
    std::vector<float> before = reduce_along(lesson, b, route);
    const auto take = [&](bool Route::*change, bool value, bool BagRouteDifferences::*way) {
        route.*change = value;
        std::vector<float> after = reduce_along(lesson, b, route);
        ways.*way = !same_bits(before, after.data());
        before = std::move(after);
    };
    take(&Route::sorted, true, &BagRouteDifferences::reordered);
    take(&Route::merged, true, &BagRouteDifferences::merged_repeats);
    take(&Route::divide_first, true, &BagRouteDifferences::divided_first);
    take(&Route::fused, false, &BagRouteDifferences::fused);
    const float* product = lesson.multihot_matmul.row(b);
    ways.reached = same_bits(before, product);
    return ways;
}

}  // namespace

BagRouteDifferences route_differences(const BagLesson& lesson, std::optional<std::size_t> bag) {
    if (bag) return bag_route_differences(lesson, *bag);
    BagRouteDifferences any;
    any.reached = true;
    if (lesson.request.mode == BagMode::max) return any;
    const std::size_t d = lesson.output.cols;
    for (std::size_t b = 0; b < lesson.request.bags.count(); ++b) {
        const std::vector<float> output(lesson.output.row(b), lesson.output.row(b) + d);
        if (same_bits(output, lesson.multihot_matmul.row(b))) continue;
        const BagRouteDifferences ways = bag_route_differences(lesson, b);
        any.reordered |= ways.reordered;
        any.merged_repeats |= ways.merged_repeats;
        any.divided_first |= ways.divided_first;
        any.fused |= ways.fused;
        any.reached &= ways.reached;
    }
    return any;
}

BagTrace trace_bag(const BagLesson& lesson, std::size_t b) {
    const BagRequest& request = lesson.request;
    const std::size_t d = lesson.weight.cols;
    BagTrace trace;
    trace.bag = b;
    trace.bag_row.assign(d, 0.0f);
    std::size_t count = 0;
    if (request.mode == BagMode::max) {
        std::vector<float> winners(d);
        reduce_max(lesson.weight, request, b, lesson.padding_row, trace.bag_row.data(), winners.data(), count,
                   &trace.bag_steps);
    } else {
        reduce_sum(lesson.weight, request, b, lesson.padding_row, trace.bag_row.data(), count, &trace.bag_steps);
    }
    trace.bag_matches = same_bits(trace.bag_row, lesson.output.row(b));
    if (request.mode == BagMode::max) return trace;

    trace.product_row.assign(d, 0.0f);
    for (std::size_t k = 0; k < lesson.multihot.cols; ++k) {
        const float m = lesson.multihot.at(b, k);
        if (m == 0.0f) continue;
        const float* row = lesson.weight.row(k);
        for (std::size_t j = 0; j < d; ++j) trace.product_row[j] += m * row[j];
        trace.product_steps.record({BagStep::Kind::add, k, m, 0, trace.product_row});
    }
    trace.product_matches = same_bits(trace.product_row, lesson.multihot_matmul.row(b));
    trace.difference = compare_ulps(lesson.output, lesson.multihot_matmul, b, b + 1);
    trace.ways = route_differences(lesson, b);
    return trace;
}

std::vector<std::size_t> traced_bags(const BagLesson& lesson) {
    const std::size_t count = lesson.request.bags.count();
    std::vector<std::size_t> bags;
    for (std::size_t b = 0; b < std::min(count, k_max_traced_bags); ++b) bags.push_back(b);
    const UlpDifference& worst = lesson.difference;
    if (worst.ulps != 0 && worst.bag >= k_max_traced_bags) bags.push_back(worst.bag);
    return bags;
}

}  // namespace embdemo
