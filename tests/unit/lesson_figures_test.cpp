// The lesson figures (render/views/lesson_figures.hpp): every shown cell is the lesson's value, the
// marks and arrows fall where the lesson says, captions follow the run, and every drawing is
// well-formed SVG. With EMBDEMO_FIGURE_DIR set, the drawings are also written there for
// xmllint (tests/scripts/lesson_figures_xmllint.sh).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "core/gpt2/data_loader.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/torch/init.hpp"
#include "render/views/bag/view.hpp"
#include "render/views/lesson_figures.hpp"
#include "render/kit/number_format.hpp"
#include "render/formats/svg.hpp"
#include "render/formats/svg_text.hpp"
#include "render/kit/figure_parts.hpp"
#include "render/kit/table.hpp"
#include "render/kit/text_sections.hpp"
#include "text_checks.hpp"
#include "render/sheet/sheet_writers.hpp"
#include "render/views/factor/view.hpp"
#include "render/views/positions/view.hpp"
#include "render/views/tied/view.hpp"
#include "render/views/bag/view.hpp"
#include "render/views/cost/view.hpp"
#include "render/views/tokens/view.hpp"
#include "render/views/grad/view.hpp"

#include <fmt/format.h>

using namespace embdemo;
using embdemo::testing::contains;

namespace {

// The number in a row label: "ids[2]" -> 2, "bag 1" -> 1, "ids[1, 0]" -> the flat position.
std::size_t label_number(const std::string& label, std::size_t seq = 0) {
    const auto first = label.find_first_of("0123456789");
    const std::size_t a = std::stoul(label.substr(first));
    const auto comma = label.find(", ");
    return comma == std::string::npos ? a : a * seq + std::stoul(label.substr(comma + 2));
}

// Every shown cell of `shown` reads back as m's value at (row_of(row), its column) to within
// the precision shown.
void check_cells(const FigureMatrix& shown, const Matrix& m, const std::function<std::size_t(const FigureRow&)>& row_of,
                 double tolerance = 1e-4) {
    std::size_t checked = 0;
    for (const FigureRow& row : shown.rows) {
        if (row.gap) continue;
        for (std::size_t c = 0; c < row.cells.size(); ++c) {
            if (shown.col_labels[c].empty()) continue;
            const float expected = m.at(row_of(row), std::stoul(shown.col_labels[c]));
            CAPTURE(row.label);
            CAPTURE(c);
            CHECK(std::stod(row.cells[c]) == doctest::Approx(expected).epsilon(tolerance).scale(1.0));
            ++checked;
        }
    }
    CHECK(checked > 0);
}

std::size_t table_row_of(const FigureRow& row) { return static_cast<std::size_t>(row.table_row); }
std::size_t flat_of(const FigureRow& row) { return label_number(row.label); }

// Well-formed enough for the unit test: one root, every element closed, nothing unescaped.
// (xmllint checks the written files in full.)
void check_svg(const Figure& figure, const std::string& name) {
    const std::string svg = render_svg(figure);
    CHECK(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 0) == 0);
    CHECK(svg.size() > 7);
    CHECK(svg.substr(svg.size() - 7) == "</svg>\n");
    const auto count = [&](const std::string& what) {
        std::size_t n = 0;
        for (auto at = svg.find(what); at != std::string::npos; at = svg.find(what, at + 1)) ++n;
        return n;
    };
    CHECK(count("<text ") == count("</text>"));
    CHECK(count("<g>") + count("<g ") == count("</g>"));
    CHECK(count("<svg ") == 1);
    if (const char* dir = std::getenv("EMBDEMO_FIGURE_DIR")) {
        std::ofstream(std::string(dir) + "/" + name + ".svg", std::ios::binary) << svg;
    }
}

const FigurePanel& panel_titled(const Figure& figure, const std::string& start) {
    for (const FigurePanel& panel : figure.panels) {
        if (panel.title.rfind(start, 0) == 0) return panel;
    }
    FAIL("no panel titled " << start);
    return figure.panels.front();
}

bool has_panel(const Figure& figure, const std::string& start) {
    for (const FigurePanel& panel : figure.panels) {
        if (panel.title.rfind(start, 0) == 0) return true;
    }
    return false;
}

std::size_t marked_cells(const FigureMatrix& m) {
    std::size_t n = 0;
    for (const FigureRow& row : m.rows) n += static_cast<std::size_t>(std::count(row.marked.begin(), row.marked.end(), true));
    return n;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string text;
    for (const std::string& line : lines) text += line + '\n';
    return text;
}

BagLesson bag_lesson(const char* bags, BagMode mode, std::uint64_t vocab, std::uint64_t dim, std::uint64_t seed = 123) {
    BagRequest request;
    request.bags = parse_bags(bags).value();
    request.vocab_size = vocab;
    request.dim = dim;
    request.seed = seed;
    request.mode = mode;
    return run_bag_lesson(request);
}

IdBatch batch(const char* ids) { return parse_id_batch(ids).value(); }

}  // namespace

TEST_CASE("bag_figure: M @ E with M's counts / bag length, and each bag's arrows to its rows") {
    const BagLesson lesson = bag_lesson("2,0,2;1;", BagMode::mean, 5, 4, 7);
    const Figure figure = bag_figure(lesson, 4);
    const FigurePanel& product = panel_titled(figure, "As a product");
    CHECK(contains(product.title, "(count of k in bag b) / (ids in bag b)"));
    const FigureMatrix& m = product.items[0];
    check_cells(m, lesson.multihot, flat_of);
    CHECK(m.rows[0].cells[2] == "0.6667");  // id 2 twice in a bag of 3
    check_cells(product.items[1], lesson.weight, table_row_of);
    check_cells(product.items[2], lesson.multihot_matmul, flat_of);
    CHECK(product.items[2].rows[2].note == "empty: zeros");
    const FigurePanel& reduce = figure.panels[0];
    check_cells(reduce.items[2], lesson.output, flat_of);
    // Bag 0 points at rows 0 and 2 (once each), bag 1 at row 1, the empty bag at none.
    CHECK(reduce.arrows[0].size() == 3);
    CHECK(marked_cells(product.items[2]) == lesson.difference.differing);
    // The figure's own caption says what its frames mean; the sheet adds its claims before it.
    CHECK(figure.caption.empty());
    check_svg(figure, "bag_mean");
}

TEST_CASE("bag_figure: per-sample weights and padding_idx put the weights in M and skip the padding row") {
    BagRequest request;
    request.bags = parse_bags("0,3,1;3").value();
    request.vocab_size = 4;
    request.dim = 3;
    request.mode = BagMode::sum;
    request.padding_idx = 3;
    request.per_sample_weights = {0.5f, 2.0f, -1.5f, 4.0f};
    const BagLesson lesson = run_bag_lesson(request);
    const Figure figure = bag_figure(lesson, 4);
    const FigurePanel& product = panel_titled(figure, "As a product");
    CHECK(contains(product.title, "the sum of k's weights in bag b"));
    check_cells(product.items[0], lesson.multihot, flat_of);
    CHECK(std::stod(product.items[0].rows[0].cells[1]) == -1.5);
    CHECK(std::stod(product.items[0].rows[0].cells[3]) == 0.0);  // the padding column
    CHECK(product.items[1].rows[3].note == "padding_idx");
    CHECK(figure.panels[0].items[2].rows[1].note == "only padding_idx: zeros");
    // Bag 0's arrows go to rows 0 and 1, never the padding row; bag 1 has none.
    for (const FigureArrow& arrow : figure.panels[0].arrows[0]) CHECK(arrow.to != 3);
    CHECK(figure.panels[0].arrows[0].size() == 2);
    check_svg(figure, "bag_weights_padding");
}

TEST_CASE("bag_figure: max shows the picked rows, frames each column's winner, and has no M") {
    const BagLesson lesson = bag_lesson("2,0,3,0;1", BagMode::max, 4, 5, 11);
    const Figure figure = bag_figure(lesson, 4);
    CHECK_FALSE(has_panel(figure, "As a product"));
    const FigurePanel& picked = panel_titled(figure, "max has no matrix form");
    const FigureMatrix& rows = picked.items[0];
    REQUIRE(rows.rows.size() == 5);  // 2, 0, 3, 0 and 1
    CHECK(rows.rows[1].label == "bag 0: E[0]");
    // One winner per column and bag, holding the output's value; the repeated 0 never wins twice.
    for (std::size_t c = 0; c < 5; ++c) {
        std::size_t winners_bag0 = 0;
        for (std::size_t r = 0; r < 4; ++r) {
            if (!rows.rows[r].marked[c]) continue;
            ++winners_bag0;
            CHECK(std::stod(rows.rows[r].cells[c]) == doctest::Approx(lesson.output.at(0, c)).epsilon(1e-4));
        }
        CHECK(winners_bag0 == 1);
        CHECK(rows.rows[4].marked[c]);
    }
    CHECK_FALSE(rows.rows[3].marked[0]);  // the second 0 of bag 0: its first one holds any win
    CHECK(contains(joined(figure.caption), "framed cell of each column is its winner"));  // the sheet adds its claims
    check_svg(figure, "bag_max");
}

TEST_CASE("positions_figure: E[ids] + P[t] row by row, for learned and sinusoidal tables") {
    for (const PositionEncoding encoding : {PositionEncoding::learned, PositionEncoding::sinusoidal}) {
        PositionsRequest request;
        request.ids = batch("3,1,3;0,2,2");
        request.vocab_size = 5;
        request.dim = 4;
        request.context = 6;
        request.seed = 9;
        request.encoding = encoding;
        const PositionsLesson lesson = run_positions_lesson(request);
        const Figure figure = positions_figure(lesson, 4);
        const auto flat = [](const FigureRow& row) { return label_number(row.label, 3); };
        const FigurePanel& sum = panel_titled(figure, "The input of the first block");
        check_cells(sum.items[0], lesson.token_lookup, flat);
        CHECK(sum.items[1].rows[4].label == "P[1]");
        check_cells(sum.items[2], lesson.output, flat);
        CHECK(sum.items[2].rows[3].note == "E[0] + P[0]");
        const FigurePanel& pos = panel_titled(figure, "pos = P[arange(T)]");
        check_cells(pos.items[1], lesson.position_weight, table_row_of);
        CHECK(pos.items[1].rows.size() == 6);  // C rows
        CHECK(contains(pos.items[1].name, encoding == PositionEncoding::sinusoidal ? "sinusoidal" : "drawn after E"));
        CHECK(contains(joined(sheet_caption(positions_sheet(lesson))), "Same token, two positions: id 3"));
        CHECK_FALSE(has_panel(figure, "The data loader"));
        check_svg(figure, encoding == PositionEncoding::learned ? "positions_learned" : "positions_sinusoidal");
    }
}

TEST_CASE("positions_figure: ids from a text name their tokens in cells, rows and keys, escaped in the SVG") {
    PositionsRequest request;
    request.ids = batch("1,2,1");
    request.ids.source.text = "any";
    // Tokens as token_label spells them: markup characters kept, a long one to cut.
    request.ids.source.token_of = [](std::uint64_t id) {
        return id == 1 ? std::string("<b a=\\\"&amp;\\\">") : std::string(40, '-');
    };
    request.vocab_size = 3;
    request.dim = 2;
    request.context = 3;
    const PositionsLesson lesson = run_positions_lesson(request);
    const Figure figure = positions_figure(lesson, 4);
    const FigurePanel& lookup = panel_titled(figure, "tok = E[ids]");
    CHECK(lookup.items[0].rows[0].cells[0] == "1 \"<b a=\\\"&amp;\\\">\"");
    CHECK(lookup.items[0].rows[1].cells[0] == "2 \"-------------...\"");
    CHECK(lookup.items[1].rows[1].label == "1 \"<b a=\\\"&amp;\\\">\"");  // E's row 1, which id 1 selects
    CHECK(lookup.items[1].rows[0].label == "0");                        // no id selects row 0
    CHECK(figure.keys[0] == "id 1 \"<b a=\\\"&amp;\\\">\": ids[0], ids[2]");
    const std::string svg = render_svg(figure);
    CHECK(contains(svg, "1 &quot;&lt;b a=\\&quot;&amp;amp;\\&quot;&gt;&quot;"));
    CHECK_FALSE(contains(svg, "<b "));
    check_svg(figure, "positions_text_tokens");
}

TEST_CASE("positions_figure: RoPE turns each row and shows its scores; there is no P") {
    PositionsRequest request;
    request.ids = batch("1,2,0,1");
    request.vocab_size = 3;
    request.dim = 4;
    request.context = 4;
    request.encoding = PositionEncoding::rope;
    const PositionsLesson lesson = run_positions_lesson(request);
    REQUIRE(lesson.rope_scores);
    const Figure figure = positions_figure(lesson, 3);
    CHECK_FALSE(has_panel(figure, "pos = P"));
    const FigurePanel& turn = panel_titled(figure, "Each row turned");
    check_cells(turn.items[1], lesson.output, flat_of, 1e-3);
    CHECK(turn.items[1].rows[3].note == "t = 3");
    const FigurePanel& scores = panel_titled(figure, "What no table can do");
    const RopeScores& r = *lesson.rope_scores;
    CHECK(scores.items[0].rows[0].cells[0] == fmt::format("{:.3f}", r.scores[0][0]));
    CHECK(scores.items[0].col_labels.back() == fmt::format("p = {}", r.starts.back()));
    CHECK(contains(joined(sheet_caption(positions_sheet(lesson))), "RoPE of the lookup and RoPE of the one-hot product agree bit for bit"));
    check_svg(figure, "positions_rope");
}

TEST_CASE("positions_figure: ALiBi's bias as a lookup by distance; there is no P and no rotation") {
    PositionsRequest request;
    request.ids = batch("1,2,0");
    request.vocab_size = 3;
    request.dim = 2;
    request.context = 3;
    request.encoding = PositionEncoding::alibi;
    request.heads = 2;
    const PositionsLesson lesson = run_positions_lesson(request);
    REQUIRE(lesson.alibi);
    const Figure figure = positions_figure(lesson, 4);
    CHECK_FALSE(has_panel(figure, "pos = P"));
    CHECK_FALSE(has_panel(figure, "Each row turned"));
    const FigurePanel& bias = panel_titled(figure, "ALiBi's bias");
    REQUIRE(bias.items.size() == 3);
    CHECK(bias.items[0].rows[3].cells[0] == "2");  // the pair (2, 0), T(T+1)/2 = 6 pairs
    CHECK(bias.items[0].rows.size() == 6);
    CHECK(bias.items[1].rows.size() == 3);         // D: one row per distance
    CHECK(bias.arrows[0][3].to == 2);              // (2, 0) points at D's row k = 2
    CHECK(contains(joined(sheet_caption(positions_sheet(lesson))), "D[i - j] and one_hot(i - j) @ D agree bit for bit"));
    check_svg(figure, "positions_alibi");
}

TEST_CASE("positions_figure: the data loader's inputs beside their targets") {
    PositionsRequest request;
    const IdBatch tokens = batch("10,11,12,13,14,15,16");
    const LoaderBatch loaded = first_loader_batch(tokens, {3, 2, 2}).value();
    request.ids = loaded.inputs;  // its source carries the loader's targets and windows
    request.vocab_size = 17;
    request.dim = 2;
    request.context = 3;
    const PositionsLesson lesson = run_positions_lesson(request);
    const Figure figure = positions_figure(lesson, 4);
    const FigurePanel& loader = panel_titled(figure, "The data loader's first batch");
    CHECK(loader.items[0].rows[1].cells == std::vector<std::string>{"12", "13", "14"});
    CHECK(loader.items[1].rows[1].cells == std::vector<std::string>{"13", "14", "15"});
    CHECK(contains(joined(sheet_caption(positions_sheet(lesson))), "the text makes 2 windows"));
    check_svg(figure, "positions_loader");
}

TEST_CASE("tied_figure: H @ E.T = logits with each row's top k framed") {
    for (const std::uint64_t seed : {123u, 5u}) {
        TiedRequest request;
        request.ids = batch("4,1,4");
        request.vocab_size = 6;
        request.dim = 3;
        request.seed = seed;
        request.top = 2;
        const TiedLesson lesson = run_tied_lesson(request, {});
        const Figure figure = tied_figure(lesson, 4);
        const FigurePanel& panel = figure.panels.at(0);
        check_cells(panel.items[0], lesson.hidden, flat_of);
        // E.T's cell (j, k) is E[k, j].
        const FigureMatrix& et = panel.items[1];
        for (std::size_t j = 0; j < 3; ++j) {
            for (std::size_t k = 0; k < 6; ++k) {
                CHECK(std::stod(et.rows[j].cells[k]) == doctest::Approx(lesson.weight.at(k, j)).epsilon(1e-4));
            }
        }
        const FigureMatrix& logits = panel.items[2];
        check_cells(logits, lesson.logits.values, flat_of);
        for (std::size_t i = 0; i < 3; ++i) {
            CHECK(std::count(logits.rows[i].marked.begin(), logits.rows[i].marked.end(), true) == 2);
            for (const TopLogit& top : lesson.top[i]) CHECK(logits.rows[i].marked[top.id]);
            CHECK(contains(logits.rows[i].note, fmt::format("top 2: {} (", lesson.top[i][0].id)));
        }
        CHECK(figure.caption.front().rfind("Framed: each shown row's top 2 logits", 0) == 0);  // the sheet adds its claims
        check_svg(figure, fmt::format("tied_seed{}", seed));
    }
}

TEST_CASE("factor_figure: E1[ids] @ E2 and the one-hot route, the same values, other seeds other values") {
    std::vector<float> first_values;
    for (const std::uint64_t seed : {123u, 77u}) {
        FactorRequest request;
        request.ids = batch("2,0;2,3");
        request.vocab_size = 4;
        request.dim = 5;
        request.rank = 2;
        request.seed = seed;
        const FactorLesson lesson = run_factor_lesson(request);
        const Figure figure = factor_figure(lesson, 4);
        const auto flat = [](const FigureRow& row) { return label_number(row.label, 2); };
        const FigurePanel& product = panel_titled(figure, "Then the projection");
        check_cells(product.items[0], lesson.lookup_e1, flat);
        check_cells(product.items[2], lesson.output, flat);
        CHECK(product.items[1].name == "E2 = proj.weight.T");
        CHECK(product.items[1].shape == "2 x 5");
        const FigurePanel& route = panel_titled(figure, "The one-hot route");
        REQUIRE(route.items.size() == 4);
        check_cells(route.items[3], lesson.onehot_output, flat);
        CHECK(marked_cells(route.items[3]) == lesson.output_check.differing);
        // X's 1s sit where the ids say.
        CHECK(route.items[0].rows[2].cells == std::vector<std::string>{"0", "0", "1", "0"});
        const std::string caption = joined(sheet_caption(factor_sheet(lesson)));
        CHECK(contains(caption, "rank at most 2"));
        CHECK(contains(caption, fmt::format("factored V*r + r*d = 8 + 10 = {} (", lesson.here.factored)));
        if (first_values.empty()) {
            first_values = lesson.output.values;
        } else {
            CHECK(first_values != lesson.output.values);
        }
        check_svg(figure, fmt::format("factor_seed{}", seed));
    }
}

TEST_CASE("max_norm_figure: rescaled rows get an arrow, a scale and framed cells; none when nothing is rescaled") {
    for (const double max_norm : {0.5, 100.0}) {
        MaxNormRequest request;
        request.demo.ids = {1, 3, 1};
        request.demo.vocab_size = 5;
        request.demo.dim = 3;
        request.ids.values = request.demo.ids;
        request.ids.seq = 3;
        request.max_norm = MaxNorm{max_norm, 2.0};
        const MaxNormLesson lesson = run_max_norm_lesson(request, torch_embedding_weight(5, 3, 123));
        const Figure figure = max_norm_figure(lesson, 4);
        const FigurePanel& renorm = figure.panels.at(0);
        check_cells(renorm.items[0], lesson.weight, table_row_of);
        check_cells(renorm.items[1], lesson.weight_after, table_row_of);
        std::size_t rescaled = 0;
        for (const RenormRow& row : lesson.rows) {
            if (!row.rescaled) continue;
            ++rescaled;
            CHECK(renorm.items[1].rows[row.row].note == "x " + shortest_round_trip(row.scale));
        }
        CHECK(renorm.arrows[0].size() == rescaled);
        CHECK(marked_cells(renorm.items[1]) == rescaled * 3);
        const FigurePanel& onehot = panel_titled(figure, "The one-hot product");
        check_cells(onehot.items[2], lesson.onehot_drawn, flat_of);
        CHECK(marked_cells(onehot.items[2]) == lesson.drawn_check.differing);
        const std::string caption = joined(figure.caption);
        if (max_norm == 0.5) {
            // Rows 1 and 3 of seed 123 have norms 1.95 and 0.38: only row 1 (used twice) is rescaled.
            CHECK(rescaled == 1);
            CHECK(contains(caption, "1 of the 2 distinct ids' rows had a norm (p = 2.0) above 0.5 and was multiplied"));
            CHECK(contains(caption, "emb(ids) and one_hot(ids) @ E as drawn differ in 6 of 9 values (framed)."));
            CHECK(contains(caption, "emb(ids) and one_hot(ids) @ E after the call agree bit for bit: all 9 values."));
        } else {
            CHECK(rescaled == 0);
            CHECK(contains(caption, "None of the 2 distinct ids' rows"));
            CHECK(contains(caption, "emb(ids) and one_hot(ids) @ E as drawn agree bit for bit"));
        }
        check_svg(figure, max_norm == 0.5 ? "max_norm_rescaled" : "max_norm_kept");
    }
}

namespace {

std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

const Gpt2Vocabulary& gpt2_vocabulary() {
    static const auto parsed = Gpt2Vocabulary::parse(read_all(EMBDEMO_GPT2_DATA_DIR "/vocab.bpe"));
    REQUIRE_MESSAGE(parsed, parsed.error());
    return parsed.value();
}

}  // namespace

TEST_CASE("tokens_figure: pieces point at their ids, and the followed piece's merges are framed") {
    TokensRequest request;
    request.text = "the embeddings<|endoftext|>";
    const TokensLesson lesson = run_tokens_lesson(gpt2_vocabulary(), request);
    const Figure figure = tokens_figure(lesson, gpt2_vocabulary(), 4);
    const FigurePanel& pieces = figure.panels.at(0);
    REQUIRE(pieces.items[0].rows.size() == lesson.pieces.size());
    REQUIRE(pieces.items[1].rows.size() == lesson.ids.size());
    for (std::size_t i = 0; i < lesson.ids.size(); ++i) CHECK(pieces.items[1].rows[i].cells[0] == std::to_string(lesson.ids[i]));
    CHECK(pieces.items[0].rows.back().note == "special");
    CHECK(pieces.arrows[0].size() == lesson.ids.size());
    CHECK(pieces.items[0].rows[lesson.followed].key == 0);
    const FigurePanel& merges = panel_titled(figure, "Then BPE joins");
    REQUIRE(merges.items[0].rows.size() == lesson.merges.size());
    for (std::size_t k = 0; k < lesson.merges.size(); ++k) {
        CHECK(merges.items[0].rows[k].marked == std::vector<bool>{false, false, true, false});
        CHECK(merges.items[0].rows[k].cells[2] == quoted_text(gpt2_vocabulary().bytes(lesson.merges[k].merged), 16));
    }
    CHECK(contains(joined(figure.caption), fmt::format("{} merges", lesson.merges.size())));
    check_svg(figure, "tokens");

    request.piece = lesson.pieces.size() - 1;  // <|endoftext|>
    const Figure special = tokens_figure(run_tokens_lesson(gpt2_vocabulary(), request), gpt2_vocabulary(), 4);
    CHECK_FALSE(has_panel(special, "Then BPE joins"));
    CHECK(contains(joined(special.caption), "is the special token: never split or merged, id 50256"));
    check_svg(special, "tokens_special");
}

TEST_CASE("training_figure: SGD moves only the batch's rows, AdamW's decay moves others (framed)") {
    TrainingArgs args;
    args.ids = batch("2,3;1,1");
    args.vocab_size = 6;
    args.dim = 3;
    args.steps = 3;
    for (const OptimizerSettings& optimizer : {sgd_settings(0.1), adamw_settings(0.1)}) {
        args.optimizer = optimizer;
        const TrainingRun run = run_training(args);
        const Figure figure = training_figure(args, run, 4);
        const FigureMatrix& moves = figure.panels.at(0).items.at(0);
        std::size_t outside = 0;
        for (std::size_t t = 0; t < run.steps.size(); ++t) {
            CHECK(contains(moves.col_labels[t], format_ids(run.steps[t].batch)));
            for (const FigureRow& row : moves.rows) {
                if (row.gap) continue;
                const auto change = std::find_if(run.steps[t].changed.begin(), run.steps[t].changed.end(),
                                                 [&](const RowChange& c) { return c.row == table_row_of(row); });
                const bool moved = change != run.steps[t].changed.end();
                CHECK(row.cells[t] == (moved ? shortest_round_trip(static_cast<float>(change->max_abs_delta)) : "-"));
                CHECK(row.marked[t] == (moved && !change->in_batch));
                outside += moved && !change->in_batch;
            }
        }
        const FigurePanel& change = figure.panels.at(1);
        check_cells(change.items[0], run.initial_weight, table_row_of);
        check_cells(change.items[1], run.steps.back().weight, table_row_of);
        const std::string caption = joined(figure.caption);
        if (optimizer.kind == OptimizerKind::sgd) {
            CHECK(outside == 0);
            CHECK(contains(caption, "Every row that moved was in its step's batch"));
        } else {
            CHECK(outside > 0);
            CHECK(contains(caption, "weight_decay"));
            CHECK(contains(caption, "Framed in the table"));
        }
        check_svg(figure, optimizer.kind == OptimizerKind::sgd ? "training_sgd" : "training_adamw");
    }
}

TEST_CASE("cost_figure: six bars on a log axis and on a linear one, the gap between lookup and product from the counts") {
    CostRequest request;
    use_model_preset(*find_model_preset("gpt2"), request);
    const CostLesson lesson = run_cost_lesson(request);
    const Figure figure = cost_figure(lesson);
    REQUIRE(figure.chart);
    REQUIRE(figure.chart->bars.size() == 6);
    CHECK(figure.chart->bars[0].value == 1024.0 * 768);     // the lookup's copies
    CHECK(figure.chart->bars[1].value == 1024.0 * 50257 * 768);
    CHECK(figure.chart->bars[1].label == "forward: dense X @ E");
    CHECK(figure.chart->bars[3].value_text == "786 k additions");
    CHECK(contains(figure.caption[0], "Forward: dense X @ E does 50,257x the lookup's work"));
    const std::string svg = render_svg(figure);
    CHECK(contains(svg, ">10^5</text>"));
    CHECK(contains(svg, ">10^11</text>"));
    // On the linear axis the dense bars span it and the lookup's is a hairline that says how short it is.
    CHECK(contains(svg, "on a linear scale</text>"));
    CHECK(contains(svg, ">786 k copies: 1/50,257 of the longest, 0.0096 px here</text>"));
    CHECK(contains(svg, "width=\"480\" height=\"16\" fill=\"#56B4E9\""));
    check_svg(figure, "cost_gpt2");

    CostRequest tiny;  // V = 1: the product does as much as the lookup
    tiny.ids = 2;
    tiny.vocab_size = 1;
    tiny.dim = 3;
    const Figure same = cost_figure(run_cost_lesson(tiny));
    CHECK(contains(same.caption[0], "does as much work as the lookup (6 multiply-adds against 6 copies)"));
    check_svg(same, "cost_tiny");
}

TEST_CASE("wrapped_figure: the drawing sets the width; a long caption wraps to it at spaces, every word kept") {
    Figure figure;
    figure.title = "A small table";
    FigureMatrix m = text_matrix(
        {0, 1}, {0, 1}, [](std::size_t r, std::size_t c) { return std::to_string(r * 2 + c); },
        [](std::size_t, std::size_t) { return false; }, [](std::size_t, FigureRow&) {});
    m.name = "E";
    m.shape = "2 x 2";
    figure.panels = {joined_panel("E", {m})};
    std::string sentence;
    for (int i = 0; i < 60; ++i) sentence += fmt::format("word{} ", i);
    sentence += "end.";
    figure.caption = {sentence, "Short."};
    const std::string svg = render_svg(figure);
    // 640 px, the narrowest drawing, not the 400-character sentence's 3,200 px.
    CHECK(contains(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"640\" "));
    std::string words;
    std::size_t lines = 0;
    for (auto at = svg.find(">word"); at != std::string::npos; at = svg.find(">word", at + 1)) {
        const std::string line = svg.substr(at + 1, svg.find("</text>", at) - at - 1);
        CHECK(line.size() * 8 <= 600);  // within the drawing's 640 px less its margins
        words += (words.empty() ? "" : " ") + line;
        ++lines;
    }
    CHECK(lines > 1);
    CHECK(words == sentence);
    CHECK(contains(svg, ">Short.</text>"));
    check_svg(figure, "svg_wrapped_caption");
}

TEST_CASE("svg_wrap: the text view's rule at a width in px, never inside a word") {
    CHECK(svg_wrap("one two three", 8 * 7) == std::vector<std::string>{"one two", "three"});
    CHECK(svg_wrap("M @ E is one", 8 * 3) == std::vector<std::string>{"M @ E", "is", "one"});
    CHECK(svg_wrap("unbreakable", 8 * 3) == std::vector<std::string>{"unbreakable"});
    CHECK(svg_wrap("", 100) == std::vector<std::string>{""});
    CHECK(svg_text_width("abc", 15) == 30);  // headings are measured at their own size
}
