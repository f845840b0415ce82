#include <doctest/doctest.h>

#include "core/escape.hpp"
#include "render/kit/markdown_text.hpp"

using namespace embdemo;

TEST_CASE("markdown_escape leaves no tag, entity, link, emphasis or line break of the text") {
    CHECK(markdown_escape("<img src=x onerror=alert(1)>") == "&lt;img src=x onerror=alert(1)&gt;");
    CHECK(markdown_escape("&lt; & <!--") == "&amp;lt; &amp; &lt;\\!--");
    CHECK(markdown_escape("*a* _b_ [c](d) ![e](f) a|b ~~g~~") ==
          "\\*a\\* \\_b\\_ \\[c\\](d) \\!\\[e\\](f) a\\|b \\~\\~g\\~\\~");
    CHECK(markdown_escape("x` \\") == "x\\` \\\\");
    CHECK(markdown_escape("one\n# two\r\n<div>") == "one # two  &lt;div&gt;");
    CHECK(markdown_escape("ids 2, 3: 50,257 x 768") == "ids 2, 3: 50,257 x 768");  // nothing to do
}

TEST_CASE("markdown_code delimits with more backticks than the text holds") {
    CHECK(markdown_code("plain") == "`plain`");
    CHECK(markdown_code("plain", 2) == "``plain``");
    CHECK(markdown_code("x` <img> `") == "`` x` <img> ` ``");
    CHECK(markdown_code("a `` b ``` c") == "````a `` b ``` c````");
    CHECK(markdown_code("`") == "`` ` ``");
    CHECK(markdown_code(" both ") == "`  both  `");  // CommonMark strips one space at each end
    CHECK(markdown_code("   ") == "`   `");          // but never from spaces only
    CHECK(markdown_code("a\nb\r") == "`a b `");
}

TEST_CASE("cut_for_markdown counts characters, never cutting one") {
    CHECK(cut_for_markdown("abcdef", 4) == "abcd");
    CHECK(cut_for_markdown("abc", 4) == "abc");
    CHECK(cut_for_markdown("\xc3\xa9\xc3\xa9\xc3\xa9", 2) == "\xc3\xa9\xc3\xa9");
    CHECK(cut_for_markdown("e\xcc\x81" "e\xcc\x81", 3) == "e\xcc\x81" "e");
}

TEST_CASE("token strings keep a table's cells and a list's items in Markdown") {
    // GFM splits a table row at every '|' not behind a backslash, in code spans too: the row
    // text of a table is escaped, never put in code.
    CHECK(markdown_escape(" `x` *y*") == " \\`x\\` \\*y\\*");
    CHECK(markdown_escape("| a | b |") == "\\| a \\| b \\|");
    CHECK(markdown_escape("\\|") == "\\\\\\|");  // whatever GFM makes of "\\", the '|' stays escaped
    // A list item's value follows "- name: ", never starting a line: "- " and "1. " inside are text.
    CHECK(markdown_escape("- item\n- next\n1. one") == "- item - next 1. one");
    CHECK(markdown_code("- item | a") == "`- item | a`");
}

TEST_CASE("json_with_visible_characters writes what shows as itself, and keeps every other escape") {
    // The lessons' markdown printed "na\u00efve" (issue 36): JSON's escapes, not the text.
    CHECK(json_with_visible_characters(R"("na\u00efve caf\u00e9 \u2014 \u4e2d \ud83d\ude00")") ==
          "\"na\xc3\xafve caf\xc3\xa9 \xe2\x80\x94 \xe4\xb8\xad \xf0\x9f\x98\x80\"");
    // Controls, format characters (U+202E reorders the line), spaces other than ' ', ignorable,
    // private-use and unassigned code points, lone surrogates: kept as escapes.
    CHECK(json_with_visible_characters(R"("a\u000ab\u202ec\u00a0d\u00ade\u3164f\ue000g\u0378h\ud83di\ude00")") ==
          R"("a\u000ab\u202ec\u00a0d\u00ade\u3164f\ue000g\u0378h\ud83di\ude00")");
    // An escaped backslash is not the start of an escape; \" and \n stay JSON.
    CHECK(json_with_visible_characters(R"("x\\u00e9 \" \n \\")") == R"("x\\u00e9 \" \n \\")");
    CHECK(json_with_visible_characters(R"(["\u00efve", 3, "\u00e9"])") == "[\"\xc3\xafve\", 3, \"\xc3\xa9\"]");
    // Truncated escapes are copied as they are.
    CHECK(json_with_visible_characters(R"("\u00e")") == R"("\u00e")");
    CHECK(json_with_visible_characters("\"\\") == "\"\\");
}
