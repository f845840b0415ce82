// `embdemo tokens --tokenizer` (wordpiece, unigram, bpe or all): the text view and the report of
// one text through each tokenizer (schema embdemo-tokenizers/1 in docs/schema.md).
#pragma once

#include <string>

#include "core/lessons/tokenizer_comparison.hpp"
#include "core/parse_result.hpp"
#include "render/kit/lesson_report.hpp"
#include "render/views/tokens/report.hpp"

namespace embdemo {

inline constexpr const char* k_tokenizers_json_schema = "embdemo-tokenizers/1";

std::string render_tokenizer_comparison_text(const TokenizerComparison& comparison);

// JSON: per tokenizer its counts, pieces and ids; csv, tsv and markdown: one row per tokenizer.
// Refused when the tokenizers' lists pass `max_json_bytes` (the tokens JSON's cap).
ParseResult<LessonReport> tokenizer_comparison_report(const TokenizerComparison& comparison,
                                                      std::uint64_t max_json_bytes = k_max_tokens_json_bytes);

}  // namespace embdemo
