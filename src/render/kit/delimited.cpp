#include "render/kit/delimited.hpp"

#include <fmt/format.h>

#include "render/kit/number_format.hpp"

namespace embdemo {

std::string delimited_rows(const Matrix& m, char delimiter, bool as_integers) {
    return delimited_rows(m, delimiter, as_integers, 0, m.rows);
}

std::string delimited_rows(const Matrix& m, char delimiter, bool as_integers, std::size_t first, std::size_t end) {
    std::string out;
    for (std::size_t r = first; r < end; ++r) {
        for (std::size_t c = 0; c < m.cols; ++c) {
            if (c) out += delimiter;
            out += as_integers ? fmt::format("{}", static_cast<int>(m.at(r, c))) : shortest_round_trip(m.at(r, c));
        }
        out += '\n';
    }
    return out;
}

}  // namespace embdemo
