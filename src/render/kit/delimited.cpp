#include "render/kit/delimited.hpp"

#include <iterator>

#include <fmt/compile.h>
#include <fmt/format.h>

#include "render/kit/number_format.hpp"

namespace embdemo {

std::string delimited_rows(const Matrix& m, char delimiter, bool as_integers) {
    return delimited_rows(m, delimiter, as_integers, 0, m.rows);
}

std::string delimited_rows(const Matrix& m, char delimiter, bool as_integers, std::size_t first, std::size_t end) {
    std::string out;
    out.reserve((end - first) * m.cols * k_reserved_chars_per_value);
    append_delimited_rows(out, m, delimiter, as_integers, first, end);
    return out;
}

void append_delimited_rows(std::string& out, const Matrix& m, char delimiter, bool as_integers, std::size_t first,
                           std::size_t end) {
    for (std::size_t r = first; r < end; ++r) {
        for (std::size_t c = 0; c < m.cols; ++c) {
            if (c) out += delimiter;
            if (as_integers) {
                fmt::format_to(std::back_inserter(out), FMT_COMPILE("{}"), static_cast<int>(m.at(r, c)));
            } else {
                append_shortest_round_trip(out, m.at(r, c));
            }
        }
        out += '\n';
    }
}

}  // namespace embdemo
