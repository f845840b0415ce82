// Tests of torch_embedding_weight and torch_linear_weight against weights recorded from real
// torch 1.13.1 (torch_vectors.hpp loads them). Every value is compared as a float32 bit pattern,
// never as printed digits.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/init.hpp"
#include "torch_vectors.hpp"

namespace embdemo {
namespace {

using torch_vectors::bits_of;
using torch_vectors::compare;
using torch_vectors::k_min_case_count;
using torch_vectors::load_cases;
using torch_vectors::RecordedCase;

Matrix compute(const RecordedCase& recorded) {
    if (recorded.kind == "embedding") {
        return torch_embedding_weight(recorded.rows, recorded.cols, recorded.seed);
    }
    // The recorded shape is the weight's, out x in.
    return torch_linear_weight(recorded.cols, recorded.rows, recorded.seed);
}

}  // namespace

TEST_CASE("the torch reference vectors are present and cover both modules and both storages") {
    const std::vector<RecordedCase> cases = load_cases();
    CHECK(cases.size() >= k_min_case_count);
    std::size_t embeddings = 0;
    std::size_t linears = 0;
    std::size_t full = 0;
    std::size_t hashed = 0;
    std::size_t scalar_path = 0;
    for (const RecordedCase& recorded : cases) {
        (recorded.kind == "embedding" ? embeddings : linears) += 1;
        (recorded.full ? full : hashed) += 1;
        if (recorded.kind == "embedding" && recorded.rows * recorded.cols < 16) {
            ++scalar_path;
        }
    }
    CHECK(embeddings > 0);
    CHECK(linears > 0);
    CHECK(full > 0);
    CHECK(hashed > 0);
    CHECK(scalar_path > 0);
}

TEST_CASE("torch_embedding_weight and torch_linear_weight match torch bit for bit for every "
          "recorded case") {
    const std::vector<RecordedCase> cases = load_cases();
    REQUIRE(cases.size() >= k_min_case_count);
    std::size_t failed_cases = 0;
    std::size_t compared_values = 0;
    for (const RecordedCase& recorded : cases) {
        const Matrix weight = compute(recorded);
        if (compare(recorded, weight) != 0) {
            ++failed_cases;
        }
        compared_values += weight.values.size();
    }
    CHECK_MESSAGE(failed_cases == 0, failed_cases, " of ", cases.size(), " cases differ");
    CHECK(compared_values > 1000000);
}

TEST_CASE("torch_embedding_weight reproduces the seed-123 rows of the spec's table") {
    // 9 significant digits identify a float32 exactly, so these literals are exact bit patterns.
    const Matrix small = torch_embedding_weight(3, 5, 123);
    CHECK(bits_of(small.at(0, 0)) == bits_of(-0.111467116f));
    CHECK(bits_of(small.at(0, 4)) == bits_of(-1.19692433f));
    const Matrix blocked = torch_embedding_weight(4, 5, 123);
    CHECK(bits_of(blocked.at(0, 0)) == bits_of(0.337370187f));
    CHECK(bits_of(blocked.at(0, 1)) == bits_of(-0.177777216f));
    CHECK(bits_of(blocked.at(0, 4)) == bits_of(1.58096957f));
}

TEST_CASE("torch_linear_weight is out x in and reproduces the seed-123 row of the spec's table") {
    const Matrix weight = torch_linear_weight(4, 5, 123);
    CHECK(weight.rows == 5);
    CHECK(weight.cols == 4);
    CHECK(bits_of(weight.at(0, 0)) == bits_of(-0.203888059f));
    CHECK(bits_of(weight.at(0, 1)) == bits_of(0.016562283f));
    CHECK(bits_of(weight.at(1, 0)) == bits_of(-0.426027536f));
}

TEST_CASE("seeds equal modulo 2^32 give identical weights, as in torch") {
    CHECK(torch_embedding_weight(7, 9, (std::uint64_t{1} << 32) + 5) ==
          torch_embedding_weight(7, 9, 5));
    CHECK(torch_embedding_weight(2, 3, ~std::uint64_t{0}) ==
          torch_embedding_weight(2, 3, 0xffffffffu));
    CHECK(torch_linear_weight(3, 7, (std::uint64_t{1} << 63) - 1) ==
          torch_linear_weight(3, 7, 0xffffffffu));
}

TEST_CASE("zero-sized weights keep their shape and hold no values") {
    const Matrix no_rows = torch_embedding_weight(0, 4, 1);
    CHECK(no_rows.rows == 0);
    CHECK(no_rows.cols == 4);
    CHECK(no_rows.values.empty());
    const Matrix no_cols = torch_embedding_weight(3, 0, 1);
    CHECK(no_cols.rows == 3);
    CHECK(no_cols.cols == 0);
    CHECK(no_cols.values.empty());
    const Matrix no_inputs = torch_linear_weight(0, 5, 1);
    CHECK(no_inputs.rows == 5);
    CHECK(no_inputs.cols == 0);
    CHECK(no_inputs.values.empty());
    const Matrix no_outputs = torch_linear_weight(5, 0, 1);
    CHECK(no_outputs.rows == 0);
    CHECK(no_outputs.cols == 5);
    CHECK(no_outputs.values.empty());
}

}  // namespace embdemo
