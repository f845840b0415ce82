// train's sheet: the loss step by step, the rows each step moved and why, the update through the
// lookup beside the one-hot product, and the neighbours the table finds before and after.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/figure_parts.hpp"
#include "render/kit/id_text.hpp"
#include "render/kit/json_text.hpp"
#include "render/kit/lesson_blocks.hpp"
#include "render/kit/parameters.hpp"
#include "render/kit/python_kit.hpp"
#include "render/views/train/view.hpp"

namespace embdemo {

std::string TrainLabels::of(std::size_t row) const {
    return rows.empty() ? fmt::format("id {}", row) : json_string(rows[row]);
}

std::vector<std::size_t> shown_steps(std::size_t steps, std::size_t every) {
    std::vector<std::size_t> shown;
    for (std::size_t t = 0; t < steps; t += std::max<std::size_t>(every, 1)) shown.push_back(t);
    if (steps > 0 && shown.back() != steps - 1) shown.push_back(steps - 1);
    return shown;
}

std::string sparkline(const std::vector<double>& values) {
    static const char* const k_blocks[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    double low = INFINITY, high = -INFINITY;
    for (const double v : values) {
        if (std::isfinite(v)) low = std::min(low, v), high = std::max(high, v);
    }
    std::string out;
    for (const double v : values) {
        if (!std::isfinite(v)) {
            out += "?";
            continue;
        }
        const double level = high > low ? (v - low) / (high - low) * 7.0 : 0.0;
        out += k_blocks[static_cast<int>(std::lround(level))];
    }
    return out;
}

namespace {

bool next_token_model(const TrainRequest& request) { return request.model != TrainModel::skipgram; }

std::size_t table_cols(const TrainRequest& request) {
    return request.model == TrainModel::bigram ? request.vocab_size : request.dim;
}

// Why a row outside the batch moved, the first that applies.
const char* move_reason(const TrainRequest& request, const RowChange& change) {
    if (change.in_batch) return "batch";
    if (request.model == TrainModel::tied) return "head";
    if (change.carried) return "moments";
    if (change.decayed) return "decay";
    return "other";
}

struct ReasonCounts {
    std::size_t batch = 0, head = 0, moments = 0, decay = 0, other = 0;
    std::size_t total() const { return batch + head + moments + decay + other; }
};

ReasonCounts count_reasons(const TrainRequest& request, const std::vector<RowChange>& changed) {
    ReasonCounts counts;
    for (const RowChange& change : changed) {
        const std::string reason = move_reason(request, change);
        ++(reason == "batch" ? counts.batch : reason == "head" ? counts.head : reason == "moments" ? counts.moments
                                                                : reason == "decay" ? counts.decay : counts.other);
    }
    return counts;
}

std::string optimizer_words(const OptimizerSettings& s) {
    const char* name = name_of(k_optimizer_classes, s.kind);
    if (s.kind == OptimizerKind::sgd && s.weight_decay == 0.0) return fmt::format("torch.optim.{}(lr={})", name, python_double(s.lr));
    return fmt::format("torch.optim.{}(lr={}, weight_decay={})", name, python_double(s.lr), python_double(s.weight_decay));
}

std::vector<double> losses_of(const TrainLesson& lesson) {
    if (!next_token_model(lesson.request)) return lesson.skipgram_loss;
    std::vector<double> out;
    for (const TrainStep& step : lesson.steps) out.push_back(step.loss);
    out.push_back(lesson.final_loss);
    return out;
}

std::string loss_list_json(const std::vector<double>& values) {
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + json_number(values[i]);
    return out + "]";
}

// A loss in the steps table's 8 columns: 4 decimals while it fits, 3 digits and an exponent once a
// run diverges (an lr or weight decay near float32's range gives losses of 1e34).
std::string loss_figure(double loss) {
    if (std::isnan(loss)) return "nan";  // as Python prints either sign's NaN
    return std::isfinite(loss) && std::fabs(loss) >= 1000.0 ? fmt::format("{:.2e}", loss) : fmt::format("{:.4f}", loss);
}

// The losses as a Python list, NaN and inf included, with the comparison that holds them: a NaN
// loss agrees with a NaN, an infinite one with the same infinity.
std::string loss_list_python(const std::vector<double>& values) {
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + python_double(values[i]);
    return out + "]";
}

SheetClaim loss_claim(const TrainLesson& lesson, const TrainViewSettings& settings) {
    const TrainRequest& request = lesson.request;
    const std::vector<double> all = losses_of(lesson);
    std::string sentence, python;
    std::vector<double> shown;
    if (next_token_model(request)) {
        for (const std::size_t t : shown_steps(lesson.steps.size(), settings.every)) shown.push_back(lesson.steps[t].loss);
        shown.push_back(lesson.final_loss);
        const std::vector<NextTokenPairs> batches = next_token_batches(request.ids);
        const std::size_t pairs = all_pairs(batches).inputs.size();
        sentence = batches.size() == 1
                       ? fmt::format("Loss, F.cross_entropy's mean over {}: {} before step 1, {} after step {}  {}",
                                     count_of(pairs, "pair", "pairs"), loss_figure(all.front()), loss_figure(all.back()), lesson.steps.size(),
                                     sparkline(shown))
                       : fmt::format("Loss, F.cross_entropy's mean: {} on step 1's batch, {} over all {} after "
                                     "step {}  {}",
                                     loss_figure(all.front()), loss_figure(all.back()), count_of(pairs, "pair", "pairs"), lesson.steps.size(),
                                     sparkline(shown));
        python = fmt::format("expected_losses = {}\n"
                             "assert all(a == b or (a != a and b != b) or abs(a - b) <= 1e-5 * max(1.0, abs(b)) "
                             "for a, b in zip(losses, expected_losses)), "
                             "\"PyTorch's losses differ from embdemo's by more than 1e-5\"\n",
                             loss_list_python(all));
    } else {
        shown = all;
        sentence = all.empty() ? std::string("Loss: no pair was trained (every word was dropped or alone in its sentence).")
                               : fmt::format("Loss, -log sigmoid per pair, mean over {} of the run: {} first, "
                                             "{} last  {}",
                                             count_of(all.size(), "stretch", "stretches"), loss_figure(all.front()),
                                             loss_figure(all.back()), sparkline(all));
    }
    SheetClaim claim{sentence, "loss", loss_list_json(all), python, [&lesson, all] {
                         return all == losses_of(lesson) &&
                                (lesson.request.model == TrainModel::skipgram || all.size() == lesson.steps.size() + 1);
                     }};
    claim.paragraph = true;
    return claim;
}

std::string rows_json(const std::vector<RowChange>& changed) {
    std::string out = "[";
    for (std::size_t i = 0; i < changed.size(); ++i) out += (i ? ", " : "") + std::to_string(changed[i].row);
    return out + "]";
}

std::string moved_sentence(const TrainLesson& lesson) {
    const TrainRequest& request = lesson.request;
    ReasonCounts all;
    std::size_t most = 0;
    for (const TrainStep& step : lesson.steps) {
        const ReasonCounts c = count_reasons(request, step.changed);
        all.batch += c.batch, all.head += c.head, all.moments += c.moments, all.decay += c.decay, all.other += c.other;
        most = std::max(most, c.total());
    }
    const std::size_t outside = all.total() - all.batch;
    if (outside == 0) {
        return fmt::format("Only the used rows moved: in {}, every moved row was one the batch looks up "
                           "(at most {} of {} rows a step).",
                           count_of(lesson.steps.size(), "step", "steps"), group_thousands(most),
                           group_thousands(request.vocab_size));
    }
    std::vector<std::string> why;
    if (all.head > 0) why.push_back(fmt::format("{} under the tied head, whose logits H @ E.T reach every row", group_thousands(all.head)));
    if (all.moments > 0) why.push_back(fmt::format("{} carried by the optimizer's moments from earlier steps", group_thousands(all.moments)));
    if (all.decay > 0) why.push_back(fmt::format("{} by weight decay alone", group_thousands(all.decay)));
    if (all.other > 0) why.push_back(fmt::format("{} for no reason embdemo names", group_thousands(all.other)));
    std::string list;
    for (std::size_t i = 0; i < why.size(); ++i) list += (i == 0 ? "" : i + 1 == why.size() ? " and " : ", ") + why[i];
    return fmt::format("Not only the used rows moved: over {}, {} row moves were outside the batch: {}.",
                       count_of(lesson.steps.size(), "step", "steps"), group_thousands(outside), list);
}

SheetClaim moved_claim(const TrainLesson& lesson, const TrainViewSettings& settings) {
    const TrainRequest& request = lesson.request;
    std::string json = "[";
    std::string python = "expected_moved = [\n";
    for (std::size_t t = 0; t < lesson.steps.size(); ++t) {
        const ReasonCounts c = count_reasons(request, lesson.steps[t].changed);
        json += fmt::format("{}{{\"step\": {}, \"loss\": {}, \"rows\": {}, \"in_batch\": {}, \"head\": {}, \"moments\": {}, "
                            "\"decay\": {}}}",
                            t ? ", " : "", t + 1, json_number(lesson.steps[t].loss), rows_json(lesson.steps[t].changed),
                            c.batch, c.head, c.moments, c.decay);
        python += "    " + rows_json(lesson.steps[t].changed) + ",\n";
    }
    json += "]";
    python += "]\nassert moved == expected_moved, \"PyTorch's steps moved other rows than embdemo's\"\n";
    SheetClaim claim{moved_sentence(lesson), "steps", json, python, [&lesson] {
                         for (const TrainStep& step : lesson.steps) {
                             const ReasonCounts c = count_reasons(lesson.request, step.changed);
                             if (c.total() != step.changed.size()) return false;
                             for (const RowChange& change : step.changed) {
                                 if (change.row >= lesson.request.vocab_size) return false;
                             }
                         }
                         return (moved_sentence(lesson).rfind("Only", 0) == 0) ==
                                std::all_of(lesson.steps.begin(), lesson.steps.end(), [](const TrainStep& s) {
                                    return std::all_of(s.changed.begin(), s.changed.end(),
                                                       [](const RowChange& c) { return c.in_batch; });
                                });
                     }};
    claim.text_after = [&lesson, every = settings.every](int) {
        std::string out = "  step  loss      moved  in batch  tied head  moments  decay\n";
        for (const std::size_t t : shown_steps(lesson.steps.size(), every)) {
            const ReasonCounts c = count_reasons(lesson.request, lesson.steps[t].changed);
            out += fmt::format("  {:>4}  {:<8}  {:>5}  {:>8}  {:>9}  {:>7}  {:>5}\n", t + 1, loss_figure(lesson.steps[t].loss),
                               c.total(), c.batch, c.head, c.moments, c.decay);
        }
        return out;
    };
    return claim;
}

// "    after:  "cat" 0.93, ...": the list after its label, wrapped within 80 columns.
std::string neighbour_line(const char* label, const std::vector<Neighbour>& list, const TrainLabels& labels) {
    constexpr std::size_t k_width = 80;
    const std::string indent(12, ' ');
    std::string out = fmt::format("    {:<8}", label), line = out;
    if (list.empty()) return out + "(no other row)\n";
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string item = fmt::format("{} {:.2f}{}", labels.of(list[i].row), list[i].cosine, i + 1 < list.size() ? "," : "");
        if (line.size() > indent.size() && line.size() + 1 + item.size() > k_width) {
            out += "\n" + indent;
            line = indent;
        } else if (i > 0) {
            out += ' ';
            line += ' ';
        }
        out += item;
        line += item;
    }
    return out + '\n';
}

std::string neighbour_json(const std::vector<Neighbour>& list) {
    std::string out = "[";
    for (std::size_t i = 0; i < list.size(); ++i) {
        out += fmt::format("{}{{\"row\": {}, \"cosine\": {}}}", i ? ", " : "", list[i].row, json_number(list[i].cosine));
    }
    return out + "]";
}

SheetClaim neighbours_claim(const TrainLesson& lesson, const TrainViewSettings& settings) {
    std::size_t overlap = 0, listed = 0;
    std::string json = "[";
    for (std::size_t i = 0; i < lesson.neighbours.size(); ++i) {
        const ProbeNeighbours& p = lesson.neighbours[i];
        overlap += p.overlap;
        listed += p.after.size();
        json += fmt::format("{}{{\"row\": {}, \"before\": {}, \"after\": {}, \"overlap\": {}, \"stability\": {}}}", i ? ", " : "",
                            p.row, neighbour_json(p.before), neighbour_json(p.after), p.overlap,
                            json_number(list_stability(p.by_seed)));
    }
    json += "]";
    std::string sentence = fmt::format(
        "Nearest rows by cosine, before and after training: {} of the {} neighbours listed after were already there before.",
        overlap, listed);
    const std::size_t seeds = lesson.request.seeds;
    if (seeds > 1) {
        double stability = 0.0;
        for (const ProbeNeighbours& p : lesson.neighbours) stability += list_stability(p.by_seed);
        stability /= static_cast<double>(lesson.neighbours.size());
        sentence += fmt::format(" Across {} seeds ({} to {}), two runs' lists after training share {:.0f}% of their rows on "
                                "average.",
                                seeds, lesson.request.seed, lesson.request.seed + seeds - 1, 100.0 * stability);
    }
    SheetClaim claim{sentence, "neighbours", json, "", [&lesson, overlap, listed] {
                         std::size_t o = 0, l = 0;
                         for (const ProbeNeighbours& p : lesson.neighbours) {
                             l += p.after.size();
                             for (const Neighbour& a : p.after) {
                                 for (const Neighbour& b : p.before) o += a.row == b.row ? 1 : 0;
                             }
                             for (std::size_t k = 1; k < p.after.size(); ++k) {
                                 if (p.after[k].cosine > p.after[k - 1].cosine) return false;
                             }
                         }
                         for (const ProbeNeighbours& p : lesson.neighbours) {
                             const double s = list_stability(p.by_seed);
                             if (s < 0.0 || s > 1.0 || (p.by_seed.size() > 1 && p.by_seed[0] != [&p] {
                                     std::vector<std::size_t> rows;
                                     for (const Neighbour& n : p.after) rows.push_back(n.row);
                                     return rows;
                                 }())) {
                                 return false;
                             }
                         }
                         return o == overlap && l == listed;
                     }};
    claim.text_after = [&lesson, labels = settings.labels](int) {
        std::string out;
        for (const ProbeNeighbours& p : lesson.neighbours) {
            out += fmt::format("  {} ({} in the text)\n", labels.of(p.row), count_of(lesson.counts[p.row], "time", "times"));
            out += neighbour_line("before:", p.before, labels) + neighbour_line("after:", p.after, labels);
        }
        return out;
    };
    return claim;
}

// word2vec's neighbours mean something only past a lot of text: say how much this run had.
constexpr std::uint64_t k_enough_words = 100000;

std::string data_sentence(const TrainLesson& lesson) {
    const TrainRequest& request = lesson.request;
    const std::uint64_t words = lesson.request.ids.values.size();
    const std::string kept = fmt::format("{} of {} rows occur {} or more times", group_thousands(lesson.kept_vocab),
                                         group_thousands(request.vocab_size), request.min_count);
    if (words < k_enough_words) {
        return fmt::format("Not enough data for neighbours to mean much: {} words in all, {}, {} trained after subsampling "
                           "(word2vec's neighbours settle on {} words or more).",
                           group_thousands(words), kept, group_thousands(lesson.trained_words), group_thousands(k_enough_words));
    }
    return fmt::format("Data: {} words, {}, {} trained after subsampling, {} (word, context) pairs.", group_thousands(words), kept,
                       group_thousands(lesson.trained_words), group_thousands(lesson.pairs));
}

SheetClaim data_claim(const TrainLesson& lesson) {
    return {data_sentence(lesson), "data",
            fmt::format("{{\"words\": {}, \"kept_rows\": {}, \"trained_words\": {}, \"pairs\": {}, \"enough\": {}}}",
                        lesson.request.ids.values.size(), lesson.kept_vocab, lesson.trained_words, lesson.pairs,
                        lesson.request.ids.values.size() >= k_enough_words ? "true" : "false"),
            "", [&lesson] {
                std::uint64_t kept = 0;
                for (const std::uint64_t c : lesson.counts) kept += c >= lesson.request.min_count ? 1 : 0;
                return kept == lesson.kept_vocab && lesson.trained_words <= lesson.request.ids.values.size() * lesson.request.skipgram.epochs;
            }};
}

std::string model_note(const TrainRequest& request) {
    switch (request.model) {
        case TrainModel::bigram: return "Training nn.Embedding(V, V) as a bigram: row x is the logits of x's next token";
        case TrainModel::tied: return "Training a tied head: logits = E[x] @ E.T, with no transformer block between";
        case TrainModel::skipgram: return "Training word2vec's skip-gram: input rows W, output rows C, negative sampling";
    }
    return "";
}

std::string torch_script(const TrainLesson& lesson) {
    const TrainRequest& request = lesson.request;
    const std::vector<NextTokenPairs> batches = next_token_batches(request.ids);
    const OptimizerSettings& s = request.optimizer;
    const std::string optimizer = fmt::format("torch.optim.{}(emb.parameters(), lr={}, weight_decay={})",
                                              name_of(k_optimizer_classes, s.kind), python_double(s.lr),
                                              python_double(s.weight_decay));
    std::string out = "xs, ys = [], []    # each batch's tokens and the tokens after them\n";
    for (const NextTokenPairs& pairs : batches) {
        out += python_ints("xs.append(torch.tensor(", pairs.inputs, "))") + "\n";
        out += python_ints("ys.append(torch.tensor(", pairs.targets, "))") + "\n";
    }
    out += fmt::format("V, D, STEPS = {}, {}, {}\n", request.vocab_size, table_cols(request), request.steps);
    out += fmt::format("torch.manual_seed({})\n", request.seed);
    out += "emb = torch.nn.Embedding(V, D)\n";
    out += "initial = emb.weight.detach().clone()\n";
    out += "opt = " + optimizer + "\n";
    out += "losses, moved = [], []\n";
    out += "for step in range(STEPS):\n";
    out += "    x, y = xs[step % len(xs)], ys[step % len(ys)]    # step t takes batch t mod B\n";
    out += "    opt.zero_grad()\n";
    out += "    h = emb(x)\n";
    out += "    h.retain_grad()\n";
    out += request.model == TrainModel::bigram ? "    logits = h    # the bigram: the row is the logits\n"
                                               : "    logits = torch.nn.functional.linear(h, emb.weight)    # H @ E.T, no block between\n";
    out += "    loss = torch.nn.functional.cross_entropy(logits, y)\n";
    out += "    loss.backward()\n";
    out += "    if step == 0:\n";
    out += "        G = h.grad    # the gradient at the lookup's output\n";
    out += "        scatter = torch.ops.aten.embedding_dense_backward(G, x, V, -1, False)    # the gather's scatter-add\n";
    out += "        X = torch.nn.functional.one_hot(x, V).float()\n";
    out += "        W = initial.clone().requires_grad_()\n";
    out += "        (X @ W).backward(G)\n";
    out += "        onehot = W.grad    # X.T @ G, the linear layer's backward\n";
    out += "    before = emb.weight.detach().clone()\n";
    out += "    opt.step()\n";
    out += "    after = emb.weight.detach()\n";
    out += "    changed = (before.view(torch.int32) != after.view(torch.int32)).any(dim=1)\n";
    out += "    moved.append([int(k) for k in torch.nonzero(changed).flatten()])\n";
    out += "    losses.append(loss.item())\n";
    out += "x, y = torch.cat(xs), torch.cat(ys)    # every pair, for the loss after the last step\n";
    out += "with torch.no_grad():\n";
    out += request.model == TrainModel::bigram ? "    logits = emb(x)\n" : "    logits = torch.nn.functional.linear(emb(x), emb.weight)\n";
    out += "    losses.append(torch.nn.functional.cross_entropy(logits, y).item())\n";
    out += "print(\"losses =\", losses)\n";
    return out;
}

}  // namespace

std::vector<SheetTable> train_tables(const TrainRequest& request, const TrainLesson* lesson) {
    const std::size_t v = request.vocab_size, d = table_cols(request);
    const auto of = [lesson](const Matrix TrainLesson::*member) { return lesson ? &(lesson->*member) : nullptr; };
    const std::vector<std::size_t> used = used_rows(request.model == TrainModel::skipgram ? request.ids.values
                                                                            : all_pairs(next_token_batches(request.ids)).inputs);
    SheetTable initial{"initial", "emb.weight as drawn", TableRole::weight, {v, d}, of(&TrainLesson::initial)};
    initial.selected = {used.begin(), used.end()};
    SheetTable weight{"weight", "emb.weight after training", TableRole::weight, {v, d}, of(&TrainLesson::weight)};
    weight.selected = initial.selected;
    if (request.model == TrainModel::skipgram) {
        initial.torch = "W as drawn: (uniform - 0.5) / d";
        weight.torch = "W, the input vectors, after training";
        SheetTable output{"output", "C, the output vectors, after training", TableRole::weight, {v, d}, of(&TrainLesson::output)};
        output.selected = initial.selected;
        const std::size_t k = std::min(k_train_lookup_ids, request.ids.values.size());
        SheetTable looked_up{"lookup", "W[words]", TableRole::plain, {k, d}, of(&TrainLesson::scatter_grad)};
        SheetTable onehot{"onehot_lookup", "one_hot(words) @ W", TableRole::plain, {k, d}, of(&TrainLesson::onehot_grad), false};
        return {initial, weight, output, looked_up, onehot};
    }
    initial.python = "initial";
    initial.what = "emb.weight as drawn";
    SheetTable scatter{"scatter_grad", "embedding backward of G (scatter-add)", TableRole::weight, {v, d},
                       of(&TrainLesson::scatter_grad)};
    scatter.selected = initial.selected;
    scatter.python = "scatter";
    scatter.what = "the first step's scatter-add of G";
    SheetTable onehot{"onehot_grad", "one_hot(x).T @ G", TableRole::weight, {v, d}, of(&TrainLesson::onehot_grad), false};
    onehot.selected = initial.selected;
    onehot.python = "onehot";
    onehot.what = "one_hot(x).T @ G";
    return {initial, weight, scatter, onehot};
}

LessonSheet train_sheet(const TrainLesson& lesson, const TrainViewSettings& settings) {
    const TrainRequest& request = lesson.request;
    const IdBatch& ids = request.ids;
    LessonSheet sheet;
    sheet.title = model_note(request);
    sheet.schema = k_train_lesson_schema;
    sheet.ids = &settings.shown_ids;
    sheet.parameters = {
        {"model", train_model_name(request.model), "", json_string(train_model_name(request.model))},
        {"ids", format_id_batch(ids), describe_id_count(ids.shape(), ids.values.size()), ids_json(ids)},
    };
    if (!settings.text_note.empty()) {
        sheet.parameters.push_back({"text", settings.text_quote, settings.text_note, json_string(settings.text)});
    }
    if (!settings.level.empty()) sheet.parameters.push_back({"level", settings.level, "", json_string(settings.level)});
    sheet.parameters.push_back({"vocab", group_thousands(request.vocab_size),
                                settings.level.empty() ? "largest id + 1, or --vocab" : "distinct units, most frequent first",
                                std::to_string(request.vocab_size)});
    sheet.parameters.push_back({"dim", group_thousands(table_cols(request)),
                                request.model == TrainModel::bigram ? "= V: a row is V logits" : "d",
                                std::to_string(table_cols(request))});
    if (next_token_model(request)) {
        sheet.parameters.push_back({"optimizer", optimizer_words(request.optimizer), "", json_string(optimizer_words(request.optimizer))});
        const std::size_t batches = next_token_batches(ids).size();
        sheet.parameters.push_back({"steps", group_thousands(request.steps),
                                    batches == 1 ? std::string("each on every pair")
                                                 : fmt::format("step t on row t mod {} of the batch", batches),
                                    std::to_string(request.steps)});
    } else {
        const SkipgramSettings& s = request.skipgram;
        const std::string words = fmt::format("window {}, negative {}, min-count {}, sample {}, epochs {}, alpha {}", s.window,
                                              s.negative, request.min_count, python_double(s.sample), s.epochs,
                                              python_double(s.alpha));
        sheet.parameters.push_back({"word2vec", words, "alpha decays linearly to alpha * 1e-4", ""});
        sheet.fields.push_back({"word2vec", fmt::format("{{\"window\": {}, \"negative\": {}, \"min_count\": {}, \"sample\": {}, "
                                                        "\"epochs\": {}, \"alpha\": {}}}",
                                                        s.window, s.negative, request.min_count, json_number(s.sample),
                                                        s.epochs, json_number(s.alpha))});
    }
    sheet.parameters.push_back({"seed", std::to_string(request.seed), "", std::to_string(request.seed)});
    if (!settings.labels.rows.empty()) {
        std::string rows = "[";
        for (std::size_t k = 0; k < settings.labels.rows.size(); ++k) rows += (k ? ", " : "") + json_string(settings.labels.rows[k]);
        sheet.fields.push_back({"rows", rows + "]"});
    }
    sheet.tables = train_tables(request, &lesson);
    const std::string v = group_thousands(request.vocab_size), d = group_thousands(table_cols(request));
    sheet.blocks = {
        SheetBlock::rows_of(fmt::format("E as drawn   {} x {}   > marks the rows the inputs use", v, d), "initial"),
        SheetBlock::rows_of(fmt::format("E after training   {} x {}", v, d), "weight"),
    };
    sheet.claims.push_back(loss_claim(lesson, settings));
    if (next_token_model(request)) {
        sheet.blocks.push_back(SheetBlock::pair(
            fmt::format("Step 1's gradient through the lookup: the scatter-add, and one_hot(x).T @ G under it   {} x {}", v, d),
            "scatter_grad", "onehot_grad", "scatter-add", "X.T @ G"));
        sheet.checks = {{"the scatter-add of G and one_hot(x).T @ G", "scatter_grad", "onehot_grad", lesson.onehot_check,
                         lesson.scatter_grad.values.size()}};
        sheet.claims.push_back(moved_claim(lesson, settings));
    } else {
        sheet.blocks.push_back(SheetBlock::rows_of(fmt::format("C, the output vectors, after training   {} x {}", v, d), "output"));
        const std::size_t k = lesson.scatter_grad.rows;
        sheet.blocks.push_back(SheetBlock::pair(
            fmt::format("The trained W looked up at the first {}, and one_hot(words) @ W under it   {} x {}",
                        count_of(k, "word", "words"), k, d),
            "lookup", "onehot_lookup", "W[words]", "one_hot @ W"));
        sheet.checks = {{"W[words] and one_hot(words) @ W", "lookup", "onehot_lookup", lesson.onehot_check,
                         lesson.scatter_grad.values.size()}};
        sheet.claims.push_back(data_claim(lesson));
    }
    if (!lesson.neighbours.empty()) sheet.claims.push_back(neighbours_claim(lesson, settings));
    sheet.agree = next_token_model(request) ? "the update through the lookup and the one-hot product agree"
                                            : "the trained table's lookup and the one-hot product agree";
    sheet.disagree = next_token_model(request)
                         ? "between the scatter-add and one_hot(x).T @ G: the scatter-add adds a row's repeated ids one "
                           "by one, the BLAS sums them in its own order with fused multiply-adds"
                         : "between W[words] and one_hot(words) @ W";
    sheet.script_what = fmt::format("Training an embedding table ({}) with {} in PyTorch.", train_model_name(request.model),
                                    optimizer_words(request.optimizer));
    sheet.script_run = fmt::format("{} steps, V = {}, d = {}", request.steps, request.vocab_size, table_cols(request));
    sheet.script_imports = "import numpy\n";
    if (next_token_model(request)) {
        sheet.torch_lines = {torch_script(lesson)};
        sheet.script_after = fmt::format(
            "\ntrained = {}\n"
            "# A run that overflows makes NaN from inf - inf or 0 * inf; which NaN comes out (its sign bit)\n"
            "# depends on the CPU and on the operands' order, which embdemo does not model: NaN in both agree.\n"
            "both_nan = torch.isnan(emb.weight.detach()) & torch.isnan(trained)\n"
            "worst = int(torch.where(both_nan, 0, ulps(emb.weight, trained)).max())\n"
            "nan_bits_differ = int((both_nan & (emb.weight.detach().view(torch.int32) != trained.view(torch.int32))).sum())\n"
            "# PyTorch's AVX2 kernels take SLEEF's exp and log and sum in eight lanes, as embdemo does: there\n"
            "# the table is the same bit for bit; other kernels (AVX-512, none) round otherwise.\n"
            "bound = 0 if \"CPU capability usage: AVX2\" in torch.__config__.show() else {}\n"
            "assert worst <= bound, f\"E after {} steps is {{worst}} ulps from embdemo's (allowed: {{bound}})\"\n"
            "print(f\"E after the steps: {{worst}} ulps from embdemo's at most (allowed: {{bound}})\")\n"
            "agreement = \"every tensor bit for bit\" if nan_bits_differ == 0 else (\n"
            "    f\"every tensor bit for bit but the sign bits of {{nan_bits_differ}} NaN in both\")\n",
            bits_literal(lesson.weight), k_train_ulp_bound, request.steps);
        sheet.script_agreement_variable = "agreement";
    }
    return sheet;
}

}  // namespace embdemo
