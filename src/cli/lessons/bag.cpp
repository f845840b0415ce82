// embdemo bag: nn.EmbeddingBag as a multi-hot product, sum, mean or max.
#include "cli/lesson_kit.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/option_spec.hpp"
#include "cli/lessons/table_request.hpp"
#include "core/lessons/bag_lesson.hpp"
#include "render/views/bag_report.hpp"
#include "render/views/bag_text.hpp"

namespace embdemo {

int run_bag(const Options& options) {
    auto request = table_request<BagRequest>(options);
    request.bags = options.bag.bags;
    if (options.id_batch.source.from_text()) request.windows = options.id_batch;
    request.mode = options.bag.mode;
    request.padding_idx = options.bag.padding_idx;
    request.per_sample_weights = options.bag.per_sample_weights;
    const BagLesson lesson = run_bag_lesson(request);
    const LessonView view = table_view(lesson, bag_report, [](const BagLesson& shown, const TextOptions& text, View view_kind) {
        return render_bag_text(shown, text, view_kind == View::trace);
    }, bag_figure, render_bag_python);
    // Exit 0 even when M @ E differs in the last bits: that is float32 summation order, not an error.
    return write_view(options, view);
}


namespace {

constexpr const char* k_bag_footer = R"(--bags replaces --ids here; the shared options --vocab, --dim, --seed,
--format (all eight), --precision, --color and --palette work as in embdemo
--help. After torch.manual_seed(SEED), bag =
nn.EmbeddingBag(V, D, mode=MODE, padding_idx=K) is called as bag(input,
offsets), input being the bags' ids in one list and offsets where each bag
starts. An empty bag (nothing between two ';', or before the first or after the
last) gives zeros. --trace adds up the first 8 bags (and the one where M @ E
differs most) step by step, in the kernel's order and, for sum and mean, in
M @ E's.

Examples:
  embdemo bag --bags "2,3;1,1,0" --dim 5                mean of each bag
  embdemo bag --bags "2,3;1" --dim 5 --mode sum --per-sample-weights "0.5,2;3"
  embdemo bag --bags "2,3;;1" --dim 4 --mode max        winners; empty bag
  embdemo bag --bags "2,0,2;0" --dim 4 --padding-idx 0  padding is skipped
  embdemo bag --bags "2,3,3" --dim 3 --trace            where an ulp comes from

Exit status: 0 (M @ E may differ from the bag's output in the last bits, which
the view measures), 2 for bad input, 1 for a failed write.)";

const OptionSpec k_bag_options[] = {
    value_option("--bags", "BAGS", "the bags, e.g. \"2,3;1,1,0\"; \"2;;1\": empty middle bag", &option_checks::RawOptions::bags),
    value_option("--mode", "MODE", "sum, mean (default, as PyTorch) or max", &option_checks::RawOptions::mode),
    value_option("--per-sample-weights", "W", "with sum: a weight per id, e.g. \"0.5,2;1,1,1\"", &option_checks::RawOptions::per_sample_weights),
    value_option("--padding-idx", "K", "nn.EmbeddingBag's padding_idx, -V to V-1", &option_checks::RawOptions::padding_idx),
};

}  // namespace

extern const LessonSpec k_bag_lesson = {Lesson::bag, "bag", "nn.EmbeddingBag as a multi-hot product: sum/mean/max", {true, true},
                                         lesson_help(k_bag_options, "", k_bag_footer), fixed_formats<k_every_format>, run_bag};

}  // namespace embdemo
