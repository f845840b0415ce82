// embdemo factor: ALBERT's factorised table, E1[ids] @ E2 beside (one_hot(ids) @ E1) @ E2.
#include "cli/lesson_kit.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/option_spec.hpp"
#include "cli/lessons/table_request.hpp"
#include "core/lessons/factor_lesson.hpp"
#include "render/views/factor_report.hpp"
#include "render/views/factor_text.hpp"

namespace embdemo {

int run_factor(const Options& options) {
    auto request = table_request<FactorRequest>(options);
    request.ids = options.id_batch;
    request.rank = options.factor.rank;
    const FactorLesson lesson = run_factor_lesson(request);
    const LessonView view = table_view(lesson, factor_report, [](const FactorLesson& shown, const TextOptions& text, View) {
        return render_factor_text(shown, text);
    }, factor_figure, render_factor_python);
    return lesson_status(options, write_view(options, view), lesson.first_check.identical && lesson.output_check.identical);
}


namespace {

constexpr const char* k_factor_footer = R"(--ids takes a batch too. After torch.manual_seed(SEED), e1 = nn.Embedding(V, R)
is drawn, then proj = nn.Linear(R, D, bias=False); E2 = proj.weight.T (R x D),
and the output is proj(e1(ids)) = E1[ids] @ E2.

Examples:
  embdemo factor --ids 2,3,1 --dim 8 --rank 2          a rank-2 table, d = 8
  embdemo factor --ids 5 --vocab 30000 --dim 768 --rank 128   ALBERT's sizes
  embdemo factor --ids 2,3,1 --dim 8 --rank 2 --format json

Exit status: 0 when E1[ids] @ E2 and (one_hot(ids) @ E1) @ E2 agree bit for
bit, 2 for bad input, 1 for a failed write.)";

const OptionSpec k_factor_options[] = {
    value_option("--rank", "R", "r, the width of E1: 1 to D-1 (required)", &option_checks::RawOptions::rank),
};

}  // namespace

extern const LessonSpec k_factor_lesson = {Lesson::factor, "factor", "ALBERT's factorised table: E1[ids] @ E2", {true, false},
                                         lesson_help(k_factor_options, k_table_lesson_shared, k_factor_footer), fixed_formats<k_every_format>, run_factor};

}  // namespace embdemo
