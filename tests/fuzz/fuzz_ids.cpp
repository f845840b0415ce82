// libFuzzer target: the parsers of typed ids (core/ids): parse_decimal, parse_id_list,
// parse_id_batch, parse_bags and parse_bag_weights. The first byte picks the parser, the rest is
// the text. Beyond "never crashes", each accepted value is checked against the text it came from.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/ids.hpp"
#include "fuzz_check.hpp"

namespace {

using embdemo::fuzz::check;
using embdemo::fuzz::check_message;

// Every accepted id list holds one id per comma-separated item.
void check_id_list(std::string_view text) {
    const auto ids = embdemo::parse_id_list(text);
    if (!ids) return check_message(ids.error());
    std::size_t items = 1;
    for (const char ch : text) items += ch == ',' ? 1 : 0;
    check(ids.value().size() == items, "parse_id_list keeps one id per item");
}

void check_decimal(std::string_view text, std::uint64_t max_value) {
    const auto value = embdemo::parse_decimal(text, max_value);
    if (!value) return check_message(value.error());
    check(value.value() <= max_value, "parse_decimal respects its maximum");
    check(std::to_string(value.value()) == text, "parse_decimal accepts only the plain decimal spelling");
}

void check_batch(std::string_view text) {
    const auto batch = embdemo::parse_id_batch(text);
    if (!batch) return check_message(batch.error());
    const embdemo::IdBatch& ids = batch.value();
    check(ids.values.size() == ids.batch * ids.seq, "a batch holds B x T ids");
    check(ids.seq > 0 && ids.batch > 0, "a batch is never empty");
    check(ids.batched == (text.find(';') != std::string_view::npos), "';' and only ';' makes a batch");
}

void check_bags(std::string_view text, std::string_view weights) {
    const auto bags = embdemo::parse_bags(text);
    if (!bags) return check_message(bags.error());
    const embdemo::Bags& parsed = bags.value();
    check(parsed.offsets.size() >= 2 && parsed.offsets.front() == 0, "bags start at offset 0");
    check(parsed.offsets.back() == parsed.ids.size(), "the last offset is the number of ids");
    std::size_t separators = 0;
    for (const char ch : text) separators += ch == ';' ? 1 : 0;
    check(parsed.count() == separators + 1, "one bag per ';'-separated part");
    for (std::size_t b = 0; b + 1 < parsed.offsets.size(); ++b) {
        check(parsed.offsets[b] <= parsed.offsets[b + 1], "offsets never decrease");
    }
    const auto per_sample = embdemo::parse_bag_weights(weights, parsed);
    if (!per_sample) return check_message(per_sample.error());
    check(per_sample.value().size() == parsed.ids.size(), "one weight per id");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    switch (data[0] % 5) {
        case 0: check_decimal(text, UINT64_MAX); check_decimal(text, 50256); break;
        case 1: check_id_list(text); break;
        case 2: check_batch(text); break;
        case 3: check_bags(text, {}); break;
        default: {
            // bags, then '|', then their weights
            const std::size_t bar = text.find('|');
            if (bar == std::string_view::npos) return 0;
            check_bags(text.substr(0, bar), text.substr(bar + 1));
        }
    }
    return 0;
}
