#include "render/views/text.hpp"

#include "render/kit/text_sections.hpp"

namespace embdemo {

std::string render_text(const DemoReport& report, const TextOptions& options) {
    const Screen screen = text_screen(report, options.precision);
    std::string out = render_header(report);
    out += '\n' + render_weight(report, screen, options);
    out += '\n' + render_onehot(report, options);
    out += '\n' + render_results(report, screen, options.width);
    out += '\n' + render_linear_view(report);
    out += verdict_line(report, options);
    return out;
}

}  // namespace embdemo
