#include "core/ids.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
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

std::string torch_index(const IdShape& shape, std::size_t i) {
    if (!shape.batched || shape.seq == 0) return std::to_string(i);
    return std::to_string(i / shape.seq) + ", " + std::to_string(i % shape.seq);
}

namespace {

// The pieces of `text` between ';', blanks trimmed: one per bag, empty for an empty bag.
std::vector<std::string_view> split_bags(std::string_view text) {
    std::vector<std::string_view> pieces;
    std::size_t start = 0;
    for (;;) {
        const std::size_t semicolon = text.find(';', start);
        pieces.push_back(trim_blanks(text.substr(start, semicolon - start)));
        if (semicolon == std::string_view::npos) return pieces;
        start = semicolon + 1;
    }
}

std::string bag_name(std::size_t bag) { return "bag " + std::to_string(bag); }

// A finite decimal number ("0.5", "-2", "1e-3"): digits, one optional point, an optional
// exponent; no hex, inf or nan. strtod reads it in the C locale (embdemo never sets another).
ParseResult<float> parse_weight(std::string_view text) {
    using Result = ParseResult<float>;
    if (text.empty()) return Result::fail("is empty");
    if (text.find_first_not_of("0123456789.eE+-") != std::string_view::npos ||
        text.find_first_of("0123456789") == std::string_view::npos) {
        return Result::fail("is not a decimal number");
    }
    const std::string copy(text);
    char* end = nullptr;
    const double value = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size()) return Result::fail("is not a decimal number");
    const auto rounded = static_cast<float>(value);
    if (!std::isfinite(rounded)) return Result::fail("is not finite in float32");
    return Result::ok(rounded);
}

}  // namespace

ParseResult<Bags> parse_bags(std::string_view text) {
    using Result = ParseResult<Bags>;
    if (trim_blanks(text).empty()) return Result::fail("is empty");
    Bags bags;
    bags.offsets.push_back(0);
    const std::vector<std::string_view> pieces = split_bags(text);
    for (std::size_t b = 0; b < pieces.size(); ++b) {
        if (!pieces[b].empty()) {
            auto ids = parse_id_list(pieces[b]);
            if (!ids) return Result::fail(bag_name(b) + ' ' + ids.error());
            bags.ids.insert(bags.ids.end(), ids.value().begin(), ids.value().end());
        }
        bags.offsets.push_back(bags.ids.size());
    }
    return Result::ok(std::move(bags));
}

ParseResult<std::vector<float>> parse_bag_weights(std::string_view text, const Bags& bags) {
    using Result = ParseResult<std::vector<float>>;
    const std::vector<std::string_view> pieces = split_bags(text);
    if (pieces.size() != bags.count()) {
        return Result::fail("has " + std::to_string(pieces.size()) + (pieces.size() == 1 ? " bag" : " bags") +
                            " but --bags has " + std::to_string(bags.count()));
    }
    std::vector<float> weights;
    for (std::size_t b = 0; b < pieces.size(); ++b) {
        std::size_t count = 0;
        for (std::size_t start = 0; !pieces[b].empty();) {
            const std::size_t comma = pieces[b].find(',', start);
            const std::string_view item = trim_blanks(pieces[b].substr(start, comma - start));
            ++count;
            const auto weight = parse_weight(item);
            if (!weight) {
                std::string where = bag_name(b) + " item " + std::to_string(count);
                if (!item.empty()) where += ' ' + quote_for_message(item, 30);
                return Result::fail(where + ' ' + weight.error());
            }
            weights.push_back(weight.value());
            if (comma == std::string_view::npos) break;
            start = comma + 1;
        }
        if (count != bags.size(b)) {
            return Result::fail(bag_name(b) + " has " + std::to_string(count) + (count == 1 ? " weight" : " weights") + " but " +
                                std::to_string(bags.size(b)) + (bags.size(b) == 1 ? " id" : " ids") +
                                " (one weight per id)");
        }
    }
    return Result::ok(std::move(weights));
}

}  // namespace embdemo
