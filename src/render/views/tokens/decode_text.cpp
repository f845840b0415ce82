#include "render/views/tokens/decode.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/escape.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/limits.hpp"
#include "render/kit/table.hpp"

namespace embdemo {

namespace {

constexpr std::size_t k_text_lines = 12;     // and the joined text its first lines
constexpr std::size_t k_text_columns = 74;   // between "   " and the quotes

// `bytes` as token_label spells them, in lines of at most `columns` display columns, never
// cutting a character or an escape; at most `max_lines`, the rest counted in `left_bytes`.
std::vector<std::string> label_lines(std::string_view bytes, std::size_t columns, std::size_t max_lines,
                                     std::size_t& left_bytes) {
    std::vector<std::string> lines(1);
    std::size_t width = 0;
    left_bytes = 0;
    for (std::size_t at = 0; at < bytes.size();) {
        const auto next = decode_utf8(bytes, at);
        const std::size_t length = next ? next->length : 1;
        const std::string piece = token_label(bytes.substr(at, length));
        const std::size_t piece_width = display_width(piece);
        const bool new_line = width + piece_width > columns || (at > 0 && bytes[at - 1] == '\n');
        if (new_line) {
            if (lines.size() == max_lines) {
                left_bytes = bytes.size() - at;
                break;
            }
            lines.emplace_back();
            width = 0;
        }
        lines.back() += piece;
        width += piece_width;
        at += length;
    }
    return lines;
}

std::string tokens_section(const Gpt2Decoding& decoding) {
    const auto& tokens = decoding.tokens;
    std::string out = wrap_words(fmt::format("1. Each id is a row of GPT-2's table and stands for a few bytes "
                                             "(tiktoken's decode_single_token_bytes): {}",
                                             count_of(tokens.size(), "token", "tokens")),
                                 "", "   ");
    const std::vector<std::size_t> rows = listed_tokens(tokens.size());
    std::size_t width = 0;        // of the labels, so that the notes line up
    std::size_t index_width = 0;  // of "ids[12]"
    for (const std::size_t k : rows) {
        if (k == k_gap) continue;
        width = std::max(width, display_width(quoted_text(decoding.bytes_of(tokens[k]), 22)));
        index_width = std::max(index_width, fmt::format("ids[{}]", k).size());
    }
    for (const std::size_t k : rows) {
        if (k == k_gap) {
            out += fmt::format("   ... {} more tokens ...\n", group_thousands(tokens.size() - rows.size() + 1));
            continue;
        }
        const std::string label = quoted_text(decoding.bytes_of(tokens[k]), 22);
        const std::string lead = fmt::format("   {:<{}} = {:<5}  ", fmt::format("ids[{}]", k), index_width, tokens[k].id);
        std::vector<std::string> items{label};
        const std::string note = token_utf8_note(decoding, k);
        const std::string indent(display_width(lead) + 2, ' ');
        if (!note.empty() && display_width(lead) + width + 2 + display_width(note) > k_max_line_width &&
            indent.size() + display_width(note) > k_max_line_width) {
            // A note too long for a line of its own wraps at its spaces, under the label.
            out += lead + label + '\n' + wrap_words(note, indent, indent);
            continue;
        }
        if (!note.empty()) {
            items[0] += std::string(width - display_width(label), ' ');
            items.push_back(note);
        }
        out += fit_items(items, lead, indent, "  ");
    }
    return out;
}

std::string text_section(const Gpt2Decoding& decoding) {
    std::string out = wrap_words(
        fmt::format("2. Joined, the bytes are the text (tiktoken's decode_bytes): {}, {}", count_of(decoding.bytes.size(), "byte", "bytes"),
                    decoding.valid_utf8() ? std::string("valid UTF-8, so decode gives them as they are")
                                          : fmt::format("not valid UTF-8: decode (errors=\"replace\") puts U+FFFD in {}",
                                                        count_of(decoding.replacements, "place", "places"))),
        "", "   ");
    out += wrap_words("   (shown escaped: \\n \\t \\r, \\\" and \\\\, and \\xNN for a control byte or a byte that is not "
                      "UTF-8 where it stands)", "", "   ");
    std::size_t left = 0;
    const std::vector<std::string> lines = label_lines(decoding.bytes, k_text_columns, k_text_lines, left);
    for (const std::string& line : lines) out += "   \"" + line + "\"\n";
    if (left > 0) out += fmt::format("   ... {} more ...\n", count_of(left, "byte", "bytes"));
    return out;
}

}  // namespace

const char* token_utf8_name(TokenUtf8 utf8) {
    switch (utf8) {
    case TokenUtf8::valid: return "valid";
    case TokenUtf8::joined: return "joined";
    case TokenUtf8::partial: return "partial";
    case TokenUtf8::broken: return "broken";
    }
    return "valid";
}

namespace {

// The tokens that bytes [from, to) of the joined bytes fall in.
std::pair<std::size_t, std::size_t> tokens_spanning(const Gpt2Decoding& decoding, std::size_t from, std::size_t to) {
    std::size_t first = 0;
    while (first + 1 < decoding.tokens.size() && decoding.tokens[first].offset + decoding.tokens[first].size <= from) {
        ++first;
    }
    std::size_t last = first;
    while (last + 1 < decoding.tokens.size() && decoding.tokens[last + 1].offset < to) ++last;
    return {first, last};
}

}  // namespace

std::string token_utf8_note(const Gpt2Decoding& decoding, std::size_t k) {
    const DecodedToken& token = decoding.tokens[k];
    if (token.utf8 == TokenUtf8::valid) return "";
    const std::string_view bytes = decoding.bytes;
    const std::size_t token_end = token.offset + token.size;
    // The stretches decode replaces that touch this token, each one U+FFFD, named whole (with
    // the tokens it spans when it crosses an edge): "\xe9", "\xf0\x9f\x9a (ids[0..1])".
    std::vector<std::string> replaced;
    std::size_t first_kept = token.offset;  // the token's bytes outside the edge stretches
    std::size_t kept_end = token_end;
    for (const ReplacedStretch& stretch : decoding.replaced) {
        const std::size_t stretch_end = stretch.offset + stretch.size;
        if (stretch_end <= token.offset || stretch.offset >= token_end) continue;
        std::string name = token_label(bytes.substr(stretch.offset, stretch.size));
        if (stretch.offset < token.offset || stretch_end > token_end) {
            const auto span = tokens_spanning(decoding, stretch.offset, stretch_end);
            name += fmt::format(" (ids[{}..{}])", span.first, span.second);
        }
        replaced.push_back(name);
        if (stretch.offset <= first_kept) first_kept = std::max(first_kept, stretch_end);
        if (stretch_end >= kept_end) kept_end = std::min(kept_end, stretch.offset);
    }
    const std::string replacements =
        replaced.empty()       ? std::string()
        : replaced.size() == 1 ? "one U+FFFD for " + replaced[0]
                               : fmt::format("a U+FFFD each for {} and {}",
                                             fmt::join(replaced.begin(), replaced.end() - 1, ", "), replaced.back());
    if (token.utf8 == TokenUtf8::broken) {
        const ReplacedStretch* only = nullptr;
        for (const ReplacedStretch& stretch : decoding.replaced) {
            if (stretch.offset == token.offset && stretch.size == token.size) only = &stretch;
        }
        // Its bytes are one stretch, alone: one U+FFFD stands for exactly them.
        if (only && replaced.size() == 1) return "not UTF-8, even joined: decode gives U+FFFD";
        return "not UTF-8, even joined: decode gives " + replacements;
    }
    const DecodedToken& group_first = decoding.tokens[token.group_first];
    const DecodedToken& group_last = decoding.tokens[token.group_last];
    const std::string_view group =
        bytes.substr(group_first.offset, group_last.offset + group_last.size - group_first.offset);
    if (is_valid_utf8(group)) {
        // The tokens its edges' characters tie it to make whole characters, every byte kept.
        return fmt::format("not UTF-8 alone: ids[{}..{}] make {}", token.group_first, token.group_last,
                           quoted_text(group, 16));
    }
    // The whole characters that cross its edges, from the first one's start to the last one's
    // end, without the replaced bytes at the token's own edges, and the tokens they span.
    std::size_t start = first_kept;
    std::size_t end = kept_end;
    for (std::size_t at = 0; at < bytes.size() && at < token_end;) {
        const auto next = decode_utf8(bytes, at);
        const std::size_t length = next ? next->length : 1;
        if (next && at < token.offset && at + length > token.offset) start = at;
        if (next && at + length > token_end) end = at + length;
        at += length;
    }
    const auto span = tokens_spanning(decoding, start, end);
    const std::string made = fmt::format("not UTF-8 alone: ids[{}..{}] make {}", span.first, span.second,
                                         quoted_text(bytes.substr(start, end - start), 16));
    if (token.utf8 == TokenUtf8::joined) return made;
    return made + ", and decode gives " + replacements;
}

std::string render_tokens_decode_text(const Gpt2Decoding& decoding) {
    std::string out = "GPT-2's decoder: ids -> each token's bytes -> the text (tiktoken's \"gpt2\")\n";
    const auto& tokens = decoding.tokens;
    std::vector<std::string> ids;
    for (const std::size_t k : listed_tokens(tokens.size(), 23)) {
        ids.push_back(k == k_gap ? fmt::format("... {} more ...", group_thousands(tokens.size() - 23))
                                 : std::to_string(tokens[k].id));
    }
    out += wrap_words(fmt::format("  ids    [{}] (n = {})", fmt::join(ids, ", "), group_thousands(tokens.size())), "",
                      "         ");
    out += "\n" + tokens_section(decoding) + "\n" + text_section(decoding);
    return out;
}

}  // namespace embdemo
