// Colour for the text view. Whether colour is wanted is decided once, by the CLI; the renderers
// only apply it. Every painted piece of text reads the same without colour: colour decorates
// marks that are already there as characters.
#pragma once

#include <string>
#include <string_view>

namespace embdemo {

enum class Paint { selected, one, good, bad, heading };

std::string paint(std::string_view text, Paint role, bool color);

}  // namespace embdemo
