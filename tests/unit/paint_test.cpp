#include <doctest/doctest.h>

#include "render/kit/paint.hpp"

using embdemo::paint;
using embdemo::Paint;
using embdemo::Palette;

TEST_CASE("paint leaves text alone without a palette") {
    CHECK(paint(">", Paint::selected, Palette::none) == ">");
}

TEST_CASE("the light palette uses dark colours that show on white, the dark palette bright ones") {
    // 34 = blue, 96 = bright cyan: bright cyan vanishes on a projector's white background.
    CHECK(paint(">", Paint::selected, Palette::light).find("\x1b[34m") != std::string::npos);
    CHECK(paint(">", Paint::selected, Palette::dark).find("\x1b[96m") != std::string::npos);
}

TEST_CASE("marks stand out without relying on hue: bold, and the one-hot 1s underlined") {
    for (const Palette palette : {Palette::dark, Palette::light}) {
        CAPTURE(static_cast<int>(palette));
        CHECK(paint(">", Paint::selected, palette).find("\x1b[1m") != std::string::npos);
        CHECK(paint("1", Paint::one, palette).find("\x1b[4m") != std::string::npos);
    }
}
