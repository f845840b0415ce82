// embdemo tied: the output layer reuses E, logits = H @ E.T, with H = E[ids] or --hidden FILE.
#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>

#include "cli/exit_codes.hpp"
#include "cli/lesson_kit.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/option_checks.hpp"
#include "cli/option_spec.hpp"
#include <fmt/format.h>
#include "core/limits.hpp"
#include "core/memory.hpp"
#include "cli/lessons/table_lesson.hpp"
#include "cli/weight_files.hpp"
#include "core/lessons/tied_lesson.hpp"
#include "render/sheet/sheet_view.hpp"
#include "render/views/tied/view.hpp"

namespace embdemo {
namespace {

using namespace option_checks;

// tied's own options, as its checks leave them.
struct TiedSettings {
    TiedRequest request;       // its top K: 1 <= K <= V, default min(5, V)
    std::string hidden_file;   // --hidden FILE (n x d), or empty for H = E[ids]
};

std::optional<std::string> check_tied(const RawOptions& raw, Options& options) {
    const std::uint64_t vocab = options.request.vocab_size;
    const std::uint64_t n = options.request.ids.size();
    const std::uint64_t d = options.request.dim;
    // Past k_max_held_logits the lesson keeps the rows the views print, the first and last
    // k_logit_edge_rows (all of them when there are no more): never more logits than that cap.
    const std::uint64_t kept_rows = std::min<std::uint64_t>(n, 2 * k_logit_edge_rows);
    if (kept_rows * vocab > k_max_held_logits) {
        return fmt::format("{}: the logits' rows the views keep (min(ids, {}) x vocab) would be {} x {} = {} values; "
                           "the lesson holds at most {} logits (use a smaller vocab)",
                           options.size_options, 2 * k_logit_edge_rows, kept_rows, group_thousands(vocab),
                           group_thousands(kept_rows * vocab), group_thousands(k_max_held_logits));
    }
    // The lesson keeps every position's top K: n x K entries, capped like a matrix.
    const std::uint64_t most_top = std::min<std::uint64_t>(vocab, k_max_top_entries / std::max<std::uint64_t>(1, n));
    if (most_top == 0) {
        return fmt::format("{}: the top-K table (ids x K) would be {} x 1 entries; the limit is {} (use fewer ids)",
                           options.size_options, group_thousands(n), group_thousands(k_max_top_entries));
    }
    TiedSettings& tied = own_settings<TiedSettings>(options);
    TiedRequest& request = tied.request;
    request.sizes() = options.request.sizes();
    request.ids = options.id_batch;
    request.top = static_cast<std::size_t>(std::min<std::uint64_t>(5, most_top));
    if (const std::string* given = raw.value("--top")) {
        const std::string allowed =
            most_top == vocab ? fmt::format("K from 1 to the vocab, {}", vocab)
                              : fmt::format("K from 1 to {}: the top K of {} positions are kept, at most {} entries",
                                            group_thousands(most_top), group_thousands(n), group_thousands(k_max_top_entries));
        const auto top = parse_decimal(*given);
        if (!top) return bad_value("--top", *given, top.error(), allowed);
        if (top.value() < 1 || top.value() > most_top) {
            return bad_value("--top", *given,
                             top.value() < 1       ? "is 0"
                             : top.value() > vocab ? "is more than the vocab has ids"
                                                   : fmt::format("would keep {} x {} = {} top entries", group_thousands(n),
                                                                 group_thousands(top.value()),
                                                                 group_thousands(n * top.value())),
                             allowed);
        }
        request.top = static_cast<std::size_t>(top.value());
    }
    if (const std::string* hidden = raw.value("--hidden")) {
        if (hidden->empty()) return bad_value("--hidden", *hidden, "is empty", "a .npy, .csv or .tsv file of n x D");
        tied.hidden_file = *hidden;
        request.hidden_given = true;
        options.lesson_inputs.emplace_back("--hidden", tied.hidden_file);
    }
    // The --max-memory budget (1 GiB by default), as the lookup and grad keep it. Beside E, H, the
    // logits it holds and the top K, the run takes about 32 bytes a column of dim whatever the
    // rows (measured peak RSS, V = n = 1: 647 MiB at d = 2^24, 2.5 GiB at d = 2^26, 40 bytes a
    // column in all; GPT-2's 50,257 x 768 takes 157 MiB).
    const std::vector<SheetTable> tables = tied_tables(request, nullptr);
    const std::uint64_t top_entries = checked_multiply(n, request.top).value_or(UINT64_MAX);
    if (auto too_big = check_sheet_memory(options, tables, d, 32, true, {{"the top-K table (ids x K)", top_entries, sizeof(TopLogit)}})) {
        return too_big;
    }
    if (!prints_every_value(options.format)) return std::nullopt;
    const std::uint64_t held_tables = report_values({tables[0], tables[1]});
    const std::uint64_t printed = report_values(tables);
    if (options.format != OutputFormat::python && held_tables <= k_max_printed_values && printed > k_max_printed_values) {
        // The logits alone are too many: a chapter's are n x V (a gigabyte), never held whole.
        return fmt::format("embdemo tied: json, csv and tsv would print {} numbers, {} x {} of them logits (allowed: "
                           "at most {}; use the text, markdown, svg or html view, which summarise the logits and "
                           "list every position's top K, or --format python, which checks every logit by a sum a row)",
                           group_thousands(printed), group_thousands(n), group_thousands(vocab),
                           group_thousands(k_max_printed_values));
    }
    return check_sheet_plan(options, tables);
}


// H from --hidden FILE: one hidden state of d values per id.
ParseResult<Matrix> load_hidden(const std::string& path, const TiedRequest& request) {
    const std::uint64_t rows = request.ids.values.size();
    const ShapeCheck check = [&](std::uint64_t file_rows, std::uint64_t cols) -> std::optional<std::string> {
        if (file_rows == rows && cols == request.dim) return std::nullopt;
        return "holds " + std::to_string(file_rows) + " x " + std::to_string(cols) + " (allowed: " +
               std::to_string(rows) + " x " + std::to_string(request.dim) +
               ", one hidden state of --dim values per id, a batch's B x T ids flattened in order)";
    };
    return load_matrix_file("--hidden", path, check,
                            std::to_string(rows) + " x " + std::to_string(request.dim) +
                                ", n x d: one hidden state per id");
}

}  // namespace

int run_tied(const Options& options) {
    const TiedSettings& tied = own_settings<TiedSettings>(options);
    const TiedRequest& request = tied.request;
    Matrix hidden;
    if (request.hidden_given) {
        auto loaded = load_hidden(tied.hidden_file, request);
        if (!loaded) {
            print_error(loaded.error());
            return k_exit_usage;
        }
        hidden = std::move(loaded.value());
    }
    LinearBlockSettings blocks;
    blocks.threads = product_threads(request.ids.values.size(), request.vocab_size, request.dim);
    blocks.progress = terminal_progress("logits H @ E.T");
    const TiedLesson lesson = run_tied_lesson(request, std::move(hidden), blocks);
    const LessonSheet sheet = tied_sheet(lesson, tied.hidden_file);
    return write_view(options, sheet_view(sheet, [&lesson](int precision) { return tied_figure(lesson, precision); }));
}


namespace {

constexpr const char* k_tied_footer = R"(--ids takes a batch too. E is nn.Embedding(V, D) after torch.manual_seed(SEED);
the output layer is nn.Linear(D, V, bias=False) with its weight set to E, as
GPT-2 ties out_head.weight = tok_emb.weight. H defaults to E[ids], a stand-in
for the final hidden state.
--max-memory SIZE bounds the memory the run may take (default 1G), as in
embdemo --help.

Examples:
  embdemo tied --ids 2,3,1 --dim 5                 logits = E[ids] @ E.T
  embdemo tied --ids 464,3290 --vocab 50257 --dim 768 --top 3   GPT-2 sizes
  embdemo tied --ids 2,3 --dim 5 --hidden h.npy    your own final hidden state
  embdemo tied --text-file story.txt --dim 768     a chapter: the n x V logits
                                                   are made a block of rows at
                                                   a time, never held whole
  embdemo tied --ids 2,3,1 --dim 5 --format json

Exit status: 0, 2 for bad input (including an unreadable --hidden file), 1 for
a failed write.)";

const OptionSpec k_tied_options[] = {
    own_value("--top", "K", "top-K token ids per position, 1 to V (default 5)"),
    own_value("--hidden", "FILE", "H from a .npy/.csv/.tsv file, n x D (default E[ids])"),
};

}  // namespace

extern const LessonSpec k_tied_lesson = [] {
    LessonSpec spec{"tied", "the output layer reuses E: logits = H @ E.T"};
    spec.caps.table_ids = true;
    spec.caps.memory_budget = true;
    spec.caps.one_hot = OneHotHeld::none_logits_in_blocks;
    spec.help = lesson_help(k_tied_options, k_table_lesson_shared, k_tied_footer);
    spec.formats = fixed_formats<k_every_format>;
    spec.checks.own = table_checks<check_tied>;
    spec.run = run_tied;
    return spec;
}();

}  // namespace embdemo
