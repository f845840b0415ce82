// tokens_report (render/views/tokens_report): its JSON is embdemo-tokens/1 byte for byte as the
// goldens recorded it before the report existed, its tables are the lesson's lists, and a
// hostile text stays inert in its markdown.
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <sstream>
#include <string>

#include "core/limits.hpp"
#include "core/lessons/tokens_lesson.hpp"
#include "render/kit/lesson_report.hpp"
#include "render/views/tokens/report.hpp"
#include "render/views/tokens/text.hpp"
#include "gpt2_vocabulary.hpp"

namespace embdemo {
namespace {

using testing::gpt2_vocabulary;

const char* const k_hostile_text = "x` <img src=x onerror=alert(1)> | *em* \\ \"q\"\t\x01<|endoftext|>caf\xc3\xa9 ``` a||b";

TokensLesson lesson_of(const std::string& text, std::optional<std::size_t> piece = std::nullopt,
                       std::uint64_t dim = 768) {
    TokensRequest request;
    request.text = text;
    request.piece = piece;
    request.dim = dim;
    return run_tokens_lesson(gpt2_vocabulary(), request);
}

LessonReport report_of(const TokensLesson& lesson) {
    auto report = tokens_report(lesson, gpt2_vocabulary());
    REQUIRE_MESSAGE(report, report.error());
    return std::move(report.value());
}

}  // namespace

TEST_CASE("tokens_report's cap is the exact size of its JSON") {
    const TokensLesson lesson = lesson_of(k_hostile_text, 7, 12);
    const std::size_t size = render_lesson_json(report_of(lesson), {}).size();
    CHECK(tokens_report(lesson, gpt2_vocabulary(), size));
    const auto refused = tokens_report(lesson, gpt2_vocabulary(), size - 1);
    REQUIRE_FALSE(refused);
    // 3,225 bytes before the JSON carried "embdemo_version" (30 bytes with 0.1.0).
    CHECK(refused.error().find("would be " + group_thousands(size) + " bytes") != std::string::npos);
    CHECK(size == 3225 + 8 + std::string(k_version_json_name).size() + version_json_value().size());
}

TEST_CASE("tokens_report: csv and tsv have a cap of their own in numbers, markdown none, and neither holds the JSON's lists") {
    const TokensLesson lesson = lesson_of(k_hostile_text, 7, 12);
    const std::size_t values = 4 * lesson.ids.size() + 5 * lesson.pieces.size();
    for (const OutputFormat format : {OutputFormat::csv, OutputFormat::tsv}) {
        const auto at_cap = tokens_report(lesson, gpt2_vocabulary(), format, values);
        REQUIRE(at_cap);
        // The same tables as the JSON's report, so the same csv, without the three lists.
        CHECK(render_lesson_delimited(at_cap.value(), ',', {}) == render_lesson_delimited(report_of(lesson), ',', {}));
        for (const LessonField& field : at_cap.value().checks) {
            CHECK(field.name != "pieces");
            CHECK(field.name != "ids");
            CHECK(field.name != "tokens");
        }
        const auto past_cap = tokens_report(lesson, gpt2_vocabulary(), format, values - 1);
        REQUIRE_FALSE(past_cap);
        const std::string name = format == OutputFormat::csv ? "csv" : "tsv";
        CHECK(past_cap.error() == "embdemo tokens --format " + name + ": the tables of this " +
                                      std::to_string(lesson.request.text.size()) + "-byte text would print " +
                                      std::to_string(values) + " numbers (4 an id, 5 a piece) (allowed: at most " +
                                      std::to_string(values - 1) + "; use the text view, or a shorter text)");
    }
    // Markdown: the same page as from the JSON's report, without the pieces' records it never printed.
    const auto markdown = tokens_report(lesson, gpt2_vocabulary(), OutputFormat::markdown, 1);
    REQUIRE(markdown);
    CHECK(render_lesson_markdown(markdown.value(), "t", 6) == render_lesson_markdown(report_of(lesson), "t", 6));
    CHECK(std::none_of(markdown.value().checks.begin(), markdown.value().checks.end(),
                       [](const LessonField& field) { return field.name == "pieces"; }));
}

TEST_CASE("tokens_report's tables: every id with its piece, bytes and rank; the pieces; the followed merges") {
    const TokensLesson lesson = lesson_of(k_hostile_text, 7, 12);
    const LessonReport report = report_of(lesson);
    CHECK(table_names(report) == "token_ids, piece_spans, followed_merges");
    for (const LessonTable& table : report.tables) CHECK_FALSE(table.in_json);
    const std::string csv = render_lesson_delimited(report, ',', {});
    // " onerror" is " on" (a merge, rank 63) + "error"; "x" a single byte, no rank.
    CHECK(csv.find("# token_ids (GPT-2's ids of the text, in order) 34 x 4: id, piece, bytes, rank\n87,0,1,-1\n63,1,1,-1\n") ==
          0);
    CHECK(csv.find("\n319,7,3,63\n18224,7,5,17968\n") != std::string::npos);
    CHECK(csv.find("\n50256,23,13,-1\n") != std::string::npos);  // <|endoftext|>: 13 bytes, no merge
    // Piece 7 starts at byte 13, is 8 bytes long and is tokens 7 and 8.
    CHECK(csv.find("# piece_spans (the pieces GPT-2's pattern cut) 29 x 5: offset, bytes, first_token, tokens, "
                   "special\n0,1,0,1,0\n") != std::string::npos);
    CHECK(csv.find("\n13,8,7,2,0\n") != std::string::npos);
    const std::string merges = render_lesson_delimited(report, '\t', {"followed_merges"});
    CHECK(merges.find("78\t77\t261\t5\n") == 0);  // "o" + "n"
    CHECK(merges.find("\n220\t261\t319\t63\n") != std::string::npos);  // " " + "on"
    CHECK(merges.rfind("\n263\t1472\t18224\t17968\n") + 22 == merges.size());  // "er" + "ror"
    CHECK(std::count(merges.begin(), merges.end(), '\n') == static_cast<long>(lesson.merges.size()));
}

TEST_CASE("a hostile text stays inert in the tokens markdown: tokens escaped, no cell broken by a pipe") {
    const TokensLesson lesson = lesson_of(k_hostile_text, 7, 12);
    const std::string markdown = render_lesson_markdown(report_of(lesson), "GPT-2's tokenizer", 4);
    // The text and the tokens list are code spans (which show '<' as it is); elsewhere, no '<'.
    std::istringstream items(markdown);
    for (std::string line; std::getline(items, line);) {
        CAPTURE(line);
        if (line.rfind("- text: ````\"x", 0) != 0 && line.rfind("- tokens: ```[", 0) != 0) {
            CHECK(line.find('<') == std::string::npos);
        }
    }
    CHECK(markdown.find("| # | token | left | right | merged | rank |\n") != std::string::npos);
    CHECK(markdown.find("| # | token | id | piece | bytes | rank |\n| --- | --- | ---: | ---: | ---: | ---: |\n"
                        "| 0 | \"x\" | 87 | 0 | 1 | -1 |\n| 1 | \"\\`\" | 63 | 1 | 1 | -1 |\n| 2 | \" &lt;\" | 1279 | 2 | 2 | 1023 |\n") != std::string::npos);
    CHECK(markdown.find("| 15 | \" \\|\" | 930 | 13 | 2 | 674 |\n") != std::string::npos);
    CHECK(markdown.find("| 25 | \"&lt;\\|endoftext\\|&gt;\" | 50256 | 23 | 13 | -1 |\n") != std::string::npos);
    CHECK(markdown.find("\" \\*\"") != std::string::npos);
    // Every table row has as many unescaped pipes as its header.
    std::size_t columns = 0;
    std::istringstream lines(markdown);
    for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line[0] != '|') {
            columns = 0;
            continue;
        }
        std::size_t pipes = 0;
        for (std::size_t i = 0; i < line.size(); ++i) {
            std::size_t backslashes = 0;
            while (backslashes < i && line[i - 1 - backslashes] == '\\') ++backslashes;
            pipes += line[i] == '|' && backslashes % 2 == 0;
        }
        CAPTURE(line);
        if (columns == 0) columns = pipes;
        CHECK(pipes == columns);
    }
}

TEST_CASE("a long piece is cut in the markdown, and a long text's ids are summarised") {
    const std::string text = "a " + std::string(3000, '!') + " b";
    const TokensLesson lesson = lesson_of(text);
    const std::string markdown = render_lesson_markdown(report_of(lesson), "t", 4);
    std::string cut;
    for (int i = 0; i < 39; ++i) cut += "\\!";
    CHECK(markdown.find("| 1 | \" " + cut + "\"... | 1 | 3001 | 1 | 376 | 0 |\n") != std::string::npos);
    CHECK(markdown.find("| ... | ... | ... |") != std::string::npos);
    CHECK(markdown.size() < 20000);
}

}  // namespace embdemo
