#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
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

TEST_CASE("transpose_floats copies every bit to its transposed place for every edge of the 8 x 8 blocks") {
    for (const std::size_t rows : {1, 7, 8, 9, 17, 64}) {
        for (const std::size_t cols : {1, 8, 15, 16, 33}) {
            CAPTURE(rows);
            CAPTURE(cols);
            // Strides wider than the block, as when a band of a larger matrix is transposed; the
            // source holds NaNs with payloads, which a copy must keep.
            const std::size_t src_stride = cols + 3, dst_stride = rows + 5;
            std::vector<float> src = numbered(rows * src_stride);
            for (std::size_t i = 0; i < src.size(); i += 5) {
                const std::uint32_t bits = 0x7f800001u + static_cast<std::uint32_t>(i);  // a signalling NaN
                std::memcpy(&src[i], &bits, sizeof bits);
            }
            std::vector<float> dst(cols * dst_stride, -1.0f);
            embdemo::transpose_floats(src.data(), src_stride, rows, cols, dst.data(), dst_stride);
            for (std::size_t c = 0; c < cols; ++c) {
                for (std::size_t r = 0; r < dst_stride; ++r) {
                    std::uint32_t got = 0, want = 0;
                    std::memcpy(&got, &dst[c * dst_stride + r], sizeof got);
                    const float expected = r < rows ? src[r * src_stride + c] : -1.0f;  // past rows: untouched
                    std::memcpy(&want, &expected, sizeof want);
                    REQUIRE(got == want);
                }
            }
        }
    }
}
