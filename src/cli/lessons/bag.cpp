// embdemo bag: nn.EmbeddingBag as a multi-hot product, sum, mean or max.
#include <iterator>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "cli/exit_codes.hpp"
#include "cli/lesson_kit.hpp"
#include "cli/option_checks.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/option_spec.hpp"
#include "cli/lessons/table_lesson.hpp"
#include "core/lessons/bag_lesson.hpp"
#include "core/limits.hpp"
#include "core/memory.hpp"
#include "render/sheet/sheet_view.hpp"
#include "render/views/bag/view.hpp"

namespace embdemo {
namespace {

using namespace option_checks;

// What only --bags can name properly, before its ids are checked as ids; `parsed_bags` gets them.
std::optional<std::string> check_bags(const RawOptions& raw, Bags& parsed_bags) {
    if (raw.ids) {
        return std::string("--ids belongs to the other lessons: embdemo bag reads its ids from --bags "
                           "(allowed: --bags \"2,3;1,1,0\")");
    }
    const bool text = raw.text || raw.text_file;
    if (text && raw.value("--bags")) {
        return std::string("--bags and ") + (raw.text ? "--text" : "--text-file") +
               " each give the bags (allowed: one of them; with a text, --context T makes each window a bag)";
    }
    if (text && !raw.context) {
        return std::string("embdemo bag with ") + (raw.text ? "--text" : "--text-file") +
               " needs --context T: each window of the book's data loader is one bag (allowed: --context T "
               "[--stride S] [--batch B], or --bags)";
    }
    if (text) return std::nullopt;  // the ids and their windows come from the text (prepare_ids)
    if (!raw.value("--bags") || (!raw.dim && !raw.weights)) {
        return std::string(!raw.value("--bags") ? "--bags is" : "--dim is") +
               " required, e.g. embdemo bag --bags \"2,3;1,1,0\" --dim 5; see embdemo bag --help";
    }
    const std::string& given = *raw.value("--bags");
    const auto bags = parse_bags(given);
    const char* allowed = "bags of comma-separated ids separated by ';', an empty bag as nothing between two ';'";
    if (!bags) return bad_value("--bags", given, bags.error(), allowed);
    if (bags.value().ids.empty()) return bad_value("--bags", given, "has no id in any bag", "at least one id");
    parsed_bags = bags.value();
    if (raw.vocab) {
        const auto vocab = parse_bounded("--vocab", *raw.vocab, 1, UINT64_MAX);
        if (!vocab) return vocab.error();
        const Bags& parsed = bags.value();
        for (std::size_t b = 0; b < parsed.count(); ++b) {
            for (std::size_t i = parsed.offsets[b]; i < parsed.offsets[b + 1]; ++i) {
                if (parsed.ids[i] < vocab.value()) continue;
                return fmt::format("--bags: bag {} item {} = {} is out of range for --vocab {} (allowed: ids 0 to {})",
                                   b, i - parsed.offsets[b] + 1, parsed.ids[i], vocab.value(), vocab.value() - 1);
            }
        }
    }
    return std::nullopt;
}

// bag's prepare step: --bags stands in for --ids, the bags' ids in one list checked and sized
// like any other ids, after the checks that only --bags can name properly; or a text's windows.
ParseResult<IdBatch> prepare_bag(const RawOptions& raw) {
    Bags bags;
    if (auto problem = check_bags(raw, bags)) return ParseResult<IdBatch>::fail(*problem);
    if (raw.text || raw.text_file) return prepare_ids(raw);
    RawOptions with_ids = raw;  // --ids's own parse and bounds, and its messages, for the bags' ids
    with_ids.ids = fmt::format("{}", fmt::join(bags.ids, ","));
    return prepare_ids(with_ids);
}

std::optional<std::string> check_bag(const RawOptions& raw, Options& options) {
    BagRequest& bag = own_settings<BagRequest>(options);
    if (const std::string* given = raw.value("--bags")) {
        bag.bags = parse_bags(*given).value();  // checked by prepare_bag
    } else {
        // A text's data loader batch: each window one bag, as nn.EmbeddingBag reads a 2-D input
        // (B bags of T ids each).
        const IdBatch& windows = options.id_batch;
        bag.bags.ids = windows.values;
        for (std::size_t b = 0; b <= windows.batch; ++b) bag.bags.offsets.push_back(b * windows.seq);
        bag.windows = windows;  // its text, tokens and targets, for the views
    }
    const std::string mode = raw.value_or("--mode", "mean");
    if (const std::optional<BagMode> named = find_named(k_bag_modes, mode)) {
        bag.mode = *named;
    } else {
        return bad_value("--mode", mode, "is not a mode of nn.EmbeddingBag", names_of(k_bag_modes));
    }
    const std::uint64_t v = options.request.vocab_size;
    if (const std::string* padding_idx = raw.value("--padding-idx")) {
        if (auto problem = parse_padding_idx(*padding_idx, v, bag.padding_idx)) return problem;
    }
    if (const std::string* weights_text = raw.value("--per-sample-weights")) {
        if (bag.mode != BagMode::sum) {
            return bad_value("--per-sample-weights", *weights_text,
                             "needs --mode sum: PyTorch supports per_sample_weights only for mode='sum'",
                             "--mode sum with --per-sample-weights");
        }
        const auto weights = parse_bag_weights(*weights_text, bag.bags);
        if (!weights) {
            return bad_value("--per-sample-weights", *weights_text, weights.error(),
                             "one finite decimal number per id of --bags, in the same layout");
        }
        bag.per_sample_weights = weights.value();
    }
    const std::uint64_t b = bag.bags.count();
    const std::uint64_t d = options.request.dim;
    if (auto too_big = check_demo_sizes(b, v, d, OneHotHeld::multihot)) return "--bags/--vocab/--dim: " + *too_big;
    bag.sizes() = options.request.sizes();
    // The --max-memory budget (1 GiB by default), as the lookup and grad keep it. Beside its
    // tables, the run takes about 44 bytes a column of dim whatever the rows (measured peak RSS,
    // V = B = 1: 904 MiB at d = 2^24, 3.5 GiB at d = 2^26, 56 bytes a column in all; GPT-2's
    // 50,257 x 768 takes 157 MiB).
    // Typed bags are sized by --bags, which the budget's message names.
    if (!raw.text && !raw.text_file) options.size_options = "--bags/--vocab/--dim";
    const std::vector<SheetTable> tables = bag_tables(bag, nullptr);
    if (auto too_big = check_sheet_memory(options, tables, d, 44, bag.mode != BagMode::max)) return too_big;
    return check_sheet_plan(options, tables);
}

}  // namespace

int run_bag(const Options& options) {
    const BagLesson lesson = run_bag_lesson(own_settings<BagRequest>(options));
    const LessonSheet sheet = bag_sheet(lesson);
    const LessonView view = sheet_view(sheet, [&lesson](int precision) { return bag_figure(lesson, precision); });
    // As every lesson: 3 when the verdict is DIFFERENT, here when M @ E differs from the bag's
    // output in any bit (float32 summation in another order, which the view measures).
    return lesson_status(options, write_view(options, view), sheet.identical());
}


namespace {

constexpr const char* k_bag_footer = R"(--bags replaces --ids here; the shared options --vocab, --dim, --seed,
--format (all nine), --precision, --color, --palette and --max-memory work as
in embdemo --help. After torch.manual_seed(SEED), bag =
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

Exit status: 0 when M @ E equals the bag's output bit for bit, 3 when it differs
(in the last bits, which the view measures), 2 for bad input, 1 for a failed
write.)";

const OptionSpec k_bag_options[] = {
    own_value("--bags", "BAGS", "the bags, e.g. \"2,3;1,1,0\"; \"2;;1\": empty middle bag"),
    own_value("--mode", "MODE", "sum, mean (default, as PyTorch) or max"),
    own_value("--per-sample-weights", "W", "with sum: a weight per id, e.g. \"0.5,2;1,1,1\""),
    own_value("--padding-idx", "K", "nn.EmbeddingBag's padding_idx, -V to V-1"),
};

}  // namespace

// bag reads its ids from --bags, or from a text's data loader windows: never from --ids.
constexpr const char* k_bag_refused_options[] = {"--ids"};

extern const LessonSpec k_bag_lesson = [] {
    LessonSpec spec{"bag", "nn.EmbeddingBag as a multi-hot product: sum/mean/max"};
    spec.caps.table_ids = true;
    spec.caps.memory_budget = true;
    spec.caps.trace = true;
    spec.caps.one_hot = std::nullopt;  // its product is bags x V x d: check_bag checks it
    spec.help = lesson_help(k_bag_options, "", k_bag_footer);
    spec.formats = fixed_formats<k_every_format>;
    spec.checks.prepare = prepare_bag;
    spec.checks.own = table_checks<check_bag>;
    spec.run = run_bag;
    spec.refused_options = k_bag_refused_options;
    spec.refused_option_count = std::size(k_bag_refused_options);
    return spec;
}();

}  // namespace embdemo
