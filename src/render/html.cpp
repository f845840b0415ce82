#include "render/html.hpp"

#include <fmt/format.h>

#include "render/svg.hpp"

namespace embdemo {
namespace {

constexpr const char* k_style = R"(
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; font-family: sans-serif; color: #111111; background: #ffffff; line-height: 1.4; }
header { padding: 0.6rem 1rem; border-bottom: 1px solid #cccccc; }
h1 { font-size: 1.3rem; margin: 0; }
header p { margin: 0.3rem 0 0; }
main { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem; padding: 0.8rem 1rem 4.5rem; }
@media (min-width: 1100px) {
  main { grid-template-columns: minmax(0, 46rem) minmax(0, 1fr); }
  figure { position: sticky; top: 0.8rem; align-self: start; }
}
section.step h2 { font-size: 1.1rem; margin: 0 0 0.4rem; }
p.focus { margin: 0 0 0.4rem; font-weight: bold; }
pre { margin: 0; font-family: monospace; font-size: clamp(8px, 1.55vw, 13px); overflow-x: auto; }
figure { margin: 0; }
figure svg { display: block; max-width: 100%; height: auto; }
figcaption { font-size: 0.9rem; }
.row.current rect.hl { stroke: #000000; stroke-width: 3; }
.row.current text { font-weight: bold; }
nav { position: fixed; left: 0; right: 0; bottom: 0; display: flex; gap: 1rem; align-items: center;
      justify-content: center; padding: 0.5rem; background: #f2f2f2; border-top: 1px solid #cccccc; }
nav button { font-size: 1rem; padding: 0.4rem 1rem; }
@media print {
  nav { display: none; }
  main { display: block; padding: 0; }
  section.step, section.step[hidden] { display: block; break-inside: avoid; margin-bottom: 1rem; }
  pre { font-size: 9pt; overflow: visible; }
  figure { break-before: page; }
}
)";

constexpr const char* k_script = R"(
(function () {
  var steps = Array.prototype.slice.call(document.querySelectorAll("section.step"));
  var rows = document.querySelectorAll("[data-e-row]");
  var prev = document.getElementById("prev");
  var next = document.getElementById("next");
  var counter = document.getElementById("counter");
  var current = 0;
  function show(index) {
    current = Math.max(0, Math.min(steps.length - 1, index));
    steps.forEach(function (step, i) { step.hidden = i !== current; });
    var wanted = (steps[current].getAttribute("data-rows") || "").split(" ");
    Array.prototype.forEach.call(rows, function (row) {
      row.classList.toggle("current", wanted.indexOf(row.getAttribute("data-e-row")) >= 0);
    });
    counter.textContent = "Step " + (current + 1) + " of " + steps.length;
    prev.disabled = current === 0;
    next.disabled = current === steps.length - 1;
    document.body.setAttribute("data-step", String(current + 1));
  }
  prev.addEventListener("click", function () { show(current - 1); });
  next.addEventListener("click", function () { show(current + 1); });
  document.addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight" || event.key === "PageDown") { show(current + 1); event.preventDefault(); }
    if (event.key === "ArrowLeft" || event.key === "PageUp") { show(current - 1); event.preventDefault(); }
    if (event.key === "Home") { show(0); }
    if (event.key === "End") { show(steps.length - 1); }
  });
  show(0);
})();
)";

std::string join_rows(const std::vector<std::uint64_t>& rows) {
    std::string text;
    for (const std::uint64_t row : rows) text += (text.empty() ? "" : " ") + std::to_string(row);
    return text;
}

}  // namespace

std::string render_html(const HtmlPage& page) {
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    out += fmt::format("<title>{}</title>\n<style>{}</style>\n</head>\n<body data-step=\"1\">\n", escape_xml(page.title),
                       k_style);
    out += fmt::format("<header>\n<h1>{}</h1>\n<p>{}</p>\n</header>\n<main>\n<div id=\"steps\">\n",
                       escape_xml(page.title), escape_xml(page.intro));
    for (std::size_t i = 0; i < page.steps.size(); ++i) {
        const HtmlStep& step = page.steps[i];
        out += fmt::format("<section class=\"step\" id=\"step-{}\" data-rows=\"{}\">\n<h2>{}</h2>\n", i + 1,
                           join_rows(step.rows), escape_xml(step.heading));
        if (!step.focus.empty()) out += fmt::format("<p class=\"focus\">{}</p>\n", escape_xml(step.focus));
        out += fmt::format("<pre>{}</pre>\n</section>\n", escape_xml(step.body));
    }
    out += "</div>\n<figure>\n" + render_svg_element(page.figure) + "</figure>\n</main>\n";
    out += "<nav><button id=\"prev\" type=\"button\">&#8592; Previous</button><span id=\"counter\">Step 1 of " +
           std::to_string(page.steps.size()) +
           "</span><button id=\"next\" type=\"button\">Next &#8594;</button></nav>\n";
    return out + "<script>" + k_script + "</script>\n</body>\n</html>\n";
}

}  // namespace embdemo
