// How a token is named in a view: by its id, and with --text also by its GPT-2 token
// (`464 "The"`), so that every view that names ids not typed by the user says the same.
#pragma once

#include <cstdint>
#include <string>

#include "core/ids.hpp"

namespace embdemo {

// "464", or `464 "The"` when `source` came from a text.
std::string id_label(std::uint64_t id, const IdSource& source = {});

}  // namespace embdemo
