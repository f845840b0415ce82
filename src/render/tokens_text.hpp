// `embdemo tokens` as text (the lesson step by step) and as JSON (schema embdemo-tokens/1).
#pragma once

#include <string>

#include "core/gpt2_vocab.hpp"
#include "core/tokens_lesson.hpp"

namespace embdemo {

inline constexpr const char* k_tokens_json_schema = "embdemo-tokens/1";

std::string render_tokens_text(const TokensLesson& lesson, const Gpt2Vocabulary& vocab);
std::string render_tokens_json(const TokensLesson& lesson, const Gpt2Vocabulary& vocab);

}  // namespace embdemo
