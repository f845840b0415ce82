#include "core/lessons/positions_lesson.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <unordered_map>

#include "core/torch/init.hpp"
#include "core/kernels/onehot_products.hpp"
#include "core/kernels/torch_matmul.hpp"
#include "core/torch/torch_rng.hpp"

namespace embdemo {
namespace {

// out[i] = a[i] + b[i mod T]: the broadcast of tok(ids) (B x T x d) + pos(arange(T)) (T x d),
// one float32 addition per element, which is all PyTorch does.
Matrix add_positions(const Matrix& tokens, const Matrix& positions) {
    Matrix out(tokens.rows, tokens.cols);
    for (std::size_t i = 0; i < tokens.rows; ++i) {
        const float* p = positions.row(i % positions.rows);
        for (std::size_t j = 0; j < tokens.cols; ++j) out.at(i, j) = tokens.at(i, j) + p[j];
    }
    return out;
}

// The first id met at a position t other than the one where it first appeared (any id used at
// two different t is found: a later use at another t differs from the first use's t).
std::optional<RepeatedToken> find_repeated(const PositionsLesson& lesson) {
    const IdBatch& ids = lesson.request.ids;
    std::unordered_map<std::uint64_t, std::size_t> first_use;
    for (std::size_t second = 0; second < ids.values.size(); ++second) {
        const auto [hit, inserted] = first_use.emplace(ids.values[second], second);
        const std::size_t first = hit->second;
        if (inserted || position_of(ids, first) == position_of(ids, second)) continue;
        RepeatedToken repeated{ids.values[first], first, second, 0};
        for (std::size_t j = 0; j < lesson.output.cols; ++j) {
            repeated.differing_columns += lesson.output.at(first, j) != lesson.output.at(second, j);
        }
        return repeated;
    }
    return std::nullopt;
}

// The first two positions (or the only one twice), at offsets 0-3 from starts 0, 1, 5 and 20.
RopeScores rope_scores(const Matrix& tokens) {
    RopeScores scores;
    scores.second = tokens.rows > 1 ? 1 : 0;
    scores.starts = {0, 1, 5, 20};
    scores.offsets = {0, 1, 2, 3};
    const float* a = tokens.row(scores.first);
    const float* b = tokens.row(scores.second);
    for (const std::size_t k : scores.offsets) {
        std::vector<double> row;
        for (const std::size_t p : scores.starts) row.push_back(rope_score(a, p, b, p + k, tokens.cols));
        const auto [low, high] = std::minmax_element(row.begin(), row.end());
        scores.widest_spread = std::max(scores.widest_spread, *high - *low);
        scores.scores.push_back(std::move(row));
    }
    return scores;
}

Matrix positions_table(PositionEncoding encoding, TorchGenerator& generator, std::size_t context, std::size_t dim) {
    const PositionEncodingTraits& traits = traits_of(encoding);
    if (!traits.has_table) return Matrix(0, dim);
    return traits.drawn ? torch_embedding_weight(generator, context, dim) : sinusoidal_table(context, dim);
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Softmax over one query row's causal scores, in double: exp(x - max) / sum, in order of j.
std::vector<double> softmax_row(const std::vector<float>& row) {
    double high = row[0];
    for (const float x : row) high = std::max(high, static_cast<double>(x));
    std::vector<double> out(row.size());
    double total = 0.0;
    for (std::size_t j = 0; j < row.size(); ++j) {
        out[j] = std::exp(static_cast<double>(row[j]) - high);
        total += out[j];
    }
    for (double& p : out) p /= total;
    return out;
}

AlibiBias alibi_bias(const Matrix& tokens, std::size_t seq, std::size_t heads) {
    AlibiBias alibi;
    alibi.slopes = Matrix(1, heads);
    alibi.slopes.values = alibi_slopes(heads);
    alibi.distances = alibi_distance_table(alibi.slopes.values, seq);
    for (std::size_t i = 0; i < seq; ++i) {
        for (std::size_t j = 0; j <= i; ++j) alibi.pair_distance.push_back(i - j);
    }
    alibi.bias = lookup(alibi.distances, alibi.pair_distance);
    alibi.bias_onehot = onehot_mm(alibi.pair_distance, alibi.distances);
    alibi.check = compare_exact(alibi.bias, alibi.bias_onehot);
    // q . k of the first sequence's token rows, F.linear(x, x) = x @ x.T as PyTorch computes it.
    Matrix first(seq, tokens.cols);
    std::copy(tokens.values.begin(), tokens.values.begin() + static_cast<std::ptrdiff_t>(seq * tokens.cols),
              first.values.begin());
    alibi.scores = torch_linear(first, first);
    const auto as_float = [](std::int64_t v) { return static_cast<float>(v); };
    for (std::size_t h = 0; h < heads; ++h) {
        const float m = alibi.slopes.values[h];
        for (std::size_t i = 0; i < seq; ++i) {
            std::vector<float> ours, bloom, mpt;
            for (std::size_t j = 0; j <= i; ++j) {
                const float s = alibi.scores.at(i, j);
                const auto ii = static_cast<std::int64_t>(i), jj = static_cast<std::int64_t>(j);
                ours.push_back(s + m * as_float(jj - ii));
                bloom.push_back(s + m * as_float(jj));
                mpt.push_back(s + m * as_float(jj - static_cast<std::int64_t>(seq - 1)));
            }
            const std::vector<double> p = softmax_row(ours), p_bloom = softmax_row(bloom), p_mpt = softmax_row(mpt);
            for (std::size_t j = 0; j <= i; ++j) {
                alibi.differing_bloom += !same_bits(ours[j], bloom[j]);
                alibi.differing_mpt += !same_bits(ours[j], mpt[j]);
                alibi.widest_probability_gap = std::max({alibi.widest_probability_gap, std::abs(p[j] - p_bloom[j]),
                                                         std::abs(p[j] - p_mpt[j])});
            }
            alibi.compared_scores += i + 1;
        }
    }
    return alibi;
}

}  // namespace

PositionsLesson run_positions_lesson(const PositionsRequest& request) {
    PositionsLesson lesson;
    lesson.request = request;
    // One generator, as in the book: torch.manual_seed, then token_embedding_layer, then
    // pos_embedding_layer.
    TorchGenerator generator(request.seed);
    lesson.weight = torch_embedding_weight(generator, request.vocab_size, request.dim);
    lesson.position_weight = positions_table(request.encoding, generator, request.context, request.dim);

    const TokenIds& ids = request.ids.values;
    TokenIds positions(request.ids.seq);
    std::iota(positions.begin(), positions.end(), std::uint64_t{0});
    lesson.token_lookup = lookup(lesson.weight, ids);
    lesson.token_onehot = onehot_mm(ids, lesson.weight);
    const PositionEncodingTraits& traits = traits_of(request.encoding);
    if (traits.turns_rows) {
        lesson.position_lookup = Matrix(0, request.dim);
        lesson.position_onehot = Matrix(0, request.dim);
        lesson.output = rope_rotate(lesson.token_lookup, request.ids.seq);
        lesson.onehot_output = rope_rotate(lesson.token_onehot, request.ids.seq);
        lesson.rope_scores = rope_scores(lesson.token_lookup);
    } else if (traits.biases_scores) {
        lesson.position_lookup = Matrix(0, request.dim);
        lesson.position_onehot = Matrix(0, request.dim);
        lesson.output = lesson.token_lookup;
        lesson.onehot_output = lesson.token_onehot;
        lesson.alibi = alibi_bias(lesson.token_lookup, request.ids.seq, request.heads);
    } else {
        lesson.position_lookup = lookup(lesson.position_weight, positions);
        lesson.position_onehot = onehot_mm(positions, lesson.position_weight);
        lesson.output = add_positions(lesson.token_lookup, lesson.position_lookup);
        lesson.onehot_output = add_positions(lesson.token_onehot, lesson.position_onehot);
    }
    lesson.token_check = compare_exact(lesson.token_lookup, lesson.token_onehot);
    lesson.position_check = compare_exact(lesson.position_lookup, lesson.position_onehot);
    lesson.output_check = compare_exact(lesson.output, lesson.onehot_output);
    lesson.repeated = find_repeated(lesson);
    if (request.encoding_given) {
        // The learned table for the comparison comes from the same generator, after E, as the
        // learned lesson draws it; the other two need no numbers drawn.
        EncodingOutputs compared;
        const Matrix learned = traits.drawn
                                   ? lesson.position_weight
                                   : torch_embedding_weight(generator, request.context, request.dim);
        compared.learned = add_positions(lesson.token_lookup, lookup(learned, positions));
        // (alibi leaves the rows as they are: tok, printed from token_lookup)
        compared.sinusoidal = add_positions(lesson.token_lookup, lookup(sinusoidal_table(request.context, request.dim), positions));
        if (request.dim % 2 == 0) compared.rope = rope_rotate(lesson.token_lookup, request.ids.seq);
        lesson.compared = std::move(compared);
    }
    return lesson;
}

}  // namespace embdemo
