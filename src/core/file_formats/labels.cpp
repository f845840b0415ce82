#include "core/file_formats/labels.hpp"

#include <algorithm>

#include "core/escape.hpp"

namespace embdemo {
namespace {

// C1 controls (U+0080..U+009F, such as U+0085 NEXT LINE), which some programs take for a line
// break, and the separators U+2028 and U+2029.
bool is_control(std::uint32_t c) { return (c >= 0x80 && c <= 0x9f) || c == 0x2028 || c == 0x2029; }

// Characters that show nothing: Unicode's spaces (category Zs: U+00A0, U+3000, ...), the
// Default_Ignorable_Code_Point characters (DerivedCoreProperties.txt, Unicode 15: the soft
// hyphen, the zero-width and bidirectional controls, the Hangul fillers, variation selectors,
// tags), and U+2800 BRAILLE PATTERN BLANK, which draws as a space.
bool is_invisible(std::uint32_t c) {
    const auto in = [c](std::uint32_t first, std::uint32_t last) { return c >= first && c <= last; };
    return c == ' ' || c == 0xa0 || c == 0xad || c == 0x34f || c == 0x61c || in(0x115f, 0x1160) || c == 0x1680 ||
           in(0x17b4, 0x17b5) || in(0x180b, 0x180f) || in(0x2000, 0x200f) || in(0x202a, 0x202f) ||
           in(0x205f, 0x206f) || c == 0x2800 || c == 0x3000 || c == 0x3164 || in(0xfe00, 0xfe0f) || c == 0xfeff ||
           c == 0xffa0 || in(0xfff0, 0xfff8) || in(0x1bca0, 0x1bca3) || in(0x1d173, 0x1d17a) || in(0xe0000, 0xe0fff);
}

}  // namespace

ParseResult<std::vector<std::string>> parse_labels(std::string_view text, std::size_t expected_count) {
    using Result = ParseResult<std::vector<std::string>>;
    std::vector<std::string> labels;
    // Spreadsheet programs and Windows editors start UTF-8 files with a byte order mark; it is
    // not part of the first label (the weights reader skips it too).
    constexpr std::string_view k_bom = "\xef\xbb\xbf";
    if (text.substr(0, k_bom.size()) == k_bom) text.remove_prefix(k_bom.size());
    if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
    if (text.empty()) return Result::fail("is empty (allowed: one label per row of E)");
    labels.reserve(std::min(expected_count, text.size() / 2 + 1));  // a label and its newline: 2 bytes or more
    for (std::size_t start = 0;;) {
        const std::size_t end = text.find('\n', start);
        std::string_view label = text.substr(start, end == std::string_view::npos ? end : end - start);
        if (!label.empty() && label.back() == '\r') label.remove_suffix(1);
        const std::string line = "line " + std::to_string(labels.size() + 1);
        if (label.empty()) return Result::fail(line + " is empty (allowed: one non-empty label per line)");
        if (label.find('\t') != std::string_view::npos) {
            return Result::fail(line + ' ' + quote_for_message(label, 30) +
                                " contains a tab (allowed: labels without tabs; metadata.tsv is tab-separated)");
        }
        // A stray '\r' or escape byte would break the projector's rows or a terminal.
        for (const char ch : label) {
            const auto byte = static_cast<unsigned char>(ch);
            if (byte < 0x20 || byte == 0x7f) {
                return Result::fail(line + ' ' + quote_for_message(label, 30) +
                                    " contains a control character (allowed: printable text)");
            }
        }
        // The projector reads metadata.tsv as UTF-8 and would show other bytes as U+FFFD.
        if (!is_valid_utf8(label)) {
            return Result::fail(line + ' ' + quote_for_message(label, 30) + " is not valid UTF-8 (allowed: UTF-8 text)");
        }
        bool visible = false;
        for (std::size_t at = 0; at < label.size();) {
            const Utf8Char ch = *decode_utf8(label, at);  // valid: checked above
            if (is_control(ch.code_point)) {
                return Result::fail(line + ' ' + quote_for_message(label, 30) +
                                    " contains a control character (allowed: printable text)");
            }
            visible = visible || !is_invisible(ch.code_point);
            at += ch.length;
        }
        if (!visible) {
            return Result::fail(line + ' ' + quote_for_message(label, 30) +
                                " is blank (allowed: a label with at least one visible character)");
        }
        if (labels.size() == expected_count) {
            return Result::fail("has more than " + std::to_string(expected_count) +
                                " lines (allowed: exactly one label per row of E)");
        }
        labels.emplace_back(label);
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    if (labels.size() != expected_count) {
        return Result::fail("has " + std::to_string(labels.size()) + (labels.size() == 1 ? " line" : " lines") +
                            " but E has " +
                            std::to_string(expected_count) + " rows (allowed: exactly one label per row of E)");
    }
    return Result::ok(std::move(labels));
}

}  // namespace embdemo
