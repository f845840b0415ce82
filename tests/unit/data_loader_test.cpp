// The first batch of the book's create_dataloader_v1, checked against Python's own range().
#include <doctest/doctest.h>

#include "core/gpt2/data_loader.hpp"

namespace embdemo {

TEST_CASE("windows start at 0, S, 2S, ... while i < N - T, as range(0, N - T, S) counts them") {
    for (std::size_t n = 0; n < 30; ++n) {
        for (std::size_t t = 1; t < 8; ++t) {
            for (std::size_t s = 1; s < 6; ++s) {
                std::size_t python = 0;
                for (std::size_t i = 0; i + t < n; i += s) ++python;  // for i in range(0, n - t, s)
                CHECK(count_windows(n, t, s) == python);
            }
        }
    }
}

TEST_CASE("the first batch: B windows of T, targets shifted by one, tokens carried along") {
    IdBatch text;
    for (std::uint64_t id = 100; id < 110; ++id) text.values.push_back(id);
    text.source.token_of = [](std::uint64_t id) { return "t" + std::to_string(id); };
    text.seq = text.values.size();
    text.source.text = "ten tokens";
    const auto batch = first_loader_batch(text, {3, 2, 2});
    REQUIRE(batch);
    CHECK(batch.value().inputs.values == std::vector<std::uint64_t>{100, 101, 102, 102, 103, 104});
    CHECK(batch.value().targets == std::vector<std::uint64_t>{101, 102, 103, 103, 104, 105});
    CHECK(batch.value().inputs.source.token_of(batch.value().inputs.values[3]) == "t102");
    CHECK(batch.value().windows == 4);  // starts 0, 2, 4, 6 (6 < 10 - 3)
    CHECK(batch.value().inputs.batched);
    CHECK(!first_loader_batch(text, {3, 2, 5}));     // 4 windows, a batch of 5: drop_last leaves none
    CHECK(!first_loader_batch(text, {10, 1, 1}));    // no room for a target
    CHECK(first_loader_batch(text, {9, 1, 1}));      // exactly one window
}

}  // namespace embdemo
