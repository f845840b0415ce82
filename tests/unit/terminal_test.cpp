#include <doctest/doctest.h>

#include "cli/terminal.hpp"

using embdemo::ColorMode;
using embdemo::color_wanted;

TEST_CASE("colour is automatic only on a terminal") {
    CHECK(color_wanted(ColorMode::automatic, true, nullptr, "xterm-256color"));
    CHECK_FALSE(color_wanted(ColorMode::automatic, false, nullptr, "xterm-256color"));
}

TEST_CASE("NO_COLOR with any non-empty value turns automatic colour off") {
    CHECK_FALSE(color_wanted(ColorMode::automatic, true, "1", "xterm"));
    CHECK_FALSE(color_wanted(ColorMode::automatic, true, "0", "xterm"));
    CHECK(color_wanted(ColorMode::automatic, true, "", "xterm"));
}

TEST_CASE("TERM=dumb turns automatic colour off") {
    CHECK_FALSE(color_wanted(ColorMode::automatic, true, nullptr, "dumb"));
}

TEST_CASE("--color always and never override everything") {
    CHECK(color_wanted(ColorMode::always, false, "1", "dumb"));
    CHECK_FALSE(color_wanted(ColorMode::never, true, nullptr, "xterm"));
}
