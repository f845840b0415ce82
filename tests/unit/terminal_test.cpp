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

TEST_CASE("--palette auto reads the background from COLORFGBG") {
    using embdemo::light_background;
    using embdemo::PaletteMode;
    CHECK(light_background(PaletteMode::automatic, "0;15"));
    CHECK(light_background(PaletteMode::automatic, "0;default;7"));
    CHECK(light_background(PaletteMode::automatic, "0;12"));
    CHECK_FALSE(light_background(PaletteMode::automatic, "15;0"));
    CHECK_FALSE(light_background(PaletteMode::automatic, "7;8"));
    CHECK_FALSE(light_background(PaletteMode::automatic, nullptr));
    CHECK_FALSE(light_background(PaletteMode::automatic, ""));
    CHECK_FALSE(light_background(PaletteMode::automatic, "0;x"));
    CHECK_FALSE(light_background(PaletteMode::automatic, "0;123"));
}

TEST_CASE("--palette dark and light override COLORFGBG") {
    using embdemo::light_background;
    using embdemo::PaletteMode;
    CHECK(light_background(PaletteMode::light, "15;0"));
    CHECK_FALSE(light_background(PaletteMode::dark, "0;15"));
}

TEST_CASE("piped output has the fixed 80-column layout, whatever COLUMNS says") {
    CHECK(embdemo::output_width(false, "200") == 80);
    CHECK(embdemo::output_width(false, nullptr) == 80);
}

TEST_CASE("an OSC 11 reply says whether the terminal's background is light") {
    using embdemo::osc11_is_light;
    CHECK(osc11_is_light("\x1b]11;rgb:ffff/ffff/ffff\x1b\\") == true);
    CHECK(osc11_is_light("\x1b]11;rgb:0000/0000/0000\a") == false);
    CHECK(osc11_is_light("\x1b]11;rgb:fd/f6/e3\x1b\\") == true);        // solarized light, 2 digits a channel
    CHECK(osc11_is_light("\x1b]11;rgb:0000/2b2b/3636\x1b\\") == false);  // solarized dark
    CHECK(osc11_is_light("\x1b]11;rgb:8/8/8\a") == true);                // 1 digit: 8/15 is just above half
    CHECK(osc11_is_light("\x1b]11;rgb:7/7/7\a") == false);
    CHECK(osc11_is_light("typed ahead\x1b]11;rgb:ffff/ffff/ffff\a") == true);
    CHECK_FALSE(osc11_is_light("").has_value());
    CHECK_FALSE(osc11_is_light("\x1b]11;rgb:ffff/ffff\a").has_value());
    CHECK_FALSE(osc11_is_light("\x1b]11;rgb:fffff/ffff/ffff\a").has_value());
    CHECK_FALSE(osc11_is_light("\x1b]11;rgb:/ffff/ffff\a").has_value());
    CHECK_FALSE(osc11_is_light("\x1b]10;rgb:ffff/ffff/ffff\a").has_value());
}

TEST_CASE("--palette dark and light are what they say, terminal or not") {
    using embdemo::PaletteMode;
    CHECK_FALSE(embdemo::terminal_is_light(PaletteMode::dark, "0;15"));
    CHECK(embdemo::terminal_is_light(PaletteMode::light, "15;0"));
}
