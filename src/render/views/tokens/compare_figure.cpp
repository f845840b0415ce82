// tokenizer_comparison_figure: the side-by-side view as a picture. A matrix of each tokenizer's
// first pieces (with their ids), and the table each implies as bars on a log and a linear axis,
// a word-level table's beside them: the sizes differ by orders of magnitude.
#include <fmt/format.h>

#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/lessons/tokens_lesson.hpp"
#include "core/limits.hpp"
#include "render/kit/figure_parts.hpp"
#include "render/views/cost/text.hpp"  // short_count
#include "render/views/tokens/compare.hpp"

namespace embdemo {
namespace {

constexpr std::size_t k_figure_pieces = 6;  // each tokenizer's first pieces, then "..."

FigurePanel pieces_panel(const TokenizerComparison& comparison) {
    std::vector<std::size_t> rows;
    for (std::size_t r = 0; r < comparison.runs.size(); ++r) rows.push_back(r);
    std::vector<std::size_t> cols;
    for (std::size_t c = 0; c <= k_figure_pieces; ++c) cols.push_back(c);
    FigureMatrix pieces = text_matrix(
        rows, cols,
        [&](std::size_t r, std::size_t c) -> std::string {
            const Tokenized& t = comparison.runs[r].tokenized;
            if (c == k_figure_pieces) return t.ids.size() > k_figure_pieces ? "..." : "";
            if (c >= t.ids.size()) return "";
            return fmt::format("{} {}", quoted_text(t.pieces[c], 12), t.ids[c]);
        },
        [&](std::size_t r, std::size_t c) {
            const Tokenized& t = comparison.runs[r].tokenized;
            return c < t.ids.size() && c < k_figure_pieces && t.has_unknown && t.ids[c] == t.unknown_id;
        },
        [&](std::size_t r, FigureRow& row) {
            const Tokenized& t = comparison.runs[r].tokenized;
            row.label = tokenizer_name(t.kind);
            row.key = static_cast<int>(r);
            row.note = count_of(t.ids.size(), "token", "tokens");
        });
    pieces.name = "pieces, with their ids (unknowns marked)";
    pieces.shape = count_of(comparison.runs.size(), "tokenizer", "tokenizers");
    pieces.col_labels.back() = "";  // the "..." column
    FigurePanel panel;
    panel.title = "The same text, cut by each tokenizer";
    panel.items = {pieces};
    return panel;
}

}  // namespace

Figure tokenizer_comparison_figure(const TokenizerComparison& comparison) {
    const std::uint64_t d = comparison.request.dim;
    Figure figure;
    figure.title = fmt::format("Tokenizers side by side   ({}, d = {})",
                               count_of(comparison.request.text.size(), "byte", "bytes"), group_thousands(d));
    for (const TokenizerRun& run : comparison.runs) {
        figure.keys.push_back(fmt::format("{}: V = {}", tokenizer_name(run.tokenized.kind),
                                          group_thousands(run.tokenized.vocab_size)));
    }
    figure.panels = {pieces_panel(comparison)};
    FigureChart chart;
    chart.title = "The embedding table each implies, V x d parameters";
    chart.unit = "parameters";
    for (std::size_t r = 0; r < comparison.runs.size(); ++r) {
        const TokenizerRun& run = comparison.runs[r];
        chart.bars.push_back({fmt::format("{} ({} rows)", tokenizer_name(run.tokenized.kind),
                                          group_thousands(run.tokenized.vocab_size)),
                              static_cast<double>(run.table_parameters), short_count(run.table_parameters),
                              static_cast<int>(r)});
    }
    chart.bars.push_back({fmt::format("words of this text ({} rows)", group_thousands(comparison.distinct_words)),
                          static_cast<double>(comparison.distinct_words * d), short_count(comparison.distinct_words * d),
                          k_no_key});
    chart.bars.push_back({fmt::format("GloVe 6B's words ({} rows)", group_thousands(k_glove_6b_words)),
                          static_cast<double>(k_glove_6b_words * d), short_count(k_glove_6b_words * d), k_no_key});
    chart.bars.push_back({fmt::format("word2vec Google News ({} rows)", group_thousands(k_word2vec_google_news_words)),
                          static_cast<double>(k_word2vec_google_news_words * d),
                          short_count(k_word2vec_google_news_words * d), k_no_key});
    figure.chart = std::move(chart);
    for (const TokenizerRun& run : comparison.runs) {
        const Tokenized& t = run.tokenized;
        figure.caption.push_back(fmt::format("{}: {}, {} unknown; its table is {} of a GPT-2-small-shaped model.",
                                             tokenizer_name(t.kind), count_of(t.ids.size(), "token", "tokens"),
                                             group_thousands(t.unknowns), share_percent(run.model_share)));
    }
    return figure;
}

}  // namespace embdemo
