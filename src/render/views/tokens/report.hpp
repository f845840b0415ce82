// `embdemo tokens` for the machine formats (schema embdemo-tokens/1 in docs/schema.md). The
// JSON is lists (pieces, merges, ids, tokens) and counts, all fields of the report; csv, tsv
// and markdown get the same lists as tables of whole numbers, with each row's token or piece
// beside it in markdown.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/gpt2/gpt2_vocab.hpp"
#include "core/parse_result.hpp"
#include "core/lessons/tokens_lesson.hpp"
#include "render/formats/output_format.hpp"
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

// csv's and tsv's cap: 2^26 numbers, 4 an id and 5 a piece (the followed piece's merges, at
// most 127 rows, are not counted), about 290 MiB of printed text.
// 16 MiB of English (3 Mi pieces) prints 28 Mi; 16 Mi one-byte pieces ("a1" repeated) would
// print 151 Mi. Markdown prints the tables' first and last rows and cuts the lists to 1,000
// characters: its page is a few kilobytes, and the memory budget bounds what it holds.
inline constexpr std::uint64_t k_max_tokens_table_values = std::uint64_t{1} << 26;

// Why csv or tsv of a text with `ids` ids in `pieces` pieces is refused, or nullopt: known from
// the counts, before the text is cut.
std::optional<std::string> check_tokens_tables(OutputFormat format, std::uint64_t text_bytes, std::uint64_t ids,
                                               std::uint64_t pieces,
                                               std::uint64_t max_table_values = k_max_tokens_table_values);

// The report `format` prints: the JSON's as above (json and every other format), csv's and
// tsv's without the three lists (refused past `max_table_values`), markdown's without the pieces'
// records.
ParseResult<LessonReport> tokens_report(const TokensLesson& lesson, const Gpt2Vocabulary& vocab, OutputFormat format,
                                        std::uint64_t max_table_values = k_max_tokens_table_values);

}  // namespace embdemo
