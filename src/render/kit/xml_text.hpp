// Text inside SVG and HTML: the one escape both need.
#pragma once

#include <string>

namespace embdemo {

// XML/HTML text with &, <, > and " escaped.
std::string escape_xml(const std::string& text);

}  // namespace embdemo
