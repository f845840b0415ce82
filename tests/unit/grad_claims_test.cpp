// Re-checks every claim the grad lesson may print about the rows of dE (core/kernels/grad_claims)
// against the tensors it describes, with this file's own arithmetic: the terms are exactly the
// positions of the id, the scale is torch's float(1.0 / count), a claim marked as holding adds
// up to the row's very bits (fma for the embedding's add_(alpha=scale), a plain add for the
// one-hot product's 1 * G[t, j]), "the others stay exactly 0" is true, and a named cause (0 * inf) is there.
// Random cases include nan, inf, -0.0, signalling NaNs, subnormals, padding, repeats and sizes 1.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/kernels/grad_claims.hpp"
#include "core/lessons/grad_lesson.hpp"
#include "render/views/grad/text.hpp"

namespace embdemo {
namespace {

std::uint32_t bits(float value) {
    std::uint32_t b = 0;
    std::memcpy(&b, &value, sizeof b);
    return b;
}

float from_bits(std::uint32_t b) {
    float value = 0.0f;
    std::memcpy(&value, &b, sizeof value);
    return value;
}

// A value of G: mostly ordinary, sometimes one the two ways may add differently.
float upstream_value(std::mt19937& random, bool special) {
    const float ordinary = static_cast<float>(static_cast<int>(random() % 2001) - 1000) / 256.0f;
    if (!special || random() % 6 != 0) return ordinary;
    switch (random() % 7) {
        case 0: return std::numeric_limits<float>::quiet_NaN();
        case 1: return std::numeric_limits<float>::infinity();
        case 2: return -std::numeric_limits<float>::infinity();
        case 3: return -0.0f;
        case 4: return from_bits(0x7fa00001u);  // a signalling NaN
        case 5: return std::numeric_limits<float>::denorm_min();
        default: return 0.0f;
    }
}

struct Case {
    GradRequest request;
    Matrix upstream;
};

Case random_case(std::mt19937& random, bool special) {
    Case c;
    GradRequest& r = c.request;
    r.vocab_size = 1 + random() % 6;
    r.dim = 1 + random() % 4;
    const std::size_t n = 1 + random() % 7;
    const bool batched = n % 2 == 0 && random() % 2 == 0;
    r.ids.values.resize(n);
    // Few distinct ids, so repeats are common.
    for (auto& id : r.ids.values) id = random() % r.vocab_size;
    r.ids.batched = batched;
    r.ids.batch = batched ? 2 : 1;
    r.ids.seq = batched ? n / 2 : n;
    r.seed = random();
    if (random() % 2 == 0) {
        const auto k = static_cast<std::int64_t>(random() % r.vocab_size);
        r.padding_idx = random() % 2 == 0 ? k : k - static_cast<std::int64_t>(r.vocab_size);
    }
    r.scale_grad_by_freq = random() % 2 == 0;
    r.upstream = UpstreamSource::file;
    c.upstream = Matrix(n, r.dim);
    for (float& value : c.upstream.values) value = upstream_value(random, special);
    return c;
}

// SSE's addss: both NaN, or one, gives the first NaN operand quieted.
float first_nan_sum(float a, float b) {
    if (std::isnan(a)) return from_bits(bits(a) | 0x00400000u);
    if (std::isnan(b)) return from_bits(bits(b) | 0x00400000u);
    return a + b;
}

// The stated sum, added by this test in torch's order and arithmetic (the one-hot product's
// term is X[t, k] * G[t, j] with X[t, k] = 1, a run-time value here so the compiler keeps the
// multiply that quiets a signalling NaN).
std::vector<float> stated_sum(const RowSumClaim& claim, const Matrix& g) {
    std::vector<float> sum(g.cols, 0.0f);
    for (const std::size_t t : claim.positions) {
        for (std::size_t j = 0; j < g.cols; ++j) {
            if (claim.form == GradForm::embedding) {
                sum[j] = std::fma(g.at(t, j), claim.scale, sum[j]);
            } else {
                sum[j] = first_nan_sum(sum[j], claim.scale * g.at(t, j));
            }
        }
    }
    return sum;
}

bool row_has_bits(const Matrix& m, std::size_t k, const std::vector<float>& values) {
    for (std::size_t j = 0; j < m.cols; ++j) {
        if (bits(m.at(k, j)) != bits(values[j])) return false;
    }
    return true;
}

void check_claims(const GradLesson& lesson) {
    const TokenIds& ids = lesson.request.ids.values;
    const GradClaims& claims = lesson.claims;
    std::map<std::size_t, std::vector<std::size_t>> positions;
    for (std::size_t t = 0; t < ids.size(); ++t) positions[ids[t]].push_back(t);
    REQUIRE(claims.embedding.size() == positions.size());
    REQUIRE(claims.onehot.size() == positions.size());
    CHECK(claims.rows == lesson.request.vocab_size);
    std::size_t written = 0;
    std::size_t c = 0;
    for (const auto& [k, at] : positions) {
        CAPTURE(k);
        const bool padding = lesson.options.padding_row == k;
        const RowSumClaim& emb = claims.embedding[c];
        const RowSumClaim& hot = claims.onehot[c];
        ++c;
        CHECK(emb.row == k);
        CHECK(hot.row == k);
        CHECK(emb.form == GradForm::embedding);
        CHECK(hot.form == GradForm::onehot);
        // The one-hot sum names every position of k, whole; the embedding's names none for
        // padding_idx and every one otherwise, scaled by torch's float(1.0 / count) if asked.
        CHECK(hot.positions == at);
        CHECK(!hot.scaled);
        CHECK(hot.scale == 1.0f);
        if (padding) {
            CHECK(emb.positions.empty());
            CHECK(!emb.scaled);
        } else {
            ++written;
            CHECK(emb.positions == at);
            const float scale = lesson.request.scale_grad_by_freq
                                    ? static_cast<float>(1.0 / static_cast<double>(at.size()))
                                    : 1.0f;
            CHECK(bits(emb.scale) == bits(scale));
            CHECK(emb.scaled == (scale != 1.0f));
        }
        // `holds` is exactly "the stated sum has the row's bits".
        CHECK(emb.holds == row_has_bits(lesson.grad_lookup, k, stated_sum(emb, lesson.upstream)));
        CHECK(hot.holds == row_has_bits(lesson.grad_onehot, k, stated_sum(hot, lesson.upstream)));
        // The embedding's sum is its kernel, so it always holds.
        CHECK(emb.holds);
        bool others_finite = true;
        for (std::size_t t = 0; t < ids.size(); ++t) {
            for (std::size_t j = 0; j < lesson.upstream.cols; ++j) {
                others_finite = others_finite && (ids[t] == k || std::isfinite(lesson.upstream.at(t, j)));
            }
        }
        // A named cause is true in every column where the one-hot row leaves the plain sum.
        if (hot.poisoned) {
            CHECK(!hot.holds);
            const std::vector<float> sum = stated_sum(hot, lesson.upstream);
            for (std::size_t j = 0; j < lesson.upstream.cols; ++j) {
                if (bits(sum[j]) == bits(lesson.grad_onehot.at(k, j))) continue;
                bool cause = false;
                for (std::size_t t = 0; t < ids.size(); ++t) {
                    cause = cause || (ids[t] != k && !std::isfinite(lesson.upstream.at(t, j)));
                }
                CHECK(cause);
            }
        }
        // With every other id's G finite, the plain sum fails only where two NaNs met and the
        // product kept the other payload: NaN in both, and nothing printed about a cause.
        if (!hot.holds && others_finite) {
            CHECK(!hot.poisoned);
            const std::vector<float> sum = stated_sum(hot, lesson.upstream);
            for (std::size_t j = 0; j < lesson.upstream.cols; ++j) {
                if (bits(sum[j]) != bits(lesson.grad_onehot.at(k, j))) {
                    CHECK(std::isnan(sum[j]));
                    CHECK(std::isnan(lesson.grad_onehot.at(k, j)));
                }
            }
        }
    }
    // "N of V rows receive a gradient; the others stay exactly 0."
    CHECK(claims.rows_with_gradient == written);
    bool others_zero = true;
    for (std::size_t k = 0; k < lesson.grad_lookup.rows; ++k) {
        const auto hit = positions.find(k);
        if (hit != positions.end() && lesson.options.padding_row != k) continue;
        for (std::size_t j = 0; j < lesson.grad_lookup.cols; ++j) others_zero = others_zero && bits(lesson.grad_lookup.at(k, j)) == 0u;
    }
    CHECK(claims.others_zero == others_zero);
    CHECK(others_zero);
}

}  // namespace

TEST_CASE("every grad claim re-checks against dE and G over random cases with nan, inf, -0 and padding") {
    std::mt19937 random(20250125u);
    for (int i = 0; i < 3000; ++i) {
        CAPTURE(i);
        Case c = random_case(random, i % 3 != 0);
        const GradLesson lesson = run_grad_lesson(c.request, Matrix(), std::move(c.upstream));
        check_claims(lesson);
    }
}

TEST_CASE("the one-element case: one id, V = 1, d = 1, with and without padding") {
    for (const bool padded : {false, true}) {
        for (const float g : {1.5f, -0.0f, std::numeric_limits<float>::infinity(), from_bits(0x7fa00001u)}) {
            CAPTURE(padded);
            CAPTURE(g);
            GradRequest request;
            request.ids.values = {0};
            request.ids.seq = 1;
            request.vocab_size = 1;
            request.dim = 1;
            request.scale_grad_by_freq = true;
            if (padded) request.padding_idx = 0;
            request.upstream = UpstreamSource::file;
            Matrix upstream(1, 1);
            upstream.values = {g};
            const GradLesson lesson = run_grad_lesson(request, Matrix(), std::move(upstream));
            check_claims(lesson);
            CHECK(rows_with_gradient_sentence(lesson.claims) ==
                  (padded ? "The one row receives no gradient from the embedding's backward: it stays exactly 0."
                          : "The one row receives a gradient from the embedding's backward."));
        }
    }
}

TEST_CASE("the one-hot line carries the plain sum and the embedding's line the scaled one (issue 25, 1)") {
    // grad --ids 0,2,0 --dim 2 --scale-grad-by-freq --padding-idx 0: row 0 is padding.
    GradRequest request;
    request.ids.values = {0, 2, 0};
    request.ids.seq = 3;
    request.vocab_size = 3;
    request.dim = 2;
    request.padding_idx = 0;
    request.scale_grad_by_freq = true;
    const GradLesson padded = run_grad_lesson(request, Matrix(), Matrix());
    check_claims(padded);
    CHECK(padded.claims.embedding[0].positions.empty());
    CHECK(padded.claims.onehot[0].positions == std::vector<std::size_t>{0, 2});
    CHECK(!padded.claims.onehot[0].scaled);
    const std::string text = render_grad_text(padded, TextOptions{}, false);
    CHECK(text.find("differs: = G[0] + G[2]") != std::string::npos);
    CHECK(text.find("G[0]/2") == std::string::npos);

    // grad --ids 2,3,3 --dim 3 --scale-grad-by-freq: row 3 is scaled on the embedding's line.
    request.ids.values = {2, 3, 3};
    request.vocab_size = 4;
    request.dim = 3;
    request.padding_idx.reset();
    const GradLesson scaled = run_grad_lesson(request, Matrix(), Matrix());
    check_claims(scaled);
    const std::string scaled_text = render_grad_text(scaled, TextOptions{}, false);
    CHECK(scaled_text.find("= G[1]/2 + G[2]/2\n") != std::string::npos);
    CHECK(scaled_text.find("differs: = G[1] + G[2]\n") != std::string::npos);
    CHECK(scaled_text.find("each scaled by 1/count") == std::string::npos);
}

}  // namespace embdemo
