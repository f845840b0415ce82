#include "core/positions_lesson.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "core/init.hpp"
#include "core/torch_rng.hpp"

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

}  // namespace

PositionsLesson run_positions_lesson(const PositionsRequest& request) {
    PositionsLesson lesson;
    lesson.request = request;
    // One generator, as in the book: torch.manual_seed, then token_embedding_layer, then
    // pos_embedding_layer.
    TorchGenerator generator(request.seed);
    lesson.weight = torch_embedding_weight(generator, request.vocab_size, request.dim);
    lesson.position_weight = torch_embedding_weight(generator, request.context, request.dim);

    const TokenIds& ids = request.ids.values;
    TokenIds positions(request.ids.seq);
    std::iota(positions.begin(), positions.end(), std::uint64_t{0});
    lesson.token_lookup = lookup(lesson.weight, ids);
    lesson.position_lookup = lookup(lesson.position_weight, positions);
    lesson.token_onehot = matmul(one_hot(ids, request.vocab_size), lesson.weight);
    lesson.position_onehot = matmul(one_hot(positions, request.context), lesson.position_weight);
    lesson.output = add_positions(lesson.token_lookup, lesson.position_lookup);
    lesson.onehot_output = add_positions(lesson.token_onehot, lesson.position_onehot);
    lesson.token_check = compare_exact(lesson.token_lookup, lesson.token_onehot);
    lesson.position_check = compare_exact(lesson.position_lookup, lesson.position_onehot);
    lesson.output_check = compare_exact(lesson.output, lesson.onehot_output);
    lesson.repeated = find_repeated(lesson);
    return lesson;
}

}  // namespace embdemo
