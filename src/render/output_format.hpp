// The ways a run can be shown: the output formats and the text views. Chosen by the CLI,
// rendered by render_view (render/formats.cpp).
#pragma once

namespace embdemo {

enum class OutputFormat { text, json, csv, tsv, markdown, svg, html, python };

// svg, html and python: the figure, the page and the PyTorch script.
inline bool is_picture_format(OutputFormat format) {
    return format == OutputFormat::svg || format == OutputFormat::html || format == OutputFormat::python;
}

// Which text view: the plain demonstration, one id at a time, or the narrated lesson.
enum class View { plain, trace, walkthrough };

}  // namespace embdemo
