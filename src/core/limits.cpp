#include "core/limits.hpp"

#include <algorithm>
#include <cstdio>

namespace embdemo {

namespace {

// In binary units, one decimal; a double so that 2^64 float32 values still have a size.
std::string describe_byte_amount(double bytes) {
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double amount = bytes;
    int unit = 0;
    while (amount >= 1024.0 && unit < 6) {
        amount /= 1024.0;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", amount, units[unit]);
    return text;
}

std::optional<std::string> check_matrix(const std::string& what, std::uint64_t rows, std::uint64_t cols) {
    const auto values = checked_multiply(rows, cols);
    if (values && *values <= k_max_matrix_values) return std::nullopt;
    std::string message = std::string(what) + " would be " + group_thousands(rows) + " x " +
                          group_thousands(cols);
    if (values) {
        message += " = " + group_thousands(*values) + " values (" + describe_float32_bytes(*values) + ")";
    } else {
        message += " values (more than 2^64)";
    }
    return message + "; the limit is " + group_thousands(k_max_matrix_values) + " values (" +
           describe_float32_bytes(k_max_matrix_values) + ") per matrix";
}

}  // namespace

std::string describe_float32_bytes(std::uint64_t values) { return describe_byte_amount(static_cast<double>(values) * 4.0); }

std::string describe_bytes(std::uint64_t bytes) { return describe_byte_amount(static_cast<double>(bytes)); }

std::optional<std::uint64_t> checked_multiply(std::uint64_t a, std::uint64_t b) {
    std::uint64_t product = 0;
    if (__builtin_mul_overflow(a, b, &product)) return std::nullopt;
    return product;
}

std::optional<std::string> check_demo_sizes(std::uint64_t id_count, std::uint64_t vocab_size,
                                            std::uint64_t dim, OneHotHeld held) {
    const bool bags = held == OneHotHeld::multihot;
    const std::string rows = bags ? "bags" : "ids";
    if (auto problem = check_matrix("the embedding matrix E (vocab x dim)", vocab_size, dim)) {
        return problem;
    }
    const bool logits = held == OneHotHeld::none_logits_in_blocks;
    const bool in_blocks = held == OneHotHeld::in_blocks || held == OneHotHeld::in_blocks_budgeted || logits;
    if (!in_blocks) {
        const std::string matrix = bags ? "the multi-hot matrix M" : "the one-hot matrix X";
        if (auto problem = check_matrix(matrix + " (" + rows + " x vocab)", id_count, vocab_size)) return problem;
    }
    if (held != OneHotHeld::in_blocks_budgeted) {
        if (auto problem = check_matrix("the result (" + rows + " x dim)", id_count, dim)) return problem;
    }
    const auto rows_by_vocab = checked_multiply(id_count, vocab_size);
    const auto terms = rows_by_vocab ? checked_multiply(*rows_by_vocab, dim) : std::nullopt;
    const std::uint64_t cap = in_blocks ? k_max_product_terms : k_max_held_product_terms;
    const std::uint64_t least_dim = logits ? k_least_logits_work_dim : k_least_work_dim;
    const auto work = rows_by_vocab ? checked_multiply(*rows_by_vocab, std::max(dim, least_dim)) : std::nullopt;
    if (!work || *work > cap) {
        const std::string product = bags ? "the multi-hot product" : logits ? "the logits H @ E.T" : "the one-hot product";
        std::string message = product + " would take " + group_thousands(id_count) + " x " +
                              group_thousands(vocab_size) + " x " + group_thousands(dim) +
                              (terms ? " = " + group_thousands(*terms) : std::string(" (more than 2^64)")) +
                              " multiply-adds";
        if (terms && *terms <= cap) {
            // Only the floor on d refuses it: say what the work is, in the cap's units.
            const std::string values = bags ? "values of M" : logits ? "logits" : "values of X";
            message += ", and each of its " + group_thousands(*rows_by_vocab) + " " + values + " (" + rows +
                       " x vocab) takes as long as " + std::to_string(least_dim) + " multiply-adds whatever d: " +
                       (work ? "about " + group_thousands(*work) : std::string("more than 2^64")) + " in all";
        }
        return message + "; the limit is " + group_thousands(cap) + " (use fewer " + rows +
               (terms && *terms <= cap ? " or a smaller vocab)" : " or a smaller vocab or dim)");
    }
    return std::nullopt;
}

std::string group_thousands(std::uint64_t value) {
    std::string digits = std::to_string(value);
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(i, ",");
    return digits;
}

std::string count_of(std::uint64_t count, const char* singular, const char* plural) {
    return group_thousands(count) + ' ' + (count == 1 ? singular : plural);
}

std::string all_values(std::uint64_t count) {
    if (count == 1) return "the only value";
    if (count == 2) return "both values";
    return "all " + group_thousands(count) + " values";
}

std::string differing_values(std::uint64_t differing, std::uint64_t total, const std::string& of_what) {
    if (total == 1) return "the only value" + of_what + " differs";
    if (differing == total) {
        return (total == 2 ? std::string("both values") : "all " + group_thousands(total) + " values") + of_what +
               " differ";
    }
    return group_thousands(differing) + " of " + group_thousands(total) + " values" + of_what +
           (differing == 1 ? " differs" : " differ");
}

}  // namespace embdemo
