// Makes user-supplied text safe to quote in a one-line error message: bytes outside printable
// ASCII become \xNN, so a stray escape sequence or invalid UTF-8 can neither garble the terminal
// nor hide what was typed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace embdemo {

std::string escape_for_message(std::string_view text);

// escape_for_message, cut to `max_chars` with "..." so a huge argument cannot flood stderr.
std::string quote_for_message(std::string_view text, std::size_t max_chars = 60);

// One character of UTF-8 text: its code point and how many bytes it takes.
struct Utf8Char {
    std::uint32_t code_point = 0;
    std::size_t length = 0;
};

// The character that starts at byte `at`, or nullopt when the bytes there are not UTF-8
// (a stray continuation byte, a truncated or overlong sequence, a surrogate, past U+10FFFF).
std::optional<Utf8Char> decode_utf8(std::string_view text, std::size_t at);

bool is_valid_utf8(std::string_view text);

// JSON text (ASCII-only, as embdemo writes it) with each \uXXXX escape, a surrogate pair too, of
// a character that shows as itself written as that character in UTF-8: letters, marks, digits,
// punctuation and symbols. Every other escape stays: \n, \", \\, a control or format character
// (U+202E would reorder the line around it), a space other than ' ', an ignorable or unassigned
// code point. Still JSON, for views people read: "na\u00efve" reads "naïve".
std::string json_with_visible_characters(std::string_view json);

}  // namespace embdemo
