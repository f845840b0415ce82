// How a token is named in a view. One function, so that token strings (a tokenizer's vocabulary)
// can replace the bare ids in one place; today a token is shown by its id.
#pragma once

#include <cstdint>
#include <string>

namespace embdemo {

// "464": the label of token `id` in the text views.
std::string token_label(std::uint64_t id);

}  // namespace embdemo
