#include "core/gpt2/gpt2_pieces.hpp"

#include <utf8proc.h>

#include "core/escape.hpp"

namespace embdemo {

CharClass classify(std::uint32_t code_point) {
    // White_Space (Unicode's PropList.txt) is the separators Zs, Zl and Zp plus six controls;
    // utf8proc has the categories but no property for the controls.
    if ((code_point >= 0x09 && code_point <= 0x0d) || code_point == 0x85) return CharClass::space;
    switch (utf8proc_category(static_cast<utf8proc_int32_t>(code_point))) {
    case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL: case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM: case UTF8PROC_CATEGORY_LO:
        return CharClass::letter;
    case UTF8PROC_CATEGORY_ND: case UTF8PROC_CATEGORY_NL: case UTF8PROC_CATEGORY_NO:
        return CharClass::number;
    case UTF8PROC_CATEGORY_ZS: case UTF8PROC_CATEGORY_ZL: case UTF8PROC_CATEGORY_ZP:
        return CharClass::space;
    default:
        return CharClass::other;
    }
}

namespace {

// The text as characters: where each starts and its class, plus an end sentinel.
struct Chars {
    std::vector<std::size_t> start;
    std::vector<CharClass> kind;
    std::vector<std::uint32_t> code;
    std::size_t count() const { return kind.size(); }
};

Chars decode(std::string_view text) {
    Chars chars;
    // A character per byte at the most: growing vectors of a 16 MiB text would copy each twice.
    chars.start.reserve(text.size() + 1);
    chars.kind.reserve(text.size());
    chars.code.reserve(text.size());
    for (std::size_t at = 0; at < text.size();) {
        const auto next = decode_utf8(text, at);
        const std::uint32_t code = next ? next->code_point : 0xfffd;  // callers validate first
        chars.start.push_back(at);
        chars.kind.push_back(classify(code));
        chars.code.push_back(code);
        at += next ? next->length : 1;
    }
    chars.start.push_back(text.size());
    return chars;
}

// 's 't 're 've 'm 'll 'd: how many characters the contraction at `i` takes, or 0.
std::size_t contraction(const Chars& chars, std::size_t i) {
    if (chars.code[i] != '\'' || i + 1 >= chars.count()) return 0;
    const std::uint32_t a = chars.code[i + 1];
    if (a == 's' || a == 't' || a == 'm' || a == 'd') return 2;
    if (i + 2 >= chars.count()) return 0;
    const std::uint32_t b = chars.code[i + 2];
    if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) return 3;
    return 0;
}

std::size_t run_end(const Chars& chars, std::size_t i, CharClass kind) {
    while (i < chars.count() && chars.kind[i] == kind) ++i;
    return i;
}

// ` ?\p{L}+`, ` ?\p{N}+` and ` ?[^\s\p{L}\p{N}]+`: an optional U+0020, then a run of one class.
std::size_t classed_run(const Chars& chars, std::size_t i) {
    const std::size_t first = chars.code[i] == ' ' && i + 1 < chars.count() ? i + 1 : i;
    if (chars.kind[first] == CharClass::space) return 0;
    return run_end(chars, first, chars.kind[first]) - i;
}

// `\s+(?!\S)|\s+`: a run of white space, leaving its last character to start the next piece when
// a non-space follows (so " world" keeps its space), unless that would leave nothing.
std::size_t space_run(const Chars& chars, std::size_t i) {
    const std::size_t end = run_end(chars, i, CharClass::space);
    if (end < chars.count() && end - i > 1) return end - 1 - i;
    return end - i;
}

}  // namespace

std::vector<std::string_view> gpt2_pieces(std::string_view text) {
    const Chars chars = decode(text);
    std::vector<std::string_view> pieces;
    for (std::size_t i = 0; i < chars.count();) {
        std::size_t length = contraction(chars, i);
        if (length == 0) length = classed_run(chars, i);
        if (length == 0) length = space_run(chars, i);
        pieces.push_back(text.substr(chars.start[i], chars.start[i + length] - chars.start[i]));
        i += length;
    }
    return pieces;
}

}  // namespace embdemo
