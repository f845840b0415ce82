// --max-norm and --norm-type, nn.Embedding's max_norm and norm_type: shared by the lookup and
// grad lessons, refused by the table lessons.
#include "cli/option_checks.hpp"

#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "cli/lessons/lesson.hpp"

namespace embdemo::option_checks {
namespace {

// The lookup lesson's options that have no --max-norm view.
std::optional<std::string> check_max_norm_view(const RawOptions& raw) {
    const std::pair<const char*, bool> not_with[] = {
        {"--trace", raw.trace}, {"--walkthrough", raw.walkthrough}, {"--show", raw.show.has_value()},
        {"--save-weights", raw.save_weights.has_value()}, {"--export-projector", raw.export_projector.has_value()}};
    for (const auto& [option, given] : not_with) {
        if (given) {
            return fmt::format("{} cannot be combined with --max-norm, which has a view of its own (allowed: one "
                               "of them)", option);
        }
    }
    return std::nullopt;
}

// M: a positive finite number; P: a positive number or inf.
std::optional<std::string> parse_max_norm(const RawOptions& raw, MaxNorm& max_norm) {
    if (auto problem = parse_positive("--max-norm", *raw.max_norm, "a positive finite number, e.g. 1.0",
                                      max_norm.max_norm)) {
        return problem;
    }
    // Python's float() reads "+inf" as inf too; -inf and nan are refused as what they are, not
    // as "not finite", since inf itself is allowed.
    const char* allowed = "a positive number such as 1, 2 (the default) or 0.5, or inf";
    if (!raw.norm_type || *raw.norm_type == "inf" || *raw.norm_type == "+inf") {
        max_norm.norm_type = raw.norm_type ? HUGE_VAL : 2.0;
        return std::nullopt;
    }
    if (*raw.norm_type == "-inf") return bad_value("--norm-type", *raw.norm_type, "is not positive", allowed);
    if (*raw.norm_type == "nan") return bad_value("--norm-type", *raw.norm_type, "is not a number", allowed);
    return parse_positive("--norm-type", *raw.norm_type, allowed, max_norm.norm_type);
}

}  // namespace

std::optional<std::string> validate_max_norm(const RawOptions& raw, Options& options) {
    if (!raw.max_norm) {
        if (raw.norm_type) return std::string("--norm-type has no effect without --max-norm (allowed: both, or neither)");
        return std::nullopt;
    }
    if (raw.lesson->caps.table_ids) {
        const char* table_lesson = raw.lesson->name;
        return fmt::format("--max-norm belongs to the lookup and grad lessons, not to {} (allowed with {}: the "
                           "options of embdemo {} --help)", table_lesson, table_lesson, table_lesson);
    }
    MaxNorm max_norm;
    if (auto problem = parse_max_norm(raw, max_norm)) return problem;
    if (raw.lesson->caps.demo_views) {
        if (auto problem = check_max_norm_view(raw)) return problem;
    }
    options.max_norm = max_norm;
    return std::nullopt;
}

}  // namespace embdemo::option_checks
