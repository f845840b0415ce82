// factor's sheet on random cases unlike the book's (V = 1, one id, repeats, more than eight
// distinct ids): every claim re-checked against the numbers by its own function, and each
// claim's sentence found, from the same data, in every format that carries prose.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>

#include "core/lessons/factor_lesson.hpp"
#include "render/kit/json_text.hpp"
#include "render/kit/markdown_text.hpp"
#include "render/sheet/sheet_writers.hpp"
#include "render/views/factor/view.hpp"

namespace embdemo {
namespace {

// Runs of white space, and Python's "# " comment prefixes, folded to one space: the writers wrap
// a sentence at different widths, and the words must survive.
std::string words(const std::string& text) {
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

bool has_words(const std::string& text, const std::string& sentence) {
    return words(text).find(words(sentence)) != std::string::npos;
}

FactorRequest random_request(std::mt19937_64& rng, int round) {
    const auto between = [&](std::uint64_t low, std::uint64_t high) {
        return std::uniform_int_distribution<std::uint64_t>(low, high)(rng);
    };
    FactorRequest request;
    request.vocab_size = round % 7 == 0 ? 1 : between(1, 60);
    request.dim = between(2, 12);
    request.rank = between(1, request.dim - 1);
    request.seed = between(0, 1u << 20);
    request.vocab_inferred = round % 2 == 0;
    IdBatch& ids = request.ids;
    ids.batch = round % 5 == 0 ? 2 : 1;
    ids.batched = ids.batch > 1;
    ids.seq = round % 3 == 0 ? 1 : between(1, 14);  // one id, or up to 14 (more than 8 distinct)
    for (std::size_t i = 0; i < ids.batch * ids.seq; ++i) {
        ids.values.push_back(round % 4 == 0 && i > 0 ? ids.values[0] : between(0, request.vocab_size - 1));
    }
    return request;
}

}  // namespace

TEST_CASE("factor: every claim on its sheet holds and is printed in every format that carries prose") {
    std::mt19937_64 rng{20261202};
    for (int round = 0; round < 120; ++round) {
        const FactorRequest request = random_request(rng, round);
        const FactorLesson lesson = run_factor_lesson(request);
        const LessonSheet sheet = factor_sheet(lesson);
        CAPTURE(round);
        const std::string text = render_sheet_text(sheet, TextOptions{});
        const std::string markdown = render_sheet_markdown(sheet, 4);
        const std::string python = render_sheet_python(sheet);
        const std::string json = render_lesson_json(sheet_report(sheet), {});
        std::string caption;
        for (const std::string& line : sheet_caption(sheet)) caption += line + '\n';
        REQUIRE(sheet.claims.size() == 3);
        for (const SheetClaim& claim : sheet.claims) {
            CAPTURE(claim.sentence);
            CHECK(claim.holds());
            CHECK(has_words(text, claim.sentence));
            CHECK(has_words(markdown, markdown_escape(claim.sentence)));
            CHECK(has_words(caption, claim.sentence));
            CHECK(has_words(python, claim.sentence));
            CHECK(json.find(json_string(claim.json_field) + ": " + claim.json) != std::string::npos);
        }
        // The plan, from the shapes alone, is what the formats print.
        const auto plan = factor_tables(request, nullptr);
        std::uint64_t printed = 0;
        for (const LessonTable& table : sheet_report(sheet).tables) {
            printed += table.in_json ? table.matrix->values.size() : 0;
        }
        CHECK(printed == report_values(plan));
        CHECK(sheet.identical() == (lesson.first_check.identical && lesson.output_check.identical));
    }
}

TEST_CASE("factor: a claim's re-check fails when the numbers it states are wrong") {
    FactorRequest request;
    request.vocab_size = 4;
    request.dim = 8;
    request.rank = 2;
    request.ids.values = {2, 3, 1};
    request.ids.batch = 1;
    request.ids.seq = 3;
    FactorLesson lesson = run_factor_lesson(request);
    const LessonSheet sheet = factor_sheet(lesson);
    for (const SheetClaim& claim : sheet.claims) CHECK(claim.holds());
    lesson.here.factored += 1;  // the claims read the lesson they were made from
    CHECK_FALSE(sheet.claims[1].holds());
    lesson.here.factored -= 1;
    lesson.albert.full = 1;
    CHECK_FALSE(sheet.claims[2].holds());
}

}  // namespace embdemo
