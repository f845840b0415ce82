#include "render/token_label.hpp"

namespace embdemo {

std::string token_label(std::uint64_t id) { return std::to_string(id); }

}  // namespace embdemo
