// The generic writers of a lesson sheet: one per way of showing a run, each the same for every
// lesson that has a sheet, so a claim printed in one format is printed, from the same data, in
// every format that carries prose (text, markdown, the figure's caption and so html, the script's
// comments and asserts, the JSON's fields).
#pragma once

#include <string>
#include <vector>

#include "render/kit/figure_model.hpp"
#include "render/kit/lesson_report.hpp"
#include "render/kit/text_options.hpp"
#include "render/sheet/lesson_sheet.hpp"

namespace embdemo {

// The header (parameters), a block per titled table and per pair (blocks of the same width share
// one number format, so a value prints the same in every block), the claims, the verdict.
// With `trace`, the sheet's step-by-step view between the blocks and the claims.
std::string render_sheet_text(const LessonSheet& sheet, const TextOptions& options, bool trace = false);

// json, csv and tsv: the head from the parameters, the tables, then each claim's JSON field,
// "identical" and "differing".
LessonReport sheet_report(const LessonSheet& sheet);

// Lecture notes: the report's markdown, then the claims and the verdict as sentences.
std::string render_sheet_markdown(const LessonSheet& sheet, int precision);

// One sentence per check ("... agree bit for bit: all 6 values."), then the claims.
std::vector<std::string> sheet_caption(const LessonSheet& sheet);

// The script: the run recreated by the sheet's PyTorch lines, every table with a `python` name
// checked bit for bit, each check's verdict and each claim's assert, each claim's sentence above
// its assert as a comment.
std::string render_sheet_python(const LessonSheet& sheet);

// "identical -- <detail>": the verdict's detail, from the checks.
std::string sheet_verdict_detail(const LessonSheet& sheet);

}  // namespace embdemo
