#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/escape.hpp"
#include "core/ids.hpp"

using embdemo::parse_decimal;
using embdemo::parse_id_list;

namespace {

// One bad input and a fragment its message must contain.
struct Bad {
    const char* text;
    const char* message;
};

// Every input must be refused by `parse`, with its fragment in the message.
template <typename Parse, std::size_t N>
void check_refused(Parse parse, const Bad (&cases)[N]) {
    for (const Bad& bad : cases) {
        CAPTURE(bad.text);
        const auto result = parse(bad.text);
        REQUIRE_FALSE(result);
        CHECK(result.error().find(bad.message) != std::string::npos);
    }
}

}  // namespace

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
    check_refused(parse_id_list, cases);
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

TEST_CASE("parse_id_batch reads rows separated by ';' as a B x T batch, row-major") {
    using embdemo::parse_id_batch;
    struct Good {
        const char* text;
        std::vector<std::uint64_t> values;
        std::size_t batch;
        std::size_t seq;
        bool batched;
    };
    const Good cases[] = {
        {"2,3,1;0,1,1", {2, 3, 1, 0, 1, 1}, 2, 3, true},
        {"2,3,1", {2, 3, 1}, 1, 3, false},
        {"7", {7}, 1, 1, false},
        {"4;5;6", {4, 5, 6}, 3, 1, true},
        {" 2, 3 ; 1 ,1 ", {2, 3, 1, 1}, 2, 2, true},
        {"1,1;1,1", {1, 1, 1, 1}, 2, 2, true},
    };
    for (const auto& good : cases) {
        CAPTURE(good.text);
        const auto ids = parse_id_batch(good.text);
        REQUIRE(ids);
        CHECK(ids.value().values == good.values);
        CHECK(ids.value().batch == good.batch);
        CHECK(ids.value().seq == good.seq);
        CHECK(ids.value().batched == good.batched);
    }
}

TEST_CASE("IdBatch::row returns one sequence of the batch") {
    const auto ids = embdemo::parse_id_batch("2,3,1;0,1,1");
    REQUIRE(ids);
    CHECK(ids.value().row(0) == std::vector<std::uint64_t>{2, 3, 1});
    CHECK(ids.value().row(1) == std::vector<std::uint64_t>{0, 1, 1});
}

TEST_CASE("parse_id_batch rejects empty and ragged rows with a message naming the row from 0") {
    const Bad cases[] = {
        {"", "is empty"},
        {"  ", "is empty"},
        {"2,3;", "row 1 is empty (the ids end with ';')"},
        {"2,3; ", "row 1 is empty (the ids end with ';')"},
        {";2,3", "row 0 is empty"},
        {";", "row 0 is empty"},
        {"2,3;;1,1", "row 1 is empty"},
        {"2,3; ;1,1", "row 1 is empty"},
        {"2,3,1;0,1", "row 1 has 2 ids but row 0 has 3 (every row of a batch needs the same length)"},
        {"2;0,1", "row 1 has 2 ids but row 0 has 1"},
        {"1,1;2,2;3", "row 2 has 1 id but row 0 has 2"},
        {"2,3;1,x", "row 1 item 2 \"x\" is not a decimal integer"},
        {"2,3;1,", "row 1 item 2 is empty"},
        {"-1;2", "row 0 item 1 \"-1\" has a sign"},
        {"2,x", "item 2 \"x\" is not a decimal integer"},
    };
    check_refused(embdemo::parse_id_batch, cases);
}

TEST_CASE("parse_id_batch does not name a row for a flat list") {
    const auto ids = embdemo::parse_id_batch("2,x");
    REQUIRE_FALSE(ids);
    CHECK(ids.error() == "item 2 \"x\" is not a decimal integer");
}
