// Tests that normal_fill split between threads (NormalFillSplit) gives exactly the bits of one
// thread and leaves the generator exactly where one thread leaves it: for many seeds, odd sizes,
// the 16-value block boundary and its tail rule, pieces as small as one block, more threads than
// pieces, both kernels, fills that start in the middle of the generator's 624-word block, and a
// cached scalar normal that must survive. init_test.cpp holds the split fill against the
// recorded torch vectors themselves.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "core/torch/torch_rng.hpp"

namespace embdemo {
namespace {

std::vector<NormalKernel> available_kernels() {
    std::vector<NormalKernel> kernels{NormalKernel::reference};
    if (normal_kernel_available(NormalKernel::avx2)) kernels.push_back(NormalKernel::avx2);
    return kernels;
}

struct Fill {
    std::vector<float> values;
    std::uint32_t next_draws[3] = {};  // where the generator was left
    bool cached_normal = false;
};

// `warm_draws` 32-bit draws and one scalar normal first (which caches its pair's second value),
// then the fill under test, then three draws: the state the fill left behind.
Fill fill_after(NormalKernel kernel, std::uint64_t seed, std::size_t warm_draws, std::size_t count,
                float mean, float std_dev, NormalFillSplit split) {
    TorchGenerator generator(seed);
    for (std::size_t i = 0; i < warm_draws; ++i) generator.random();
    float scalar = 0.0f;
    normal_fill_using(kernel, generator, &scalar, 1);
    Fill fill;
    fill.values.resize(count);
    normal_fill_using(kernel, generator, fill.values.data(), count, mean, std_dev, split);
    fill.cached_normal = generator.has_cached_normal();
    for (std::uint32_t& draw : fill.next_draws) draw = generator.random();
    return fill;
}

void check_same(const Fill& one_thread, const Fill& split) {
    REQUIRE(one_thread.values.size() == split.values.size());
    CHECK(std::memcmp(one_thread.values.data(), split.values.data(),
                      one_thread.values.size() * sizeof(float)) == 0);
    CHECK(std::memcmp(one_thread.next_draws, split.next_draws, sizeof split.next_draws) == 0);
    CHECK(one_thread.cached_normal == split.cached_normal);
}

}  // namespace

TEST_CASE("a fill split between threads gives one thread's bits around the 16-value boundary") {
    // Every count from 1 (the scalar path, which never splits) to 100 covers each tail length
    // six times, with pieces of one block, so the tail rule's redraw follows a split fill.
    for (const NormalKernel kernel : available_kernels()) {
        for (std::size_t count = 1; count <= 100; ++count) {
            for (const unsigned threads : {2u, 3u, 8u}) {
                CAPTURE(count);
                CAPTURE(threads);
                const Fill one = fill_after(kernel, 123, 0, count, 0.0f, 1.0f, {});
                check_same(one, fill_after(kernel, 123, 0, count, 0.0f, 1.0f, {threads, 1}));
            }
        }
    }
}

TEST_CASE("a fill split between threads gives one thread's bits for many seeds, sizes and pieces") {
    std::mt19937_64 random(29);
    const std::uint64_t seeds[] = {0, 1, 42, 123, (std::uint64_t{1} << 32) + 5, ~std::uint64_t{0}};
    const std::size_t piece_blocks[] = {1, 2, 3, 7, 39, 1024};
    const float means[] = {0.0f, 0.25f, -7.0f};
    const float stds[] = {1.0f, 0.02f, -1.0f};
    for (int trial = 0; trial < 60; ++trial) {
        const std::uint64_t seed = seeds[trial % 6];
        // Sizes of a few blocks to about 40 GPT-2 rows, odd ones included; warm-up draws put the
        // fill's first draw anywhere in the generator's 624-word block.
        const std::size_t count = 16 + random() % (trial < 30 ? 2000 : 30000);
        const std::size_t warm = random() % 1300;
        const NormalFillSplit split{2 + static_cast<unsigned>(random() % 4), piece_blocks[trial % 6]};
        const float mean = means[trial % 3];
        const float std_dev = stds[(trial / 3) % 3];
        CAPTURE(seed);
        CAPTURE(count);
        CAPTURE(warm);
        CAPTURE(split.threads);
        CAPTURE(split.piece_blocks);
        for (const NormalKernel kernel : available_kernels()) {
            check_same(fill_after(kernel, seed, warm, count, mean, std_dev, {}),
                       fill_after(kernel, seed, warm, count, mean, std_dev, split));
        }
    }
}

TEST_CASE("a table-sized fill on two threads with the default pieces gives one thread's bits") {
    // 50,257 x 64: a GPT-2 vocabulary at a small width, about 200 default pieces and a tail.
    const std::size_t count = 50257 * 64 + 3;
    const NormalKernel kernel = fastest_normal_kernel();
    NormalFillSplit split;
    split.threads = 2;
    check_same(fill_after(kernel, 123, 0, count, 0.0f, 1.0f, {}),
               fill_after(kernel, 123, 0, count, 0.0f, 1.0f, split));
}

TEST_CASE("a split asking for no threads or empty pieces still fills on the calling thread") {
    const NormalKernel kernel = fastest_normal_kernel();
    const Fill one = fill_after(kernel, 7, 0, 999, 0.0f, 1.0f, {});
    check_same(one, fill_after(kernel, 7, 0, 999, 0.0f, 1.0f, {0, 4}));
    check_same(one, fill_after(kernel, 7, 0, 999, 0.0f, 1.0f, {2, 0}));
}

}  // namespace embdemo
