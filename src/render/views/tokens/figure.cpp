// tokens_figure: GPT-2's tokenizer as a picture. The text's pieces point at their token ids (the
// rows of the table they will look up); the followed piece's BPE merges are a table of the pairs
// joined, in order, the token each became framed. Long texts are cut as the text view cuts them.
#include <algorithm>

#include <fmt/format.h>

#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/limits.hpp"
#include "render/kit/figure_parts.hpp"
#include "render/views/lesson_figures.hpp"
#include "render/kit/table.hpp"
#include "render/views/tokens/view.hpp"

namespace embdemo {
namespace {

// As the text view: a long list shows its first items and its last three around "...".
constexpr std::size_t k_listed = 16;
constexpr std::size_t k_ids_per_piece = 4;  // a piece's ids beyond these are left to a "..." row

std::vector<std::size_t> listed(std::size_t count, std::size_t keep = k_gap) {
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < count; ++i) {
        if (count > k_listed + 4 && i == k_listed - 3) {
            rows.push_back(k_gap);
            i = count - 3;
        }
        rows.push_back(i);
    }
    // The followed piece stays in view, as its line does in the text view's list.
    if (keep != k_gap && std::find(rows.begin(), rows.end(), keep) == rows.end()) {
        const auto gap = std::find(rows.begin(), rows.end(), k_gap);
        rows.insert(rows.insert(gap + 1, keep) + 1, k_gap);
    }
    return rows;
}

FigurePanel pieces_panel(const TokensLesson& lesson, const Gpt2Vocabulary& vocab) {
    const std::vector<std::size_t> piece_rows = listed(lesson.pieces.size(), lesson.followed);
    std::vector<std::size_t> id_rows;  // positions in lesson.ids
    std::vector<std::size_t> piece_of;  // per entry of id_rows
    for (const std::size_t p : piece_rows) {
        if (p == k_gap) {
            id_rows.push_back(k_gap);
            piece_of.push_back(k_gap);
            continue;
        }
        const TokenPiece& piece = lesson.pieces[p];
        for (std::size_t k = 0; k < piece.id_count; ++k) {
            if (k == k_ids_per_piece && piece.id_count > k_ids_per_piece + 1) {
                id_rows.push_back(k_gap);
                piece_of.push_back(p);
                k = piece.id_count - 1;
            }
            id_rows.push_back(piece.first_id + k);
            piece_of.push_back(p);
        }
    }
    const auto key = [&](std::size_t p) { return p == lesson.followed ? 0 : k_no_key; };
    FigureMatrix pieces = text_matrix(
        piece_rows, {0}, [&](std::size_t p, std::size_t) { return quoted_text(lesson.bytes_of(lesson.pieces[p]), 22); },
        [](std::size_t, std::size_t) { return false; },
        [&](std::size_t p, FigureRow& row) {
            row.key = key(p);
            if (lesson.pieces[p].special) row.note = "special";
        });
    pieces.name = "pieces";
    pieces.shape = count_of(lesson.pieces.size(), "piece", "pieces");
    pieces.col_labels = {""};
    FigureMatrix ids = text_matrix(
        id_rows, {0, 1}, [&](std::size_t i, std::size_t c) {
            return c == 0 ? std::to_string(lesson.ids[i]) : quoted_text(vocab.bytes(lesson.ids[i]), 16);
        },
        [](std::size_t, std::size_t) { return false; }, [&](std::size_t i, FigureRow& out) { out.label = fmt::format("[{}]", i); });
    for (std::size_t r = 0; r < id_rows.size(); ++r) {
        if (id_rows[r] != k_gap) ids.rows[r].key = key(piece_of[r]);
    }
    ids.name = "ids";
    ids.shape = "n = " + group_thousands(lesson.ids.size());
    ids.col_labels = {"id", "token"};
    FigurePanel panel;
    panel.title = "GPT-2's pattern cuts the text into pieces; each piece becomes one or more token ids";
    panel.items = {pieces, ids};
    panel.ops = {""};
    panel.arrows.resize(1);
    for (std::size_t r = 0; r < id_rows.size(); ++r) {
        if (id_rows[r] == k_gap) continue;
        panel.arrows[0].push_back({figure_row_of(piece_rows, piece_of[r]), r, key(piece_of[r])});
    }
    return panel;
}

FigurePanel merges_panel(const TokensLesson& lesson, const Gpt2Vocabulary& vocab) {
    const auto token = [&](std::uint64_t id) { return quoted_text(vocab.bytes(id), 16); };
    FigureMatrix merges = text_matrix(
        listed(lesson.merges.size()), {0, 1, 2, 3},
        [&](std::size_t k, std::size_t c) {
            const BpeMerge& m = lesson.merges[k];
            switch (c) {
                case 0: return token(m.left);
                case 1: return token(m.right);
                case 2: return token(m.merged);
                default: return fmt::format("{} / {}", group_thousands(m.merged - 256), m.merged);
            }
        },
        [](std::size_t, std::size_t c) { return c == 2; },
        [](std::size_t k, FigureRow& row) {
            row.label = fmt::format("{}.", k + 1);
            row.key = 0;
        });
    merges.name = fmt::format("BPE on piece {}", lesson.followed);
    merges.shape = count_of(lesson.merges.size(), "merge", "merges");
    merges.col_labels = {"left", "right", "joined", "rank / id"};
    return joined_panel("Then BPE joins the pair whose joined bytes are the lowest-ranked token, again and again", {merges});
}

std::vector<std::string> tokens_caption(const TokensLesson& lesson) {
    std::vector<std::string> caption{fmt::format(
        "{} in {}, {} distinct; the book's word split finds {}, {} distinct.",
        count_of(lesson.ids.size(), "token", "tokens"), count_of(lesson.pieces.size(), "piece", "pieces"),
        group_thousands(lesson.distinct_tokens), count_of(lesson.words, "word", "words"),
        group_thousands(lesson.distinct_words))};
    if (lesson.pieces.empty()) return caption;
    const TokenPiece& piece = lesson.pieces[lesson.followed];
    caption.push_back(piece.special
                          ? fmt::format("Piece {} is the special token: never split or merged, id {}.", lesson.followed,
                                        k_gpt2_end_of_text)
                          : fmt::format("Piece {} ({}): {} {}.", lesson.followed,
                                        count_of(piece.size, "byte", "bytes"), count_of(lesson.merges.size(), "merge", "merges"),
                                        piece.id_count == 1 ? std::string("make it one token")
                                                            : fmt::format("leave {}", count_of(piece.id_count, "token", "tokens"))));
    return caption;
}

}  // namespace

Figure tokens_figure(const TokensLesson& lesson, const Gpt2Vocabulary& vocab, int /*precision: ids and tokens only*/) {
    Figure figure;
    figure.title = fmt::format("GPT-2's tokenizer: text -> pieces -> BPE merges -> ids   ({})",
                               count_of(lesson.request.text.size(), "byte", "bytes"));
    figure.keys = {fmt::format("piece {}, followed through BPE", lesson.followed)};
    figure.panels = {pieces_panel(lesson, vocab)};
    if (!lesson.pieces.empty() && !lesson.pieces[lesson.followed].special) figure.panels.push_back(merges_panel(lesson, vocab));
    figure.caption = tokens_caption(lesson);
    return figure;
}

}  // namespace embdemo
