// Tests that the two kernels of the vectorised normal path (src/core/torch/torch_rng.hpp, NormalKernel)
// give the same bits: the AVX2 one against the per-lane reference on the seed and shape of every
// recorded torch embedding, on random shapes and on every possible float uniform, and normal_fill
// against the reference whatever kernel it chose. init_test.cpp holds normal_fill, and so the
// kernel this CPU runs, against the recorded torch values themselves. On a CPU without AVX2 only
// the reference runs, and the tests say so.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/torch/torch_rng.hpp"

namespace embdemo {
namespace {

// +0.0 exactly: equal to zero and without the sign bit.
bool is_plus_zero(float value) {
    return value == 0.0f && !std::signbit(value);
}

struct EmbeddingShape {
    std::uint64_t seed = 0;
    std::size_t rows = 0;
    std::size_t cols = 0;
};

// The seed and shape of every embedding in tests/data/torch_vectors.txt (format: written by
// tools/make_torch_vectors.py; "embedding <seed> <rows>x<cols> ..."). Only these three fields
// are needed here: the values themselves are init_test.cpp's business.
std::vector<EmbeddingShape> recorded_embedding_shapes() {
    std::ifstream file(EMBDEMO_TEST_DATA_DIR "/torch_vectors.txt");
    REQUIRE(file.good());
    std::vector<EmbeddingShape> shapes;
    std::string line;
    while (std::getline(file, line)) {
        std::istringstream fields(line);
        std::string kind;
        EmbeddingShape shape;
        char times = 0;
        if (!(fields >> kind) || kind != "embedding") continue;
        const bool parsed =
            static_cast<bool>(fields >> shape.seed >> shape.rows >> times >> shape.cols);
        REQUIRE_MESSAGE((parsed && times == 'x'), "bad line: ", line);
        shapes.push_back(shape);
    }
    return shapes;
}

std::vector<NormalKernel> available_kernels() {
    std::vector<NormalKernel> kernels{NormalKernel::reference};
    if (normal_kernel_available(NormalKernel::avx2)) {
        kernels.push_back(NormalKernel::avx2);
    } else {
        MESSAGE("this CPU has no AVX2+FMA: only the reference kernel is tested");
    }
    return kernels;
}

const char* name_of(NormalKernel kernel) {
    return kernel == NormalKernel::avx2 ? "avx2" : "reference";
}

// Index of the first element whose bits differ, or values.size() when all agree.
std::size_t first_difference(const std::vector<float>& a, const std::vector<float>& b) {
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::memcmp(&a[i], &b[i], sizeof(float)) != 0) return i;
    }
    return a.size();
}

std::vector<float> fill_with(NormalKernel kernel, TorchGenerator& generator, std::size_t count,
                             float mean, float std_dev) {
    std::vector<float> values(count);
    normal_fill_using(kernel, generator, values.data(), count, mean, std_dev);
    return values;
}

// One pass over all 2^24 float uniforms k * 2^-24, 4096 blocks at a time: the uniform under test
// sits in the lanes given by `tested_offset` (0: the u1 lanes, 8: the u2 lanes) and a scrambled
// uniform in the other eight, so every value meets many partners. Returns the blocks that differ.
std::size_t exhaustive_pass(std::size_t tested_offset) {
    constexpr std::uint32_t k_uniform_count = 1u << 24;
    constexpr std::size_t k_blocks = 4096;
    const std::size_t other_offset = 8 - tested_offset;
    std::vector<float> reference(k_blocks * 16);
    std::vector<float> fast(k_blocks * 16);
    std::size_t differing_blocks = 0;
    for (std::uint32_t first = 0; first < k_uniform_count; first += k_blocks * 8) {
        for (std::size_t lane = 0; lane < k_blocks * 8; ++lane) {
            const auto k = static_cast<std::uint32_t>(first + lane);
            const std::uint32_t partner = (k * 2654435761u) & (k_uniform_count - 1);
            const std::size_t block = lane / 8 * 16;
            reference[block + tested_offset + lane % 8] = std::ldexp(static_cast<float>(k), -24);
            reference[block + other_offset + lane % 8] =
                std::ldexp(static_cast<float>(partner), -24);
        }
        std::memcpy(fast.data(), reference.data(), reference.size() * sizeof(float));
        normal_blocks(NormalKernel::reference, reference.data(), k_blocks, 0.0f, 1.0f);
        normal_blocks(NormalKernel::avx2, fast.data(), k_blocks, 0.0f, 1.0f);
        if (std::memcmp(reference.data(), fast.data(), reference.size() * sizeof(float)) != 0) {
            const std::size_t index = first_difference(reference, fast);
            if (differing_blocks++ == 0) {
                FAIL_CHECK("uniforms from ", first, ": first difference at element ", index);
            }
        }
    }
    return differing_blocks;
}

}  // namespace

TEST_CASE("the AVX2 kernel gives the reference kernel's bits for every recorded torch embedding") {
    const std::vector<EmbeddingShape> shapes = recorded_embedding_shapes();
    REQUIRE(shapes.size() > 150);
    if (!normal_kernel_available(NormalKernel::avx2)) {
        MESSAGE("skipped: this CPU has no AVX2+FMA");
        return;
    }
    std::size_t failed = 0;
    for (const EmbeddingShape& shape : shapes) {
        const std::size_t count = shape.rows * shape.cols;
        TorchGenerator reference_generator(shape.seed);
        TorchGenerator fast_generator(shape.seed);
        const std::vector<float> reference =
            fill_with(NormalKernel::reference, reference_generator, count, 0.0f, 1.0f);
        const std::vector<float> fast =
            fill_with(NormalKernel::avx2, fast_generator, count, 0.0f, 1.0f);
        if (first_difference(reference, fast) != count && failed++ == 0) {
            FAIL_CHECK("seed ", shape.seed, " ", shape.rows, "x", shape.cols, " differs");
        }
    }
    CHECK_MESSAGE(failed == 0, failed, " of ", shapes.size(), " embeddings differ");
}

TEST_CASE("the AVX2 kernel gives the reference kernel's bits on random shapes, means and stds") {
    if (!normal_kernel_available(NormalKernel::avx2)) {
        MESSAGE("skipped: this CPU has no AVX2+FMA");
        return;
    }
    std::mt19937_64 random(9);
    const float stds[] = {1.0f, 0.02f, 3.5f, -1.0f};
    const float means[] = {0.0f, -0.0f, 0.25f, -7.0f};
    for (int trial = 0; trial < 200; ++trial) {
        const std::uint64_t seed = random();
        // Every count from 16 to 55 (all tail lengths, twice), then random ones.
        const std::size_t count =
            trial < 40 ? 16 + static_cast<std::size_t>(trial) : 16 + random() % 20000;
        const float mean = means[trial % 4];
        const float std_dev = stds[(trial / 4) % 4];
        CAPTURE(seed);
        CAPTURE(count);
        CAPTURE(mean);
        CAPTURE(std_dev);
        TorchGenerator reference_generator(seed);
        TorchGenerator fast_generator(seed);
        // Two fills in a row on one generator: the second must start where the first left off.
        for (int fill = 0; fill < 2; ++fill) {
            const std::vector<float> reference =
                fill_with(NormalKernel::reference, reference_generator, count, mean, std_dev);
            const std::vector<float> fast =
                fill_with(NormalKernel::avx2, fast_generator, count, mean, std_dev);
            REQUIRE(first_difference(reference, fast) == count);
        }
        CHECK(reference_generator.random() == fast_generator.random());
    }
}

TEST_CASE("the AVX2 kernel agrees with the reference on every float uniform as u1 and as u2") {
    if (!normal_kernel_available(NormalKernel::avx2)) {
        MESSAGE("skipped: this CPU has no AVX2+FMA");
        return;
    }
    CHECK(exhaustive_pass(0) == 0);  // every uniform as the source of u1 = 1 - uniform
    CHECK(exhaustive_pass(8) == 0);  // every uniform as u2, the angle
}

TEST_CASE("normal_fill gives the reference kernel's values whichever kernel it chose") {
    CHECK(normal_kernel_available(NormalKernel::reference));
    CHECK(normal_kernel_available(fastest_normal_kernel()));
    CHECK((fastest_normal_kernel() == NormalKernel::avx2) ==
          normal_kernel_available(NormalKernel::avx2));
    for (const std::size_t count : {1u, 15u, 16u, 17u, 4096u, 4096u * 16 + 5, 50257u}) {
        CAPTURE(count);
        TorchGenerator automatic(123);
        TorchGenerator reference(123);
        std::vector<float> chosen(count);
        normal_fill(automatic, chosen.data(), count);
        CHECK(first_difference(chosen, fill_with(NormalKernel::reference, reference, count, 0.0f,
                                                 1.0f)) == count);
    }
}

TEST_CASE("normal_blocks turns one block of uniforms into the spec's eight Box-Muller pairs") {
    // u = 0 gives u1 = 1, log 1 = 0 and radius 0: both normals of the pair are +0 (the final
    // fma turns -0 into +0), whatever the angle; a nonzero radius gives cos/sin of the angle.
    for (const NormalKernel kernel : available_kernels()) {
        CAPTURE(name_of(kernel));
        std::vector<float> block(16, 0.0f);
        block[8] = 0.25f;  // angle pi/2 for lane 0 (radius still 0)
        normal_blocks(kernel, block.data(), 1, 0.0f, 1.0f);
        for (const float value : block) CHECK(is_plus_zero(value));

        std::vector<float> half(16, 0.0f);
        half[1] = 0.5f;  // u1 = 0.5 for lane 1, angle 0: the cosine normal is sqrt(-2 log 0.5) > 0
        normal_blocks(kernel, half.data(), 1, 0.0f, 1.0f);
        CHECK(half[1] == doctest::Approx(1.1774100f));
        CHECK(is_plus_zero(half[9]));  // sin 0 = +0
    }
}

}  // namespace embdemo
