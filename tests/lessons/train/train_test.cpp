// train: the text's units, SLEEF's exp and log, the cross-entropy, the rows each step moved and
// why, every claim of the sheet on random cases, and a synthetic corpus whose word classes
// skip-gram must find (and must not find when it does not learn).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/kernels/cross_entropy.hpp"
#include "core/kernels/next_token_grad.hpp"
#include "core/kernels/torch_matmul.hpp"
#include "core/torch/init.hpp"
#include "core/kernels/sleef_math.hpp"
#include "core/lessons/train_lesson.hpp"
#include "core/lessons/train_lesson_text.hpp"
#include "core/torch/torch_rng.hpp"
#include "render/views/train/view.hpp"
#include "../sheet_checks.hpp"

namespace embdemo {
namespace {

IdBatch flat(std::vector<std::uint64_t> values) {
    IdBatch ids;
    ids.values = std::move(values);
    ids.seq = ids.values.size();
    return ids;
}

TrainRequest next_token_request(TrainModel model, IdBatch ids, OptimizerSettings optimizer, std::size_t steps) {
    TrainRequest request;
    request.model = model;
    request.ids = std::move(ids);
    std::uint64_t largest = 0;
    for (const std::uint64_t id : request.ids.values) largest = std::max(largest, id);
    request.vocab_size = largest + 1;
    request.dim = model == TrainModel::bigram ? request.vocab_size : 3;
    request.optimizer = optimizer;
    request.steps = steps;
    return request;
}

// A fixed grammar with known classes: "DET ANIMAL VERB QUANT FOOD", drawn with the project's
// generator.
const std::vector<std::string> k_animals = {"cat", "dog", "horse", "cow", "sheep"};
const std::vector<std::string> k_foods = {"fish", "meat", "grass", "hay", "corn"};

std::string grammar_text(std::size_t sentences) {
    const std::vector<std::vector<std::string>> slots = {{"the", "a"}, k_animals, {"eats", "likes", "wants"},
                                                         {"some", "fresh"}, k_foods};
    TorchGenerator generator(7);
    std::string text;
    for (std::size_t s = 0; s < sentences; ++s) {
        for (std::size_t k = 0; k < slots.size(); ++k) {
            text += slots[k][generator.random() % slots[k].size()] + (k + 1 < slots.size() ? " " : "\n");
        }
    }
    return text;
}

// The skip-gram lesson on the grammar, and each class word's neighbours found in its own class.
std::size_t classed_neighbours(double alpha) {
    const std::string text = grammar_text(400);
    const TextUnits units = split_text(text, TextLevel::word);
    const FirstSeen seen = ids_by_first_appearance(units.units);
    const CompactIds compact = compact_by_count(seen.ids);
    std::vector<std::string> words;
    for (const std::uint64_t id : compact.rows) words.push_back(seen.values[id]);
    TrainRequest request;
    request.model = TrainModel::skipgram;
    request.ids = flat(compact.ids);
    request.vocab_size = words.size();
    request.dim = 16;
    request.sentence_ends = sentence_ends(units.line_ends, 1000);
    request.skipgram.window = 2;
    request.skipgram.sample = 0.0;
    request.skipgram.epochs = 5;
    request.skipgram.alpha = alpha;
    request.min_count = 1;
    request.top = 3;
    const auto row_of = [&words](const std::string& w) {
        return static_cast<std::size_t>(std::find(words.begin(), words.end(), w) - words.begin());
    };
    for (const auto* group : {&k_animals, &k_foods}) {
        for (const std::string& w : *group) request.probes.push_back(row_of(w));
    }
    const TrainLesson lesson = run_train_lesson(request);
    std::size_t in_class = 0;
    for (const ProbeNeighbours& probe : lesson.neighbours) {
        const bool animal = std::find(k_animals.begin(), k_animals.end(), words[probe.row]) != k_animals.end();
        const auto& group = animal ? k_animals : k_foods;
        for (const Neighbour& n : probe.after) {
            in_class += std::find(group.begin(), group.end(), words[n.row]) != group.end() ? 1 : 0;
        }
    }
    return in_class;
}

}  // namespace

TEST_CASE("train: words split at white space, characters at code points, rows by count") {
    const TextUnits words = split_text("the cat\n\n sat  the\tmat\n", TextLevel::word);
    CHECK(words.units == std::vector<std::string>{"the", "cat", "sat", "the", "mat"});
    CHECK(words.line_ends == std::vector<std::size_t>{2, 5});
    const TextUnits chars = split_text("é a\n", TextLevel::character);
    CHECK(chars.units == std::vector<std::string>{"é", " ", "a", "\n"});
    const CompactIds compact = compact_by_count({7, 3, 3, 9, 3, 7});
    CHECK(compact.rows == std::vector<std::uint64_t>{3, 7, 9});  // counts 3, 2, 1
    CHECK(compact.ids == std::vector<std::uint64_t>{1, 0, 0, 2, 0, 1});
    CHECK(sentence_ends({5, 7}, 2) == std::vector<std::size_t>{2, 4, 5, 7});
}

TEST_CASE("train: SLEEF's exp and log keep their special values and stay within an ulp of glibc's") {
    CHECK(sleef_expf(0.0f) == 1.0f);
    CHECK(sleef_expf(-200.0f) == 0.0f);
    CHECK(std::isinf(sleef_expf(200.0f)));
    CHECK(std::isnan(sleef_expf(NAN)));
    CHECK(sleef_logf(1.0f) == 0.0f);
    CHECK(sleef_logf(0.0f) == -INFINITY);
    CHECK(std::isnan(sleef_logf(-1.0f)));
    CHECK(sleef_logf(INFINITY) == INFINITY);
    CHECK(std::fabs(sleef_logf(1e-40f) - std::log(1e-40f)) < 1e-5f);  // a subnormal
    for (float x = -80.0f; x < 80.0f; x += 0.37f) {
        CAPTURE(x);
        CHECK(std::fabs(sleef_expf(x) - std::exp(x)) <= std::nextafter(std::exp(x), INFINITY) - std::exp(x));
        const float y = std::exp(x);
        CHECK(std::fabs(sleef_logf(y) - std::log(y)) <= 2 * (std::nextafter(std::fabs(std::log(y)), INFINITY) - std::fabs(std::log(y))) + 1e-7f);
    }
}

TEST_CASE("train: sleef_expf and sleef_logf give PyTorch's AVX2 bits (tests/data/train/sleef_vectors.tsv)") {
    std::ifstream in(EMBDEMO_TEST_DATA_DIR "/train/sleef_vectors.tsv");
    REQUIRE(in);
    std::string line;
    std::size_t checked = 0, differing = 0;
    std::vector<float> exp_inputs, exp_expected;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        std::string name, input, output;
        fields >> name >> input >> output;
        const auto as_float = [](const std::string& hex) {
            const auto bits = static_cast<std::uint32_t>(std::stoul(hex, nullptr, 16));
            float f;
            std::memcpy(&f, &bits, sizeof f);
            return f;
        };
        const float x = as_float(input), expected = as_float(output);
        const float got = name == "exp" ? sleef_expf(x) : sleef_logf(x);
        differing += std::memcmp(&got, &expected, sizeof got) != 0 ? 1 : 0;
        ++checked;
        if (name == "exp") {
            exp_inputs.push_back(x);
            exp_expected.push_back(expected);
        }
    }
    CHECK(checked == 6510);
    CHECK(differing == 0);
    // The row-at-a-time form (eight lanes where the CPU has AVX2 and FMA) gives the same bits.
    sleef_expf_all(exp_inputs.data(), exp_inputs.size());
    CHECK(std::memcmp(exp_inputs.data(), exp_expected.data(), exp_inputs.size() * sizeof(float)) == 0);
}

TEST_CASE("train: the cross-entropy is the mean of -log_softmax at the targets, its gradient softmax - one_hot over n") {
    Matrix logits(3, 9);
    for (std::size_t i = 0; i < logits.values.size(); ++i) logits.values[i] = std::sin(static_cast<float>(i) * 1.7f) * 3.0f;
    const std::vector<std::uint64_t> targets = {0, 8, 8};
    const CrossEntropy ce = cross_entropy(logits, targets);
    double loss = 0.0;
    for (std::size_t i = 0; i < 3; ++i) {
        double sum = 0.0;
        for (std::size_t j = 0; j < 9; ++j) sum += std::exp(double{logits.at(i, j)});
        loss -= double{logits.at(i, targets[i])} - std::log(sum);
        double grad_sum = 0.0;
        for (std::size_t j = 0; j < 9; ++j) {
            const double p = std::exp(double{logits.at(i, j)}) / sum;
            CHECK(ce.grad.at(i, j) == doctest::Approx((p - (j == targets[i] ? 1.0 : 0.0)) / 3.0).epsilon(1e-5));
            grad_sum += ce.grad.at(i, j);
        }
        CHECK(std::fabs(grad_sum) < 1e-6);
    }
    CHECK(ce.loss == doctest::Approx(loss / 3.0).epsilon(1e-6));
}

// The plain computation a training step's NextTokenGrad must reproduce: the whole n x V logits,
// F.cross_entropy, and autograd's products through the BLAS.
float plain_loss_and_grad(bool tied, const Matrix& weight, const TokenIds& x, const TokenIds& y, Matrix& grad) {
    const Matrix h = lookup(weight, x);
    if (!tied) {
        const CrossEntropy ce = cross_entropy(h, y);
        grad = embedding_backward(ce.grad, x, weight.rows);
        return ce.loss;
    }
    const CrossEntropy ce = cross_entropy(torch_linear(h, weight), y);
    grad = torch_mm_transposed_left(ce.grad, h);
    const Matrix through = embedding_backward(torch_mm(ce.grad, weight), x, weight.rows);
    for (std::size_t k = 0; k < grad.values.size(); ++k) grad.values[k] += through.values[k];
    return ce.loss;
}

TEST_CASE("train: a step's loss and gradient, once per distinct input and in the BLAS's order, are the plain ones bit for bit") {
    TorchGenerator draws(2024);
    for (std::size_t round = 0; round < 40; ++round) {
        const bool tied = round % 2 == 1;
        const std::size_t v = 1 + draws.random() % 70;
        const std::size_t d = tied ? 1 + draws.random() % 40 : v;
        // Past 768 pairs the head's sum runs in several of OpenBLAS's blocks of k.
        const std::size_t n = 1 + draws.random() % (round % 5 == 0 ? 2500 : 300);
        TokenIds x(n), y(n);
        for (std::size_t i = 0; i < n; ++i) {
            x[i] = draws.random() % v;
            y[i] = draws.random() % v;
        }
        Matrix weight = torch_randn(draws, v, d);
        for (float& value : weight.values) value *= 1.0f + static_cast<float>(round % 4);
        CAPTURE(round);
        CAPTURE(v);
        CAPTURE(d);
        CAPTURE(n);
        Matrix plain, fast;
        const float plain_loss = plain_loss_and_grad(tied, weight, x, y, plain);
        NextTokenGrad step(tied, x, y, v, d);
        for (int again = 0; again < 2; ++again) {  // its buffers are reused: the second call too
            const float fast_loss = step.loss_and_grad(weight, fast);
            CHECK(std::memcmp(&fast_loss, &plain_loss, sizeof fast_loss) == 0);
            REQUIRE(fast.values.size() == plain.values.size());
            CHECK(std::memcmp(fast.values.data(), plain.values.data(), fast.values.size() * sizeof(float)) == 0);
        }
    }
}

TEST_CASE("train: SGD moves only the batch's rows, the tied head moves every row, AdamW decays the rest") {
    const IdBatch ids = flat({1, 2, 1, 4});
    const TrainLesson sgd = run_train_lesson(next_token_request(TrainModel::bigram, ids, sgd_settings(1.0), 3));
    for (const TrainStep& step : sgd.steps) {
        std::vector<std::size_t> rows;
        for (const RowChange& c : step.changed) rows.push_back(c.row);
        CHECK(rows == std::vector<std::size_t>{1, 2});  // 4 is never an input
    }
    CHECK(sgd.steps.back().loss < sgd.steps.front().loss);
    const TrainLesson tied = run_train_lesson(next_token_request(TrainModel::tied, ids, sgd_settings(1.0), 1));
    CHECK(tied.steps[0].changed.size() == 5);  // every row of E, 0 and 3 included: the head reaches them
    const TrainLesson adamw = run_train_lesson(next_token_request(TrainModel::bigram, ids, adamw_settings(0.1, 0.5), 1));
    std::size_t decayed = 0;
    for (const RowChange& c : adamw.steps[0].changed) decayed += !c.in_batch && c.decayed ? 1 : 0;
    CHECK(decayed == 3);  // rows 0, 3, 4
    CHECK(sgd.onehot_check.identical);
}

TEST_CASE("train: Adam's moments carry a row after its batch has passed") {
    IdBatch ids;
    ids.values = {1, 2, 3, 4};
    ids.batch = 2;
    ids.seq = 2;
    ids.batched = true;
    const TrainLesson adam = run_train_lesson(next_token_request(TrainModel::bigram, ids, adam_settings(0.1), 2));
    // Step 2 takes row 1 (3 -> 4); row 1 of E, used in step 1, moves by its moments.
    bool carried = false;
    for (const RowChange& c : adam.steps[1].changed) carried = carried || (c.row == 1 && !c.in_batch && c.carried);
    CHECK(carried);
}

TEST_CASE("train: the neighbours' stability is the mean share of rows two seeds' lists have in common") {
    CHECK(list_stability({{1, 2, 3}}) == 1.0);
    CHECK(list_stability({{1, 2, 3}, {3, 2, 1}}) == 1.0);
    CHECK(list_stability({{1, 2}, {3, 4}}) == 0.0);
    CHECK(list_stability({{1, 2}, {1, 4}, {1, 2}}) == doctest::Approx((0.5 + 1.0 + 0.5) / 3));
}

TEST_CASE("train: skip-gram on a fixed grammar finds its word classes, and does not when it does not learn") {
    const std::size_t listed = 2 * 5 * 3;
    CHECK(classed_neighbours(0.025) == listed);
    CHECK(classed_neighbours(0.0) < listed / 2 + 3);
}

TEST_CASE("train: every claim on its sheet holds and is printed in every format that carries prose") {
    std::mt19937_64 rng{20261202};
    const auto between = [&](std::uint64_t low, std::uint64_t high) {
        return std::uniform_int_distribution<std::uint64_t>(low, high)(rng);
    };
    for (int round = 0; round < 24; ++round) {
        CAPTURE(round);
        const TrainModel model = round % 3 == 0 ? TrainModel::bigram : round % 3 == 1 ? TrainModel::tied : TrainModel::skipgram;
        IdBatch ids;
        ids.batch = round % 4 == 0 ? 3 : 1;
        ids.batched = ids.batch > 1;
        ids.seq = between(2, 20);
        const std::uint64_t vocab = round % 5 == 0 ? 1 : between(2, 12);
        for (std::size_t i = 0; i < ids.batch * ids.seq; ++i) ids.values.push_back(round % 6 == 0 ? 0 : between(0, vocab - 1));
        const OptimizerSettings optimizer =
            round % 2 == 0 ? sgd_settings(0.5) : round % 4 == 1 ? adam_settings(0.1) : adamw_settings(0.1, 0.1);
        TrainRequest request = next_token_request(model, ids, optimizer, between(1, 6));
        request.vocab_size = std::max<std::uint64_t>(request.vocab_size, vocab);
        if (model == TrainModel::bigram) request.dim = request.vocab_size;
        request.sentence_ends = {ids.values.size()};
        request.skipgram.window = 2;
        request.skipgram.epochs = 2;
        request.min_count = between(1, 3);
        request.probes = {0};
        request.top = 3;
        request.seeds = round % 4 == 3 ? 3 : 1;
        const TrainLesson lesson = run_train_lesson(request);
        TrainViewSettings settings;
        settings.every = between(1, 3);
        settings.shown_ids = ids;
        const LessonSheet sheet = train_sheet(lesson, settings);
        sheet_checks::check_sheet(sheet, report_values(train_tables(request, nullptr)));
    }
}

}  // namespace embdemo
