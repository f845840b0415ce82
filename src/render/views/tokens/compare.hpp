// `embdemo tokens --tokenizer` (wordpiece, unigram, bpe or all): the text view and the report of
// one text through each tokenizer (schema embdemo-tokenizers/1 in docs/schema.md).
#pragma once

#include <string>

#include "core/lessons/tokenizer_comparison.hpp"
#include "core/parse_result.hpp"
#include "render/kit/figure_model.hpp"
#include "render/kit/lesson_report.hpp"
#include "render/views/tokens/report.hpp"

namespace embdemo {

inline constexpr const char* k_tokenizers_json_schema = "embdemo-tokenizers/1";

// A share as a percentage with one decimal, or two significant digits below 0.1% (a table trained
// on a short text is a few thousandths of a percent of a model, which "0.0%" would hide).
std::string share_percent(double share);

std::string render_tokenizer_comparison_text(const TokenizerComparison& comparison);

// JSON: per tokenizer its counts, pieces and ids; csv, tsv and markdown: one row per tokenizer.
// Refused when the tokenizers' lists pass `max_json_bytes` (the tokens JSON's cap).
ParseResult<LessonReport> tokenizer_comparison_report(const TokenizerComparison& comparison,
                                                      std::uint64_t max_json_bytes = k_max_tokens_json_bytes);

// svg and html: each tokenizer's first pieces, and the tables' sizes as bars beside a word-level
// table's (GloVe 6B's 400,000 rows and word2vec's 3,000,000 at the same d).
Figure tokenizer_comparison_figure(const TokenizerComparison& comparison);

}  // namespace embdemo
