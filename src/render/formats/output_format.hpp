// The ways a run can be shown: the output formats and the text views. Chosen by the CLI,
// rendered by render_view (render/formats/formats.cpp).
#pragma once

namespace embdemo {

// ipynb is the python script as a notebook: the CLI reads it as python plus Options::notebook, so
// that every check of the script's size and options holds for it unchanged.
enum class OutputFormat { text, json, csv, tsv, markdown, svg, html, python, ipynb };

// json, csv, tsv and python print every value; text, markdown, svg and html summarise big
// tensors as PyTorch prints them.
inline bool prints_every_value(OutputFormat format) {
    return format == OutputFormat::json || format == OutputFormat::csv || format == OutputFormat::tsv ||
           format == OutputFormat::python;
}

// A set of formats, one bit each: what a lesson's view can carry.
using FormatSet = unsigned;
constexpr FormatSet format_bit(OutputFormat format) { return 1u << static_cast<unsigned>(format); }
constexpr FormatSet k_report_formats = format_bit(OutputFormat::text) | format_bit(OutputFormat::json) |
                                       format_bit(OutputFormat::csv) | format_bit(OutputFormat::tsv) |
                                       format_bit(OutputFormat::markdown);
constexpr FormatSet k_picture_formats =
    format_bit(OutputFormat::svg) | format_bit(OutputFormat::html) | format_bit(OutputFormat::python);
constexpr FormatSet k_every_format = k_report_formats | k_picture_formats;

// svg, html and python: the figure, the page and the PyTorch script.
constexpr bool is_picture_format(OutputFormat format) { return (format_bit(format) & k_picture_formats) != 0; }

// Which text view: the plain demonstration, one id at a time, or the narrated lesson.
enum class View { plain, trace, walkthrough };

}  // namespace embdemo
