#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "core/difference.hpp"
#include "core/init.hpp"
#include "core/report.hpp"
#include "render/explain.hpp"

using namespace embdemo;

namespace {

DemoReport report_for(Matrix weight, TokenIds ids) {
    DemoRequest request;
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
          "first at ids[0] = 2, column 1: E[3,1] is inf, and 0 * inf = nan poisons the sum X[0] @ E "
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
}
