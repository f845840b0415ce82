// Labels for the rows of E (one token string per line), as the TensorFlow Embedding Projector
// shows them next to each point. A label must fit one cell of the projector's metadata.tsv, so
// tabs and empty labels are refused rather than silently shifting every later row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/parse_result.hpp"

namespace embdemo {

// 256 MiB: ample for any real vocabulary (GPT-2's 50,257 tokens take under 1 MiB). A larger
// --labels file is refused by its size, before it is read.
inline constexpr std::uint64_t k_max_labels_bytes = std::uint64_t{1} << 28;

// One label per line ('\n' or "\r\n"; a final line break is optional; a UTF-8 byte order mark
// first is dropped); exactly `expected_count` lines, one per row of E, each valid UTF-8 and not
// blank.
ParseResult<std::vector<std::string>> parse_labels(std::string_view text, std::size_t expected_count);

}  // namespace embdemo
