#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "core/kernels/difference.hpp"
#include "core/torch/init.hpp"
#include "core/lessons/report.hpp"
#include "render/kit/explain.hpp"

using namespace embdemo;

namespace {

// The tables here are written by hand, inf and nan included, as a --weights file's would be
// (drawn tables hold none, and the report relies on that: core/kernels/onehot_products.hpp).
DemoReport report_for(Matrix weight, TokenIds ids) {
    DemoRequest request;
    request.origin.kind = WeightOrigin::Kind::file;
    request.ids = std::move(ids);
    request.vocab_size = weight.rows;
    request.dim = weight.cols;
    return build_demo_report(request, std::move(weight));
}

float from_bits(std::uint32_t bits) {
    float value = 0.0f;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

}  // namespace

TEST_CASE("finite weights give no difference") {
    CHECK_FALSE(report_for(torch_embedding_weight(6, 3, 1), {5, 0, 5}).difference);
}

TEST_CASE("inf elsewhere in a column poisons the product: 0 * inf = nan") {
    Matrix e = torch_embedding_weight(4, 5, 123);
    e.at(3, 1) = INFINITY;
    const DemoReport report = report_for(e, {2, 3, 1});
    REQUIRE(report.difference);
    const Difference& d = *report.difference;
    CHECK(d.cause == Difference::Cause::nonfinite_elsewhere);
    CHECK(d.position == 0);
    CHECK(d.column == 1);
    CHECK(d.source_row == 3);
    CHECK(std::isnan(d.product_value));
    CHECK(report.verdict.differing == 2);  // ids 2 and 1 see the inf through 0 * inf; id 3 reads it
    CHECK(explain_difference(d) ==
          "first at ids[0] = 2, column 1: E[3, 1] is inf, and 0 * inf = nan makes the sum X[0] @ E nan "
          "(lookup -1.8060527, product nan)");
}

TEST_CASE("inf only in the rows the ids select leaves the product identical") {
    Matrix e = torch_embedding_weight(4, 5, 123);
    e.at(2, 0) = INFINITY;
    CHECK_FALSE(report_for(e, {2, 2}).difference);
    CHECK(report_for(e, {2, 2}).verdict.identical);
}

TEST_CASE("-0.0 in a selected row loses its sign in the sum") {
    Matrix e = torch_embedding_weight(4, 5, 123);
    e.at(1, 4) = -0.0f;
    const DemoReport report = report_for(e, {2, 3, 1});
    REQUIRE(report.difference);
    CHECK(report.difference->cause == Difference::Cause::negative_zero);
    CHECK(report.difference->position == 2);
    CHECK(report.difference->column == 4);
    CHECK(report.verdict.max_abs_diff == 0.0);
    CHECK(difference_cause_name(report.difference->cause) == std::string("negative_zero"));
}

TEST_CASE("a signalling NaN in a selected row is quieted by arithmetic") {
    Matrix e(2, 1);
    e.at(0, 0) = 1.0f;
    e.at(1, 0) = from_bits(0x7f800001);
    const DemoReport report = report_for(e, {1});
    REQUIRE(report.difference);
    CHECK(report.difference->cause == Difference::Cause::nan_bits);
    CHECK(report.difference->nan_source == Difference::NanSource::quieted);
    CHECK(report.difference->product_bits == 0x7fc00001u);
    CHECK(explain_cause(*report.difference) ==
          "E[1, 0] is a signalling NaN (0x7f800001): the lookup copies its bits, while the product's "
          "arithmetic quiets it (0x7fc00001)");
}

TEST_CASE("a quiet NaN selected beside an inf keeps its bits through the product, as in PyTorch") {
    // Issue 25's case: E = [[1, 2], [nan, 4], [inf, 6]], ids [1]. PyTorch's E[ids], one_hot @ E
    // and F.linear all give 0x7fc00000; embdemo said DIFFERENT.
    Matrix e(3, 2);
    e.values = {1.0f, 2.0f, from_bits(0x7fc00000), 4.0f, INFINITY, 6.0f};
    const DemoReport report = report_for(e, {1});
    CHECK(report.verdict.identical);
    CHECK(report.linear_verdict.identical);
    CHECK_FALSE(report.difference);
}

TEST_CASE("a quiet NaN with a payload is kept bit for bit, not called signalling") {
    Matrix e(2, 1);
    e.at(0, 0) = 1.0f;
    e.at(1, 0) = from_bits(0x7fc00123);
    CHECK(report_for(e, {1}).verdict.identical);
}

TEST_CASE("every difference the analysis finds is a claim that holds, over tables of special values") {
    const std::uint32_t specials[] = {0x7fc00000, 0xffc00000, 0x7f800000, 0xff800000, 0x80000000,
                                      0x00000001, 0x7fa00001, 0x7fc00123, 0xffe00042, 0x3f800000};
    std::uint64_t state = 12345;
    const auto next = [&state](std::uint64_t bound) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return (state >> 33) % bound;
    };
    std::size_t differences = 0;
    std::size_t nan_sources[4] = {0, 0, 0, 0};
    for (int round = 0; round < 600; ++round) {
        const std::size_t v = 1 + next(9);
        const std::size_t d = 1 + next(4);
        Matrix e(v, d);
        for (float& value : e.values) {
            value = next(3) == 0 ? from_bits(specials[next(10)]) : static_cast<float>(next(2001)) / 100.0f - 10.0f;
        }
        TokenIds ids(1 + next(5));
        for (std::uint64_t& id : ids) id = next(v);
        const DemoReport report = report_for(e, ids);
        for (std::size_t t = 0; t < ids.size(); ++t) {
            for (std::size_t j = 0; j < d; ++j) {
                const auto found = difference_at(report.weight, ids, report.lookup, report.onehot_matmul, t, j);
                if (!found) continue;
                ++differences;
                ++nan_sources[static_cast<int>(found->nan_source)];
                CAPTURE(round);
                CAPTURE(explain_difference(*found));
                CHECK(difference_holds(*found, report.weight, ids, report.lookup, report.onehot_matmul));
                Difference wrong = *found;
                wrong.product_bits ^= 1;  // a claim about other bits must fail
                CHECK_FALSE(difference_holds(wrong, report.weight, ids, report.lookup, report.onehot_matmul));
            }
        }
    }
    CHECK(differences > 100);
    MESSAGE("differences: ", differences, ", quieted ", nan_sources[1], ", other row ", nan_sources[2],
            ", default NaN ", nan_sources[3]);
}
