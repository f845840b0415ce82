// embdemo factor: ALBERT's factorised table, E1[ids] @ E2 beside (one_hot(ids) @ E1) @ E2.
#include <algorithm>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "cli/lesson_kit.hpp"
#include "cli/option_checks.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/option_spec.hpp"
#include "cli/lessons/table_lesson.hpp"
#include "core/lessons/factor_lesson.hpp"
#include "render/sheet/sheet_view.hpp"
#include "render/views/factor/view.hpp"

namespace embdemo {
namespace {

using namespace option_checks;

std::optional<std::string> check_factor(const RawOptions& raw, Options& options) {
    const std::uint64_t d = options.request.dim;
    const std::string allowed = fmt::format("a rank from 1 to {}, below --dim", d - 1);
    const std::string* given = raw.value("--rank");
    if (!given) return "embdemo factor needs --rank R (allowed: " + allowed + ", e.g. --rank " + std::to_string(std::max<std::uint64_t>(1, d / 4)) + ")";
    const auto rank = parse_decimal(*given);
    if (!rank) return bad_value("--rank", *given, rank.error(), allowed);
    if (rank.value() == 0) {
        return bad_value("--rank", *given, "is 0: E1 would have no columns and every vector would be 0", allowed);
    }
    if (rank.value() >= d) {
        return bad_value("--rank", *given,
                         fmt::format("is not below --dim {}: then V*r + r*d >= V*d, and the two factors save "
                                     "nothing over one table", d),
                         d > 1 ? allowed : "a --dim of at least 2, and a rank below it");
    }
    FactorRequest& factor = own_settings<FactorRequest>(options);
    factor.sizes() = options.request.sizes();
    factor.ids = options.id_batch;
    factor.rank = rank.value();
    const std::vector<SheetTable> tables = factor_tables(factor, nullptr);
    // Beside its tables the run takes at most 40 bytes a column of dim (peak RSS at V = n = 1,
    // r = 1, d = 2^22, less the tables: 39).
    if (auto too_big = check_sheet_memory(options, tables, d, 40, true)) return too_big;
    return check_sheet_plan(options, tables);
}

}  // namespace

int run_factor(const Options& options) {
    const FactorLesson lesson = run_factor_lesson(own_settings<FactorRequest>(options));
    const LessonSheet sheet = factor_sheet(lesson);
    const LessonView view = sheet_view(sheet, [&lesson](int precision) { return factor_figure(lesson, precision); });
    return lesson_status(options, write_view(options, view), sheet.identical());
}


namespace {

constexpr const char* k_factor_footer = R"(--ids takes a batch too. After torch.manual_seed(SEED), e1 = nn.Embedding(V, R)
is drawn, then proj = nn.Linear(R, D, bias=False); E2 = proj.weight.T (R x D),
and the output is proj(e1(ids)) = E1[ids] @ E2.
--max-memory SIZE bounds the memory the run may take (default 1G), as in
embdemo --help.

Examples:
  embdemo factor --ids 2,3,1 --dim 8 --rank 2          a rank-2 table, d = 8
  embdemo factor --ids 5 --vocab 30000 --dim 768 --rank 128   ALBERT's sizes
  embdemo factor --ids 2,3,1 --dim 8 --rank 2 --format json

Exit status: 0 when E1[ids] @ E2 and (one_hot(ids) @ E1) @ E2 agree bit for
bit, 2 for bad input, 1 for a failed write.)";

const OptionSpec k_factor_options[] = {
    own_value("--rank", "R", "r, the width of E1: 1 to D-1 (required)"),
};

}  // namespace

extern const LessonSpec k_factor_lesson = [] {
    LessonSpec spec{"factor", "ALBERT's factorised table: E1[ids] @ E2"};
    spec.caps.table_ids = true;
    spec.caps.one_hot = OneHotHeld::in_blocks;
    spec.caps.memory_budget = true;
    spec.help = lesson_help(k_factor_options, k_table_lesson_shared, k_factor_footer);
    spec.formats = fixed_formats<k_every_format>;
    spec.checks.own = table_checks<check_factor>;
    spec.run = run_factor;
    return spec;
}();

}  // namespace embdemo
