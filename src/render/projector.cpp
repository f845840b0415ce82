#include "render/projector.hpp"

#include "render/delimited.hpp"

namespace embdemo {

std::string render_projector_vectors(const Matrix& weight) { return delimited_rows(weight, '\t', false); }

std::string render_projector_metadata(std::size_t vocab_size, const std::vector<std::string>& labels) {
    std::string out;
    for (std::size_t r = 0; r < vocab_size; ++r) {
        out += labels.empty() ? std::to_string(r) : labels[r];
        out += '\n';
    }
    return out;
}

}  // namespace embdemo
