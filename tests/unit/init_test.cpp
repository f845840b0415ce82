// Tests of torch_embedding_weight, torch_linear_weight and torch_randn against weights recorded
// from real torch 1.13.1 (torch_vectors.hpp loads tests/data/torch_vectors.txt, torch_cases.hpp
// the tables and upstream gradients of tests/data/torch_grad_vectors.txt). Every value is compared as a float32 bit pattern,
// never as printed digits.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/init.hpp"
#include "core/torch_rng.hpp"
#include "torch_cases.hpp"
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

TEST_CASE("resolve_padding_idx accepts -V <= K < V and counts a negative K from the end") {
    struct Case {
        std::int64_t padding_idx;
        std::size_t vocab_size;
        std::size_t row;
    };
    const Case good[] = {{0, 1, 0}, {2, 6, 2}, {5, 6, 5}, {-1, 6, 5}, {-6, 6, 0}, {-1, 1, 0}};
    for (const Case& c : good) {
        CAPTURE(c.padding_idx);
        CAPTURE(c.vocab_size);
        const auto row = resolve_padding_idx(c.padding_idx, c.vocab_size);
        REQUIRE(row);
        CHECK(row.value() == c.row);
    }
}

TEST_CASE("resolve_padding_idx refuses indices outside the table and says what is allowed") {
    struct Case {
        std::int64_t padding_idx;
        std::size_t vocab_size;
        const char* message;
    };
    const Case bad[] = {
        {6, 6, "is outside the table (allowed: -6 to 5)"},
        {-7, 6, "is outside the table (allowed: -6 to 5)"},
        {1, 1, "is outside the table (allowed: -1 to 0)"},
        {0, 0, "is outside the table (allowed: none: the table has no rows)"},
        {INT64_MIN, 3, "allowed: -3 to 2"},
        {INT64_MAX, 3, "allowed: -3 to 2"},
    };
    for (const Case& c : bad) {
        CAPTURE(c.padding_idx);
        const auto row = resolve_padding_idx(c.padding_idx, c.vocab_size);
        REQUIRE_FALSE(row);
        CHECK(row.error().find(c.message) != std::string::npos);
    }
}

TEST_CASE("padding_idx zeroes one row and leaves the rest of the table and the stream alone") {
    TorchGenerator plain(42);
    const Matrix without = torch_embedding_weight(plain, 6, 5);
    const Matrix after_plain = torch_randn(plain, 2, 5);
    TorchGenerator padded(42);
    const Matrix with = torch_embedding_weight(padded, 6, 5, std::size_t{3});
    const Matrix after_padded = torch_randn(padded, 2, 5);
    for (std::size_t k = 0; k < 6; ++k) {
        for (std::size_t j = 0; j < 5; ++j) {
            CAPTURE(k);
            CHECK(bits_of(with.at(k, j)) == (k == 3 ? 0u : bits_of(without.at(k, j))));
        }
    }
    CHECK(after_padded == after_plain);
}

TEST_CASE("the seed-taking torch_embedding_weight is a fresh generator's first table") {
    TorchGenerator generator(7);
    CHECK(torch_embedding_weight(generator, 9, 4) == torch_embedding_weight(9, 4, 7));
}

TEST_CASE("torch_randn continues the generator like normal_ on the same number of elements") {
    // torch.randn(2, 3, 5) and torch.empty(30).normal_() give the same values (checked in torch):
    // only the element count and the stream position matter, not the shape.
    TorchGenerator a(5);
    TorchGenerator b(5);
    torch_embedding_weight(a, 3, 5);
    torch_embedding_weight(b, 3, 5);
    const Matrix randn = torch_randn(a, 6, 5);
    std::vector<float> flat(30);
    normal_fill(b, flat.data(), flat.size());
    CHECK(randn.values == flat);
    CHECK(randn.rows == 6);
    CHECK(randn.cols == 5);
}

TEST_CASE("tables with padding_idx and the upstream randn drawn after them match torch") {
    const auto cases = testing::load_recorded_cases(EMBDEMO_TEST_DATA_DIR "/torch_grad_vectors.txt");
    std::size_t checked = 0;
    std::size_t padded = 0;
    for (const auto& recorded : cases) {
        if (recorded.kind != "grad" || recorded.key("upstream") != "randn") continue;
        const std::size_t vocab = recorded.number("vocab");
        const std::size_t dim = recorded.number("dim");
        std::optional<std::size_t> padding_row;
        if (recorded.key("padding") != "none") {
            const auto row = resolve_padding_idx(std::stoll(recorded.key("padding")), vocab);
            REQUIRE(row);
            padding_row = row.value();
            ++padded;
        }
        TorchGenerator generator(recorded.number("seed"));
        const Matrix weight = torch_embedding_weight(generator, vocab, dim, padding_row);
        const std::size_t upstream_rows = recorded.tensor("upstream").rows;
        const Matrix upstream = torch_randn(generator, upstream_rows, dim);
        CHECK(testing::matches_recorded(recorded, "weight", weight));
        CHECK(testing::matches_recorded(recorded, "upstream", upstream));
        ++checked;
    }
    CHECK(checked >= 50);
    CHECK(padded >= 10);
}

}  // namespace embdemo
