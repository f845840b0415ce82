// How a token is named in a view: by its id, and with --text also by its GPT-2 token
// (`464 "The"`), so that every view that names ids not typed by the user says the same.
#pragma once

#include <cstdint>
#include <string>

#include "core/ids.hpp"

namespace embdemo {

// "464", or `464 "The"` when `source` came from a text.
std::string id_label(std::uint64_t id, const IdSource& source = {});

// A token label (GPT-2's token_label spelling) cut to at most 16 columns with "..." between
// characters and escapes, for row labels: a GPT-2 token can be a run of 64 dashes.
std::string short_token(const std::string& label);

// "464", or `464 "The"` with the token cut by short_token: an id where a figure labels a row.
std::string short_id_label(std::uint64_t id, const IdSource& source);

}  // namespace embdemo
