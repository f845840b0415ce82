// RoPE's part of the positions sheet: the scores q . k of two token rows rotated to p and p + k,
// which depend on the offset k alone, the one thing no table can do.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "render/kit/json_text.hpp"
#include "render/kit/lesson_blocks.hpp"
#include "render/kit/python_kit.hpp"
#include "render/kit/table.hpp"
#include "render/views/positions/parts.hpp"

namespace embdemo {
namespace {

// {"first": 0, "second": 1, "starts": [...], "offsets": [...], "scores": [[...]]}.
std::string rope_scores_json(const RopeScores& r) {
    std::vector<std::string> rows;
    for (const auto& row : r.scores) {
        std::vector<std::string> cells;
        for (const double score : row) cells.push_back(json_number(score));
        rows.push_back(fmt::format("[{}]", fmt::join(cells, ", ")));
    }
    return fmt::format("{{\"first\": {}, \"second\": {}, \"starts\": [{}], \"offsets\": [{}], \"scores\": [{}]}}",
                       r.first, r.second, fmt::join(r.starts, ", "), fmt::join(r.offsets, ", "), fmt::join(rows, ", "));
}

std::string scores_table(const RopeScores& r, int precision) {
    std::string head = "    k";
    for (const std::size_t p : r.starts) head += fmt::format("  {:>12}", fmt::format("p = {}", p));
    std::string out = head + '\n';
    for (std::size_t k = 0; k < r.offsets.size(); ++k) {
        std::string row = fmt::format("  {:>3}", r.offsets[k]);
        for (const double score : r.scores[k]) row += fmt::format("  {:>12.{}f}", score, precision);
        out += row + '\n';
    }
    return out;
}

// How far the book's compute_rope may stray from these rows: its angles t * inv_freq are float32
// (inv_freq from a float32 power, the product rounded), about 3 t 2^-24 off, and each rotated
// value sums two products of that angle's cos and sin, plus their own roundings: at most
// 6 (t + 1) 2^-24 of the row's largest value. The largest over the rows, for t = i mod T.
// torch_live.rope_book measured at most 2.0 t 2^-24 (T up to 4,096, d up to 128).
double book_rope_bound(const Matrix& rows, std::size_t seq) {
    double bound = 0.0;
    for (std::size_t i = 0; i < rows.rows; ++i) {
        double largest = 0.0;
        for (std::size_t j = 0; j < rows.cols; ++j) largest = std::max(largest, std::abs(static_cast<double>(rows.at(i, j))));
        // In this order, as the script computes it: every step but the last is exact.
        bound = std::max(bound, 6.0 * static_cast<double>(i % seq + 1) * 0x1p-24 * largest);
    }
    return bound;
}

std::string book_rope_python(double bound) {
    return "book = compute_rope(tokens.reshape(-1, 1, T, D), *precompute_rope_params(D, context_length=T))\n"
           "book_gap = (book.reshape(-1, D).double() - output.reshape(-1, D).double()).abs().max(dim=1).values.tolist()\n"
           "row_bounds = [6 * (i % T + 1) * 2.0**-24 * max(abs(v) for v in row)\n"
           "              for i, row in enumerate(tokens.reshape(-1, D).tolist())]\n"
           "print(\"the book's compute_rope (float32 angles) differs from these by up to\", max(book_gap))\n"
           "assert all(gap <= limit for gap, limit in zip(book_gap, row_bounds)), \"the book's compute_rope strays past 6 (t + 1) 2^-24\"\n" +
           fmt::format("assert max(row_bounds) == {}, \"embdemo's bound for the book's compute_rope differs\"\n",
                       python_double(bound));
}

}  // namespace

std::vector<SheetClaim> rope_claims(const PositionsLesson& lesson) {
    const RopeScores& r = *lesson.rope_scores;
    const IdBatch& ids = lesson.request.ids;
    const Matrix& tokens = lesson.token_lookup;
    SheetClaim scores{
        fmt::format("What no table can do: the score q . k of id {} (from {}) at position p and id {} (from {}) at "
                    "p + k, both rotated, for several p. Along each row only p changes:",
                    ids.values[r.first], flat_position_label(ids, r.first), ids.values[r.second],
                    flat_position_label(ids, r.second)),
        "", "", "",
        [&lesson] {  // every score is the rotated rows' dot product, recomputed
            const RopeScores& s = *lesson.rope_scores;
            const Matrix& t = lesson.token_lookup;
            for (std::size_t k = 0; k < s.offsets.size(); ++k) {
                for (std::size_t p = 0; p < s.starts.size(); ++p) {
                    if (s.scores[k][p] != rope_score(t.row(s.first), s.starts[p], t.row(s.second), s.starts[p] + s.offsets[k], t.cols)) {
                        return false;
                    }
                }
            }
            return true;
        }};
    scores.paragraph = true;
    scores.text_after = [&r](int precision) { return scores_table(r, precision); };
    SheetClaim spread{
        fmt::format("The scores depend on the offset k alone (largest spread along a row: {:.2e}, float32 rounding): "
                    "RoPE turns both rows by their positions, and a dot product sees only the difference of the angles. "
                    "A learned or sinusoidal table adds a vector instead, and the score of tok + P[p] and tok + P[p + k] "
                    "changes with p. Nor is it a lookup: the row is multiplied by a rotation that depends on t, so there "
                    "is no row P[t] to select with a one-hot vector and add.",
                    r.widest_spread),
        "rope_scores", rope_scores_json(r), rope_scores_python(r),
        [&r, &tokens] {
            double widest = 0.0, largest = 0.0;
            for (const auto& row : r.scores) {
                const auto [low, high] = std::minmax_element(row.begin(), row.end());
                widest = std::max(widest, *high - *low);
                for (const double score : row) largest = std::max(largest, std::abs(score));
            }
            // float32 rounding of rows of this size: far below the scores themselves
            return widest == r.widest_spread && widest <= 1e-4 * (1.0 + largest) && tokens.rows > r.second;
        }};
    const double bound = book_rope_bound(tokens, lesson.request.ids.seq);
    SheetClaim book{
        fmt::format("cos and sin come from angles in double, each rounded once to float32, which the script checks bit "
                    "for bit; the book's compute_rope takes float32 angles and differs in the last bits: by at most "
                    "6 (t + 1) x 2^-24 of a row's largest value, here {:.2e}.",
                    bound),
        "rope_book_bound", json_number(bound), book_rope_python(bound),
        [&lesson, bound] { return bound == book_rope_bound(lesson.token_lookup, lesson.request.ids.seq) && bound > 0.0; }};
    return {scores, spread, book};
}

}  // namespace embdemo
