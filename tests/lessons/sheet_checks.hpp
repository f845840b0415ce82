// What every lesson's sheet test asks of a sheet: each claim holds by its own re-check, and its
// sentence is printed, from the same data, in every format that carries prose (text, markdown,
// the figure's caption, the script's comments) with its JSON field in the JSON.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>

#include "render/kit/json_text.hpp"
#include "render/kit/markdown_text.hpp"
#include "render/sheet/sheet_writers.hpp"

namespace embdemo::sheet_checks {

// Runs of white space, and Python's "# " comment prefixes, folded to one space: the writers wrap
// a sentence at different widths, and the words must survive.
// A whole number from low to high, from a sheet test's generator (the cases, not the lesson's
// numbers, which come from the project's own draws).
inline std::uint64_t between(std::mt19937_64& rng, std::uint64_t low, std::uint64_t high) {
    return std::uniform_int_distribution<std::uint64_t>(low, high)(rng);
}

// A case's ids below `vocab`: a batch of two rows every fifth round, one id every
// `single_every`-th round and otherwise up to `longest` (more than eight distinct), and the
// first id repeated every fourth round.
inline IdBatch random_ids(std::mt19937_64& rng, int round, std::uint64_t vocab, std::size_t longest, int single_every) {
    IdBatch ids;
    ids.batch = round % 5 == 0 ? 2 : 1;
    ids.batched = ids.batch > 1;
    ids.seq = round % single_every == 0 ? 1 : between(rng, 1, longest);
    for (std::size_t i = 0; i < ids.batch * ids.seq; ++i) {
        ids.values.push_back(round % 4 == 0 && i > 0 ? ids.values[0] : between(rng, 0, vocab - 1));
    }
    return ids;
}

inline std::string words(const std::string& text) {
    std::string out;
    bool space = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n' && text.compare(i + 1, 2, "# ") == 0) i += 2;
        if (text[i] == ' ' || text[i] == '\n') {
            space = true;
            continue;
        }
        if (space && !out.empty()) out += ' ';
        space = false;
        out += text[i];
    }
    return out;
}

inline bool has_words(const std::string& text, const std::string& sentence) {
    return words(text).find(words(sentence)) != std::string::npos;
}

// Every claim of `sheet` re-checked and found in every format; the printed tables' values
// equal to the plan's count.
inline void check_sheet(const LessonSheet& sheet, std::uint64_t planned_report_values) {
    const std::string text = render_sheet_text(sheet, TextOptions{});
    const std::string markdown = render_sheet_markdown(sheet, 4);
    const std::string python = render_sheet_python(sheet);
    const LessonReport report = sheet_report(sheet);
    const std::string json = render_lesson_json(report, {});
    std::string caption;
    for (const std::string& line : sheet_caption(sheet)) caption += line + '\n';
    for (const SheetClaim& claim : sheet.claims) {
        CAPTURE(claim.sentence);
        CHECK(claim.holds());
        CHECK(has_words(text, claim.sentence));
        CHECK(has_words(markdown, markdown_escape(claim.sentence)));
        CHECK(has_words(caption, claim.sentence));
        if (!claim.python.empty()) CHECK(has_words(python, claim.sentence));
        if (!claim.json_field.empty()) CHECK(json.find(json_string(claim.json_field) + ": " + claim.json) != std::string::npos);
    }
    std::uint64_t printed = 0;
    for (const LessonTable& table : report.tables) printed += table.in_json ? table.matrix->values.size() : 0;
    CHECK(printed == planned_report_values);
}

}  // namespace embdemo::sheet_checks
