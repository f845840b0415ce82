#include "core/lessons/train_lesson.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>

#include "core/kernels/cross_entropy.hpp"
#include "core/kernels/next_token_grad.hpp"
#include "core/kernels/onehot_products.hpp"
#include "core/kernels/torch_matmul.hpp"
#include "core/torch/init.hpp"
#include "core/torch/torch_rng.hpp"

namespace embdemo {

const char* train_model_name(TrainModel model) {
    switch (model) {
        case TrainModel::bigram: return "bigram";
        case TrainModel::tied: return "tied";
        case TrainModel::skipgram: return "skipgram";
    }
    return "";
}

std::vector<NextTokenPairs> next_token_batches(const IdBatch& ids) {
    const bool loader = ids.source.loader.used();
    const std::size_t rows = ids.batched || loader ? ids.batch : 1;
    const std::size_t length = ids.batched || loader ? ids.seq : ids.values.size();
    std::vector<NextTokenPairs> batches(rows);
    for (std::size_t b = 0; b < rows; ++b) {
        NextTokenPairs& pairs = batches[b];
        for (std::size_t t = 0; t < length; ++t) {
            const std::size_t i = b * length + t;
            if (loader) {
                pairs.inputs.push_back(ids.values[i]);
                pairs.targets.push_back(ids.source.loader.targets[i]);
            } else if (t + 1 < length) {
                pairs.inputs.push_back(ids.values[i]);
                pairs.targets.push_back(ids.values[i + 1]);
            }
        }
    }
    return batches;
}

NextTokenPairs all_pairs(const std::vector<NextTokenPairs>& batches) {
    NextTokenPairs all;
    for (const NextTokenPairs& pairs : batches) {
        all.inputs.insert(all.inputs.end(), pairs.inputs.begin(), pairs.inputs.end());
        all.targets.insert(all.targets.end(), pairs.targets.begin(), pairs.targets.end());
    }
    return all;
}

std::vector<Neighbour> nearest_rows(const Matrix& table, std::size_t probe, std::size_t top) {
    const auto norm = [&table](std::size_t r) {
        double sum = 0.0;
        for (std::size_t j = 0; j < table.cols; ++j) sum += double{table.at(r, j)} * double{table.at(r, j)};
        return std::sqrt(sum);
    };
    const double probe_norm = norm(probe);
    std::vector<Neighbour> all;
    for (std::size_t r = 0; r < table.rows; ++r) {
        if (r == probe) continue;
        double dot = 0.0;
        for (std::size_t j = 0; j < table.cols; ++j) dot += double{table.at(probe, j)} * double{table.at(r, j)};
        const double denominator = probe_norm * norm(r);
        all.push_back({r, denominator > 0.0 && std::isfinite(dot / denominator) ? dot / denominator : 0.0});
    }
    const std::size_t kept = std::min(top, all.size());
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(kept), all.end(),
                      [](const Neighbour& a, const Neighbour& b) {
                          return a.cosine != b.cosine ? a.cosine > b.cosine : a.row < b.row;
                      });
    all.resize(kept);
    return all;
}

double list_stability(const std::vector<std::vector<std::size_t>>& lists) {
    double total = 0.0;
    std::size_t pairs = 0;
    for (std::size_t a = 0; a < lists.size(); ++a) {
        for (std::size_t b = a + 1; b < lists.size(); ++b) {
            std::size_t shared = 0;
            for (const std::size_t row : lists[a]) {
                shared += std::find(lists[b].begin(), lists[b].end(), row) != lists[b].end() ? 1 : 0;
            }
            const std::size_t longer = std::max(lists[a].size(), lists[b].size());
            total += longer == 0 ? 1.0 : static_cast<double>(shared) / static_cast<double>(longer);
            ++pairs;
        }
    }
    return pairs == 0 ? 1.0 : total / static_cast<double>(pairs);
}

namespace {

std::vector<std::size_t> rows_of(const std::vector<Neighbour>& list) {
    std::vector<std::size_t> rows;
    for (const Neighbour& n : list) rows.push_back(n.row);
    return rows;
}

// The gradient of the mean cross-entropy with respect to E, and the part of it that came through
// the lookup (what the one-hot product is compared with).
struct ModelGrad {
    float loss = 0.0f;
    Matrix grad;
    Matrix lookup_upstream;  // G, the gradient at the lookup's output (n x d)
};

ModelGrad model_grad(TrainModel model, const Matrix& weight, const NextTokenPairs& pairs) {
    ModelGrad result;
    const Matrix looked_up = lookup(weight, pairs.inputs);
    if (model == TrainModel::bigram) {
        CrossEntropy ce = cross_entropy(looked_up, pairs.targets);
        result.loss = ce.loss;
        result.grad = embedding_backward(ce.grad, pairs.inputs, weight.rows);
        result.lookup_upstream = std::move(ce.grad);
        return result;
    }
    // logits = F.linear(H, E): autograd gives E two gradients, the head's dlogits.T @ H and the
    // lookup's scatter of dlogits @ E; AccumulateGrad adds them (one sum: its order is moot).
    const Matrix logits = torch_linear(looked_up, weight);
    CrossEntropy ce = cross_entropy(logits, pairs.targets);
    result.loss = ce.loss;
    result.lookup_upstream = torch_mm(ce.grad, weight);
    result.grad = torch_mm_transposed_left(ce.grad, looked_up);
    const Matrix through_lookup = embedding_backward(result.lookup_upstream, pairs.inputs, weight.rows);
    for (std::size_t i = 0; i < result.grad.values.size(); ++i) result.grad.values[i] += through_lookup.values[i];
    return result;
}

float model_loss(TrainModel model, const Matrix& weight, const NextTokenPairs& pairs) {
    const Matrix looked_up = lookup(weight, pairs.inputs);
    if (model == TrainModel::bigram) return cross_entropy(looked_up, pairs.targets).loss;
    return cross_entropy(torch_linear(looked_up, weight), pairs.targets).loss;
}

bool train_bits_equal(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool train_bits_equal(const Matrix& a, const Matrix& b) {
    return a.rows == b.rows && a.cols == b.cols &&
           std::memcmp(a.values.data(), b.values.data(), a.values.size() * sizeof(float)) == 0;
}

// Steps take the loss and gradient from NextTokenGrad (a row's log-softmax once per distinct
// input, no allocation per step), which must give model_grad's bits: each batch's first step
// computes both and compares them, and one difference sends the rest of the run through
// model_grad. Step 1 computes model_grad anyway, for the one-hot product's check.
void train_next_token(const TrainRequest& request, TrainLesson& lesson) {
    const std::size_t v = request.vocab_size;
    const std::size_t d = request.model == TrainModel::bigram ? v : request.dim;
    TorchGenerator generator(request.seed);
    lesson.initial = torch_embedding_weight(generator, v, d);
    lesson.weight = lesson.initial;
    const std::vector<NextTokenPairs> batches = next_token_batches(request.ids);
    Optimizer optimizer(request.optimizer);
    std::unique_ptr<NextTokenGrad> fast;
    std::size_t fast_batch = 0;
    bool checked_all = false, plain_only = false;
    Matrix grad;
    for (std::size_t t = 0; t < request.steps; ++t) {
        const std::size_t b = t % batches.size();
        const NextTokenPairs& pairs = batches[b];
        if (!fast || fast_batch != b) {
            fast = std::make_unique<NextTokenGrad>(request.model == TrainModel::tied, pairs.inputs, pairs.targets, v, d);
            fast_batch = b;
        }
        checked_all = checked_all || t >= batches.size();
        TrainStep record;
        if (plain_only || !checked_all) {
            ModelGrad step = model_grad(request.model, lesson.weight, pairs);
            if (!plain_only) {
                const float loss = fast->loss_and_grad(lesson.weight, grad);
                plain_only = !train_bits_equal(loss, step.loss) || !train_bits_equal(grad, step.grad);
            }
            if (t == 0) {
                lesson.scatter_grad = embedding_backward(step.lookup_upstream, pairs.inputs, v);
                lesson.onehot_grad = onehot_backward(step.lookup_upstream, pairs.inputs, v);
                lesson.onehot_check = compare_exact(lesson.scatter_grad, lesson.onehot_grad);
            } else {
                as_grad_after_zero_grad(step.grad);
            }
            record.loss = step.loss;
            grad = std::move(step.grad);
        } else {
            record.loss = fast->loss_and_grad(lesson.weight, grad);
            as_grad_after_zero_grad(grad);
        }
        record.changed = ledgered_step(optimizer, lesson.weight, grad, pairs.inputs);
        lesson.steps.push_back(std::move(record));
        if (request.progress) request.progress(t + 1, request.steps);
    }
    lesson.final_loss = model_loss(request.model, lesson.weight, all_pairs(batches));
}

void train_skipgram_model(const TrainRequest& request, TrainLesson& lesson) {
    SkipgramCorpus corpus;
    corpus.counts.assign(request.vocab_size, 0);
    for (std::size_t r = 0; r < request.vocab_size; ++r) {
        if (lesson.counts[r] >= request.min_count) corpus.counts[r] = lesson.counts[r];
    }
    std::size_t begin = 0;
    for (const std::size_t end : request.sentence_ends) {
        std::vector<std::uint32_t> sentence;
        for (std::size_t i = begin; i < end; ++i) {
            const std::uint64_t id = request.ids.values[i];
            if (corpus.counts[id] > 0) sentence.push_back(static_cast<std::uint32_t>(id));
        }
        if (!sentence.empty()) corpus.sentences.push_back(std::move(sentence));
        begin = end;
    }
    SkipgramSettings settings = request.skipgram;
    settings.dim = request.dim;
    settings.seed = request.seed;
    settings.progress = request.progress;
    SkipgramResult result = train_skipgram(corpus, settings);
    lesson.initial = std::move(result.initial);
    lesson.weight = std::move(result.input);
    lesson.output = std::move(result.output);
    lesson.skipgram_loss = std::move(result.loss);
    lesson.trained_words = result.trained_words;
    lesson.pairs = result.pairs;
    const TokenIds first(request.ids.values.begin(),
                         request.ids.values.begin() + static_cast<std::ptrdiff_t>(std::min(k_train_lookup_ids, request.ids.values.size())));
    lesson.scatter_grad = lookup(lesson.weight, first);
    lesson.onehot_grad = onehot_mm(first, lesson.weight);
    lesson.onehot_check = compare_exact(lesson.scatter_grad, lesson.onehot_grad);
    lesson.kept_vocab = static_cast<std::uint64_t>(
        std::count_if(corpus.counts.begin(), corpus.counts.end(), [](std::uint64_t c) { return c > 0; }));
}

}  // namespace

TrainLesson run_train_lesson(const TrainRequest& request) {
    TrainLesson lesson;
    lesson.request = request;
    lesson.counts.assign(request.vocab_size, 0);
    for (const std::uint64_t id : request.ids.values) ++lesson.counts[id];
    if (request.model == TrainModel::skipgram) {
        train_skipgram_model(request, lesson);
    } else {
        train_next_token(request, lesson);
    }
    for (const std::size_t probe : request.probes) {
        ProbeNeighbours found;
        found.row = probe;
        found.before = nearest_rows(lesson.initial, probe, request.top);
        found.after = nearest_rows(lesson.weight, probe, request.top);
        for (const Neighbour& a : found.after) {
            found.overlap += static_cast<std::size_t>(std::any_of(found.before.begin(), found.before.end(),
                                                                  [&a](const Neighbour& b) { return a.row == b.row; }));
        }
        lesson.neighbours.push_back(std::move(found));
    }
    for (std::size_t s = 0; s < request.seeds && request.seeds > 1 && !request.probes.empty(); ++s) {
        TrainRequest again = request;
        again.seed = request.seed + s;
        again.seeds = 1;
        again.progress = nullptr;
        const TrainLesson other = s == 0 ? TrainLesson{} : run_train_lesson(again);
        for (std::size_t p = 0; p < lesson.neighbours.size(); ++p) {
            lesson.neighbours[p].by_seed.push_back(rows_of(s == 0 ? lesson.neighbours[p].after : other.neighbours[p].after));
        }
    }
    return lesson;
}

}  // namespace embdemo
