#include "core/lessons/grad_lesson.hpp"

#include <utility>

#include "core/torch/init.hpp"
#include "core/kernels/onehot_input.hpp"
#include "core/torch/torch_rng.hpp"

namespace embdemo {

namespace {

// The first and last k_kept_score_positions of n, ascending.
std::vector<std::size_t> shown_score_positions(std::size_t n) {
    std::vector<std::size_t> shown;
    for (std::size_t t = 0; t < n; ++t) {
        if (t < k_kept_score_positions || t + k_kept_score_positions >= n) shown.push_back(t);
    }
    return shown;
}

}  // namespace

GradLesson run_grad_lesson(const GradRequest& request, Matrix weight, Matrix upstream, unsigned threads,
                           const ProductProgress& progress) {
    GradLesson lesson;
    lesson.request = request;
    if (request.padding_idx) {
        lesson.options.padding_row = resolve_padding_idx(*request.padding_idx, request.vocab_size).value();
    }
    lesson.options.scale_grad_by_freq = request.scale_grad_by_freq;

    // One generator, as in a script: manual_seed, then the table, then torch.randn for G.
    TorchGenerator generator(request.seed);
    const std::size_t n = request.ids.values.size();
    switch (request.origin.kind) {
        case WeightOrigin::Kind::torch:
            lesson.weight = torch_embedding_weight(generator, request.vocab_size, request.dim,
                                                   lesson.options.padding_row);
            break;
        case WeightOrigin::Kind::torch_randint:
            lesson.weight = torch_randint_weight(generator, request.vocab_size, request.dim,
                                                 k_randint_low, k_randint_high);
            break;
        case WeightOrigin::Kind::index_pattern:
        case WeightOrigin::Kind::file: lesson.weight = std::move(weight); break;
    }
    switch (request.upstream) {
        case UpstreamSource::randn: lesson.upstream = torch_randn(generator, n, request.dim); break;
        case UpstreamSource::ones:
            lesson.upstream = Matrix(n, request.dim);
            for (float& value : lesson.upstream.values) value = 1.0f;
            break;
        case UpstreamSource::file: lesson.upstream = std::move(upstream); break;
    }
    const TokenIds& ids = request.ids.values;
    if (request.max_norm) {
        // emb(ids) renormalises E in place before the lookup; the backward never reads E.
        lesson.weight_after = lesson.weight;
        lesson.renorm = embedding_renorm(lesson.weight_after, ids, *request.max_norm);
    }
    if (request.sparse) {
        lesson.sparse_grad = sparse_embedding_backward(lesson.upstream, ids, lesson.options.padding_row);
        lesson.sparse_coalesced = coalesce(lesson.sparse_grad);
    }
    OneHotProductSettings settings;
    settings.threads = threads;
    settings.progress = progress;
    lesson.grad_onehot_input =
        onehot_input_scores(lesson.upstream, request.max_norm ? lesson.weight_after : lesson.weight,
                            k_onehot_kept_values, shown_score_positions(n), settings);
    lesson.grad_lookup = embedding_backward(lesson.upstream, ids, request.vocab_size, lesson.options);
    lesson.grad_onehot = onehot_backward(lesson.upstream, ids, request.vocab_size, settings);
    lesson.comparison = compare_gradients(lesson.grad_lookup, lesson.grad_onehot, ids, lesson.options);
    lesson.claims =
        grad_claims(lesson.comparison.rows, lesson.upstream, lesson.grad_lookup, lesson.grad_onehot, ids);
    return lesson;
}

}  // namespace embdemo
