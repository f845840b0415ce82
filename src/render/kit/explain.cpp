#include "render/kit/explain.hpp"

#include <fmt/format.h>

#include "render/kit/number_format.hpp"

namespace embdemo {
namespace {

std::string element(std::size_t row, std::size_t column) { return fmt::format("E[{}, {}]", row, column); }

std::string hex(std::uint32_t bits) { return fmt::format("0x{:08x}", bits); }

std::string nan_cause(const Difference& d) {
    const std::string selected = element(d.id, d.column);
    switch (d.nan_source) {
        case Difference::NanSource::quieted:
            return fmt::format("{} is a signalling NaN ({}): the lookup copies its bits, while the product's "
                               "arithmetic quiets it ({})",
                               selected, hex(d.lookup_bits), hex(d.product_bits));
        case Difference::NanSource::other_row:
            return fmt::format("both are NaN, but the product carries {}'s NaN ({}) instead of {}'s ({}): which "
                               "NaN a sum keeps depends on the order it adds in",
                               element(d.source_row, d.column), hex(d.product_bits), selected, hex(d.lookup_bits));
        case Difference::NanSource::default_nan:
            return fmt::format("both are NaN, but the product kept the NaN that 0 * {} at {} makes ({}) instead of "
                               "{}'s ({})",
                               shortest_round_trip(d.source_value), element(d.source_row, d.column),
                               hex(d.product_bits), selected, hex(d.lookup_bits));
        case Difference::NanSource::none: break;
    }
    return fmt::format("both are NaN, with different bits (lookup {}, product {})", hex(d.lookup_bits),
                       hex(d.product_bits));
}

}  // namespace

std::string explain_cause(const Difference& d, const IdShape& shape) {
    const std::string at = torch_index(shape, d.position);
    const std::string values = fmt::format(" (lookup {}, product {})", shortest_round_trip(d.lookup_value),
                                           shortest_round_trip(d.product_value));
    switch (d.cause) {
        case Difference::Cause::nonfinite_elsewhere:
        {
            const std::string bad = shortest_round_trip(d.source_value);
            return fmt::format("{} is {}, and 0 * {} = nan makes the sum X[{}] @ E nan", element(d.source_row, d.column),
                               bad, bad, at) +
                   values;
        }
        case Difference::Cause::negative_zero:
            return fmt::format("{} is -0.0, but the sum X[{}] @ E starts at +0.0 and "
                               "+0 + -0 = +0, so the sign is lost",
                               element(d.id, d.column), at) +
                   values;
        case Difference::Cause::nan_bits: return nan_cause(d);
        case Difference::Cause::other: break;
    }
    return fmt::format("the sum X[{}] @ E does not reproduce {}", at, element(d.id, d.column)) + values;
}

std::string explain_difference(const Difference& d, const IdShape& shape) {
    return fmt::format("first at ids[{}] = {}, column {}: ", torch_index(shape, d.position), d.id, d.column) +
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

const char* nan_source_name(Difference::NanSource source) {
    switch (source) {
        case Difference::NanSource::quieted: return "quieted";
        case Difference::NanSource::other_row: return "other_row";
        case Difference::NanSource::default_nan: return "default_nan";
        case Difference::NanSource::none: break;
    }
    return "none";
}

}  // namespace embdemo
