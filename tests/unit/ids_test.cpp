#include <doctest/doctest.h>

#include <string>

#include "core/escape.hpp"
#include "core/ids.hpp"

using embdemo::parse_decimal;
using embdemo::parse_id_list;

TEST_CASE("parse_id_list reads the notebook's ids in order") {
    const auto ids = parse_id_list("2,3,1");
    REQUIRE(ids);
    CHECK(ids.value() == std::vector<std::uint64_t>{2, 3, 1});
}

TEST_CASE("parse_id_list accepts good inputs") {
    struct Good {
        const char* text;
        std::vector<std::uint64_t> expected;
    };
    const Good cases[] = {
        {"0", {0}},
        {"7", {7}},
        {"2,2,2", {2, 2, 2}},
        {" 2, 3 ,1 ", {2, 3, 1}},
        {"2,\t3", {2, 3}},
        {"18446744073709551615", {18446744073709551615ull}},
        {"10,0,100", {10, 0, 100}},
    };
    for (const auto& good : cases) {
        CAPTURE(good.text);
        const auto ids = parse_id_list(good.text);
        REQUIRE(ids);
        CHECK(ids.value() == good.expected);
    }
}

TEST_CASE("parse_id_list rejects bad inputs with a message naming the item") {
    struct Bad {
        const char* text;
        const char* message;
    };
    const Bad cases[] = {
        {"", "is empty"},
        {"   ", "is empty"},
        {"2,,3", "item 2 is empty"},
        {"2,3,", "item 3 is empty"},
        {",2", "item 1 is empty"},
        {",", "item 1 is empty"},
        {"-1", "item 1 \"-1\" has a sign"},
        {"2,+3", "item 2 \"+3\" has a sign"},
        {"0x10", "item 1 \"0x10\" is hexadecimal"},
        {"0X1F", "is hexadecimal"},
        {"010", "has a leading zero"},
        {"00", "has a leading zero"},
        {"1.5", "is not a decimal integer"},
        {"1e3", "is not a decimal integer"},
        {"2 3", "item 1 \"2 3\" is not a decimal integer"},
        {"two", "is not a decimal integer"},
        {"18446744073709551616", "is larger than 18446744073709551615"},
        {"99999999999999999999999", "is larger than"},
        {"2,\xff", "item 2 \"\\xff\" is not a decimal integer"},
        {"\xd9\xa3", "is not a decimal integer"},  // Arabic-Indic digit three
    };
    for (const auto& bad : cases) {
        CAPTURE(bad.text);
        const auto ids = parse_id_list(bad.text);
        REQUIRE_FALSE(ids);
        CHECK(ids.error().find(bad.message) != std::string::npos);
    }
}

TEST_CASE("parse_decimal respects its upper bound") {
    CHECK(parse_decimal("9", 9));
    const auto too_big = parse_decimal("10", 9);
    REQUIRE_FALSE(too_big);
    CHECK(too_big.error() == "is larger than 9");
}

TEST_CASE("escape_for_message makes control bytes and invalid UTF-8 visible") {
    CHECK(embdemo::escape_for_message("ok 1,2") == "ok 1,2");
    CHECK(embdemo::escape_for_message("\xff") == "\\xff");
    CHECK(embdemo::escape_for_message("\x1b[31m") == "\\x1b[31m");
    CHECK(embdemo::escape_for_message("a\nb") == "a\\x0ab");
    CHECK(embdemo::escape_for_message("back\\slash") == "back\\\\slash");
}

TEST_CASE("quote_for_message cuts very long text") {
    const std::string quoted = embdemo::quote_for_message(std::string(500, '7'), 20);
    CHECK(quoted == "\"" + std::string(20, '7') + "...\"");
}
