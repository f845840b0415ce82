// Inputs found by fuzzing the weight-file readers (libFuzzer + ASan/UBSan) and by reading them
// closely: each once broke the promise "a bad file gets one clear line, never a crash, a hang or
// a huge allocation", or read a value differently from numpy.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <sstream>
#include <string>

#include "core/file_formats/delimited_weights.hpp"
#include "core/file_formats/labels.hpp"
#include "core/file_formats/npy.hpp"

using namespace embdemo;

namespace {

const ShapeCheck k_accept_any = [](std::uint64_t, std::uint64_t) { return std::optional<std::string>{}; };

// A version 1.0 .npy preamble around `header` (padded the way numpy pads it), then `data`.
std::string npy_file(std::string header, const std::string& data = "") {
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::string out = "\x93NUMPY\x01";
    out += '\0';
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
    return out + header + data;
}

bool is_one_printable_line(const std::string& message) {
    for (const char ch : message) {
        const auto byte = static_cast<unsigned char>(ch);
        if (byte < 0x20 || byte >= 0x7f) return false;
    }
    return message.size() < 400;
}

ParseResult<Matrix> read_csv(const std::string& text) {
    std::istringstream in(text);
    return read_delimited_weights(in, ',', k_accept_any);
}

}  // namespace

TEST_CASE("a .npy header key with control bytes or great length gives one short printable line") {
    std::string raw = "\x93NUMPY\x01";
    raw += '\0';
    raw += "\x12";
    raw += '\0';
    raw += "{'a\n\x1b[31mRED\x1b[0m'}";
    std::istringstream escape_key(raw);
    const auto escaped = read_npy(escape_key, k_accept_any);
    REQUIRE_FALSE(escaped);
    CHECK(is_one_printable_line(escaped.error()));

    std::istringstream long_key(npy_file("{'" + std::string(9000, 'k') + "' 1}"));
    const auto long_result = read_npy(long_key, k_accept_any);
    REQUIRE_FALSE(long_result);
    CHECK(is_one_printable_line(long_result.error()));
}

TEST_CASE("read_npy refuses shapes past the matrix cap even when the caller's check accepts them") {
    std::istringstream huge(npy_file(
        "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }"));
    const auto result = read_npy(huge, k_accept_any);
    REQUIRE_FALSE(result);
    CHECK(result.error().find("holds an array of shape") != std::string::npos);
}

TEST_CASE("a truncated .npy announcing a large table is refused as truncated") {
    std::istringstream short_file(
        npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (65536, 1024), }", "abcd"));
    const auto result = read_npy(short_file, k_accept_any);
    REQUIRE_FALSE(result);
    CHECK(result.error().find("is truncated") != std::string::npos);
}

TEST_CASE("CSV values: two signs are refused, underflow is a signed zero like numpy") {
    const auto two_signs = read_csv("+-1.5,2\n");
    REQUIRE_FALSE(two_signs);
    CHECK(two_signs.error().find("has two signs") != std::string::npos);

    const auto tiny = read_csv("1e-400,-1e-400\n");
    REQUIRE(tiny);
    CHECK(tiny.value().values[0] == 0.0f);
    CHECK_FALSE(std::signbit(tiny.value().values[0]));
    CHECK(std::signbit(tiny.value().values[1]));

    CHECK_FALSE(read_csv("1e400\n"));
}

TEST_CASE("CSV line ends: a final CR, CRLF blank lines and a byte order mark") {
    const auto final_cr = read_csv("1,2\r");
    REQUIRE(final_cr);
    CHECK(final_cr.value().values == std::vector<float>{1, 2});

    const auto blank = read_csv("1,2\r\n\r\n3,4\n");
    REQUIRE_FALSE(blank);
    CHECK(blank.error().find("line 2 is empty") != std::string::npos);

    const auto bom = read_csv("\xef\xbb\xbf" "1,2\n");
    REQUIRE(bom);
    CHECK(bom.value().values == std::vector<float>{1, 2});
}

TEST_CASE("a CSV value longer than the limit is refused without reading the rest of the line") {
    const auto result = read_csv(std::string(1000000, '1'));
    REQUIRE_FALSE(result);
    CHECK(result.error().find("is longer than") != std::string::npos);
}

TEST_CASE("labels with control characters are refused") {
    const auto result = parse_labels("a\x1b[31mb\nc\n", 2);
    REQUIRE_FALSE(result);
    CHECK(result.error().find("contains a control character") != std::string::npos);
    CHECK(is_one_printable_line(result.error()));
    CHECK_FALSE(parse_labels("a\rb\nc\n", 2));
}
