// format_ids and format_id_batch: the ids line of the text views, elided to fit 80 columns.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/ids.hpp"
#include "render/kit/table.hpp"
#include "render/kit/text_sections.hpp"

using namespace embdemo;

TEST_CASE("format_ids lists short lists whole and elides after 12 ids or 52 characters") {
    CHECK(format_ids({2, 3, 1}) == "[2, 3, 1]");
    CHECK(format_ids({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 1, 1, 1, 1, 9}) == "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, ... 4 more ..., 9]");
    CHECK(format_ids({1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}) == "[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]");
    CHECK(format_ids({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}) == "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, ... 3 more ..., 13]");
}

TEST_CASE("format_ids keeps GPT-2's five-digit ids within 52 characters") {
    // Found by tests/fuzz/fuzz_pipeline: --text gave a 99-column ids line.
    const std::vector<std::uint64_t> ids{7120, 2525, 13, 77, 260, 334, 301, 63, 81, 912, 351, 261, 304, 2239};
    CHECK(format_ids(ids) == "[7120, 2525, 13, 77, 260, 334, ... 7 more ..., 2239]");
    const std::vector<std::uint64_t> large(100, 50256);
    CHECK(format_ids(large).size() <= 52);
    CHECK(format_ids({50256, 50255}) == "[50256, 50255]");
}

TEST_CASE("format_id_batch shows whole rows while they fit and counts the rest") {
    IdBatch small = parse_id_batch("2,3,1;0,1,1;4,4,4;5,5,5;6,6,6").value();
    CHECK(format_id_batch(small) == "[[2, 3, 1], [0, 1, 1], [4, 4, 4], ... 2 more rows]");
    IdBatch wide = parse_id_batch("20000,30000,10000;40000,10000,10000;4,4,4").value();
    CHECK(format_id_batch(wide) == "[[20000, 30000, 10000], ... 2 more rows]");
    IdBatch two = parse_id_batch("20000,30000,10000,20000;40000,10000,10000,1").value();
    CHECK(format_id_batch(two) == "[[20000, 30000, 10000, 20000], ... 1 more row]");
}

TEST_CASE("wrap_words never breaks inside a short index such as E[0, 0]") {
    // 73 characters, then "E[0, 0]": a break at its space would leave "E[0," on one line and
    // "0]" on the next.
    const std::string text = std::string(70, 'a') + " is E[0, 0] and more";
    const std::string wrapped = embdemo::wrap_words(text, "", "");
    CHECK(wrapped.find("E[0,\n") == std::string::npos);
    CHECK(wrapped.find("E[0, 0]") != std::string::npos);
    // A long list still breaks: no line past 80 columns.
    std::string list = "[";
    for (int i = 0; i < 40; ++i) list += std::to_string(1000 + i) + (i + 1 < 40 ? ", " : "]");
    const std::string lines = embdemo::wrap_words("ids " + list, "", "  ");
    for (std::size_t start = 0, end; start < lines.size(); start = end + 1) {
        end = lines.find('\n', start);
        CHECK(end - start <= embdemo::k_max_line_width);
    }
}
