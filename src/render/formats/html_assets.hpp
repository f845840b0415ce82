// The CSS and JS of --format html (render/formats/html), apart from the C++ that assembles the page so
// that each reads as one piece. Fixed strings: everything a page varies (the figure's width, the
// embedded E) is in its markup, never spliced into these.
#pragma once

#include <string_view>

namespace embdemo {

// The page's style: one column at every width, the figure never drawn smaller than its own
// size (the numbers' 12 px) and scrolling inside its box, the steps' text at 12 px or more.
std::string_view html_style();

// Shows one step at a time; arrow keys, Page Up/Down, Home/End and the buttons move.
std::string_view html_steps_script();

// The explorer: decodes E, reads the ids field, computes and shows the three tables and the
// verdict line.
std::string_view html_explorer_script();

}  // namespace embdemo
