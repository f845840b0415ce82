// Makes user-supplied text safe to quote in a one-line error message: bytes outside printable
// ASCII become \xNN, so a stray escape sequence or invalid UTF-8 can neither garble the terminal
// nor hide what was typed.
#pragma once

#include <string>
#include <string_view>

namespace embdemo {

std::string escape_for_message(std::string_view text);

// escape_for_message, cut to `max_chars` with "..." so a huge argument cannot flood stderr.
std::string quote_for_message(std::string_view text, std::size_t max_chars = 60);

}  // namespace embdemo
