// embdemo positions: token + position tables, E[ids] + P[0..T), and the data loader's batch.
#include "cli/lesson_kit.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/option_spec.hpp"
#include "cli/lessons/table_request.hpp"
#include "core/lessons/positions_lesson.hpp"
#include "render/views/positions_report.hpp"
#include "render/views/positions_text.hpp"

namespace embdemo {

int run_positions(const Options& options) {
    auto request = table_request<PositionsRequest>(options);
    request.ids = options.id_batch;
    request.context = options.positions.context;
    request.context_inferred = options.positions.context_inferred;
    request.encoding = options.positions.encoding;
    request.encoding_given = options.positions.encoding_given;
    request.targets = options.positions.targets;
    request.loader = options.positions.loader;
    request.windows = options.positions.windows;
    const PositionsLesson lesson = run_positions_lesson(request);
    const LessonView view = table_view(lesson, positions_report, [](const PositionsLesson& shown, const TextOptions& text, View) {
        return render_positions_text(shown, text);
    }, positions_figure, render_positions_python);
    const bool identical = lesson.token_check.identical && lesson.position_check.identical && lesson.output_check.identical;
    return lesson_status(options, write_view(options, view), identical);
}


namespace {

constexpr const char* k_positions_footer = R"(--ids takes a batch too: "2,3,1;0,1,1" is torch.tensor([[2,3,1],[0,1,1]]), and
every row gets the same P[0..T). Without a text, --context C sets P's rows (at
least T; default T); with --text, --context T is the data loader's window and
C = T. E and P are drawn as torch.manual_seed(SEED);
tok = nn.Embedding(V, D); pos = nn.Embedding(C, D) draws them.

Examples:
  embdemo positions --ids 2,3,1 --dim 5             tok + pos (book, ch. 2)
  embdemo positions --ids 2,3,2 --dim 4             one id, two vectors
  embdemo positions --ids "2,3;1,1" --dim 4 --context 8   a batch, C = 8
  embdemo positions --ids 2,3,1 --dim 5 --format json

Exit status: 0 when both lookups equal their one-hot products bit for bit, 2 for
bad input, 1 for a failed write.)";

const OptionSpec k_positions_options[] = {
    value_option("--encoding", "KIND", "learned (default), sinusoidal or rope", &option_checks::RawOptions::encoding),
};

}  // namespace

extern const LessonSpec k_positions_lesson = {Lesson::positions, "positions", "token + position tables: E[ids] + P[0..T)", {true, false},
                                         lesson_help(k_positions_options, k_table_lesson_shared, k_positions_footer), fixed_formats<k_every_format>, run_positions};

}  // namespace embdemo
