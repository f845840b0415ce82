#include "render/formats/projector.hpp"

#include "render/kit/delimited.hpp"

namespace embdemo {

std::string render_projector_vectors(const Matrix& weight, std::size_t first, std::size_t end) {
    return delimited_rows(weight, '\t', false, first, end);
}

std::string render_projector_metadata(const std::vector<std::string>& labels, std::size_t first,
                                      std::size_t end) {
    std::string out;
    for (std::size_t r = first; r < end; ++r) {
        out += labels.empty() ? std::to_string(r) : labels[r];
        out += '\n';
    }
    return out;
}

}  // namespace embdemo
