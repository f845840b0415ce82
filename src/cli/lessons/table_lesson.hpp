// What the table lessons (positions, tied, factor, bag) share: their checks' first step, the cap
// on their plan, and their view from four renderers (cost's too).
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cli/option_checks.hpp"
#include "cli/options.hpp"
#include "render/formats/lesson_view.hpp"
#include "core/limits.hpp"
#include "core/memory.hpp"
#include "render/sheet/lesson_sheet.hpp"

namespace embdemo {

// A table lesson's LessonChecks::own: the options every table lesson refuses, then its own `Check`.
template <std::optional<std::string> (*Check)(const option_checks::RawOptions&, Options&)>
std::optional<std::string> table_checks(const option_checks::RawOptions& raw, Options& options) {
    if (auto problem = option_checks::check_table_lesson_exclusive(raw, raw.lesson->name)) return problem;
    return Check(raw, options);
}

// The printed-numbers cap on a table lesson's plan: what its report (json, csv, tsv) or its
// script (python) would print, as its view folder's *_report_values and *_script_values count
// them from the request, before anything is drawn.
template <typename Request>
std::optional<std::string> check_printed_plan(const Options& options, const Request& request,
                                              std::uint64_t (*report_values)(const Request&),
                                              std::uint64_t (*script_values)(const Request&)) {
    if (!prints_every_value(options.format)) return std::nullopt;
    const bool script = options.format == OutputFormat::python;
    return option_checks::check_printed(options.lesson->name, options.format,
                                        script ? script_values(request) : report_values(request));
}

// The same cap on a lesson on a sheet: its tables' shapes say what json, csv and tsv would print
// and what its script would embed.
inline std::optional<std::string> check_sheet_plan(const Options& options, const std::vector<SheetTable>& tables) {
    if (!prints_every_value(options.format)) return std::nullopt;
    const bool script = options.format == OutputFormat::python;
    return option_checks::check_printed(options.lesson->name, options.format,
                                        script ? script_values(tables) : report_values(tables));
}

// The --max-memory budget (1 GiB by default) of a lesson on a sheet, read off its tables' shapes
// as the printed-numbers plan is: each table held as float32 (the rows it holds), the BLAS when the run calls it,
// and the views' work for each column of d, which the lesson measures (peak RSS at V = n = 1
// and d = 2^22) and states.
// `own` lists what the lesson holds beside its tables (tied's top-K entries).
inline std::optional<std::string> check_sheet_memory(const Options& options, const std::vector<SheetTable>& tables,
                                                     std::uint64_t dim, std::uint64_t view_bytes_per_column,
                                                     bool calls_blas, std::vector<Buffer> own = {}) {
    std::vector<Buffer> buffers = std::move(own);
    for (const SheetTable& table : tables) buffers.push_back({table.name + " (" + table.torch + ")", table.held_values(), 4});
    buffers.push_back({"the views' work for each column of dim", dim, view_bytes_per_column});
    if (calls_blas) buffers.push_back(blas_buffer());
    if (auto too_big = check_memory_budget(buffers, options.max_memory)) return options.size_options + ": " + *too_big;
    return std::nullopt;
}

// A lesson's view from its report, text, figure and script functions.
template <typename Lesson, typename ToReport, typename ToText, typename ToFigure, typename ToPython>
LessonView table_view(const Lesson& lesson, ToReport to_report, ToText to_text, ToFigure to_figure, ToPython to_python) {
    LessonView view;
    view.report = [&lesson, to_report](const std::vector<std::string>&) {
        return ParseResult<LessonReport>::ok(to_report(lesson));
    };
    view.text = [&lesson, to_text](const TextOptions& text, View shown) {
        return std::vector<std::string>{to_text(lesson, text, shown)};
    };
    view.figure = [&lesson, to_figure](int precision) { return to_figure(lesson, precision); };
    if constexpr (!std::is_same_v<ToPython, std::nullptr_t>) {  // nullptr: nothing PyTorch can re-run
        view.python = [&lesson, to_python] { return to_python(lesson); };
    }
    return view;
}

}  // namespace embdemo
