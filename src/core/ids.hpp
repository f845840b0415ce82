// Strict decimal parsing of token ids and other non-negative integers typed on the command line.
// Only plain decimal digits are numbers here: no sign, no 0x/0 prefixes, no exponent, no empty
// items. Anything else is refused with a message that names the offending item, because a
// silently reinterpreted id would make the demonstration show the wrong row.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/parse_result.hpp"

namespace embdemo {

// "123" -> 123. Accepts 0 .. max_value (inclusive), refuses everything that is not plain decimal.
ParseResult<std::uint64_t> parse_decimal(std::string_view text,
                                         std::uint64_t max_value = UINT64_MAX);

// "2,3,1" -> {2, 3, 1}. Spaces around an item are allowed ("2, 3, 1"); repeated ids are kept.
ParseResult<std::vector<std::uint64_t>> parse_id_list(std::string_view text);

}  // namespace embdemo
