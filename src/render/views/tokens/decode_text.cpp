#include "render/views/tokens/decode.hpp"

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
        if (!note.empty()) {
            items[0] += std::string(width - display_width(label), ' ');
            items.push_back(note);
        }
        out += fit_items(items, lead, std::string(display_width(lead) + 2, ' '), "  ");
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
    case TokenUtf8::broken: return "broken";
    }
    return "valid";
}

std::string token_utf8_note(const Gpt2Decoding& decoding, std::size_t k) {
    const DecodedToken& token = decoding.tokens[k];
    if (token.utf8 == TokenUtf8::valid) return "";
    if (token.utf8 == TokenUtf8::broken) return "not UTF-8, even joined: decode gives U+FFFD";
    const DecodedToken& first = decoding.tokens[token.group_first];
    const DecodedToken& last = decoding.tokens[token.group_last];
    const std::string_view joined =
        std::string_view(decoding.bytes).substr(first.offset, last.offset + last.size - first.offset);
    return fmt::format("not UTF-8 alone: ids[{}..{}] make {}", token.group_first, token.group_last,
                       quoted_text(joined, 16));
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
