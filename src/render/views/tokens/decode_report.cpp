// tokens_decode_report and tokens_decode_figure (render/views/tokens/decode.hpp).
#include <algorithm>
#include <iterator>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/limits.hpp"
#include "render/kit/figure_parts.hpp"
#include "render/kit/json_text.hpp"
#include "render/kit/table.hpp"
#include "render/views/tokens/decode.hpp"

namespace embdemo {

namespace {

std::string hex_of(std::string_view bytes) {
    static constexpr char k_hex[] = "0123456789abcdef";
    std::string hex;
    hex.reserve(2 * bytes.size());
    for (const char ch : bytes) {
        const auto byte = static_cast<unsigned char>(ch);
        hex += k_hex[byte >> 4];
        hex += k_hex[byte & 0xf];
    }
    return hex;
}

std::string tokens_json(const Gpt2Decoding& decoding) {
    std::string out = "[\n";
    const auto sink = std::back_inserter(out);
    for (std::size_t k = 0; k < decoding.tokens.size(); ++k) {
        const DecodedToken& token = decoding.tokens[k];
        fmt::format_to(sink,
                       "    {{\"id\": {}, \"hex\": \"{}\", \"token\": {}, \"utf8\": \"{}\", \"group\": [{}, {}]}}{}\n",
                       token.id, hex_of(decoding.bytes_of(token)), json_string(token_label(decoding.bytes_of(token))),
                       token_utf8_name(token.utf8), token.group_first, token.group_last,
                       k + 1 < decoding.tokens.size() ? "," : "");
    }
    return out + "  ]";
}

constexpr const char* k_columns[] = {"id", "offset", "bytes", "hex", "utf8", "group_first", "group_last"};

std::string cell(const Gpt2Decoding& decoding, std::size_t row, std::size_t column) {
    const DecodedToken& token = decoding.tokens[row];
    switch (column) {
    case 0: return std::to_string(token.id);
    case 1: return std::to_string(token.offset);
    case 2: return std::to_string(token.size);
    case 3: return hex_of(decoding.bytes_of(token));
    case 4: return token_utf8_name(token.utf8);
    case 5: return std::to_string(token.group_first);
    default: return std::to_string(token.group_last);
    }
}

}  // namespace

ParseResult<LessonReport> tokens_decode_report(const Gpt2Decoding& decoding) {
    LessonReport report;
    std::vector<std::uint64_t> ids;
    for (const DecodedToken& token : decoding.tokens) ids.push_back(token.id);
    report.head = {{"schema", json_string(k_tokens_decode_json_schema)},
                   {"ids", fmt::format("[{}]", fmt::join(ids, ", "))},
                   {"text", json_string(decoding.text)}};
    report.checks = {{"bytes", std::to_string(decoding.bytes.size())},
                     {"hex", json_string(hex_of(decoding.bytes))},
                     {"valid_utf8", decoding.valid_utf8() ? "true" : "false"},
                     {"replacements", std::to_string(decoding.replacements)},
                     {"tokens", tokens_json(decoding)}};
    const std::size_t columns = std::size(k_columns);
    const Matrix* shape = own_matrix(report, Matrix(decoding.tokens.size(), columns));
    LessonTable table("decoded_tokens", "each id's bytes (decode_single_token_bytes), in order", shape,
                      {decoding.tokens.size(), columns}, true);
    table.columns.assign(std::begin(k_columns), std::end(k_columns));
    table.cell_text = [&decoding](std::size_t row, std::size_t column) { return cell(decoding, row, column); };
    table.row_text = [&decoding](std::size_t row) { return token_label(decoding.bytes_of(decoding.tokens[row])); };
    table.row_text_name = "token";
    table.in_json = false;
    report.tables.push_back(std::move(table));
    return ParseResult<LessonReport>::ok(std::move(report));
}

std::vector<std::size_t> listed_tokens(std::size_t count, std::size_t first) {
    std::vector<std::size_t> rows;
    for (std::size_t k = 0; k < count; ++k) {
        if (count > first + 4 && k == first - 3) {
            rows.push_back(k_gap);
            k = count - 3;
        }
        rows.push_back(k);
    }
    return rows;
}

Figure tokens_decode_figure(const Gpt2Decoding& decoding) {
    const std::vector<std::size_t> rows = listed_tokens(decoding.tokens.size());
    const auto key = [&](std::size_t k) { return decoding.tokens[k].utf8 == TokenUtf8::valid ? k_no_key : 0; };
    FigureMatrix ids = text_matrix(
        rows, {0}, [&](std::size_t k, std::size_t) { return std::to_string(decoding.tokens[k].id); },
        [](std::size_t, std::size_t) { return false; },
        [&](std::size_t k, FigureRow& row) {
            row.label = fmt::format("[{}]", k);
            row.key = key(k);
        });
    ids.name = "ids";
    ids.shape = "n = " + group_thousands(decoding.tokens.size());
    ids.col_labels = {"id"};
    FigureMatrix bytes = text_matrix(
        rows, {0}, [&](std::size_t k, std::size_t) { return quoted_text(decoding.bytes_of(decoding.tokens[k]), 22); },
        [](std::size_t, std::size_t) { return false; },
        [&](std::size_t k, FigureRow& row) {
            row.key = key(k);
            const DecodedToken& token = decoding.tokens[k];
            if (token.utf8 == TokenUtf8::joined) row.note = fmt::format("joins [{}..{}]", token.group_first, token.group_last);
            if (token.utf8 == TokenUtf8::partial) {
                row.note = fmt::format("joins [{}..{}], {} of {} bytes U+FFFD", token.group_first, token.group_last,
                                       token.replaced_bytes, token.size);
            }
            if (token.utf8 == TokenUtf8::broken) row.note = "not UTF-8";
        });
    bytes.name = "token bytes";
    bytes.shape = count_of(decoding.bytes.size(), "byte", "bytes");
    bytes.col_labels = {"decode_single_token_bytes"};
    FigurePanel panel;
    panel.title = "Each id is a row of GPT-2's table and stands for a few bytes";
    panel.items = {ids, bytes};
    panel.ops = {""};
    panel.arrows.resize(1);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (rows[r] != k_gap) panel.arrows[0].push_back({r, r, key(rows[r])});
    }
    Figure figure;
    figure.title = fmt::format("GPT-2's decoder: ids -> token bytes -> text   ({})",
                               count_of(decoding.tokens.size(), "token", "tokens"));
    figure.keys = {"not UTF-8 on its own"};
    figure.panels = {panel};
    figure.caption = {
        fmt::format("Joined: {} (decode_bytes), {}.", count_of(decoding.bytes.size(), "byte", "bytes"),
                    decoding.valid_utf8() ? std::string("valid UTF-8")
                                          : fmt::format("not valid UTF-8: decode puts U+FFFD in {}",
                                                        count_of(decoding.replacements, "place", "places"))),
        "Text: " + quoted_text(decoding.bytes, 60)};
    return figure;
}

}  // namespace embdemo
