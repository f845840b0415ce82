#include "render/kit/token_label.hpp"

namespace embdemo {

std::string id_label(std::uint64_t id, const IdSource& source) {
    if (!source.token_of) return std::to_string(id);
    return std::to_string(id) + " \"" + source.token_of(id) + '"';
}

}  // namespace embdemo
