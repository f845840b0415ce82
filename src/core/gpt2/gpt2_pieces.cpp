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

// One character of the text: its bytes and class. Callers validate the text first; a byte that
// does not start a character is taken as U+FFFD of length 1.
struct Char {
    std::uint32_t code = 0;
    std::size_t length = 0;
    CharClass kind = CharClass::other;
};

// The pattern read straight off the text, a character at a time: a copy of a 16 MiB text's
// characters (start, class and code point, 13 bytes each) and a list of its pieces (16 bytes
// each) took 460 MiB before a piece was encoded.
class Scanner {
public:
    explicit Scanner(std::string_view text) : text_(text) {}

    bool done(std::size_t at) const { return at >= text_.size(); }

    Char at(std::size_t at) const {
        const auto next = decode_utf8(text_, at);
        const std::uint32_t code = next ? next->code_point : 0xfffd;
        return {code, next ? next->length : 1, classify(code)};
    }

    // The byte after the piece that starts at byte `i`.
    std::size_t piece_end(std::size_t i) const {
        if (const std::size_t end = contraction(i)) return end;
        if (const std::size_t end = classed_run(i)) return end;
        return space_run(i);
    }

private:
    std::uint32_t code_at(std::size_t i) const { return done(i) ? 0 : at(i).code; }

    // 's 't 're 've 'm 'll 'd: the byte after the contraction at `i`, or 0.
    std::size_t contraction(std::size_t i) const {
        if (text_[i] != '\'') return 0;
        const std::uint32_t a = code_at(i + 1);
        if (a == 's' || a == 't' || a == 'm' || a == 'd') return i + 2;
        const std::uint32_t b = a == 0 ? 0 : code_at(i + 2);
        if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) return i + 3;
        return 0;
    }

    std::size_t run_end(std::size_t i, CharClass kind) const {
        while (!done(i)) {
            const Char c = at(i);
            if (c.kind != kind) break;
            i += c.length;
        }
        return i;
    }

    // ` ?\p{L}+`, ` ?\p{N}+` and ` ?[^\s\p{L}\p{N}]+`: an optional U+0020, then a run of one
    // class; 0 when there is none.
    std::size_t classed_run(std::size_t i) const {
        const std::size_t first = text_[i] == ' ' && !done(i + 1) ? i + 1 : i;
        const Char c = at(first);
        if (c.kind == CharClass::space) return 0;
        return run_end(first, c.kind);
    }

    // `\s+(?!\S)|\s+`: a run of white space, leaving its last character to start the next piece
    // when a non-space follows (so " world" keeps its space), unless that would leave nothing.
    std::size_t space_run(std::size_t i) const {
        std::size_t last = i;  // where the run's last character starts
        std::size_t end = i;
        std::size_t characters = 0;
        while (!done(end)) {
            const Char c = at(end);
            if (c.kind != CharClass::space) break;
            last = end;
            end += c.length;
            ++characters;
        }
        if (!done(end) && characters > 1) return last;
        return end;
    }

    std::string_view text_;
};

}  // namespace

void for_each_gpt2_raw_piece(std::string_view text, const std::function<void(std::string_view)>& take) {
    const Scanner scanner(text);
    for (std::size_t i = 0; !scanner.done(i);) {
        const std::size_t end = scanner.piece_end(i);
        take(text.substr(i, end - i));
        i = end;
    }
}

std::vector<std::string_view> gpt2_pieces(std::string_view text) {
    std::vector<std::string_view> pieces;
    for_each_gpt2_raw_piece(text, [&](std::string_view piece) { pieces.push_back(piece); });
    return pieces;
}

}  // namespace embdemo
