// Colour for the text view. Whether colour is wanted is decided once, by the CLI; the renderers
// only apply it. Every painted piece of text reads the same without colour: colour decorates
// marks that are already there as characters.
#pragma once

#include <string>
#include <string_view>

namespace embdemo {

enum class Paint { selected, one, good, bad, heading };

// No colour, or colours chosen for a dark or a light background (bright cyan and yellow vanish
// on a projector's white). Both palettes also make the marks bold, and the 1s of a one-hot row
// underlined, so they stand out in a washed-out projection too.
enum class Palette { none, dark, light };

std::string paint(std::string_view text, Paint role, Palette palette);

}  // namespace embdemo
