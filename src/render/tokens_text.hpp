// `embdemo tokens` as text (the lesson step by step) and as JSON (schema embdemo-tokens/1).
#pragma once

#include <cstdint>
#include <string>

#include "core/gpt2_vocab.hpp"
#include "core/parse_result.hpp"
#include "core/tokens_lesson.hpp"

namespace embdemo {

inline constexpr const char* k_tokens_json_schema = "embdemo-tokens/1";

// The tokens JSON's cap: 512 MiB. English text at --text-file's cap (16 MiB) makes 342 MB.
inline constexpr std::uint64_t k_max_tokens_json_bytes = 512ull << 20;

std::string render_tokens_text(const TokensLesson& lesson, const Gpt2Vocabulary& vocab);

// The JSON, or why it is refused: a text whose JSON would pass `max_bytes`. English text makes
// about 20 bytes of JSON per byte; a text of control characters, each escaped more than once,
// about 60.
ParseResult<std::string> render_tokens_json(const TokensLesson& lesson, const Gpt2Vocabulary& vocab,
                                            std::uint64_t max_bytes = k_max_tokens_json_bytes);

}  // namespace embdemo
