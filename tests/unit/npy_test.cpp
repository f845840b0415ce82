#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "core/torch/init.hpp"
#include "core/limits.hpp"
#include "core/file_formats/npy.hpp"

using namespace embdemo;

namespace {

const std::string k_data = EMBDEMO_TEST_DATA_DIR;

std::optional<std::string> accept_any(std::uint64_t, std::uint64_t) { return std::nullopt; }

// The caps the CLI applies, for files whose header must never lead to a huge allocation.
std::optional<std::string> within_caps(std::uint64_t rows, std::uint64_t cols) {
    return check_demo_sizes(1, rows, cols);
}

std::string file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

ParseResult<Matrix> read_bytes(const std::string& bytes, const ShapeCheck& check = accept_any) {
    std::istringstream in(bytes);
    return read_npy(in, check);
}

// The bit patterns in NAME.expected (written by tools/make_npy_fixtures.py with numpy).
std::vector<std::uint32_t> expected_bits(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in);
    std::vector<std::uint32_t> bits;
    std::string word;
    while (in >> word) bits.push_back(static_cast<std::uint32_t>(std::stoul(word, nullptr, 16)));
    return bits;
}

std::vector<std::uint32_t> bits_of(const Matrix& m) {
    std::vector<std::uint32_t> bits(m.values.size());
    std::memcpy(bits.data(), m.values.data(), bits.size() * sizeof(float));
    return bits;
}

}  // namespace

TEST_CASE("read_npy counts a single announced value in the singular") {
    // A 1 x 1 float32 file: header padded so the data starts at byte 128, 64-aligned as numpy writes it.
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1), }";
    header += std::string(128 - 10 - header.size() - 1, ' ') + '\n';
    const std::string file = std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size()) + '\0' + header;
    CHECK(read_bytes(file + std::string(8, '\0')).error() == "has more bytes after the 1 value its header announces");
    CHECK(read_bytes(file + std::string(2, '\0')).error() ==
          "is truncated: the header announces 1 value (4 bytes of data) but the data ends after 2 bytes");
}

TEST_CASE("read_npy loads files written by real numpy bit for bit") {
    for (const char* name : {"notebook_f32", "values_f64", "big_endian_f32", "version2_f32"}) {
        CAPTURE(name);
        const auto weight = read_bytes(file_bytes(k_data + "/weights/" + name + ".npy"));
        REQUIRE_MESSAGE(weight, weight.error());
        CHECK(bits_of(weight.value()) == expected_bits(k_data + "/weights/" + name + ".expected"));
    }
}

TEST_CASE("the notebook's table saved by numpy is torch's seeded table") {
    const auto weight = read_bytes(file_bytes(k_data + "/weights/notebook_f32.npy"));
    REQUIRE(weight);
    CHECK(weight.value().rows == 4);
    CHECK(weight.value().cols == 5);
    CHECK(bits_of(weight.value()) == bits_of(torch_embedding_weight(4, 5, 123)));
}

TEST_CASE("encode_npy writes exactly the bytes numpy.save writes") {
    CHECK(encode_npy(torch_embedding_weight(4, 5, 123)) == file_bytes(k_data + "/weights/notebook_f32.npy"));
}

TEST_CASE("encode_npy then read_npy gives back every bit, including -0, inf, nan and subnormals") {
    Matrix m(3, 4);
    const std::uint32_t patterns[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001,
                                      0xffc12345, 0x00000001, 0x807fffff, 0x3f800000, 0x7f7fffff, 0xbdcccccd};
    std::memcpy(m.values.data(), patterns, sizeof patterns);
    for (const std::size_t rows : {1, 3, 99999}) {
        CAPTURE(rows);
        Matrix sized = rows == 3 ? m : torch_embedding_weight(rows, 4, rows);
        const std::string bytes = encode_npy(sized);
        CHECK((bytes.size() - sized.values.size() * 4) % 64 == 0);  // data starts 64-aligned
        const auto back = read_bytes(bytes);
        REQUIRE_MESSAGE(back, back.error());
        CHECK(bits_of(back.value()) == bits_of(sized));
        CHECK(back.value().rows == rows);
    }
}

TEST_CASE("read_npy checks the shape before reading any data") {
    std::string bytes = encode_npy(Matrix(2, 3));
    bytes.resize(bytes.size() - 24);  // no data at all
    std::uint64_t seen_rows = 0, seen_cols = 0;
    const auto result = read_bytes(bytes, [&](std::uint64_t rows, std::uint64_t cols) -> std::optional<std::string> {
        seen_rows = rows;
        seen_cols = cols;
        return std::string("refused by the caller");
    });
    REQUIRE_FALSE(result);
    CHECK(result.error() == "refused by the caller");
    CHECK(seen_rows == 2);
    CHECK(seen_cols == 3);
}

TEST_CASE("read_npy refuses every kind of bad file with a clear message") {
    struct Case {
        const char* file;
        const char* message;
    };
    const Case cases[] = {
        {"not_npy.npy", "is not a .npy file (it does not start with \\x93NUMPY)"},
        {"empty.npy", "is empty"},
        {"int64.npy", "has dtype \"<i8\" (allowed: float32 or float64: '<f4', '<f8', '>f4', '>f8')"},
        {"fortran.npy", "is in Fortran order (allowed: C order; save np.ascontiguousarray(E))"},
        {"three_d.npy", "holds a 3-D array of shape (2, 3, 4) (allowed: a 2-D array, vocab x dim)"},
        {"one_d.npy", "holds a 1-D array of shape (5,) (allowed: a 2-D array, vocab x dim)"},
        {"zero_rows.npy", "holds an empty array of shape (0, 4) (allowed: at least one row and one column)"},
        {"truncated.npy",
         "is truncated: the header announces 12 values (48 bytes of data) but the data ends after 45 bytes"},
        {"trailing_bytes.npy", "has more bytes after the 12 values its header announces"},
        {"huge_header.npy", "has a header of 65,535 bytes (allowed: at most 10,000, as numpy.load)"},
        {"huge_header_v2.npy", "has a header of 4,294,967,280 bytes (allowed: at most 10,000, as numpy.load)"},
        {"huge_shape.npy", "the embedding matrix E (vocab x dim) would be 100,000,000 x 768"},
        {"bad_header.npy", "has a malformed header"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.file);
        const auto result = read_bytes(file_bytes(k_data + "/bad/" + c.file), within_caps);
        REQUIRE_FALSE(result);
        CHECK_MESSAGE(result.error().find(c.message) != std::string::npos, result.error());
    }
}

TEST_CASE("read_npy refuses unknown versions, truncated preambles and malformed dicts") {
    const std::string preamble("\x93NUMPY", 6);
    const struct {
        std::string bytes;
        const char* message;
    } cases[] = {
        {preamble + std::string("\x04\x00\x10\x00", 4), "has .npy format version 4.0 (allowed: 1.0, 2.0, 3.0)"},
        {preamble + "\x01", "is truncated inside its .npy preamble"},
        {preamble + std::string("\x01\x00\x10\x00", 4) + "{'descr'", "is truncated inside its header"},
        {preamble + std::string("\x01\x00\x0c\x00", 4) + "{'descr': 1}", "'descr' that is not a string"},
        {preamble + std::string("\x01\x00\x0a\x00", 4) + "{'x': 1, }", "unexpected or repeated key \"x\""},
        {preamble + std::string("\x01\x00\x1a\x00", 4) + "{'descr': '<f4', 'shape': ", "a 'shape' that is not"},
        {preamble + std::string("\x01\x00\x11\x00", 4) + "{'descr': '<f4'} ", "lacks one of"},
        {preamble + std::string("\x01\x00\x51\x00", 4) +
             "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 99999999999999999999999), }",
         "has a 'shape' size \"99999999999999999999999\" that is more than 2^64 - 1 (allowed: a shape of at "
         "most 67,108,864 values, the limit for E)"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.message);
        const auto result = read_bytes(c.bytes);
        REQUIRE_FALSE(result);
        CHECK_MESSAGE(result.error().find(c.message) != std::string::npos, result.error());
    }
}

TEST_CASE("read_npy refuses a float64 value too large for float32") {
    std::string bytes = encode_npy(Matrix(1, 1));
    const std::size_t header_end = bytes.size() - 4;
    bytes.replace(bytes.find("'<f4'"), 5, "'<f8'");
    bytes.resize(header_end);
    const double too_big = 1e39;
    bytes.append(reinterpret_cast<const char*>(&too_big), sizeof too_big);  // little-endian host
    const auto result = read_bytes(bytes);
    REQUIRE_FALSE(result);
    CHECK(result.error() == "has a float64 value 1e+39 at row 0, column 0 that is too large for float32 "
                            "(allowed: magnitudes below 3.4028235677973366e+38, which round to at most float32's "
                            "largest, 3.4028234663852886e+38, or inf)");
    // Just past the range: its digits say so ("%g" printed 3.40282e+38, float32's largest).
    bytes.resize(header_end);
    const double just_past = 0x1.ffffffp+127;
    bytes.append(reinterpret_cast<const char*>(&just_past), sizeof just_past);
    const auto past = read_bytes(bytes);
    REQUIRE_FALSE(past);
    CHECK(past.error().rfind("has a float64 value 3.4028235677973366e+38 at row 0, column 0 that is too large", 0) == 0);
}
