// Where the lookup and the one-hot product part ways (issue #15), checked against real torch
// 1.13.1 (tests/data/torch_partways_vectors.txt, made by tools/make_torch_partways_vectors.py):
// max_norm's renormalisation, the sparse COO gradient and its coalesced form, and dL/dX of the
// one-hot form. Bit for bit where torch's arithmetic is specified, within a stated tolerance where
// its summation order is not (norms, coalesce, the BLAS product).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <sstream>

#include "core/lessons/grad_lesson.hpp"
#include "core/kernels/max_norm.hpp"
#include "core/lessons/max_norm_lesson.hpp"
#include "core/torch/init.hpp"
#include "core/kernels/onehot_input.hpp"
#include "core/kernels/optim.hpp"
#include "core/kernels/sparse_grad.hpp"
#include "torch_cases.hpp"

namespace embdemo {
namespace {

using testing::bits_of;
using testing::RecordedCase;

float from_bits(std::uint32_t bits) {
    float value = 0.0f;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

// Every value within `relative` of torch's (relative to max(1, |torch's value|)); the largest
// relative difference seen goes into `worst`.
bool close_to_recorded(const RecordedCase& recorded, const std::string& name, const Matrix& actual,
                       double relative, double& worst) {
    const testing::RecordedTensor& expected = recorded.tensor(name);
    REQUIRE(expected.full);
    if (actual.rows != expected.rows || actual.cols != expected.cols) {
        FAIL_CHECK(recorded.label, ": ", name, " has shape ", actual.rows, "x", actual.cols);
        return false;
    }
    for (std::size_t i = 0; i < expected.bits.size(); ++i) {
        const double want = from_bits(expected.bits[i]);
        const double diff = std::fabs(actual.values[i] - want) / std::max(1.0, std::fabs(want));
        worst = std::max(worst, diff);
        if (diff <= relative) continue;
        FAIL_CHECK(recorded.label, ": ", name, " index ", i, ": torch ", want, ", embdemo ", actual.values[i]);
        return false;
    }
    return true;
}

// dL/dX within 1e-5 of torch's, relative to the dot product's own scale max(1, sum_j |G[t][j] E[v][j]|):
// both sides round every one of the d terms, in orders that differ, so that is what an error is
// measured against (a small score can be the cancellation of large terms).
bool onehot_input_close(const RecordedCase& recorded, const Matrix& upstream, const Matrix& weight,
                        const Matrix& actual, double& worst) {
    const testing::RecordedTensor& expected = recorded.tensor("onehot_input");
    REQUIRE(expected.full);
    REQUIRE(actual.rows == expected.rows);
    REQUIRE(actual.cols == expected.cols);
    for (std::size_t t = 0; t < actual.rows; ++t) {
        for (std::size_t v = 0; v < actual.cols; ++v) {
            double scale = 0.0;
            for (std::size_t j = 0; j < weight.cols; ++j) scale += std::fabs(double(upstream.at(t, j)) * weight.at(v, j));
            const double want = from_bits(expected.bits[t * actual.cols + v]);
            const double diff = std::fabs(actual.at(t, v) - want) / std::max(1.0, scale);
            worst = std::max(worst, diff);
            if (diff > 1e-5) {
                FAIL_CHECK(recorded.label, ": onehot_input [", t, "][", v, "]: torch ", want, ", embdemo ", actual.at(t, v));
                return false;
            }
        }
    }
    return true;
}

TokenIds parse_list(const std::string& text) {
    TokenIds ids;
    if (text == "none") return ids;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) ids.push_back(std::stoull(item));
    return ids;
}

GradRequest recorded_request(const RecordedCase& recorded) {
    GradRequest request;
    request.ids = parse_id_batch(recorded.key("ids")).value();
    request.vocab_size = recorded.number("vocab");
    request.dim = recorded.number("dim");
    request.seed = recorded.number("seed");
    if (recorded.key("padding") != "none") request.padding_idx = std::stoll(recorded.key("padding"));
    if (recorded.key("max_norm") != "none") {
        request.max_norm = MaxNorm{recorded.real("max_norm"), recorded.real("norm_type")};
    }
    request.sparse = recorded.key("sparse") == "1";
    return request;
}

}  // namespace

TEST_CASE("max_norm, sparse gradients and dL/dX match torch in every recorded case") {
    const auto cases = testing::load_recorded_cases(EMBDEMO_TEST_DATA_DIR "/torch_partways_vectors.txt");
    double worst_renorm = 0.0;
    double worst_coalesced = 0.0;
    double worst_input = 0.0;
    std::size_t renormed = 0;
    std::size_t sparse = 0;
    for (const RecordedCase& recorded : cases) {
        if (recorded.kind != "partways") continue;
        CAPTURE(recorded.label);
        const GradRequest request = recorded_request(recorded);
        const GradLesson lesson = run_grad_lesson(request, {}, {});
        CHECK(testing::matches_recorded(recorded, "weight", lesson.weight));
        CHECK(testing::matches_recorded(recorded, "upstream", lesson.upstream));
        const Matrix& after = request.max_norm ? lesson.weight_after : lesson.weight;
        CHECK(close_to_recorded(recorded, "weight_after", after, 1e-6, worst_renorm));
        CHECK(close_to_recorded(recorded, "lookup", lookup(after, request.ids.values), 1e-6, worst_renorm));
        if (request.max_norm) {
            Matrix norms(lesson.renorm.size(), 1);
            for (std::size_t r = 0; r < lesson.renorm.size(); ++r) norms.values[r] = lesson.renorm[r].norm;
            CHECK(close_to_recorded(recorded, "norms", norms, 1e-6, worst_renorm));
            ++renormed;
        }
        if (request.sparse) {
            CHECK(lesson.sparse_grad.indices == parse_list(recorded.key("indices")));
            CHECK(lesson.sparse_coalesced.indices == parse_list(recorded.key("coalesced_indices")));
            if (!lesson.sparse_grad.indices.empty()) {
                CHECK(testing::matches_recorded(recorded, "values", lesson.sparse_grad.values));
                CHECK(close_to_recorded(recorded, "coalesced", lesson.sparse_coalesced.values, 1e-6, worst_coalesced));
                // Stronger than promised: the order torch's unstable sort leaves the repeats in.
                CHECK(testing::matches_recorded(recorded, "coalesced", lesson.sparse_coalesced.values));
            }
            ++sparse;
        } else {
            CHECK(testing::matches_recorded(recorded, "grad", lesson.grad_lookup));  // max_norm leaves it alone
        }
        CHECK(onehot_input_close(recorded, lesson.upstream, after, lesson.grad_onehot_input.values, worst_input));
    }
    MESSAGE("largest relative difference from torch: renorm ", worst_renorm, ", coalesce ", worst_coalesced,
            ", dL/dX ", worst_input);
    CHECK(cases.size() >= 50);
    CHECK(renormed >= 20);
    CHECK(sparse >= 15);
}

TEST_CASE("plain SGD on the sparse gradient moves E as torch.optim.SGD does, bit for bit") {
    const auto cases = testing::load_recorded_cases(EMBDEMO_TEST_DATA_DIR "/torch_partways_vectors.txt");
    std::size_t checked = 0;
    for (const RecordedCase& recorded : cases) {
        if (recorded.kind != "sparse_train") continue;
        CAPTURE(recorded.label);
        TrainingArgs args;
        args.ids = parse_id_batch(recorded.key("ids")).value();
        args.vocab_size = recorded.number("vocab");
        args.dim = recorded.number("dim");
        args.seed = recorded.number("seed");
        if (recorded.key("padding") != "none") {
            args.embedding.padding_row = resolve_padding_idx(std::stoll(recorded.key("padding")), args.vocab_size).value();
        }
        args.optimizer = sgd_settings(recorded.real("lr"));
        args.steps = recorded.number("steps");
        args.sparse = true;
        const TrainingRun run = run_training(args);
        CHECK(testing::matches_recorded(recorded, "weight", run.initial_weight));
        for (std::size_t t = 0; t < run.steps.size(); ++t) {
            CHECK(testing::matches_recorded(recorded, "step" + std::to_string(t) + ".weight", run.steps[t].weight));
        }
        ++checked;
    }
    CHECK(checked >= 10);
}

TEST_CASE("embedding_renorm rescales each distinct used row above M once, by float(M / (norm + 1e-7))") {
    Matrix weight(3, 2);
    weight.values = {3.0f, 4.0f, 0.3f, 0.4f, 6.0f, 8.0f};  // norms 5, 0.5, 10
    const auto rows = embedding_renorm(weight, {0, 1, 0}, MaxNorm{1.0, 2.0});
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].row == 0);
    CHECK(rows[0].norm == 5.0f);
    CHECK(rows[0].rescaled);
    const float scale = static_cast<float>(1.0 / (5.0 + 1e-7));
    CHECK(rows[0].scale == scale);
    CHECK(weight.at(0, 0) == 3.0f * scale);
    CHECK(weight.at(0, 1) == 4.0f * scale);
    CHECK_FALSE(rows[1].rescaled);
    CHECK(weight.at(1, 0) == 0.3f);  // under M: untouched
    CHECK(weight.at(2, 0) == 6.0f);  // not looked up: untouched
}

TEST_CASE("row_norm knows P = 1, 2, 3, 0.5 and inf") {
    const float row[] = {3.0f, -4.0f};
    CHECK(row_norm(row, 2, 1.0) == 7.0f);
    CHECK(row_norm(row, 2, 2.0) == 5.0f);
    CHECK(row_norm(row, 2, std::numeric_limits<double>::infinity()) == 4.0f);
    CHECK(row_norm(row, 2, 3.0) == static_cast<float>(std::cbrt(91.0)));
    CHECK(row_norm(row, 2, 0.5) == static_cast<float>(std::pow(std::sqrt(3.0) + 2.0, 2.0)));
}

TEST_CASE("with max_norm the lookup reads E after the call and differs from one_hot(ids) @ E as drawn") {
    MaxNormRequest request;
    request.ids = parse_id_batch("1,0,1").value();
    request.demo.vocab_size = 3;
    request.demo.dim = 2;
    request.max_norm = MaxNorm{1.0, 2.0};
    Matrix weight(3, 2);
    weight.values = {0.3f, 0.4f, 3.0f, 4.0f, 9.0f, 9.0f};
    const MaxNormLesson lesson = run_max_norm_lesson(request, weight);
    CHECK_FALSE(lesson.drawn_check.identical);
    CHECK(lesson.drawn_check.differing == 4);  // the two positions of id 1, both columns
    CHECK(lesson.after_check.identical);
    CHECK(lesson.weight_after.at(2, 0) == 9.0f);
    CHECK(lesson.lookup.at(1, 0) == 0.3f);
}

TEST_CASE("the sparse gradient keeps repeats in order, drops padding, and coalesces them sorted") {
    Matrix upstream(4, 1);
    upstream.values = {1.0f, 2.0f, 4.0f, 8.0f};
    const SparseGrad sparse = sparse_embedding_backward(upstream, {3, 0, 3, 1}, std::size_t{0});
    CHECK(sparse.indices == TokenIds{3, 3, 1});
    CHECK(sparse.values.values == std::vector<float>{1.0f, 4.0f, 8.0f});
    const SparseGrad merged = coalesce(sparse);
    CHECK(merged.indices == TokenIds{1, 3});
    CHECK(merged.values.values == std::vector<float>{8.0f, 5.0f});
    CHECK(sparse_grad_bytes(3, 768) == 3 * 8 + 3 * 768 * 4);
}

TEST_CASE("lowest_scores ranks lowest first, ties by id, nan last") {
    Matrix scores(1, 5);
    scores.values = {0.5f, -1.0f, std::numeric_limits<float>::quiet_NaN(), -1.0f, 2.0f};
    CHECK(lowest_scores(scores, 0, 3) == std::vector<std::size_t>{1, 3, 0});
    CHECK(lowest_scores(scores, 0, 9) == std::vector<std::size_t>{1, 3, 0, 4, 2});
}

}  // namespace embdemo
