// embdemo cost: what each form costs for n, V, d or a real model; counts only, nothing to load.
#include <string>
#include <vector>

#include "cli/lesson_kit.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/option_spec.hpp"
#include "cli/lessons/table_request.hpp"
#include "render/views/cost_report.hpp"
#include "render/views/cost_text.hpp"

namespace embdemo {

int run_cost(const Options& options) {
    const CostLesson lesson = run_cost_lesson(options.cost);
    const LessonView view = table_view(lesson, cost_report, [](const CostLesson& shown, const TextOptions&, View) {
        return render_cost_text(shown);
    }, [](const CostLesson& shown, int) { return cost_figure(shown); }, nullptr);
    return write_view(options, view);
}


namespace {

constexpr const char* k_cost_footer = R"(The sizes come from --model, or from --tokens N (or --ids LIST, n = its
length) with --vocab V and --dim D; --format json or csv gives every count
exactly, svg or html draws them on a log scale.
Models: gpt2 (GPT-2 small, V 50,257, d 768, n 1,024), gpt2-xl (d 1,600),
llama3-8b (V 128,256, d 4,096, n 8,192); n is the model's context length
unless --tokens or --ids says otherwise.

Examples:
  embdemo cost --model gpt2                     GPT-2 small, 1,024 tokens
  embdemo cost --model llama3-8b --tokens 1     one token of a large vocabulary
  embdemo cost --ids 2,3,1 --dim 5              the notebook's sizes
  embdemo cost --tokens 4096 --vocab 32000 --dim 4096 --format json

Exit status: 0, or 2 for bad input (one line on stderr), 1 for a failed write.)";

const OptionSpec k_cost_options[] = {
    value_option("--model", "NAME", "a real model's sizes: gpt2, gpt2-xl, llama3-8b", &option_checks::RawOptions::model),
    value_option("--tokens", "N", "n, the number of ids (1 to 1,048,576)", &option_checks::RawOptions::tokens),
};

}  // namespace

extern const LessonSpec k_cost_lesson = {Lesson::cost, "cost", "the cost of both forms for n, V, d or a real model", {},
                                         lesson_help(k_cost_options, "", k_cost_footer), fixed_formats<k_every_format & ~format_bit(OutputFormat::python)>, run_cost};

}  // namespace embdemo
