#include "core/ids.hpp"

#include <charconv>
#include <string>

#include "core/escape.hpp"

namespace embdemo {
namespace {

bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }

std::string_view trim_blanks(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}

// Why a piece of text is not a plain decimal integer, or an empty string when it is one.
std::string shape_problem(std::string_view text) {
    if (text.empty()) return "is empty";
    if (text.front() == '-' || text.front() == '+') return "has a sign";
    if (text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) return "is hexadecimal";
    for (const char ch : text) {
        if (!is_digit(ch)) return "is not a decimal integer";
    }
    if (text.size() > 1 && text[0] == '0') {
        return "has a leading zero (refused because other tools read it as octal)";
    }
    return {};
}

}  // namespace

ParseResult<std::uint64_t> parse_decimal(std::string_view text, std::uint64_t max_value) {
    if (std::string problem = shape_problem(text); !problem.empty()) {
        return ParseResult<std::uint64_t>::fail(std::move(problem));
    }
    std::uint64_t value = 0;
    const auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (status == std::errc::result_out_of_range || (status == std::errc() && value > max_value)) {
        return ParseResult<std::uint64_t>::fail("is larger than " + std::to_string(max_value));
    }
    if (status != std::errc() || end != text.data() + text.size()) {
        return ParseResult<std::uint64_t>::fail("is not a decimal integer");
    }
    return ParseResult<std::uint64_t>::ok(value);
}

ParseResult<std::vector<std::uint64_t>> parse_id_list(std::string_view text) {
    using Result = ParseResult<std::vector<std::uint64_t>>;
    if (trim_blanks(text).empty()) return Result::fail("is empty");

    std::vector<std::uint64_t> ids;
    std::size_t item_start = 0;
    for (std::size_t position = 1;; ++position) {
        const std::size_t comma = text.find(',', item_start);
        const std::string_view item = trim_blanks(text.substr(item_start, comma - item_start));
        const auto parsed = parse_decimal(item);
        if (!parsed) {
            std::string where = "item " + std::to_string(position);
            if (!item.empty()) where += ' ' + quote_for_message(item, 30);
            return Result::fail(where + ' ' + parsed.error());
        }
        ids.push_back(parsed.value());
        if (comma == std::string_view::npos) break;
        item_start = comma + 1;
    }
    return Result::ok(std::move(ids));
}

namespace {

std::string row_name(std::size_t row) { return "row " + std::to_string(row); }

std::string id_count(std::size_t count) {
    return std::to_string(count) + (count == 1 ? " id" : " ids");
}

}  // namespace

ParseResult<IdBatch> parse_id_batch(std::string_view text) {
    using Result = ParseResult<IdBatch>;
    if (trim_blanks(text).empty()) return Result::fail("is empty");

    IdBatch batch;
    batch.batched = text.find(';') != std::string_view::npos;
    batch.batch = 0;
    std::size_t row_start = 0;
    for (std::size_t row = 0;; ++row) {
        const std::size_t semicolon = text.find(';', row_start);
        const std::string_view row_text = text.substr(row_start, semicolon - row_start);
        if (trim_blanks(row_text).empty()) {
            const bool trailing = semicolon == std::string_view::npos && row > 0;
            return Result::fail(row_name(row) + " is empty" +
                                (trailing ? " (the ids end with ';')" : ""));
        }
        auto ids = parse_id_list(row_text);
        if (!ids) {
            const std::string where = batch.batched ? row_name(row) + ' ' : std::string();
            return Result::fail(where + ids.error());
        }
        if (row == 0) {
            batch.seq = ids.value().size();
        } else if (ids.value().size() != batch.seq) {
            return Result::fail(row_name(row) + " has " + id_count(ids.value().size()) +
                                " but row 0 has " + std::to_string(batch.seq) +
                                " (every row of a batch needs the same length)");
        }
        batch.values.insert(batch.values.end(), ids.value().begin(), ids.value().end());
        ++batch.batch;
        if (semicolon == std::string_view::npos) break;
        row_start = semicolon + 1;
    }
    return Result::ok(std::move(batch));
}

std::string index_text(const IdShape& shape, std::size_t i) {
    if (!shape.batched || shape.seq == 0) return std::to_string(i);
    return std::to_string(i / shape.seq) + ',' + std::to_string(i % shape.seq);
}

}  // namespace embdemo
