// The tied lesson's logits a block of rows at a time: per row, the top K (ties by id, NaN on
// top), each id's own rank and the row's bit fingerprint equal what the whole n x V logits of
// one F.linear call give, for any blocks and threads; and past k_max_held_logits only the edge
// rows are kept, with the same bits as the whole call's.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "core/ids.hpp"
#include "core/kernels/embedding.hpp"
#include "core/kernels/torch_matmul.hpp"
#include "core/lessons/tied_lesson.hpp"
#include "core/torch/init.hpp"
#include "core/torch/torch_rng.hpp"
#include "special_matrices.hpp"

namespace embdemo {
namespace {

// The reference the lesson replaced: every row's ids sorted whole by torch.sort(descending,
// stable=True)'s order over the whole logits matrix.
std::vector<std::uint64_t> sorted_row(const Matrix& logits, std::size_t row) {
    std::vector<std::uint64_t> order(logits.cols);
    std::iota(order.begin(), order.end(), std::uint64_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::uint64_t a, std::uint64_t b) {
        const float x = logits.at(row, a);
        const float y = logits.at(row, b);
        if (std::isnan(x) != std::isnan(y)) return std::isnan(x);
        return !std::isnan(x) && x > y;
    });
    return order;
}

std::int64_t bit_sum(const Matrix& logits, std::size_t row) {
    std::int64_t sum = 0;
    for (std::size_t j = 0; j < logits.cols; ++j) {
        std::int32_t bits = 0;
        const float value = logits.at(row, j);
        std::memcpy(&bits, &value, sizeof bits);
        sum = static_cast<std::int64_t>(static_cast<std::uint64_t>(sum) +
                                        static_cast<std::uint64_t>(static_cast<std::int64_t>(bits)) * (j + 1));
    }
    return sum;
}

void check_rows_against_whole(const TiedLesson& lesson, const Matrix& whole) {
    REQUIRE(lesson.top.size() == whole.rows);
    for (std::size_t i = 0; i < whole.rows; ++i) {
        CAPTURE(i);
        const std::vector<std::uint64_t> order = sorted_row(whole, i);
        REQUIRE(lesson.top[i].size() == lesson.request.top);
        for (std::size_t r = 0; r < lesson.request.top; ++r) {
            CHECK(lesson.top[i][r].id == order[r]);
            const float expected = whole.at(i, order[r]);
            CHECK(std::memcmp(&lesson.top[i][r].logit, &expected, sizeof expected) == 0);
        }
        if (!lesson.request.hidden_given) {
            const auto own = std::find(order.begin(), order.end(), lesson.request.ids.values[i]);
            CHECK(lesson.own_rank[i] == static_cast<std::size_t>(own - order.begin()));
        }
        CHECK(lesson.row_bit_sums[i] == bit_sum(whole, i));
    }
}

}  // namespace

TEST_CASE("tied: per-row top K, own rank and bit sums equal the whole F.linear call's for any blocks") {
    std::mt19937 engine(5145);
    for (int round = 0; round < 40; ++round) {
        TiedRequest request;
        request.vocab_size = 1 + engine() % 60;
        request.dim = 1 + engine() % 12;
        request.seed = engine();
        const std::size_t n = 1 + engine() % 30;
        TokenIds ids(n);
        for (auto& id : ids) id = engine() % request.vocab_size;
        request.ids.values = ids;
        request.ids.seq = n;
        request.top = 1 + engine() % request.vocab_size;
        // Half the rounds: H from a "file" of small integers (many equal logits, so ties) with
        // special values, NaN payloads among them.
        Matrix hidden;
        request.hidden_given = round % 2 == 1;
        if (request.hidden_given) {
            hidden = special_table(n, request.dim, engine, true);
            for (float& value : hidden.values) {
                if (std::isfinite(value)) value = std::round(value / 2.0f);
            }
        }
        TorchGenerator generator(request.seed);
        const Matrix e = torch_embedding_weight(generator, request.vocab_size, request.dim);
        const Matrix whole = torch_linear(request.hidden_given ? hidden : lookup(e, ids), e);
        for (const std::size_t block_values : {std::size_t{1}, request.vocab_size * 3, std::size_t{1} << 22}) {
            for (const unsigned threads : {1u, 2u}) {
                CAPTURE(round);
                CAPTURE(block_values);
                CAPTURE(threads);
                LinearBlockSettings blocks;
                blocks.block_values = block_values;
                blocks.threads = threads;
                const TiedLesson lesson = run_tied_lesson(request, hidden, blocks);
                REQUIRE(lesson.logits.whole());
                CHECK(same_bits(lesson.logits.values, whole));
                check_rows_against_whole(lesson, whole);
            }
        }
    }
}

TEST_CASE("tied: past k_max_held_logits only the first and last rows of the logits are kept, PyTorch's bits") {
    TiedRequest request;
    request.vocab_size = 42000;
    request.dim = 3;
    request.seed = 27;
    request.top = 4;
    const std::size_t n = 400;  // 400 x 42,000 = 16,800,000 logits, past 2^24
    TokenIds ids(n);
    for (std::size_t i = 0; i < n; ++i) ids[i] = (i * 7919) % request.vocab_size;
    request.ids.values = ids;
    request.ids.seq = n;
    LinearBlockSettings blocks;
    blocks.threads = 2;
    const TiedLesson lesson = run_tied_lesson(request, Matrix(), blocks);
    CHECK_FALSE(lesson.logits.whole());
    CHECK(lesson.logits.held == std::vector<std::size_t>{0, 1, 2, 397, 398, 399});
    CHECK(lesson.logits.index_of(397) == 3);
    CHECK(lesson.logits.index_of(200) == lesson.logits.held.size());
    const Matrix whole = torch_linear(lesson.hidden, lesson.weight);
    for (std::size_t r = 0; r < lesson.logits.held.size(); ++r) {
        const std::size_t i = lesson.logits.held[r];
        CHECK(std::memcmp(lesson.logits.values.row(r), whole.row(i), whole.cols * sizeof(float)) == 0);
    }
    check_rows_against_whole(lesson, whole);
    CHECK(held_logit_rows(6, std::size_t{1} << 30).size() == 6);  // six rows are all of a summary
    CHECK(held_logit_rows(7, std::size_t{1} << 30) == std::vector<std::size_t>{0, 1, 2, 4, 5, 6});
}

}  // namespace embdemo
