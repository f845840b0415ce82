// The claims the views state about rows, counts and ranks (issue 25), re-checked against the
// tensors they describe over random cases that include nan, inf, -0, huge values, repeats and
// one-element sizes: a sentence is only as true as the structured value it is built from.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <limits>
#include <random>
#include <set>

#include "core/kernels/max_norm.hpp"
#include "core/lessons/max_norm_lesson.hpp"

namespace embdemo {
namespace {

// A value for a test table: mostly normal, sometimes special.
float special_value(std::mt19937& rng) {
    const float inf = std::numeric_limits<float>::infinity();
    switch (rng() % 12) {
        case 0: return inf;
        case 1: return -inf;
        case 2: return std::numeric_limits<float>::quiet_NaN();
        case 3: return -0.0f;
        case 4: return 3.0e38f;  // its square overflows: the norm may be inf in float32
        case 5: return 1.0e-40f; // subnormal
        default: return std::uniform_real_distribution<float>(-4.0f, 4.0f)(rng);
    }
}

}  // namespace

TEST_CASE("max_norm's second-call claim holds for every rescaled row, special values included") {
    std::mt19937 rng(25);
    std::size_t kinds_seen[5] = {};
    for (int round = 0; round < 400; ++round) {
        const std::size_t vocab = 1 + rng() % 4;
        const std::size_t dim = 1 + rng() % 4;
        Matrix e(vocab, dim);
        for (float& v : e.values) v = special_value(rng);
        TokenIds ids;
        for (std::size_t i = 0, n = 1 + rng() % 4; i < n; ++i) ids.push_back(rng() % vocab);
        const double norm_types[] = {1.0, 2.0, 3.0, std::numeric_limits<double>::infinity()};
        const double max_norms[] = {1.0, 0.5, 1e-6, 2.0};
        MaxNormRequest request;
        request.demo.ids = ids;
        request.demo.vocab_size = vocab;
        request.demo.dim = dim;
        request.ids.values = ids;
        request.ids.seq = ids.size();
        request.max_norm = MaxNorm{max_norms[rng() % 4], norm_types[rng() % 4]};
        const MaxNormLesson lesson = run_max_norm_lesson(request, e);
        CAPTURE(round);

        // The claim covers exactly the rescaled rows.
        std::set<std::size_t> rescaled;
        for (const RenormRow& row : lesson.rows) {
            if (row.rescaled) rescaled.insert(row.row);
        }
        std::set<std::size_t> claimed;
        for (const RenormAfter& row : lesson.after) claimed.insert(row.row);
        CHECK(claimed == rescaled);

        // Run the second call the sentence predicts, and compare row by row.
        Matrix again = lesson.weight_after;
        const std::vector<RenormRow> second = embedding_renorm(again, ids, request.max_norm);
        float largest_finite = 0.0f;
        for (const RenormAfter& row : lesson.after) {
            kinds_seen[static_cast<int>(row.kind)]++;
            const auto seen = std::find_if(second.begin(), second.end(), [&](const RenormRow& r) { return r.row == row.row; });
            REQUIRE(seen != second.end());
            const float norm = row_norm(lesson.weight_after.row(row.row), dim, request.max_norm.norm_type);
            CHECK(std::memcmp(&norm, &row.norm, sizeof norm) == 0);
            const double m = request.max_norm.max_norm;
            switch (row.kind) {
                case RenormAfter::Kind::at_max_norm:
                    CHECK(std::fabs(norm - m) <= 1e-6 * m);
                    break;
                case RenormAfter::Kind::below:
                    CHECK(std::isfinite(norm));
                    CHECK_FALSE(seen->rescaled);  // "left as it is"
                    break;
                case RenormAfter::Kind::above:
                    CHECK(std::isfinite(norm));
                    CHECK(seen->rescaled);  // "rescaled again"
                    break;
                case RenormAfter::Kind::nan_norm:
                    CHECK(std::isnan(norm));
                    CHECK_FALSE(seen->rescaled);  // nan > M is false
                    break;
                case RenormAfter::Kind::inf_norm:
                    CHECK(std::isinf(norm));
                    CHECK(seen->rescaled);
                    break;
            }
            if (std::isfinite(norm)) largest_finite = std::max(largest_finite, norm);
        }
        CHECK(lesson.largest_norm_after == largest_finite);
    }
    // The random cases reach the usual kind and the special ones the issue found.
    CHECK(kinds_seen[static_cast<int>(RenormAfter::Kind::at_max_norm)] > 0);
    CHECK(kinds_seen[static_cast<int>(RenormAfter::Kind::nan_norm)] > 0);
    CHECK(kinds_seen[static_cast<int>(RenormAfter::Kind::below)] > 0);
}

}  // namespace embdemo
