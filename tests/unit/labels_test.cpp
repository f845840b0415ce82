#include <doctest/doctest.h>

#include "core/file_formats/labels.hpp"

using namespace embdemo;

TEST_CASE("parse_labels reads one label per line, with or without CRLF and a final newline") {
    // A no-break space or an ideographic space inside a label is an ordinary character.
    CHECK(parse_labels("New\xc2\xa0York\n\xe3\x80\x80x", 2).value() ==
          std::vector<std::string>{"New\xc2\xa0York", "\xe3\x80\x80x"});
    CHECK(parse_labels("the\nĠcat\r\nsat", 3).value() == std::vector<std::string>{"the", "Ġcat", "sat"});
    CHECK(parse_labels("a\nb\n", 2).value() == std::vector<std::string>{"a", "b"});
}

TEST_CASE("parse_labels drops a UTF-8 byte order mark before the first label") {
    CHECK(parse_labels("\xef\xbb\xbfthe\ncat\n", 2).value() == std::vector<std::string>{"the", "cat"});
    CHECK(parse_labels("\xef\xbb\xbf", 1).error() == "is empty (allowed: one label per row of E)");
}

TEST_CASE("parse_labels refuses empty labels, tabs and a count that does not match E") {
    const struct {
        const char* text;
        std::size_t count;
        const char* message;
    } cases[] = {
        {"", 2, "is empty (allowed: one label per row of E)"},
        {"a\n\nb\n", 3, "line 2 is empty (allowed: one non-empty label per line)"},
        {"a\tb\n", 1,
         "line 1 \"a\\x09b\" contains a tab (allowed: labels without tabs; metadata.tsv is tab-separated)"},
        {"a\nb\n", 3, "has 2 lines but E has 3 rows (allowed: exactly one label per row of E)"},
        {"a\nb\nc\n", 2, "has more than 2 lines (allowed: exactly one label per row of E)"},
        {"a\n", 2, "has 1 line but E has 2 rows (allowed: exactly one label per row of E)"},
        {"a\n  \n", 2, "line 2 \"  \" is blank (allowed: a label with at least one visible character)"},
        {"a\ncaf\xe9\n", 2, "line 2 \"caf\\xe9\" is not valid UTF-8 (allowed: UTF-8 text)"},
        {"\xc0\xaf\n", 1, "line 1 \"\\xc0\\xaf\" is not valid UTF-8 (allowed: UTF-8 text)"},
        {"\xed\xa0\x80\n", 1, "line 1 \"\\xed\\xa0\\x80\" is not valid UTF-8 (allowed: UTF-8 text)"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.text);
        const auto result = parse_labels(c.text, c.count);
        REQUIRE_FALSE(result);
        CHECK(result.error() == c.message);
    }
}

TEST_CASE("parse_labels refuses C1 controls and labels of Unicode spaces only") {
    const struct {
        const char* text;
        std::size_t count;
        const char* message;
    } cases[] = {
        // U+0085 NEXT LINE, a control character that some readers take for a line break.
        {"a\xc2\x85" "b\n", 1, "line 1 \"a\\xc2\\x85b\" contains a control character (allowed: printable text)"},
        {"\xe2\x80\xa8\n", 1, "line 1 \"\\xe2\\x80\\xa8\" contains a control character (allowed: printable text)"},
        // U+00A0 NO-BREAK SPACE, U+3000 IDEOGRAPHIC SPACE, U+200B ZERO WIDTH SPACE: nothing to see.
        {"a\n\xc2\xa0\n", 2, "line 2 \"\\xc2\\xa0\" is blank (allowed: a label with at least one visible character)"},
        {"\xe3\x80\x80\xe3\x80\x80\n", 1,
         "line 1 \"\\xe3\\x80\\x80\\xe3\\x80\\x80\" is blank (allowed: a label with at least one visible character)"},
        {" \xe2\x80\x8b \n", 1, "line 1 \" \\xe2\\x80\\x8b \" is blank (allowed: a label with at least one visible character)"},
        // Default_Ignorable characters show nothing either: U+00AD SOFT HYPHEN, U+3164 HANGUL
        // FILLER, U+FE0F VARIATION SELECTOR-16, U+E0041 TAG LATIN CAPITAL LETTER A.
        {"\xc2\xad\n", 1, "line 1 \"\\xc2\\xad\" is blank (allowed: a label with at least one visible character)"},
        {"\xe3\x85\xa4\n", 1, "line 1 \"\\xe3\\x85\\xa4\" is blank (allowed: a label with at least one visible character)"},
        {"\xef\xb8\x8f\xf3\xa0\x81\x81\n", 1,
         "line 1 \"\\xef\\xb8\\x8f\\xf3\\xa0\\x81\\x81\" is blank (allowed: a label with at least one visible character)"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.text);
        const auto result = parse_labels(c.text, c.count);
        REQUIRE_FALSE(result);
        CHECK(result.error() == c.message);
    }
}
