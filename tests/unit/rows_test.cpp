#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "core/kernels/rows.hpp"

namespace {

std::vector<float> numbered(std::size_t count) {
    std::vector<float> values(count);
    for (std::size_t i = 0; i < count; ++i) values[i] = static_cast<float>(i) + 0.25f;
    return values;
}

}  // namespace

TEST_CASE("gather_rows copies row ids[i] to row i for every width and count, prefetching included") {
    for (const std::size_t cols : {std::size_t{1}, std::size_t{5}, std::size_t{63}, std::size_t{768}}) {
        const std::size_t rows = 40;
        const std::vector<float> table = numbered(rows * cols);
        for (const std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{8}, std::size_t{9}, std::size_t{33}}) {
            std::vector<std::uint64_t> ids(count);
            for (std::size_t i = 0; i < count; ++i) ids[i] = (i * 7 + 3) % rows;  // repeats and jumps
            std::vector<float> out(count * cols, -1.0f);
            embdemo::gather_rows(table.data(), cols, ids.data(), count, out.data());
            for (std::size_t i = 0; i < count; ++i) {
                for (std::size_t j = 0; j < cols; ++j) REQUIRE(out[i * cols + j] == table[ids[i] * cols + j]);
            }
        }
    }
}

TEST_CASE("zeroed_floats gives count zeros below and above the huge-page size") {
    for (const std::size_t count : {std::size_t{0}, std::size_t{3}, embdemo::k_huge_page_min_bytes / sizeof(float) + 5}) {
        const std::vector<float> values = embdemo::zeroed_floats(count);
        CHECK(values.size() == count);
        bool all_zero = true;
        for (const float v : values) all_zero = all_zero && v == 0.0f;
        CHECK(all_zero);
    }
}
