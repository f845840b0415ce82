// `embdemo tokens` for the machine formats (schema embdemo-tokens/1 in docs/schema.md). The
// JSON is lists (pieces, merges, ids, tokens) and counts, all fields of the report; csv, tsv
// and markdown get the same lists as tables of whole numbers, with each row's token or piece
// beside it in markdown.
#pragma once

#include <cstdint>

#include "core/gpt2/gpt2_vocab.hpp"
#include "core/parse_result.hpp"
#include "core/lessons/tokens_lesson.hpp"
#include "render/kit/lesson_report.hpp"

namespace embdemo {

inline constexpr const char* k_tokens_json_schema = "embdemo-tokens/1";

// The tokens JSON's cap: 512 MiB. English text at --text-file's cap (16 MiB) makes 342 MB.
inline constexpr std::uint64_t k_max_tokens_json_bytes = 512ull << 20;

// The report, or why it is refused: a text whose JSON would pass `max_json_bytes`, counted
// before any of it is written. English text makes about 20 bytes of JSON per byte; a text of
// control characters, each escaped more than once, about 60. The report's tables and row texts
// point into `lesson` and `vocab`, which must outlive it.
ParseResult<LessonReport> tokens_report(const TokensLesson& lesson, const Gpt2Vocabulary& vocab,
                                        std::uint64_t max_json_bytes = k_max_tokens_json_bytes);

}  // namespace embdemo
