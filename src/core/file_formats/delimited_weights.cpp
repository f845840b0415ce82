#include "core/file_formats/delimited_weights.hpp"

#include <charconv>
#include <string>

#include "core/escape.hpp"
#include "core/limits.hpp"

namespace embdemo {
namespace {

// No number needs more characters than this (numpy.savetxt's "%.18e" uses 25).
constexpr std::size_t k_max_value_chars = 100;

std::string_view trim_blanks(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}

// "-1.5", "2e-3", "+4", "nan", "inf", "-inf" -> float32, or why not.
ParseResult<float> parse_value(std::string_view text) {
    constexpr const char* k_allowed =
        " (allowed: decimal numbers such as -1.5, 2e-3, nan, inf, -inf)";
    std::string_view digits = text;
    if (!digits.empty() && digits.front() == '+') {
        digits.remove_prefix(1);
        if (!digits.empty() && (digits.front() == '+' || digits.front() == '-')) {
            return ParseResult<float>::fail(quote_for_message(text, 30) + " has two signs" + k_allowed);
        }
    }
    // from_chars reads C's "nan(123)", which numpy.float32 and float() refuse.
    if (digits.find('(') != std::string_view::npos) {
        return ParseResult<float>::fail(quote_for_message(text, 30) + " is a NaN with a payload, which numpy refuses" +
                                        k_allowed);
    }
    double value = 0.0;
    const auto [end, status] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (text.empty()) return ParseResult<float>::fail(std::string("is empty") + k_allowed);
    if (status == std::errc::result_out_of_range && end == digits.data() + digits.size()) {
        // from_chars reports both overflow and underflow as out of range; like numpy, a number
        // too small for a double is a zero of its sign, and one too large is refused.
        const auto exponent = digits.find_first_of("eE");
        const bool underflow = exponent != std::string_view::npos &&
                               exponent + 1 < digits.size() && digits[exponent + 1] == '-';
        if (underflow) {
            return ParseResult<float>::ok(digits.front() == '-' ? -0.0f : 0.0f);
        }
        return ParseResult<float>::fail(quote_for_message(text, 30) + " is out of range" + k_allowed);
    }
    if (status != std::errc() || end != digits.data() + digits.size()) {
        return ParseResult<float>::fail(quote_for_message(text, 30) + " is not a number" + k_allowed);
    }
    const auto narrow = narrow_to_float32(value);
    if (!narrow) {
        return ParseResult<float>::fail(quote_for_message(text, 30) +
                                        " is too large for float32 " + k_float32_range);
    }
    return ParseResult<float>::ok(*narrow);
}

}  // namespace

ParseResult<Matrix> read_delimited_weights(std::istream& in, char delimiter, const ShapeCheck& check) {
    using Result = ParseResult<Matrix>;
    Matrix weight;
    std::size_t line = 1;
    std::size_t values_in_line = 0;
    bool line_has_text = false;  // anything but the line break seen on this line
    std::string value;
    bool value_too_long = false;

    const auto where = [&] {
        return "line " + std::to_string(line) + ", value " + std::to_string(values_in_line + 1);
    };
    // Ends the value being read; returns an error message or "".
    const auto finish_value = [&]() -> std::string {
        if (value_too_long) return where() + " is longer than " + std::to_string(k_max_value_chars) + " characters";
        const auto parsed = parse_value(trim_blanks(value));
        if (!parsed) return where() + ' ' + parsed.error();
        if (weight.values.size() == k_max_matrix_values) {
            return "has more than " + group_thousands(k_max_matrix_values) +
                   " values (the limit for E is " + group_thousands(k_max_matrix_values) + " values, 256 MiB)";
        }
        weight.values.push_back(parsed.value());
        ++values_in_line;
        value.clear();
        value_too_long = false;
        return {};
    };
    // Ends the line being read; returns an error message or "".
    const auto finish_line = [&]() -> std::string {
        if (!line_has_text) return "line " + std::to_string(line) + " is empty (allowed: one row of numbers per line)";
        if (std::string problem = finish_value(); !problem.empty()) return problem;
        if (weight.rows == 0) {
            weight.cols = values_in_line;
        } else if (values_in_line != weight.cols) {
            return "line " + std::to_string(line) + " has " + std::to_string(values_in_line) +
                   (values_in_line == 1 ? " value" : " values") + std::string(" but line 1 has ") + std::to_string(weight.cols) +
                   " (allowed: the same number of values on every line)";
        }
        ++weight.rows;
        ++line;
        values_in_line = 0;
        line_has_text = false;
        return {};
    };

    // A UTF-8 byte order mark, as spreadsheet programs write it, is not part of the first value.
    if (in.peek() == 0xef) {
        char mark[3] = {};
        in.read(mark, 3);
        if (in.gcount() != 3 || std::string(mark, 3) != "\xef\xbb\xbf") {
            in.clear();
            in.seekg(0);
        }
    }
    bool pending_cr = false;  // a '\r' that belongs to a CRLF line end if '\n' follows
    for (int next = in.get(); next != std::char_traits<char>::eof(); next = in.get()) {
        const char ch = static_cast<char>(next);
        if (ch == '\n') {
            pending_cr = false;
            if (std::string problem = finish_line(); !problem.empty()) return Result::fail(problem);
            continue;
        }
        if (pending_cr) {  // a '\r' inside a line is an ordinary (bad) character
            line_has_text = true;
            value += '\r';
            pending_cr = false;
        }
        if (ch == '\r') {
            pending_cr = true;
            continue;
        }
        line_has_text = true;
        if (ch == delimiter) {
            if (std::string problem = finish_value(); !problem.empty()) return Result::fail(problem);
        } else if (value.size() < k_max_value_chars) {
            value += ch;
        } else {  // stop at once: the rest of a huge line need not be read to know it is wrong
            value_too_long = true;
            return Result::fail(finish_value());
        }
    }
    if (line_has_text) {  // the last line has no line break (a final '\r' is its CRLF)
        if (std::string problem = finish_line(); !problem.empty()) return Result::fail(problem);
    }
    if (weight.rows == 0) return Result::fail("is empty (allowed: one row of numbers per line)");
    if (auto problem = check(weight.rows, weight.cols)) return Result::fail(*problem);
    return Result::ok(std::move(weight));
}

}  // namespace embdemo
