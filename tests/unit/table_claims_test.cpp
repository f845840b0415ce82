// The sentences of the tied, factor and positions views that state counts and ranks (issue 25),
// re-checked against tensors over random cases: the rows a backward really moves, the rank
// E1 @ E2 really has, the columns two output rows really differ in.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>

#include "core/kernels/embedding.hpp"
#include "core/lessons/factor_lesson.hpp"
#include "core/lessons/positions_lesson.hpp"
#include "core/lessons/tied_lesson.hpp"
#include "core/kernels/torch_matmul.hpp"
#include "render/sheet/sheet_writers.hpp"
#include "render/views/factor/view.hpp"
#include "render/views/text.hpp"
#include "render/sheet/sheet_writers.hpp"
#include "render/views/tied/view.hpp"
#include "text_checks.hpp"

namespace embdemo {
using testing::contains;
namespace {

// A small deterministic generator (the tests' own; no std distribution).
struct Draw {
    std::uint64_t state;
    std::uint64_t below(std::uint64_t bound) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return (state >> 33) % bound;
    }
    float value() { return static_cast<float>(below(2001)) / 500.0f - 2.0f; }
};

IdBatch random_ids(Draw& draw, std::uint64_t vocab) {
    IdBatch ids;
    ids.seq = 1 + draw.below(6);
    for (std::size_t t = 0; t < ids.seq; ++t) ids.values.push_back(draw.below(vocab));
    return ids;
}

std::size_t nonzero_rows(const Matrix& m) {
    std::size_t rows = 0;
    for (std::size_t r = 0; r < m.rows; ++r) {
        rows += std::any_of(m.row(r), m.row(r) + m.cols, [](float x) { return x != 0.0f; });
    }
    return rows;
}

// The rank of a small matrix by Gaussian elimination in double with partial pivoting.
std::size_t numeric_rank(const Matrix& m) {
    std::vector<std::vector<double>> a(m.rows, std::vector<double>(m.cols));
    double scale = 0.0;
    for (std::size_t r = 0; r < m.rows; ++r) {
        for (std::size_t c = 0; c < m.cols; ++c) {
            a[r][c] = m.at(r, c);
            scale = std::max(scale, std::fabs(a[r][c]));
        }
    }
    std::size_t rank = 0;
    for (std::size_t c = 0; c < m.cols && rank < m.rows; ++c) {
        std::size_t pivot = rank;
        for (std::size_t r = rank; r < m.rows; ++r) {
            if (std::fabs(a[r][c]) > std::fabs(a[pivot][c])) pivot = r;
        }
        if (std::fabs(a[pivot][c]) <= 1e-5 * scale) continue;
        std::swap(a[pivot], a[rank]);
        for (std::size_t r = rank + 1; r < m.rows; ++r) {
            const double f = a[r][c] / a[rank][c];
            for (std::size_t k = c; k < m.cols; ++k) a[r][k] -= f * a[rank][k];
        }
        ++rank;
    }
    return rank;
}

TextOptions plain() {
    TextOptions options;
    options.precision = 4;
    return options;
}

}  // namespace

TEST_CASE("tied: the rows each backward moves are the ones the view counts") {
    Draw draw{25};
    for (int round = 0; round < 200; ++round) {
        TiedRequest request;
        request.vocab_size = 1 + draw.below(9);
        request.dim = 1 + draw.below(5);
        request.seed = draw.below(1000);
        request.ids = random_ids(draw, request.vocab_size);
        request.top = 1;
        const TiedLesson lesson = run_tied_lesson(request, Matrix());
        const std::size_t n = request.ids.values.size();
        // An upstream gradient for the logits with no zero: dL/dlogits of a loss that uses them all.
        Matrix g(n, request.vocab_size);
        for (float& x : g.values) {
            x = draw.value();
            if (x == 0.0f) x = 1.0f;
        }
        const Matrix output_side = torch_mm_transposed_left(g, lesson.hidden);  // dE from logits = H @ E.T
        const Matrix input_side =
            embedding_backward(torch_mm(g, lesson.weight), request.ids.values, request.vocab_size);
        CAPTURE(round);
        if (std::all_of(lesson.hidden.values.begin(), lesson.hidden.values.end(),
                                                           [](float x) { return x != 0.0f; })) {
            CHECK(nonzero_rows(output_side) == request.vocab_size);  // "moves all V rows"
        }
        CHECK(nonzero_rows(input_side) <= lesson.rows_used);  // "the lookup alone moves only N rows"
        CHECK(lesson.rows_used == std::set<std::uint64_t>(request.ids.values.begin(), request.ids.values.end()).size());
        const std::string text = render_sheet_text(tied_sheet(lesson, ""), plain());
        if (lesson.rows_used < request.vocab_size && lesson.rows_used > 1) {
            CHECK(contains(text, "the lookup alone moves only the " + std::to_string(lesson.rows_used) + " rows"));
        }
        if (lesson.rows_used == request.vocab_size) CHECK(contains(text, "the ids use every row"));
    }
}

TEST_CASE("factor: E1 @ E2 has at most the rank the view states, and the saving sentence matches a search") {
    Draw draw{26};
    for (int round = 0; round < 200; ++round) {
        FactorRequest request;
        request.vocab_size = 1 + draw.below(8);
        request.dim = 2 + draw.below(8);
        request.rank = 1 + draw.below(request.dim - 1);
        request.seed = draw.below(1000);
        request.ids = random_ids(draw, request.vocab_size);
        const FactorLesson lesson = run_factor_lesson(request);
        const std::uint64_t bound = std::min({request.vocab_size, request.rank, request.dim});
        const Matrix table = torch_mm(lesson.e1, lesson.e2);
        CAPTURE(round);
        CHECK(numeric_rank(table) <= bound);
        CHECK(numeric_rank(table) == bound);  // random tables reach the bound
        const std::string text = render_sheet_text(factor_sheet(lesson), plain());
        CHECK(contains(text, "rank at most " + std::to_string(bound)));
        bool some_rank_saves = false;
        for (std::uint64_t r = 1; r < request.dim; ++r) {
            some_rank_saves = some_rank_saves || request.vocab_size * r + r * request.dim < request.vocab_size * request.dim;
        }
        if (lesson.here.factored > lesson.here.full) {
            CHECK(contains(text, "no rank saves") == !some_rank_saves);
        }
    }
}

TEST_CASE("positions: a repeated token's output rows differ in exactly the columns the view counts") {
    Draw draw{27};
    std::size_t repeats = 0;
    for (int round = 0; round < 200; ++round) {
        PositionsRequest request;
        request.vocab_size = 1 + draw.below(4);
        request.dim = 1 + draw.below(6);
        request.seed = draw.below(1000);
        request.ids = random_ids(draw, request.vocab_size);
        request.context = request.ids.seq + draw.below(3);
        request.encoding = k_position_encodings[draw.below(std::size(k_position_encodings))].encoding;
        if (traits_of(request.encoding).turns_rows && request.dim % 2 == 1) request.dim += 1;
        const PositionsLesson lesson = run_positions_lesson(request);
        if (!lesson.repeated) continue;
        ++repeats;
        const RepeatedToken& r = *lesson.repeated;
        CHECK(request.ids.values[r.first] == r.id);
        CHECK(request.ids.values[r.second] == r.id);
        std::size_t differing = 0;
        for (std::size_t c = 0; c < lesson.output.cols; ++c) {
            differing += lesson.output.at(r.first, c) != lesson.output.at(r.second, c);
        }
        CAPTURE(round);
        CHECK(differing == r.differing_columns);
    }
    CHECK(repeats > 50);
}

}  // namespace embdemo
