// Tests of torch_embedding_weight, torch_linear_weight and torch_randn against weights recorded
// from real torch 1.13.1 (tests/data/torch_vectors.txt, written by tools/make_torch_vectors.py,
// and the tables and upstream gradients of tests/data/torch_grad_vectors.txt, written by
// tools/make_torch_grad_vectors.py; the formats are documented there). Every value is compared as a float32 bit pattern, never as printed
// digits: small weights are stored in full, big ones as a 64-bit FNV-1a hash of all their bytes
// plus sampled values, so every bit of every value still takes part in the comparison.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/torch/init.hpp"
#include "core/torch/torch_rng.hpp"
#include "torch_cases.hpp"

namespace embdemo {
namespace {

using testing::bits_of;
using testing::fnv1a64;
using testing::hex;

const char* const k_vectors_path = EMBDEMO_TEST_DATA_DIR "/torch_vectors.txt";

// The data file has about 240 cases; fewer means it was truncated or regenerated wrongly.
constexpr std::size_t k_min_case_count = 200;

struct Sample {
    std::size_t index = 0;
    std::uint32_t bits = 0;
};

struct RecordedCase {
    std::string line_label;  // "line N: kind seed RxC", for failure messages
    std::string kind;        // "embedding" or "linear"
    std::uint64_t seed = 0;
    std::size_t rows = 0;
    std::size_t cols = 0;
    bool full = false;
    std::vector<std::uint32_t> values;  // full: all rows*cols bit patterns
    std::uint64_t fnv = 0;              // hash: FNV-1a 64 of the little-endian bytes
    std::vector<Sample> samples;        // hash: a few values at known indices
};

// Parses one non-comment line; returns false (with a reason) if it is malformed, so that a
// damaged file fails loudly instead of being skipped.
bool parse_case(const std::string& line, RecordedCase& out, std::string& error) {
    std::istringstream in(line);
    std::string seed_text;
    std::string shape_text;
    std::string storage;
    if (!(in >> out.kind >> seed_text >> shape_text >> storage)) {
        error = "fewer than four fields";
        return false;
    }
    if (out.kind != "embedding" && out.kind != "linear") {
        error = "unknown kind '" + out.kind + "'";
        return false;
    }
    out.seed = std::stoull(seed_text);
    if (!testing::parse_shape(shape_text, out.rows, out.cols)) {
        error = "bad shape '" + shape_text + "'";
        return false;
    }
    const std::size_t count = out.rows * out.cols;

    std::string word;
    if (storage == "full") {
        out.full = true;
        while (in >> word) {
            out.values.push_back(static_cast<std::uint32_t>(std::stoul(word, nullptr, 16)));
        }
        if (out.values.size() != count) {
            error = "expected " + std::to_string(count) + " values, found " +
                    std::to_string(out.values.size());
            return false;
        }
        return true;
    }
    if (storage == "hash") {
        std::size_t sample_count = 0;
        if (!(in >> word >> sample_count)) {
            error = "missing hash or sample count";
            return false;
        }
        out.fnv = std::stoull(word, nullptr, 16);
        while (in >> word) {
            const std::size_t colon = word.find(':');
            if (colon == std::string::npos) {
                error = "bad sample '" + word + "'";
                return false;
            }
            Sample sample;
            sample.index = std::stoull(word.substr(0, colon));
            sample.bits = static_cast<std::uint32_t>(std::stoul(word.substr(colon + 1), nullptr, 16));
            if (sample.index >= count) {
                error = "sample index out of range in '" + word + "'";
                return false;
            }
            out.samples.push_back(sample);
        }
        if (out.samples.size() != sample_count || sample_count == 0) {
            error = "sample count does not match";
            return false;
        }
        return true;
    }
    error = "unknown storage '" + storage + "'";
    return false;
}

std::vector<RecordedCase> load_cases() {
    std::ifstream file(k_vectors_path);
    REQUIRE_MESSAGE(file.good(), "cannot open ", std::string(k_vectors_path),
                    " (regenerate it with /usr/bin/python3 tools/make_torch_vectors.py)");
    std::vector<RecordedCase> cases;
    std::string line;
    std::size_t line_number = 0;
    while (std::getline(file, line)) {
        ++line_number;
        if (line.empty() || line[0] == '#') {
            continue;
        }
        RecordedCase recorded;
        std::string error;
        const bool ok = parse_case(line, recorded, error);
        REQUIRE_MESSAGE(ok, std::string(k_vectors_path), " line ", line_number, ": ", error);
        recorded.line_label = "line " + std::to_string(line_number) + ": " + recorded.kind + " " +
                              std::to_string(recorded.seed) + " " + std::to_string(recorded.rows) +
                              "x" + std::to_string(recorded.cols);
        cases.push_back(std::move(recorded));
    }
    return cases;
}

Matrix compute(const RecordedCase& recorded) {
    if (recorded.kind == "embedding") {
        return torch_embedding_weight(recorded.rows, recorded.cols, recorded.seed);
    }
    // The recorded shape is the weight's, out x in.
    return torch_linear_weight(recorded.cols, recorded.rows, recorded.seed);
}

// Compares one case; reports the first differing value (index, expected, actual) and returns the
// number of differences found.
std::size_t compare(const RecordedCase& recorded, const Matrix& weight) {
    if (weight.rows != recorded.rows || weight.cols != recorded.cols ||
        weight.values.size() != recorded.rows * recorded.cols) {
        FAIL_CHECK(recorded.line_label, ": wrong shape ", weight.rows, "x", weight.cols);
        return 1;
    }
    std::size_t mismatches = 0;
    auto check_value = [&](std::size_t index, std::uint32_t expected) {
        const std::uint32_t actual = bits_of(weight.values[index]);
        if (actual != expected && mismatches++ == 0) {
            FAIL_CHECK(recorded.line_label, " index ", index, ": expected ", hex(expected, 8),
                       ", got ", hex(actual, 8));
        }
    };
    if (recorded.full) {
        for (std::size_t i = 0; i < recorded.values.size(); ++i) {
            check_value(i, recorded.values[i]);
        }
        return mismatches;
    }
    for (const Sample& sample : recorded.samples) {
        check_value(sample.index, sample.bits);
    }
    const std::uint64_t actual_fnv = fnv1a64(weight.values);
    if (actual_fnv != recorded.fnv) {
        FAIL_CHECK(recorded.line_label, ": FNV-1a of all values: expected ", hex(recorded.fnv, 16),
                   ", got ", hex(actual_fnv, 16));
        ++mismatches;
    }
    return mismatches;
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

TEST_CASE("normal_fill split between threads matches torch for every recorded embedding") {
    // Pieces of one to five blocks, so that even the small recorded tables are cut into many.
    const NormalFillSplit splits[] = {{2, 1}, {3, 2}, {4, 5}};
    std::size_t compared = 0;
    for (const RecordedCase& recorded : load_cases()) {
        if (recorded.kind != "embedding") continue;
        for (const NormalFillSplit& split : splits) {
            CAPTURE(split.threads);
            CAPTURE(split.piece_blocks);
            Matrix weight(recorded.rows, recorded.cols);
            TorchGenerator generator(recorded.seed);
            normal_fill(generator, weight.values.data(), weight.values.size(), 0.0f, 1.0f, split);
            CHECK(compare(recorded, weight) == 0);
            ++compared;
        }
    }
    CHECK(compared > 300);
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
