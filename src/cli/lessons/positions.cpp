// embdemo positions: token + position tables, E[ids] + P[0..T), and the data loader's batch.
#include <algorithm>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "cli/lesson_kit.hpp"
#include "cli/option_checks.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/option_spec.hpp"
#include "cli/lessons/table_lesson.hpp"
#include "core/lessons/positions_lesson.hpp"
#include "core/limits.hpp"
#include "render/sheet/sheet_view.hpp"
#include "render/views/positions/view.hpp"

namespace embdemo {
namespace {

using namespace option_checks;

std::optional<PositionEncoding> encoding_named(const std::string& name) {
    for (const PositionEncodingTraits& traits : k_position_encodings) {
        if (name == traits.name) return traits.encoding;
    }
    return std::nullopt;
}

std::string encoding_names() {
    std::string names;
    for (const PositionEncodingTraits& traits : k_position_encodings) names += (names.empty() ? "" : ", ") + std::string(traits.name);
    return names;
}

constexpr std::uint64_t k_max_heads = 1024;

// --heads H: alibi's only, 1 to k_max_heads, and P x H values of bias within the matrix cap.
std::optional<std::string> check_heads(const RawOptions& raw, std::uint64_t seq, PositionsRequest& positions) {
    const std::string* given = raw.value("--heads");
    const bool alibi = traits_of(positions.encoding).biases_scores;
    if (!given) return std::nullopt;
    const std::string allowed = fmt::format("a decimal integer from 1 to {}, with --encoding alibi", k_max_heads);
    if (!alibi) return bad_value("--heads", *given, "is ALiBi's number of heads, and --encoding is not alibi", allowed);
    const auto heads = parse_decimal(*given);
    if (!heads) return bad_value("--heads", *given, heads.error(), allowed);
    if (heads.value() == 0 || heads.value() > k_max_heads) {
        return bad_value("--heads", *given, heads.value() == 0 ? std::string("is 0: ALiBi needs a slope for at least one head")
                                                               : fmt::format("is more than {} heads", group_thousands(k_max_heads)),
                         allowed);
    }
    if (causal_pairs(seq) * heads.value() > k_max_matrix_values) {
        return bad_value("--heads", *given,
                         fmt::format("would make ALiBi's bias {} x {} (T(T+1)/2 pairs for T = {}), over the limit of {} "
                                     "values per matrix",
                                     group_thousands(causal_pairs(seq)), group_thousands(heads.value()), seq,
                                     group_thousands(k_max_matrix_values)),
                         allowed);
    }
    positions.heads = heads.value();
    return std::nullopt;
}

std::optional<std::string> check_encoding(const RawOptions& raw, const DemoRequest& sizes, PositionsRequest& positions) {
    const std::string* given = raw.value("--encoding");
    if (!given) return std::nullopt;
    const auto encoding = encoding_named(*given);
    if (!encoding) return bad_value("--encoding", *given, "is not a known encoding", encoding_names());
    if (traits_of(*encoding).turns_rows && sizes.dim % 2 != 0) {
        return bad_value("--encoding", *given,
                         "needs an even --dim: RoPE turns pairs of columns (j, j + d/2), and --dim is " +
                             std::to_string(sizes.dim),
                         "an even --dim with rope");
    }
    positions.encoding = *encoding;
    positions.encoding_given = true;
    return std::nullopt;
}

std::optional<std::string> check_positions(const RawOptions& raw, Options& options) {
    PositionsRequest& positions = own_settings<PositionsRequest>(options);
    const DemoRequest& request = options.request;
    if (auto problem = check_encoding(raw, request, positions)) return problem;
    const std::uint64_t seq = options.id_batch.seq;
    if (auto problem = check_heads(raw, seq, positions)) return problem;
    if (traits_of(positions.encoding).biases_scores &&
        causal_pairs(seq) * positions.heads > k_max_matrix_values) {
        return fmt::format("--encoding alibi: {} ids in a sequence make {} pairs of a query and a key, x {} heads: over "
                           "the limit of {} values per matrix (allowed: shorter sequences, or fewer --heads)",
                           seq, group_thousands(causal_pairs(seq)), positions.heads, group_thousands(k_max_matrix_values));
    }
    const std::uint64_t max_context = std::max<std::uint64_t>(seq, k_max_matrix_values / request.dim);
    positions.context = seq;
    positions.context_inferred = !raw.context;
    if (raw.context) {
        const std::string allowed = fmt::format("C >= T: a decimal integer from {} to {}", seq, max_context);
        const auto context = parse_decimal(*raw.context);
        if (!context) return bad_value("--context", *raw.context, context.error(), allowed);
        if (context.value() < seq) {
            return bad_value("--context", *raw.context,
                             fmt::format("is shorter than the sequence (T = {}): P would have no row for "
                                         "position {}", seq, context.value()),
                             allowed);
        }
        if (context.value() > max_context) {
            return bad_value("--context", *raw.context,
                             fmt::format("would make P {} x {}, over the limit of {} values per matrix",
                                         group_thousands(context.value()), group_thousands(request.dim),
                                         group_thousands(k_max_matrix_values)),
                             allowed);
        }
        positions.context = context.value();
    }
    // one_hot(arange(T), C) @ P obeys the caps the token product does.
    if (auto too_big = check_demo_sizes(seq, positions.context, request.dim, OneHotHeld::in_blocks)) {
        return "--context: the position table's one-hot product: " + *too_big;
    }
    positions.sizes() = request.sizes();
    positions.ids = options.id_batch;
    const std::vector<SheetTable> tables = positions_tables(positions, nullptr);
    // Beside its tables the run takes at most 72 bytes a column of dim (peak RSS at V = n = 1,
    // d = 2^22, less the tables: 65 learned, 69 with --encoding, 46 rope, 54 alibi).
    if (auto too_big = check_sheet_memory(options, tables, request.dim, 72, traits_of(positions.encoding).biases_scores)) {
        return too_big;
    }
    return check_sheet_plan(options, tables);
}

}  // namespace

int run_positions(const Options& options) {
    const PositionsLesson lesson = run_positions_lesson(own_settings<PositionsRequest>(options));
    const LessonSheet sheet = positions_sheet(lesson);
    const LessonView view = sheet_view(sheet, [&lesson](int precision) { return positions_figure(lesson, precision); });
    return lesson_status(options, write_view(options, view), sheet.identical());
}


namespace {

constexpr const char* k_positions_footer = R"(--ids takes a batch too: "2,3,1;0,1,1" is torch.tensor([[2,3,1],[0,1,1]]), and
every row gets the same P[0..T). Without a text, --context C sets P's rows (at
least T; default T); with --text, --context T is the data loader's window and
C = T. E and P are drawn as torch.manual_seed(SEED);
tok = nn.Embedding(V, D); pos = nn.Embedding(C, D) draws them.
--max-memory SIZE bounds the memory the run may take (default 1G), as in
embdemo --help.

Examples:
  embdemo positions --ids 2,3,1 --dim 5             tok + pos (book, ch. 2)
  embdemo positions --ids 2,3,2 --dim 4             one id, two vectors
  embdemo positions --ids "2,3;1,1" --dim 4 --context 8   a batch, C = 8
  embdemo positions --ids 2,3,1 --dim 4 --encoding alibi --heads 4   ALiBi
  embdemo positions --ids 2,3,1 --dim 5 --format json

Exit status: 0 when both lookups equal their one-hot products bit for bit, 2 for
bad input, 1 for a failed write.)";

const OptionSpec k_positions_options[] = {
    own_value("--encoding", "KIND", "learned (default), sinusoidal, rope or alibi"),
    own_value("--heads", "H", "alibi's heads, one slope each: 1 to 1024 (default 8)"),
};

}  // namespace

extern const LessonSpec k_positions_lesson = [] {
    LessonSpec spec{"positions", "token + position tables: E[ids] + P[0..T)"};
    spec.caps.table_ids = true;
    spec.caps.one_hot = OneHotHeld::in_blocks;
    spec.caps.own_context = true;
    spec.caps.memory_budget = true;
    spec.help = lesson_help(k_positions_options, k_table_lesson_shared, k_positions_footer);
    spec.formats = fixed_formats<k_every_format>;
    spec.checks.own = table_checks<check_positions>;
    spec.run = run_positions;
    return spec;
}();

}  // namespace embdemo
