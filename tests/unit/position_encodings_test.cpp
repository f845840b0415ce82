// The sinusoidal table and RoPE against PyTorch's own code (tests/data/torch_encoding_vectors.txt,
// written by tools/make_torch_encoding_vectors.py). torch computes each angle p * theta in float32,
// which is off by up to half an ulp of the angle, so its sin and cos are off by as much: the bound
// is a few float32 ulps of the largest angle, |diff| <= 4 * 2^-24 * (1 + p), per value at position p.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/kernels/position_encodings.hpp"

namespace embdemo {
namespace {

double allowed(std::size_t position) { return 4.0 * std::ldexp(1.0, -24) * static_cast<double>(1 + position); }

std::vector<float> read_values(std::istringstream& in, std::size_t count) {
    std::vector<float> values(count);
    for (float& v : values) in >> v;
    return values;
}

}  // namespace

TEST_CASE("the sinusoidal table and RoPE agree with PyTorch's code within a few float32 ulps of the angle") {
    std::ifstream in(EMBDEMO_TEST_DATA_DIR "/torch_encoding_vectors.txt");
    REQUIRE(in);
    std::size_t cases = 0;
    double worst = 0.0;  // diff / allowed, the largest seen
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        std::string kind;
        std::size_t rows = 0, dim = 0;
        fields >> kind >> rows >> dim;
        CAPTURE(kind);
        CAPTURE(rows);
        CAPTURE(dim);
        Matrix ours;
        std::vector<float> theirs;
        if (kind == "sinusoidal") {
            theirs = read_values(fields, rows * dim);
            ours = sinusoidal_table(rows, dim);
        } else {
            Matrix x(rows, dim);
            x.values = read_values(fields, rows * dim);
            theirs = read_values(fields, rows * dim);
            ours = rope_rotate(x, rows);
        }
        REQUIRE(fields);
        for (std::size_t i = 0; i < ours.values.size(); ++i) {
            const double diff = std::fabs(static_cast<double>(ours.values[i]) - theirs[i]);
            worst = std::max(worst, diff / allowed(i / dim));
            CHECK(diff <= allowed(i / dim));
        }
        ++cases;
    }
    CHECK(cases == 16);
    MESSAGE("largest difference: " << worst << " of the allowed bound");
}

TEST_CASE("RoPE scores depend on the offset only, and rotation keeps a row's length") {
    const std::vector<float> a{0.3f, -1.2f, 0.8f, 0.05f, 2.0f, -0.4f};
    const std::vector<float> b{-0.7f, 0.1f, 1.5f, -0.9f, 0.2f, 0.6f};
    for (std::size_t k = 0; k < 4; ++k) {
        const double at_zero = rope_score(a.data(), 0, b.data(), k, a.size());
        for (const std::size_t p : {1u, 7u, 100u}) CHECK(rope_score(a.data(), p, b.data(), p + k, a.size()) == doctest::Approx(at_zero).epsilon(1e-5));
    }
    std::vector<float> turned(a.size());
    rope_rotate_row(a.data(), a.size(), 17, turned.data());
    double before = 0, after = 0;
    for (std::size_t j = 0; j < a.size(); ++j) {
        before += a[j] * a[j];
        after += turned[j] * turned[j];
    }
    CHECK(after == doctest::Approx(before).epsilon(1e-6));
    CHECK(turned != a);
}

}  // namespace embdemo
