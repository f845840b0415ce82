#include "render/explain.hpp"

#include <fmt/format.h>

#include "render/number_format.hpp"

namespace embdemo {

std::string explain_cause(const Difference& d, const IdShape& shape) {
    const std::string at = index_text(shape, d.position);
    const std::string values = fmt::format(" (lookup {}, product {})", shortest_round_trip(d.lookup_value),
                                           shortest_round_trip(d.product_value));
    switch (d.cause) {
        case Difference::Cause::nonfinite_elsewhere:
        {
            const std::string bad = shortest_round_trip(d.source_value);
            return fmt::format("E[{},{}] is {}, and 0 * {} = nan poisons the sum X[{}] @ E",
                               d.source_row, d.column, bad, bad, at) +
                   values;
        }
        case Difference::Cause::negative_zero:
            return fmt::format("E[{},{}] is -0.0, but the sum X[{}] @ E starts at +0.0 and "
                               "+0 + -0 = +0, so the sign is lost",
                               d.id, d.column, at) +
                   values;
        case Difference::Cause::nan_bits:
            return fmt::format("E[{},{}] is a NaN whose bit pattern arithmetic changes "
                               "(a signalling NaN or a payload)",
                               d.id, d.column) +
                   values;
        case Difference::Cause::other: break;
    }
    return fmt::format("the sum X[{}] @ E does not reproduce E[{},{}]", at, d.id, d.column) +
           values;
}

std::string explain_difference(const Difference& d, const IdShape& shape) {
    return fmt::format("first at ids[{}] = {}, column {}: ", index_text(shape, d.position), d.id, d.column) +
           explain_cause(d, shape);
}

const char* difference_cause_name(Difference::Cause cause) {
    switch (cause) {
        case Difference::Cause::nonfinite_elsewhere: return "nonfinite_elsewhere";
        case Difference::Cause::negative_zero: return "negative_zero";
        case Difference::Cause::nan_bits: return "nan_bits";
        case Difference::Cause::other: break;
    }
    return "other";
}

}  // namespace embdemo
