// What the files of `embdemo positions`'s views share among themselves (not for other lessons):
// the Python pieces that are the lesson's own, and the claims of RoPE and ALiBi, each encoding's
// section of the sheet.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/lessons/positions_lesson.hpp"
#include "render/sheet/lesson_sheet.hpp"

namespace embdemo {

extern const char* const k_sinusoidal_python;  // sinusoidal_table(context, dim)
extern const char* const k_rope_python;        // rope(x, positions), rope_score(a, p, b, q)
extern const char* const k_book_rope_python;   // the book's precompute_rope_params, compute_rope
extern const char* const k_alibi_python;       // get_slopes(n), softmax_row(row)
extern const char* const k_loader_python;      // the book's GPTDatasetV1

// "name.reshape(-1, name.shape[-1])": a B x T x d tensor's rows.
std::string flat_rows(const std::string& name);

// The script's check of the data loader's first batch, and of the repeated token.
std::string loader_python(const PositionsRequest& request);
std::string repeated_python(const std::optional<RepeatedToken>& repeated);
std::string rope_scores_python(const RopeScores& scores);

// RoPE's scores q . k at p and p + k (the table under its sentence), and their spread.
std::vector<SheetClaim> rope_claims(const PositionsLesson& lesson);

// ALiBi's slopes and bias, and its variants (BLOOM's m * j, MPT's m * (j - (T-1))).
std::vector<SheetClaim> alibi_claims(const PositionsLesson& lesson);

// The script lines that recreate ALiBi's tables: slopes, D, the pairs' distances, the bias.
std::vector<std::string> alibi_torch_lines(const PositionsLesson& lesson);

}  // namespace embdemo
