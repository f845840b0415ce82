#include "core/gpt2/gpt2_tokenizer.hpp"

#include <utf8proc.h>

#include "core/escape.hpp"
#include "core/gpt2/gpt2_pieces.hpp"

namespace embdemo {

namespace {

// `text` in order as the stretches between "<|endoftext|>", to `between` (each may be empty), and
// each "<|endoftext|>" itself, to `special`.
template <typename Between, typename Special>
void for_each_segment(std::string_view text, Between&& between, Special&& special) {
    while (!text.empty()) {
        const std::size_t at = text.find(k_end_of_text_text);
        between(text.substr(0, at));
        if (at == std::string_view::npos) break;
        special(text.substr(at, k_end_of_text_text.size()));
        text.remove_prefix(at + k_end_of_text_text.size());
    }
}

// Each piece of `text` in order, with its ids, to `take`: what both tokenize_gpt2 and
// encode_gpt2 walk, so that encoding a long text keeps no per-piece records.
template <typename Take>
void for_each_piece(const Gpt2Vocabulary& vocab, std::string_view text, Take&& take) {
    for_each_segment(
        text,
        [&](std::string_view between) {
            for_each_gpt2_raw_piece(between,
                                    [&](std::string_view piece) { take(TextPiece{piece, vocab.encode_piece(piece), false}); });
        },
        [&](std::string_view special) { take(TextPiece{special, {k_gpt2_end_of_text}, true}); });
}

}  // namespace

std::vector<TextPiece> tokenize_gpt2(const Gpt2Vocabulary& vocab, std::string_view text) {
    std::vector<TextPiece> pieces;
    for_each_piece(vocab, text, [&](TextPiece&& piece) { pieces.push_back(std::move(piece)); });
    return pieces;
}

void for_each_gpt2_piece(const Gpt2Vocabulary& vocab, std::string_view text,
                         const std::function<void(TextPiece&&)>& take) {
    for_each_piece(vocab, text, take);
}

std::size_t count_gpt2_pieces(std::string_view text) {
    std::size_t count = 0;
    for_each_segment(
        text, [&](std::string_view between) { for_each_gpt2_raw_piece(between, [&](std::string_view) { ++count; }); },
        [&](std::string_view) { ++count; });
    return count;
}

std::size_t likely_token_count(std::string_view text) {
    return text.size() / 3 + 1;  // English runs about 4 bytes a token: room without regrowing copies
}

std::vector<std::uint64_t> encode_gpt2(const Gpt2Vocabulary& vocab, std::string_view text) {
    std::vector<std::uint64_t> ids;
    ids.reserve(likely_token_count(text));
    for_each_piece(vocab, text, [&](TextPiece&& piece) { ids.insert(ids.end(), piece.ids.begin(), piece.ids.end()); });
    return ids;
}

namespace {

// Characters a terminal would not show as themselves: controls, format characters (bidi
// overrides, zero-width joiners), separators that break lines, unassigned and private use.
bool shows_as_itself(std::uint32_t code_point) {
    if (code_point < 0xa0) return false;
    switch (utf8proc_category(static_cast<utf8proc_int32_t>(code_point))) {
    case UTF8PROC_CATEGORY_CC: case UTF8PROC_CATEGORY_CF: case UTF8PROC_CATEGORY_CS:
    case UTF8PROC_CATEGORY_CO: case UTF8PROC_CATEGORY_CN: case UTF8PROC_CATEGORY_ZL:
    case UTF8PROC_CATEGORY_ZP:
        return false;
    default:
        return true;
    }
}

}  // namespace

std::string token_label(std::string_view bytes) {
    static constexpr char k_hex[] = "0123456789abcdef";
    std::string label;
    for (std::size_t at = 0; at < bytes.size();) {
        const auto next = decode_utf8(bytes, at);
        const auto byte = static_cast<unsigned char>(bytes[at]);
        if (next && next->length > 1 && shows_as_itself(next->code_point)) {
            label.append(bytes.substr(at, next->length));
            at += next->length;
            continue;
        }
        if (byte == '"' || byte == '\\') {
            label += '\\';
            label += static_cast<char>(byte);
        } else if (byte == '\n') {
            label += "\\n";
        } else if (byte == '\t') {
            label += "\\t";
        } else if (byte == '\r') {
            label += "\\r";
        } else if (byte >= 0x20 && byte < 0x7f) {
            label += static_cast<char>(byte);
        } else {
            label += "\\x";
            label += k_hex[byte >> 4];
            label += k_hex[byte & 0xf];
        }
        ++at;
    }
    return label;
}

std::string quoted_text(std::string_view text, std::size_t max_columns) {
    std::string kept;
    std::size_t columns = 0;
    for (std::size_t at = 0; at < text.size();) {
        const auto next = decode_utf8(text, at);
        const std::size_t length = next ? next->length : 1;
        const std::string piece = token_label(text.substr(at, length));
        columns += display_width(piece);
        if (columns > max_columns) return '"' + kept + "\"...";
        kept += piece;
        at += length;
    }
    return '"' + kept + '"';
}

std::size_t display_width(std::string_view text) {
    std::size_t width = 0;
    for (std::size_t at = 0; at < text.size();) {
        const auto next = decode_utf8(text, at);
        if (!next) {
            ++width;
            ++at;
            continue;
        }
        // A character of no width (a combining mark, a zero-width space) still counts one: a
        // megabyte of U+0301 is 0 columns wide, and was printed whole, three times, in lines
        // that were "80 columns" wide.
        const int columns = utf8proc_charwidth(static_cast<utf8proc_int32_t>(next->code_point));
        width += columns > 1 ? static_cast<std::size_t>(columns) : 1;
        at += next->length;
    }
    return width;
}

}  // namespace embdemo
