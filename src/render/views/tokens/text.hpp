// `embdemo tokens` as text (the lesson step by step), and its JSON (schema embdemo-tokens/1)
// through render/views/tokens_report.
#pragma once

#include <cstdint>
#include <string>

#include "core/gpt2/gpt2_vocab.hpp"
#include "core/parse_result.hpp"
#include "core/lessons/tokens_lesson.hpp"
#include "render/views/tokens/report.hpp"

namespace embdemo {

std::string render_tokens_text(const TokensLesson& lesson, const Gpt2Vocabulary& vocab);

// render_lesson_json of tokens_report (render/views/tokens_report), or why the report was refused.
ParseResult<std::string> render_tokens_json(const TokensLesson& lesson, const Gpt2Vocabulary& vocab,
                                            std::uint64_t max_bytes = k_max_tokens_json_bytes);

}  // namespace embdemo
