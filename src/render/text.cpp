#include "render/text.hpp"

#include "render/text_sections.hpp"

namespace embdemo {

std::string render_text(const DemoReport& report, const TextOptions& options) {
    std::string out = render_header(report);
    out += '\n' + render_weight(report, options);
    out += '\n' + render_onehot(report, options);
    out += '\n' + render_results(report, options);
    out += '\n' + render_linear_view(report);
    out += verdict_line(report, options.color);
    return out;
}

}  // namespace embdemo
