#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/file_formats/delimited_weights.hpp"
#include "core/torch/init.hpp"
#include "core/file_formats/weight_file.hpp"

using namespace embdemo;

namespace {

std::optional<std::string> accept_any(std::uint64_t, std::uint64_t) { return std::nullopt; }

ParseResult<Matrix> read_text(const std::string& text, char delimiter = ',') {
    std::istringstream in(text);
    return read_delimited_weights(in, delimiter, accept_any);
}

std::uint32_t bits(float value) {
    std::uint32_t b = 0;
    std::memcpy(&b, &value, sizeof b);
    return b;
}

}  // namespace

TEST_CASE("read_delimited_weights reads numpy.savetxt's CSV and TSV of the notebook table") {
    const Matrix torch = torch_embedding_weight(4, 5, 123);
    for (const auto& [name, delimiter] : {std::pair{"notebook.csv", ','}, {"notebook.tsv", '\t'}}) {
        CAPTURE(name);
        std::ifstream in(std::string(EMBDEMO_TEST_DATA_DIR) + "/weights/" + name);
        const auto weight = read_delimited_weights(in, delimiter, accept_any);
        REQUIRE_MESSAGE(weight, weight.error());
        CHECK(weight.value() == torch);
    }
}

TEST_CASE("read_delimited_weights accepts CRLF, a missing final newline, signs, blanks and non-finite values") {
    const auto weight = read_text("+1.5, -0.0 ,nan\r\n-inf,inf,1e-45");
    REQUIRE_MESSAGE(weight, weight.error());
    const Matrix& m = weight.value();
    CHECK(m.rows == 2);
    CHECK(m.cols == 3);
    CHECK(m.at(0, 0) == 1.5f);
    CHECK(bits(m.at(0, 1)) == 0x80000000u);
    CHECK(std::isnan(m.at(0, 2)));
    CHECK(m.at(1, 0) == -INFINITY);
    CHECK(m.at(1, 1) == INFINITY);
    CHECK(bits(m.at(1, 2)) == 0x00000001u);  // the smallest subnormal survives
}

TEST_CASE("read_delimited_weights rounds each value as a double, like numpy.float32(text)") {
    const auto weight = read_text("0.1\n16777217\n");
    REQUIRE(weight);
    CHECK(weight.value().values[0] == static_cast<float>(0.1));
    CHECK(weight.value().values[1] == 16777216.0f);
}

TEST_CASE("read_delimited_weights refuses bad text with the line and value") {
    const struct {
        const char* text;
        const char* message;
    } cases[] = {
        {"", "is empty (allowed: one row of numbers per line)"},
        {"1,2\n3\n", "line 2 has 1 value but line 1 has 2 (allowed: the same number of values on every line)"},
        {"1,2\n\n3,4\n", "line 2 is empty (allowed: one row of numbers per line)"},
        {"1,2\n3,four\n", "line 2, value 2 \"four\" is not a number (allowed: decimal numbers such as -1.5, 2e-3, nan, inf, -inf)"},
        {"1,nan(123)\n", "line 1, value 2 \"nan(123)\" is a NaN with a payload, which numpy refuses (allowed: decimal numbers such as -1.5, 2e-3, nan, inf, -inf)"},
        {"-nan()\n", "line 1, value 1 \"-nan()\" is a NaN with a payload, which numpy refuses (allowed: decimal numbers such as -1.5, 2e-3, nan, inf, -inf)"},
        {"1,,2\n", "line 1, value 2 is empty"},
        {"1,2,\n", "line 1, value 3 is empty"},
        {"\"1\",2\n", "line 1, value 1 \"\"1\"\" is not a number"},
        {"0x10\n", "line 1, value 1 \"0x10\" is not a number"},
        {"1e39\n", "line 1, value 1 \"1e39\" is too large for float32"},
        {"1e999\n", "line 1, value 1 \"1e999\" is out of range"},
        {"1 2\n", "line 1, value 1 \"1 2\" is not a number"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.text);
        const auto result = read_text(c.text);
        REQUIRE_FALSE(result);
        CHECK_MESSAGE(result.error().find(c.message) != std::string::npos, result.error());
    }
}

TEST_CASE("read_delimited_weights refuses an endless value without storing it") {
    const auto result = read_text(std::string(1000000, '1') + "\n");
    REQUIRE_FALSE(result);
    CHECK(result.error() == "line 1, value 1 is longer than 100 characters");
}

TEST_CASE("read_delimited_weights passes the final shape to the check") {
    std::istringstream in("1\t2\t3\n4\t5\t6\n");
    const auto result = read_delimited_weights(in, '\t', [](std::uint64_t rows, std::uint64_t cols) {
        return std::optional<std::string>("shape " + std::to_string(rows) + "x" + std::to_string(cols));
    });
    REQUIRE_FALSE(result);
    CHECK(result.error() == "shape 2x3");
}

TEST_CASE("detect_weight_format trusts the .npy magic first, then the extension") {
    const std::string magic("\x93NUMPY", 6);
    CHECK(detect_weight_format("e.csv", magic).value() == WeightFormat::npy);
    CHECK(detect_weight_format("e.bin", magic).value() == WeightFormat::npy);
    CHECK(detect_weight_format("e.csv", "1,2").value() == WeightFormat::csv);
    CHECK(detect_weight_format("e.tsv", "1\t2").value() == WeightFormat::tsv);
    CHECK(detect_weight_format("e.npy", "PK").error() == "is not a .npy file (it does not start with \\x93NUMPY)");
    CHECK(detect_weight_format("e.npy", "").error() == "is empty");
    CHECK(detect_weight_format("e.txt", "1,2").error() ==
          "is neither a .npy file (it does not start with \\x93NUMPY) nor named .csv or .tsv");
}

TEST_CASE("narrow_to_float32 rounds to nearest and refuses only finite overflow") {
    CHECK(narrow_to_float32(0.1).value() == 0.1f);
    CHECK(narrow_to_float32(3.4028235e38).value() == 3.4028234663852886e38f);  // rounds down to FLT_MAX
    CHECK_FALSE(narrow_to_float32(0x1.ffffffp+127));  // the tie rounds to even, which is inf
    CHECK_FALSE(narrow_to_float32(-1e300));
    CHECK(std::isinf(narrow_to_float32(INFINITY).value()));
    CHECK(std::isnan(narrow_to_float32(NAN).value()));
}
