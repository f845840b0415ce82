#include "cli/option_checks.hpp"

#include "cli/lessons/lesson.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "cli/exit_codes.hpp"
#include "io/text_input.hpp"
#include "core/escape.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/ids.hpp"
#include "core/limits.hpp"

namespace embdemo::option_checks {

namespace {

// 0.1, 1e-08: the shortest text of a double, as messages show bounds.
std::string fmt_real(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}  // float32 never needs more digits than that

}  // namespace

CommandLine fail(std::string message) {
    CommandLine result;
    result.exit_code = k_exit_usage;
    result.error = std::move(message);
    return result;
}

// "--dim \"-5\": has a sign (allowed: ...)"
std::string bad_value(const char* option, const std::string& text, const std::string& problem,
                      const std::string& allowed) {
    return std::string(option) + ' ' + quote_for_message(text) + ": " + problem + " (allowed: " +
           allowed + ')';
}

ParseResult<std::uint64_t> parse_bounded(const char* option, const std::string& text,
                                         std::uint64_t min, std::uint64_t max) {
    const std::string allowed =
        "a decimal integer from " + std::to_string(min) + " to " + std::to_string(max);
    auto parsed = parse_decimal(text, max);
    if (!parsed) return ParseResult<std::uint64_t>::fail(bad_value(option, text, parsed.error(), allowed));
    if (parsed.value() < min) {
        return ParseResult<std::uint64_t>::fail(
            bad_value(option, text, "is less than " + std::to_string(min), allowed));
    }
    return parsed;
}

// A finite decimal number such as 0.1 or 1e-3, at least `min` (std::strtod in the C locale,
// which embdemo never changes): no hex, no inf or nan, nothing after the number.
std::optional<std::string> parse_real(const char* option, const std::string& text, double min,
                                      double& value) {
    const std::string allowed = "a finite decimal number of at least " + fmt_real(min);
    if (text.empty() || text.find_first_not_of("0123456789.eE+-") != std::string::npos) {
        return bad_value(option, text, "is not a decimal number", allowed);
    }
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) return bad_value(option, text, "is not a decimal number", allowed);
    if (!std::isfinite(value)) return bad_value(option, text, "is not finite", allowed);
    if (value < min) return bad_value(option, text, "is less than " + fmt_real(min), allowed);
    return std::nullopt;
}

// A file or directory name given to `option`: anything but empty. `allowed` says which.
std::optional<std::string> check_path(const char* option, const std::optional<std::string>& path,
                                      const char* allowed) {
    if (path && path->empty()) return bad_value(option, *path, "is empty", allowed);
    return std::nullopt;
}

const std::string* unread_shared_option(const RawOptions& raw) {
    const LessonSpec& lesson = *raw.lesson;
    const auto read = [&lesson](const std::string& option) {
        return std::find(lesson.shared_options, lesson.shared_options + lesson.shared_option_count, option) !=
               lesson.shared_options + lesson.shared_option_count;
    };
    for (const std::string& option : raw.shared_given) {
        if (!read(option)) return &option;
    }
    return nullptr;
}

std::string seed_with_weights() {
    return "--seed cannot be combined with --weights: E comes from the file, so the seed would have no effect "
           "(allowed: one of them)";
}

// Options of the lookup lesson that mean nothing to another lesson, refused rather than ignored.
std::optional<std::string> check_lookup_only(const RawOptions& raw, const char* lesson) {
    // In k_lookup_only_options' order.
    const bool given[] = {raw.trace_positions.has_value(), raw.walkthrough, raw.pause, raw.timing, raw.show.has_value(),
                          raw.save_weights.has_value(), raw.export_projector.has_value(), raw.labels.has_value()};
    static_assert(std::size(given) == std::size(k_lookup_only_options));
    if (raw.trace && !raw.lesson->caps.trace) {
        return fmt::format("--trace is a step-by-step view of {}; {} has none (allowed "
                           "with {}: the options of embdemo {} --help)", lessons_with(&LessonCaps::trace), lesson,
                           lesson, lesson);
    }
    for (std::size_t i = 0; i < std::size(given); ++i) {
        if (given[i]) {
            const char* option = k_lookup_only_options[i];
            const std::string_view name = option;
            if (raw.lesson->caps.saves_weights && (name == "--save-weights" || name == "--export-projector")) continue;
            return fmt::format("{} belongs to the lookup lesson, not to {} (allowed with {}: the options of "
                               "embdemo {} --help)", option, lesson, lesson, lesson);
        }
    }
    return std::nullopt;
}

// -V <= K < V, as nn.Embedding checks padding_idx.
std::optional<std::string> parse_padding_idx(const std::string& text, std::uint64_t vocab_size,
                                             std::optional<std::int64_t>& padding_idx) {
    const std::string allowed = "an integer from -" + std::to_string(vocab_size) + " to " +
                                std::to_string(vocab_size - 1) + ", as nn.Embedding allows";
    const bool negative = !text.empty() && text[0] == '-';
    const auto magnitude = parse_decimal(negative ? text.substr(1) : text, UINT64_MAX);
    if (!magnitude) return bad_value("--padding-idx", text, magnitude.error(), allowed);
    if (negative ? magnitude.value() > vocab_size : magnitude.value() >= vocab_size) {
        return bad_value("--padding-idx", text, "is out of range for a vocab of " + group_thousands(vocab_size),
                         allowed);
    }
    const auto value = static_cast<std::int64_t>(magnitude.value());
    padding_idx = negative ? -value : value;
    return std::nullopt;
}

// A format the lesson's view cannot carry (for these options) is refused by name, with the
// formats it can.
std::optional<std::string> check_lesson_format(const RawOptions& raw, OutputFormat format) {
    const LessonSpec& spec = *raw.lesson;
    FormatSet formats = spec.formats(raw);
    if (formats & format_bit(OutputFormat::python)) formats |= format_bit(OutputFormat::ipynb);  // its script as a notebook
    if (formats & format_bit(format)) return std::nullopt;
    std::string allowed;
    for (const auto& [name, each] : k_formats) {
        if (formats & format_bit(each)) allowed += (allowed.empty() ? "" : ", ") + std::string(name);
    }
    RawOptions plain;  // the lesson with no options that narrow its views
    plain.lesson = &spec;
    const bool narrowed = formats != spec.formats(plain);
    const char* mode = !narrowed ? "" : raw.value("--optimizer") ? " --optimizer" : raw.max_norm ? " --max-norm" : " with these options";
    return bad_value("--format", raw.format, fmt::format("embdemo {}{} has no {} view", spec.name, mode, raw.format),
                     allowed);
}

// A finite decimal number above 0 (std::strtod in the C locale): no hex, nan or inf words.
std::optional<std::string> parse_positive(const char* option, const std::string& text, const char* allowed,
                                          double& value) {
    const bool word = text == "nan" || text == "inf" || text == "-inf" || text == "+inf";
    if (text.empty() || text.find_first_not_of("0123456789.eE+-") != std::string::npos) {
        return bad_value(option, text, word ? "is not finite" : "is not a decimal number", allowed);
    }
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) return bad_value(option, text, "is not a decimal number", allowed);
    if (!std::isfinite(value)) return bad_value(option, text, "is out of range", allowed);
    if (value <= 0.0) return bad_value(option, text, "is not positive", allowed);
    return std::nullopt;
}

// Which option gave the ids, for messages about them.
const char* ids_option(const RawOptions& raw) {
    if (raw.text) return "--text";
    if (raw.text_file) return "--text-file";
    return raw.value("--bags") ? "--bags" : "--ids";  // bag reads its ids from --bags
}

std::string size_options(const RawOptions& raw) {
    // Typed ids set V too (largest id + 1), so --vocab is the way to name it there.
    if (!raw.text && !raw.text_file) return "--ids/--vocab/--dim";
    // From a text, V is GPT-2's unless --vocab says otherwise, and the loader's --context and
    // --batch set n = B x T.
    std::string names = ids_option(raw);
    const bool loader = raw.context.has_value();
    if (loader) names += raw.batch ? "/--context/--batch" : "/--context";
    if (raw.vocab) names += "/--vocab";
    if (raw.dim) names += "/--dim";
    return names;
}

// Options of other lessons, and sources of E these lessons do not take, refused by name.
std::optional<std::string> check_table_lesson_exclusive(const RawOptions& raw, const char* lesson) {
    if (auto problem = check_lookup_only(raw, lesson)) return problem;
    if (raw.max_memory && !raw.lesson->caps.memory_budget) {
        // Only the lookup, grad, tied and bag lessons estimate their memory; a budget given here
        // was silently ignored. These lessons are bounded by the size caps (docs/usage.md).
        return fmt::format("--max-memory has no effect on embdemo {}, whose memory the size caps bound (allowed "
                           "with {}: the options of embdemo {} --help)", lesson, lesson, lesson);
    }
    if (raw.weights || raw.init != "torch") {
        return fmt::format("{} {}: embdemo {} draws its tables as PyTorch does after torch.manual_seed "
                           "(allowed: --init torch, the default, and no --weights)",
                           raw.weights ? "--weights" : "--init", raw.weights ? quote_for_message(*raw.weights)
                                                                             : quote_for_message(raw.init), lesson);
    }
    return std::nullopt;
}

// json, csv, tsv and the python script spell every value they carry: refuse a run that would
// spell more than the cap.
std::optional<std::string> check_printed(const char* lesson, OutputFormat format, std::uint64_t printed) {
    if (printed <= k_max_printed_values) return std::nullopt;
    const std::string what = format == OutputFormat::python ? "the python script would embed"
                                                            : "json, csv and tsv would print";
    return fmt::format("embdemo {}: {} {} numbers (allowed: at most {}; use "
                       "a smaller --vocab or --dim, or the text view)",
                       lesson, what, group_thousands(printed), group_thousands(k_max_printed_values));
}

}  // namespace embdemo::option_checks
