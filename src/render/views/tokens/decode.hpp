// `embdemo tokens --ids`: GPT-2 ids decoded back to text, in every format the tokens lesson has.
// The text view lists each id's bytes (escaped where they are not UTF-8 on their own, with the
// tokens they join into whole characters with) and the joined text, escaped for a terminal;
// the report (schema embdemo-tokens-decode/1 in docs/schema.md) carries the same per token, the
// bytes as hex; the figure points each id at its bytes.
#pragma once

#include <string>

#include "core/gpt2/gpt2_decode.hpp"
#include "core/parse_result.hpp"
#include "render/kit/figure_model.hpp"
#include "render/kit/lesson_report.hpp"

namespace embdemo {

inline constexpr const char* k_tokens_decode_json_schema = "embdemo-tokens-decode/1";

// "valid", "joined" or "broken", as the JSON and the tables spell a TokenUtf8.
const char* token_utf8_name(TokenUtf8 utf8);

// What a token's bytes are, as a sentence fragment: "" when UTF-8 on their own, else which ids
// they join into whole characters with ("not UTF-8 alone; ids[2..3] join into "’""), or that
// decode puts U+FFFD for them.
std::string token_utf8_note(const Gpt2Decoding& decoding, std::size_t k);

// Which of `count` tokens a view lists: all of a short list; of a long one the first
// `first - 3`, k_gap, and the last three.
std::vector<std::size_t> listed_tokens(std::size_t count, std::size_t first = 16);

std::string render_tokens_decode_text(const Gpt2Decoding& decoding);

// The report's tables point into `decoding`, which must outlive it.
ParseResult<LessonReport> tokens_decode_report(const Gpt2Decoding& decoding);

Figure tokens_decode_figure(const Gpt2Decoding& decoding);

}  // namespace embdemo
