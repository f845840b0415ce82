// The blocked dense kernel (core/kernels/onehot_dense) against the in-order reference
// matmul(one_hot(ids, V), E), bit for bit, with every tile this CPU runs and 1 and 2 threads.
// The special-value tests also run deliberately wrong sums on the same inputs and check that
// they differ from the reference, so a kernel that reordered or skipped terms would fail here.
// An FMA is caught too: fma(0, inf, NaN sum) keeps the sum's NaN where mul then add gives the
// default NaN of 0 * inf (tried: the AVX tile with _mm256_fmadd_ps fails the special-value test).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/kernels/embedding.hpp"
#include "core/kernels/onehot_dense.hpp"

using namespace embdemo;

namespace {

float from_bits(std::uint32_t bits) {
    float value = 0;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

std::uint32_t bits_of(float value) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

const std::vector<DenseIsa> k_every_isa = {DenseIsa::best, DenseIsa::avx, DenseIsa::sse2, DenseIsa::scalar};

std::vector<float> dense(DenseIsa isa, const TokenIds& ids, const Matrix& E, unsigned threads) {
    std::vector<float> out(ids.size() * E.cols, 42.0f);  // not zero: the kernel must clear it
    onehot_dense_product_with(isa, ids.data(), ids.size(), E.values.data(), E.rows, E.cols, out.data(), threads);
    return out;
}

// The first output whose bits differ, as "row i col j: got 0x... want 0x...", or "".
std::string first_difference(const std::vector<float>& got, const Matrix& want) {
    for (std::size_t p = 0; p < got.size(); ++p) {
        if (bits_of(got[p]) == bits_of(want.values[p])) continue;
        char text[96];
        std::snprintf(text, sizeof text, "row %zu col %zu: got 0x%08x want 0x%08x", p / want.cols, p % want.cols,
                      bits_of(got[p]), bits_of(want.values[p]));
        return text;
    }
    return "";
}

// Every tile this CPU runs, on 1 and 2 threads, gives the reference's bits.
void check_every_kernel(const TokenIds& ids, const Matrix& E) {
    const Matrix want = matmul(one_hot(ids, E.rows), E);
    for (const DenseIsa isa : k_every_isa) {
        if (!dense_isa_available(isa)) continue;
        for (const unsigned threads : {1u, 2u}) {
            const std::string isa_name = dense_isa_name(isa);
            CAPTURE(isa_name);
            CAPTURE(threads);
            CHECK(first_difference(dense(isa, ids, E, threads), want) == "");
        }
    }
    std::vector<float> out(ids.size() * E.cols);
    onehot_dense_product(ids.data(), ids.size(), E.values.data(), E.rows, E.cols, out.data(), 2);
    CHECK(first_difference(out, want) == "");
}

TokenIds random_ids(std::mt19937& engine, std::size_t n, std::size_t V) {
    TokenIds ids(n);
    for (std::uint64_t& id : ids) id = engine() % V;
    return ids;
}

// Floats from their bits: any sign, exponent and mantissa except inf and NaN, so zeros of both
// signs, subnormals and large values all turn up.
Matrix random_table(std::mt19937& engine, std::size_t V, std::size_t d) {
    Matrix E(V, d);
    for (float& value : E.values) {
        std::uint32_t bits = engine();
        if ((bits & 0x7f800000u) == 0x7f800000u) bits &= 0xbfffffffu;  // exponent all ones -> not
        if (engine() % 8 == 0) bits &= 0x807fffffu;                      // a subnormal or a zero
        value = from_bits(bits);
    }
    return E;
}

// first + second as x86 adds: of two NaNs the first operand's payload, quieted. Spelled out,
// because a compiler may swap the operands of `+`, which would change which NaN comes out.
float x86_add(float first, float second) {
    if (std::isnan(first)) return from_bits(bits_of(first) | 0x00400000u);
    if (std::isnan(second)) return from_bits(bits_of(second) | 0x00400000u);
    return first + second;
}

// A deliberately wrong sum, for the tests that must be able to fail: the reference's loop with
// one thing changed.
enum class Mistake { reversed_k, sum_first_on_nan, skip_zero_terms, start_from_first_term, blocks_from_zero };

float wrong_sum(Mistake mistake, const TokenIds& ids, const Matrix& E, std::size_t i, std::size_t j) {
    const std::size_t V = E.rows;
    const auto term = [&](std::size_t k) { return (k == ids[i] ? 1.0f : 0.0f) * E.at(k, j); };
    float sum = 0.0f;
    switch (mistake) {
    case Mistake::reversed_k:
        for (std::size_t k = V; k-- > 0;) sum = x86_add(term(k), sum);
        return sum;
    case Mistake::sum_first_on_nan:
        for (std::size_t k = 0; k < V; ++k) sum = x86_add(sum, term(k));
        return sum;
    case Mistake::skip_zero_terms: return E.at(ids[i], j);
    case Mistake::start_from_first_term:
        sum = term(0);
        for (std::size_t k = 1; k < V; ++k) sum = x86_add(term(k), sum);
        return sum;
    case Mistake::blocks_from_zero: {
        // A BLAS's order: each block of 4 values of k summed from zero, the block's total added to C.
        for (std::size_t k0 = 0; k0 < V; k0 += 4) {
            float block = 0.0f;
            for (std::size_t k = k0; k < std::min(V, k0 + 4); ++k) block = x86_add(term(k), block);
            sum = x86_add(sum, block);
        }
        return sum;
    }
    }
    return sum;
}

// A table of special values: in column j, several NaNs with distinct payloads (quiet and
// signalling, both signs) at different k (so the payload the sum ends with depends on the order
// of the terms), infinities (0 * inf is the default NaN), -0.0, subnormals.
Matrix special_table(std::size_t V, std::size_t d) {
    Matrix E(V, d);
    for (std::size_t k = 0; k < V; ++k) {
        for (std::size_t j = 0; j < d; ++j) E.at(k, j) = static_cast<float>(k + 1) * 0.25f - static_cast<float>(j);
    }
    const std::uint32_t nan_payloads[] = {0x7fc00001u, 0xffc12345u, 0x7f800077u, 0xff80abcdu, 0x7fffffffu};
    for (std::size_t j = 0; j < d; ++j) {
        switch (j % 6) {
        case 0:  // NaNs spread over the rows, one column apart from the next
            for (std::size_t p = 0; p < 5; ++p) E.at((j + 1 + p * V / 5) % V, j) = from_bits(nan_payloads[p]);
            break;
        case 1:  // a NaN, then an infinity after it
            E.at(j % V, j) = from_bits(0x7fc0beefu);
            E.at((j + V / 2) % V, j) = -std::numeric_limits<float>::infinity();
            break;
        case 2: E.at(j % V, j) = std::numeric_limits<float>::infinity(); break;
        case 3:
            for (std::size_t k = 0; k < V; ++k) E.at(k, j) = -0.0f;
            break;
        case 4:
            for (std::size_t k = 0; k < V; ++k) E.at(k, j) = from_bits(static_cast<std::uint32_t>(k % 3 ? k : 0x80000000u | k));
            break;
        default: E.at(j % V, j) = -std::numeric_limits<float>::denorm_min(); break;
        }
    }
    return E;
}

}  // namespace

TEST_CASE("the dense one-hot kernel has the in-order reference's bits on random shapes") {
    std::mt19937 engine(2027);
    struct Shape {
        std::size_t n, V, d;
    };
    // Edges of the tiles (6 x 16, 6 x 8) and of the blocks (144 rows, 256 values of k, 1,536
    // columns), and the degenerate shapes.
    const Shape shapes[] = {{1, 1, 1},   {1, 50, 768}, {7, 1, 9},     {6, 256, 16},  {13, 257, 17},
                            {145, 300, 23}, {300, 513, 33}, {12, 40, 1537}, {5, 600, 7}, {150, 90, 48}};
    for (const Shape& shape : shapes) {
        CAPTURE(shape.n);
        CAPTURE(shape.V);
        CAPTURE(shape.d);
        check_every_kernel(random_ids(engine, shape.n, shape.V), random_table(engine, shape.V, shape.d));
    }
    for (int round = 0; round < 20; ++round) {
        const std::size_t n = 1 + engine() % 40, V = 1 + engine() % 700, d = 1 + engine() % 70;
        CAPTURE(n);
        CAPTURE(V);
        CAPTURE(d);
        check_every_kernel(random_ids(engine, n, V), random_table(engine, V, d));
    }
}

TEST_CASE("the dense one-hot kernel keeps -0.0, inf and NaN payloads as the in-order sum leaves them") {
    const std::size_t V = 700, d = 37;  // three blocks of k, an edge tile of columns
    const Matrix E = special_table(V, d);
    TokenIds ids;
    for (std::size_t i = 0; i < 50; ++i) ids.push_back((i * 97 + 3) % V);
    ids.push_back(1);  // the row holding column 0's first NaN
    check_every_kernel(ids, E);

    // What the reference gives, spelled out for row 0 (id 3): in column 0 (NaNs at rows 1, 141,
    // 281, 421, 561) the last NaN term's payload, because each add keeps its first operand's, the
    // term's; in column 1 (a NaN, then -inf) the default NaN that 0 * -inf makes; in column 3
    // (all -0.0) +0.0, where the sum started; the lookup would give -0.0.
    const Matrix want = matmul(one_hot(ids, V), E);
    CHECK(bits_of(want.at(0, 0)) == 0x7fffffffu);
    CHECK(bits_of(want.at(0, 1)) == 0xffc00000u);
    CHECK(bits_of(want.at(0, 3)) == 0x00000000u);
    CHECK(bits_of(dense(DenseIsa::best, ids, E, 1)[0]) == 0x7fffffffu);
}

TEST_CASE("the special values tell a reordered or shortened sum from the in-order one") {
    const std::size_t V = 700, d = 37;
    const Matrix E = special_table(V, d);
    TokenIds ids;
    for (std::size_t i = 0; i < 50; ++i) ids.push_back((i * 97 + 3) % V);
    const Matrix want = matmul(one_hot(ids, V), E);
    // The model first: the in-order sum with x86_add, the term first, is the reference.
    for (std::size_t i = 0; i < ids.size(); ++i) {
        for (std::size_t j = 0; j < d; ++j) {
            float sum = 0.0f;
            for (std::size_t k = 0; k < V; ++k) sum = x86_add((k == ids[i] ? 1.0f : 0.0f) * E.at(k, j), sum);
            REQUIRE(bits_of(sum) == bits_of(want.at(i, j)));
        }
    }
    for (const Mistake mistake : {Mistake::reversed_k, Mistake::sum_first_on_nan, Mistake::skip_zero_terms,
                                  Mistake::start_from_first_term, Mistake::blocks_from_zero}) {
        CAPTURE(static_cast<int>(mistake));
        std::size_t differing = 0;
        for (std::size_t i = 0; i < ids.size(); ++i) {
            for (std::size_t j = 0; j < d; ++j) differing += bits_of(wrong_sum(mistake, ids, E, i, j)) != bits_of(want.at(i, j));
        }
        CHECK(differing > 0);
    }
}

// Up to k_stream_rows ids the kernel reads E in place and packs only a right edge narrower than a
// tile. Both sides of the switch must give the reference's bits, on every tile width's edge,
// with special values.
TEST_CASE("the dense one-hot kernel reads E in place for few ids, with the reference's bits") {
    REQUIRE(k_stream_rows == 12);  // the loop below crosses it
    std::mt19937 engine(2029);
    for (const std::size_t d : {std::size_t{1}, std::size_t{8}, std::size_t{16}, std::size_t{21}, std::size_t{37}}) {
        for (const bool special : {false, true}) {
            const std::size_t V = 300;  // more than one block of k in place (16) and packed (256)
            const Matrix E = special ? special_table(V, d) : random_table(engine, V, d);
            for (std::size_t n = 1; n <= k_stream_rows + 1; ++n) {
                CAPTURE(d);
                CAPTURE(special);
                CAPTURE(n);
                TokenIds ids = random_ids(engine, n, V);
                if (special) ids[0] = 1;  // column 0's first NaN
                check_every_kernel(ids, E);
            }
        }
    }
}

TEST_CASE("the dense one-hot kernel uses a thread only for enough multiply-adds, and never more than rows") {
    CHECK(onehot_dense_threads(1, 50257, 768, 2) == 1);
    CHECK(onehot_dense_threads(5145, 50257, 768, 2) == 2);
    CHECK(onehot_dense_threads(5145, 50257, 768, 0) == 1);
    CHECK(onehot_dense_threads(64, 64, 64, 8) == 1);  // 2^18 multiply-adds: not worth a thread
    CHECK(onehot_dense_threads(3, 1u << 24, 64, 8) == 3);
    CHECK(dense_isa_available(DenseIsa::scalar));
    CHECK(std::string(dense_isa_name(DenseIsa::scalar)) == "scalar");
}
