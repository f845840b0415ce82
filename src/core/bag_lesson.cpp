#include "core/bag_lesson.hpp"

#include <algorithm>
#include <cmath>

#include "core/embedding.hpp"
#include "core/init.hpp"
#include "core/rounding.hpp"
#include "core/torch_rng.hpp"

namespace embdemo {
namespace {

// Sum or mean of one bag into `out` (d values, +0 on entry).
void reduce_sum(const Matrix& weight, const BagRequest& request, std::size_t b,
                std::optional<std::size_t> padding_row, float* out, std::size_t& count) {
    const Bags& bags = request.bags;
    const bool weighted = !request.per_sample_weights.empty();
    for (std::size_t i = bags.offsets[b]; i < bags.offsets[b + 1]; ++i) {
        const std::uint64_t k = bags.ids[i];
        if (padding_row && k == *padding_row) continue;
        ++count;
        const float* row = weight.row(k);
        if (!weighted) {
            for (std::size_t j = 0; j < weight.cols; ++j) out[j] += row[j];
        } else if (!padding_row) {
            const float w = request.per_sample_weights[i];  // the vectorised kernel fuses
            for (std::size_t j = 0; j < weight.cols; ++j) out[j] = std::fma(w, row[j], out[j]);
        } else {
            const float w = request.per_sample_weights[i];  // the generic loop rounds twice
            for (std::size_t j = 0; j < weight.cols; ++j) out[j] += row[j] * w;
        }
    }
    if (request.mode == BagMode::mean) {
        const auto divisor = static_cast<float>(std::max<std::size_t>(count, 1));
        for (std::size_t j = 0; j < weight.cols; ++j) out[j] /= divisor;
    }
}

// Element-wise max of one bag: the first counted row, then any strictly larger value.
void reduce_max(const Matrix& weight, const BagRequest& request, std::size_t b,
                std::optional<std::size_t> padding_row, float* out, float* winner, std::size_t& count) {
    const Bags& bags = request.bags;
    for (std::size_t j = 0; j < weight.cols; ++j) winner[j] = -1.0f;
    for (std::size_t i = bags.offsets[b]; i < bags.offsets[b + 1]; ++i) {
        const std::uint64_t k = bags.ids[i];
        if (padding_row && k == *padding_row) continue;
        const float* row = weight.row(k);
        for (std::size_t j = 0; j < weight.cols; ++j) {
            if (count == 0 || row[j] > out[j]) {
                out[j] = row[j];
                winner[j] = static_cast<float>(k);
            }
        }
        ++count;
    }
}

UlpDifference compare_ulps(const Matrix& a, const Matrix& b) {
    UlpDifference worst;
    for (std::size_t r = 0; r < a.rows; ++r) {
        for (std::size_t c = 0; c < a.cols; ++c) {
            const std::uint64_t ulps = ulp_distance(a.at(r, c), b.at(r, c));
            worst.differing += ulps != 0;
            if (ulps > worst.ulps) worst = {ulps, r, c, worst.differing};
        }
    }
    return worst;
}

}  // namespace

const char* bag_mode_name(BagMode mode) {
    switch (mode) {
        case BagMode::sum: return "sum";
        case BagMode::max: return "max";
        case BagMode::mean: break;
    }
    return "mean";
}

Matrix embedding_bag_forward(const Matrix& weight, const BagRequest& request, std::optional<std::size_t> padding_row,
                             Matrix* winners) {
    const std::size_t bag_count = request.bags.count();
    Matrix out(bag_count, weight.cols);  // +0.0: where every bag starts, and what an empty one stays
    if (winners) *winners = Matrix(bag_count, weight.cols);
    for (std::size_t b = 0; b < bag_count; ++b) {
        std::size_t count = 0;
        float* row = out.values.data() + b * weight.cols;
        if (request.mode == BagMode::max) {
            reduce_max(weight, request, b, padding_row, row, winners->values.data() + b * weight.cols, count);
        } else {
            reduce_sum(weight, request, b, padding_row, row, count);
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
        lesson.difference = compare_ulps(lesson.output, lesson.multihot_matmul);
    }
    return lesson;
}

}  // namespace embdemo
