#include "render/formats/html.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/formats/html_assets.hpp"
#include "render/formats/svg.hpp"
#include "render/kit/json_text.hpp"
#include "render/kit/table.hpp"
#include "render/kit/xml_text.hpp"

namespace embdemo {
namespace {

std::string join_rows(const std::vector<std::uint64_t>& rows) {
    std::string text;
    for (const std::uint64_t row : rows) text += (text.empty() ? "" : " ") + std::to_string(row);
    return text;
}

// The drawing's width in px, read from its root element: the page sizes the figure's box from it.
std::string svg_width(const std::string& svg) {
    const std::size_t at = svg.find(" width=\"") + 8;
    return svg.substr(at, svg.find('"', at) - at);
}

// RFC 4648 base64 of the float32 values' little-endian bytes (the bytes of a little-endian
// machine, which is every machine embdemo is built for; the page's DataView reads them so).
std::string base64_floats(const std::vector<float>& values) {
    constexpr const char* k_digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::vector<unsigned char> bytes(values.size() * sizeof(float));
    if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        const std::size_t left = bytes.size() - i;
        const unsigned group = bytes[i] << 16 | (left > 1 ? bytes[i + 1] << 8 : 0) | (left > 2 ? bytes[i + 2] : 0);
        out += k_digits[group >> 18 & 63];
        out += k_digits[group >> 12 & 63];
        out += left > 1 ? k_digits[group >> 6 & 63] : '=';
        out += left > 2 ? k_digits[group & 63] : '=';
    }
    return out;
}

std::string render_explorer(const HtmlExplorer& explorer) {
    std::string out = "<section id=\"explore\"";
    if (explorer.off.empty()) {
        out += fmt::format(" data-vocab=\"{}\" data-dim=\"{}\" data-max-ids=\"{}\" data-weights=\"{}\"",
                           explorer.vocab_size, explorer.dim, k_max_page_ids, explorer.weights);
        if (!explorer.rows.empty()) {
            out += fmt::format(" data-rows=\"{}\" data-outside=\"{}\"", join_rows(explorer.rows), explorer.outside);
        }
        if (!explorer.tokens.empty()) out += fmt::format(" data-tokens=\"{}\"", escape_xml(explorer.tokens));
    }
    out += ">\n<h2>Try other ids</h2>\n";
    if (!explorer.off.empty()) return out + fmt::format("<p id=\"explore-off\">{}</p>\n</section>\n", escape_xml(explorer.off));
    const std::string which =
        explorer.rows.empty()
            ? fmt::format("ids between 0 and {}", group_thousands(explorer.vocab_size - 1))
            : fmt::format("of the {} ids whose rows this page carries (E's first and last {} rows and this run's "
                          "ids, as the text view shows E)",
                          explorer.rows.size(), k_edge_items);
    out += fmt::format(
        "<p>Type up to {} {}: the page looks each one up in this run's E, multiplies its "
        "one-hot row by E in float32, and says whether the two give the same numbers, bit for bit.{}</p>\n",
        k_max_page_ids, which,
        explorer.tokens.empty() ? "" : fmt::format(" The ids of this run's text are named by their {}.", explorer.tokens_name));
    out += fmt::format("<form id=\"explore-form\"><label for=\"explore-ids\">ids</label>"
                       "<input id=\"explore-ids\" type=\"text\" inputmode=\"numeric\" autocomplete=\"off\" "
                       "spellcheck=\"false\" value=\"{}\"><button type=\"submit\">Show</button></form>\n",
                       escape_xml(explorer.ids));
    return out + "<p id=\"explore-message\" role=\"status\" aria-live=\"polite\"></p>\n"
                 "<div id=\"explore-tables\"></div>\n<p id=\"explore-verdict\" aria-live=\"polite\"></p>\n</section>\n";
}

// {"7120": "Your", ...}: the run's distinct ids in order of first appearance, as token_of spells them.
std::string token_names(const TokenIds& ids, const IdSource& source) {
    std::set<std::uint64_t> named;
    std::string out;
    for (const std::uint64_t id : ids) {
        if (named.size() == k_max_page_tokens) break;
        if (!named.insert(id).second) continue;
        out += fmt::format("{}\"{}\": {}", out.empty() ? "{" : ", ", id, json_string(source.token_of(id)));
    }
    return out + "}";
}

}  // namespace

namespace {

// The rows a page carries of an E too large to embed whole: the text view's summary (its first
// and last k_edge_items rows), then the run's distinct ids in order of first appearance while
// the values fit k_max_page_values; ascending. Empty when not even the edges fit.
std::vector<std::uint64_t> carried_rows(const Matrix& weight, const TokenIds& ids) {
    const std::uint64_t most_rows = k_max_page_values / std::max<std::uint64_t>(weight.cols, 1);
    std::set<std::uint64_t> rows;
    for (std::uint64_t k = 0; k < weight.rows && k < k_edge_items; ++k) rows.insert(k);
    for (std::uint64_t k = weight.rows - std::min<std::uint64_t>(weight.rows, k_edge_items); k < weight.rows; ++k) {
        rows.insert(k);
    }
    if (rows.size() > most_rows) return {};
    for (const std::uint64_t id : ids) {
        if (rows.size() == most_rows) break;
        rows.insert(id);
    }
    return {rows.begin(), rows.end()};
}

// Per column, the first inf or nan of the rows not carried, "j k bits;...": all the product's
// in-order sum needs of them.
std::string outside_values(const Matrix& weight, const std::vector<std::uint64_t>& carried) {
    std::vector<bool> seen(weight.cols, false);
    std::string out;
    std::size_t next = 0;
    for (std::uint64_t k = 0; k < weight.rows; ++k) {
        if (next < carried.size() && carried[next] == k) {
            ++next;
            continue;
        }
        const float* row = weight.row(k);
        for (std::size_t j = 0; j < weight.cols; ++j) {
            if (seen[j] || std::isfinite(row[j])) continue;
            seen[j] = true;
            std::uint32_t bits = 0;
            std::memcpy(&bits, &row[j], sizeof bits);
            out += fmt::format("{}{} {} {:08x}", out.empty() ? "" : ";", j, k, bits);
        }
    }
    return out;
}

}  // namespace

HtmlExplorer page_explorer(const Matrix& weight, const TokenIds& ids, const IdSource& source) {
    HtmlExplorer explorer;
    explorer.vocab_size = weight.rows;
    explorer.dim = weight.cols;
    for (std::size_t i = 0; i < ids.size() && i < k_max_page_ids; ++i) {
        explorer.ids += (i == 0 ? "" : ",") + std::to_string(ids[i]);
    }
    const std::uint64_t values = std::uint64_t{weight.rows} * weight.cols;
    if (values <= k_max_page_values) {
        explorer.weights = base64_floats(weight.values);
    } else {
        explorer.rows = carried_rows(weight, ids);
        if (explorer.rows.empty()) {
            explorer.off = fmt::format(
                "Off for this run: a row of E has d = {} values, and a page carries only up to {} values, "
                "not even E's first and last {} rows (so that it stays small). Try other ids with embdemo --ids ..., "
                "or a smaller --dim.",
                group_thousands(weight.cols), group_thousands(k_max_page_values), k_edge_items);
            return explorer;
        }
        std::vector<float> kept;
        kept.reserve(explorer.rows.size() * weight.cols);
        for (const std::uint64_t k : explorer.rows) kept.insert(kept.end(), weight.row(k), weight.row(k) + weight.cols);
        explorer.weights = base64_floats(kept);
        explorer.outside = outside_values(weight, explorer.rows);
    }
    if (source.from_text()) explorer.tokens = token_names(ids, source);
    explorer.tokens_name = tokenizer_tokens(source.tokenizer);
    return explorer;
}

std::string render_html(const HtmlPage& page) {
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    out += fmt::format("<title>{}</title>\n<style>{}</style>\n</head>\n<body data-step=\"1\">\n", escape_xml(page.title),
                       html_style());
    out += fmt::format("<header>\n<h1>{}</h1>\n<p>{}</p>\n</header>\n<main>\n", escape_xml(page.title),
                       escape_xml(page.intro));
    const std::string svg = render_svg_element(page.figure);
    out += fmt::format("<figure>\n<div class=\"figure-box\" style=\"--w: {}px\">\n{}</div>\n</figure>\n",
                       svg_width(svg), svg);
    out += "<div id=\"panel\">\n<div id=\"steps\" aria-live=\"polite\">\n";
    for (std::size_t i = 0; i < page.steps.size(); ++i) {
        const HtmlStep& step = page.steps[i];
        out += fmt::format("<section class=\"step\" id=\"step-{}\" data-rows=\"{}\"{}>\n<h2>{}</h2>\n", i + 1,
                           join_rows(step.rows),
                           step.matrix.empty() ? "" : fmt::format(" data-matrix=\"{}\"", escape_xml(step.matrix)),
                           escape_xml(step.heading));
        if (!step.focus.empty()) out += fmt::format("<p class=\"focus\">{}</p>\n", escape_xml(step.focus));
        out += fmt::format("<pre>{}</pre>\n</section>\n", escape_xml(step.body));
    }
    out += "</div>\n";
    if (page.explorer) out += render_explorer(*page.explorer);
    out += "</div>\n</main>\n";
    out += "<nav><button id=\"prev\" type=\"button\">&#8592; Previous</button><span id=\"counter\">Step 1 of " +
           std::to_string(page.steps.size()) +
           "</span><button id=\"next\" type=\"button\">Next &#8594;</button></nav>\n";
    out += fmt::format("<script>{}</script>\n", html_steps_script());
    if (page.explorer && page.explorer->off.empty()) out += fmt::format("<script>{}</script>\n", html_explorer_script());
    return out + "</body>\n</html>\n";
}

}  // namespace embdemo
