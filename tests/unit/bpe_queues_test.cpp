// BPE's candidate queues (core/gpt2/bpe_queues.hpp) give back what was pushed in (rank, start)
// order whatever order it came in, pops and pushes interleaved as BPE interleaves them: the order
// is tiktoken's merge order, and a run of BPE rarely sends a queue the out-of-order starts that
// would show a mistake in it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/gpt2/bpe_queues.hpp"

namespace embdemo {

namespace {

// Pushes `pushes` pseudo-random candidates, popping one after every `pop_every` pushes, then
// drains the queue; checks each pop against the smallest (rank, start) pushed and not yet popped.
template <typename Queue>
void check_order(Queue& queue, std::uint32_t ranks, std::uint32_t starts, std::size_t pushes, std::size_t pop_every) {
    std::uint64_t state = 20261126 + ranks * 7 + pop_every;
    const auto next = [&](std::uint32_t below) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<std::uint32_t>((state >> 33) % below);
    };
    std::vector<std::pair<std::uint32_t, std::uint32_t>> waiting;
    const auto check_pop = [&] {
        Candidate c;
        REQUIRE(queue.pop(c));
        const auto lowest = std::min_element(waiting.begin(), waiting.end());
        CHECK(std::make_pair(c.rank, c.start) == *lowest);
        waiting.erase(lowest);
    };
    for (std::size_t i = 0; i < pushes; ++i) {
        // Half the starts rise, as a run's do; the rest land anywhere, as a merge's neighbours can.
        const std::uint32_t start = i % 2 == 0 ? static_cast<std::uint32_t>(i) : next(starts);
        const Candidate c{next(ranks), start};
        queue.push(c);
        waiting.emplace_back(c.rank, c.start);
        if (pop_every > 0 && i % pop_every == pop_every - 1) check_pop();
    }
    while (!waiting.empty()) check_pop();
    Candidate c;
    CHECK_FALSE(queue.pop(c));
}

}  // namespace

TEST_CASE("BPE's queues give candidates back lowest rank first, leftmost first among equal ranks") {
    for (const std::uint32_t ranks : {1u, 3u, 70u, 50257u}) {
        for (const std::size_t pop_every : {std::size_t{0}, std::size_t{2}, std::size_t{3}}) {
            CAPTURE(ranks);
            CAPTURE(pop_every);
            RankBucketQueue buckets(50257);
            check_order(buckets, ranks, 3000, 3000, pop_every);
            HeapQueue heap(16);
            check_order(heap, ranks, 3000, 3000, pop_every);
        }
    }
}

}  // namespace embdemo
