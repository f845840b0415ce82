// The table lessons' options (positions, tied, factor, bag), turned into Options.
#include "cli/option_checks.hpp"

#include "cli/lessons/lesson.hpp"

#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "io/text_input.hpp"
#include "core/gpt2/data_loader.hpp"
#include "core/escape.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/ids.hpp"
#include "core/lessons/tied_lesson.hpp"
#include "core/limits.hpp"

namespace embdemo::option_checks {

namespace {

constexpr std::pair<const char*, PositionEncoding> k_encodings[] = {
    {"learned", PositionEncoding::learned},
    {"sinusoidal", PositionEncoding::sinusoidal},
    {"rope", PositionEncoding::rope},
};

std::optional<std::string> validate_encoding(const RawOptions& raw, Options& options) {
    if (!raw.encoding) return std::nullopt;
    const auto encoding = find_named(k_encodings, *raw.encoding);
    if (!encoding) return bad_value("--encoding", *raw.encoding, "is not a known encoding", names_of(k_encodings));
    if (*encoding == PositionEncoding::rope && options.request.dim % 2 != 0) {
        return bad_value("--encoding", *raw.encoding,
                         "needs an even --dim: RoPE turns pairs of columns (j, j + d/2), and --dim is " +
                             std::to_string(options.request.dim),
                         "an even --dim with rope");
    }
    options.positions.encoding = *encoding;
    options.positions.encoding_given = true;
    return std::nullopt;
}

std::optional<std::string> validate_positions(const RawOptions& raw, Options& options) {
    if (auto problem = validate_encoding(raw, options)) return problem;
    const DemoRequest& request = options.request;
    const std::uint64_t seq = options.id_batch.seq;
    const std::uint64_t max_context = std::max<std::uint64_t>(seq, k_max_matrix_values / request.dim);
    PositionsOptions& positions = options.positions;
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
    const std::uint64_t n = request.ids.size();
    const std::uint64_t d = request.dim;
    if (!prints_every_value(options.format)) return std::nullopt;
    // The script draws E and P itself and embeds the lookups, P[0..T) and the outputs.
    const bool script = options.format == OutputFormat::python;
    return check_printed("positions", options.format,
                         script ? 4 * n * d + seq * d : request.vocab_size * d + positions.context * d + 4 * n * d + seq * d);
}

std::optional<std::string> validate_tied(const RawOptions& raw, Options& options) {
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
    TiedOptions& tied = options.tied;
    tied.top = static_cast<std::size_t>(std::min<std::uint64_t>(5, most_top));
    if (raw.top) {
        const std::string allowed =
            most_top == vocab ? fmt::format("K from 1 to the vocab, {}", vocab)
                              : fmt::format("K from 1 to {}: the top K of {} positions are kept, at most {} entries",
                                            group_thousands(most_top), group_thousands(n), group_thousands(k_max_top_entries));
        const auto top = parse_decimal(*raw.top);
        if (!top) return bad_value("--top", *raw.top, top.error(), allowed);
        if (top.value() < 1 || top.value() > most_top) {
            return bad_value("--top", *raw.top,
                             top.value() < 1       ? "is 0"
                             : top.value() > vocab ? "is more than the vocab has ids"
                                                   : fmt::format("would keep {} x {} = {} top entries", group_thousands(n),
                                                                 group_thousands(top.value()),
                                                                 group_thousands(n * top.value())),
                             allowed);
        }
        tied.top = static_cast<std::size_t>(top.value());
    }
    if (raw.hidden) {
        if (raw.hidden->empty()) return bad_value("--hidden", *raw.hidden, "is empty", "a .npy, .csv or .tsv file of n x D");
        tied.hidden_file = *raw.hidden;
    }
    if (!prints_every_value(options.format)) return std::nullopt;
    // The script draws E itself; past 2^20 logits it embeds one checksum per row, not each logit.
    if (options.format == OutputFormat::python) {
        return check_printed("tied", options.format, 2 * n * d + std::min<std::uint64_t>(n * vocab, std::uint64_t{1} << 20));
    }
    const std::uint64_t tables = vocab * d + n * d;
    if (tables <= k_max_printed_values && tables + n * vocab > k_max_printed_values) {
        // The logits alone are too many: a chapter's are n x V (a gigabyte), never held whole.
        return fmt::format("embdemo tied: json, csv and tsv would print {} numbers, {} x {} of them logits (allowed: "
                           "at most {}; use the text, markdown, svg or html view, which summarise the logits and "
                           "list every position's top K, or --format python, which checks every logit by a sum a row)",
                           group_thousands(tables + n * vocab), group_thousands(n), group_thousands(vocab),
                           group_thousands(k_max_printed_values));
    }
    return check_printed("tied", options.format, tables + n * vocab);
}

std::optional<std::string> validate_factor(const RawOptions& raw, Options& options) {
    const std::uint64_t d = options.request.dim;
    const std::string allowed = fmt::format("a rank from 1 to {}, below --dim", d - 1);
    if (!raw.rank) return "embdemo factor needs --rank R (allowed: " + allowed + ", e.g. --rank " + std::to_string(std::max<std::uint64_t>(1, d / 4)) + ")";
    const auto rank = parse_decimal(*raw.rank);
    if (!rank) return bad_value("--rank", *raw.rank, rank.error(), allowed);
    if (rank.value() == 0) {
        return bad_value("--rank", *raw.rank, "is 0: E1 would have no columns and every vector would be 0", allowed);
    }
    if (rank.value() >= d) {
        return bad_value("--rank", *raw.rank,
                         fmt::format("is not below --dim {}: then V*r + r*d >= V*d, and the two factors save "
                                     "nothing over one table", d),
                         d > 1 ? allowed : "a --dim of at least 2, and a rank below it");
    }
    options.factor.rank = rank.value();
    const std::uint64_t v = options.request.vocab_size;
    const std::uint64_t n = options.request.ids.size();
    const std::uint64_t r = rank.value();
    if (!prints_every_value(options.format)) return std::nullopt;
    // The script draws E1 and E2 itself and embeds the per-id results.
    const bool script = options.format == OutputFormat::python;
    return check_printed("factor", options.format, script ? n * r + 2 * n * d : v * r + r * d + n * r + 2 * n * d);
}

std::optional<std::string> validate_bag(const RawOptions& raw, Options& options) {
    BagOptions& bag = options.bag;
    if (raw.bags) {
        bag.bags = parse_bags(*raw.bags).value();  // checked by prepare_bag_ids
    } else {
        // A text's data loader batch: each window one bag, as nn.EmbeddingBag reads a 2-D input
        // (B bags of T ids each).
        const IdBatch& windows = options.id_batch;
        bag.bags.ids = windows.values;
        for (std::size_t b = 0; b <= windows.batch; ++b) bag.bags.offsets.push_back(b * windows.seq);
    }
    const std::string mode = raw.mode.value_or("mean");
    if (mode == "sum" || mode == "mean" || mode == "max") {
        bag.mode = mode == "sum" ? BagMode::sum : mode == "max" ? BagMode::max : BagMode::mean;
    } else {
        return bad_value("--mode", mode, "is not a mode of nn.EmbeddingBag", "sum, mean, max");
    }
    const std::uint64_t v = options.request.vocab_size;
    if (raw.padding_idx) {
        if (auto problem = parse_padding_idx(*raw.padding_idx, v, bag.padding_idx)) return problem;
    }
    if (raw.per_sample_weights) {
        if (bag.mode != BagMode::sum) {
            return bad_value("--per-sample-weights", *raw.per_sample_weights,
                             "needs --mode sum: PyTorch supports per_sample_weights only for mode='sum'",
                             "--mode sum with --per-sample-weights");
        }
        const auto weights = parse_bag_weights(*raw.per_sample_weights, bag.bags);
        if (!weights) {
            return bad_value("--per-sample-weights", *raw.per_sample_weights, weights.error(),
                             "one finite decimal number per id of --bags, in the same layout");
        }
        bag.per_sample_weights = weights.value();
    }
    const std::uint64_t b = bag.bags.count();
    const std::uint64_t d = options.request.dim;
    if (auto too_big = check_demo_sizes(b, v, d, OneHotHeld::multihot)) return "--bags/--vocab/--dim: " + *too_big;
    if (!prints_every_value(options.format)) return std::nullopt;
    // The script draws E itself and embeds the bags' outputs and products.
    const bool script = options.format == OutputFormat::python;
    return check_printed("bag", options.format, script ? 3 * b * d : v * d + b * v + 2 * b * d);
}

}  // namespace

// --bags stands in for --ids in the shared checks: the bags' ids, in one list, are checked and
// sized like any other ids, after the checks that only --bags can name properly.
std::optional<std::string> prepare_bag_ids(RawOptions& raw) {
    if (raw.ids) {
        return std::string("--ids belongs to the other lessons: embdemo bag reads its ids from --bags "
                           "(allowed: --bags \"2,3;1,1,0\")");
    }
    const bool text = raw.text || raw.text_file;
    if (text && raw.bags) {
        return std::string("--bags and ") + (raw.text ? "--text" : "--text-file") +
               " each give the bags (allowed: one of them; with a text, --context T makes each window a bag)";
    }
    if (text && !raw.context) {
        return std::string("embdemo bag with ") + (raw.text ? "--text" : "--text-file") +
               " needs --context T: each window of the book's data loader is one bag (allowed: --context T "
               "[--stride S] [--batch B], or --bags)";
    }
    if (text) return std::nullopt;  // the ids and their windows come from the text (validate_sizes)
    if (!raw.bags || (!raw.dim && !raw.weights)) {
        return std::string(!raw.bags ? "--bags is" : "--dim is") +
               " required, e.g. embdemo bag --bags \"2,3;1,1,0\" --dim 5; see embdemo bag --help";
    }
    const auto bags = parse_bags(*raw.bags);
    const char* allowed = "bags of comma-separated ids separated by ';', an empty bag as nothing between two ';'";
    if (!bags) return bad_value("--bags", *raw.bags, bags.error(), allowed);
    if (bags.value().ids.empty()) return bad_value("--bags", *raw.bags, "has no id in any bag", "at least one id");
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
    raw.ids = fmt::format("{}", fmt::join(bags.value().ids, ","));
    return std::nullopt;
}

std::optional<std::string> validate_table_lesson(const RawOptions& raw, Options& options) {
    const char* lesson = lesson_spec(raw.lesson).name;
    if (auto problem = check_table_lesson_exclusive(raw, lesson)) return problem;
    options.lesson = raw.lesson;
    if (raw.lesson == Lesson::tied) return validate_tied(raw, options);
    if (raw.lesson == Lesson::factor) return validate_factor(raw, options);
    if (raw.lesson == Lesson::bag) return validate_bag(raw, options);
    return validate_positions(raw, options);
}

// positions with text and --context T: the first batch of the book's data loader replaces the
// text's ids (B x T windows); --stride and --batch mean nothing without it.
std::optional<std::string> apply_data_loader(const RawOptions& raw, IdBatch& ids, Options& options) {
    const bool loader = ids.source.from_text() && raw.context;
    if (!loader) {
        // Without a text, positions' --context is C, the rows of its position table.
        if (raw.context && raw.lesson != Lesson::positions) {
            return "--context " + quote_for_message(*raw.context) + " sets the book's data loader's T, which cuts a "
                   "text into windows (allowed: --context with --text or --text-file)";
        }
        if (!raw.stride && !raw.batch) return std::nullopt;
        return std::string(raw.stride ? "--stride" : "--batch") +
               " sets the book's data loader, which runs for --text or --text-file with --context T (allowed: "
               "those together)";
    }
    const std::uint64_t n = ids.values.size();
    // A window of T tokens needs T + 1 (its target is shifted by one), so T < n: the bounds
    // said are the bounds kept.
    if (n < 2) {
        return fmt::format("--context {}: the text has {}, and the data loader needs at least 2 (a window and "
                           "its target shifted by one) (allowed: a longer text, or no --context)",
                           quote_for_message(*raw.context), count_of(n, "token", "tokens"));
    }
    const std::string context_allowed = fmt::format("a decimal integer from 1 to {}", n - 1);
    const auto context = parse_decimal(*raw.context, UINT64_MAX);
    if (!context) return bad_value("--context", *raw.context, context.error(), context_allowed);
    if (context.value() == 0) return bad_value("--context", *raw.context, "is less than 1", context_allowed);
    if (context.value() >= n) {
        return bad_value("--context", *raw.context,
                         fmt::format("the text has {}, and one window of T = {} needs {} (its target is the window "
                                     "shifted by one)", count_of(n, "token", "tokens"), group_thousands(context.value()),
                                     context.value() == UINT64_MAX ? std::string("more") : group_thousands(context.value() + 1)),
                         context_allowed + ", or a longer text");
    }
    LoaderSettings settings;
    settings.context = context.value();
    settings.stride = settings.context;
    settings.batch = 4;  // create_dataloader_v1's own default
    if (raw.stride) {
        if (auto problem = read_bounded("--stride", *raw.stride, 1, std::max<std::uint64_t>(n, 1), settings.stride)) {
            return problem;
        }
    }
    if (raw.batch) {
        // B windows of T every S tokens must fit the text (drop_last=True).
        const std::uint64_t windows = count_windows(n, settings.context, settings.stride);
        const std::string allowed = fmt::format("a decimal integer from 1 to {}, a smaller --stride or --context, "
                                                "or a longer text", windows);
        const auto batch = parse_decimal(*raw.batch, UINT64_MAX);
        if (!batch) return bad_value("--batch", *raw.batch, batch.error(), allowed);
        if (batch.value() == 0) return bad_value("--batch", *raw.batch, "is less than 1", allowed);
        if (batch.value() > windows) {
            return bad_value("--batch", *raw.batch,
                             fmt::format("the text makes {} of T = {} every S = {} tokens (drop_last=True drops "
                                         "a short batch)", count_of(windows, "window", "windows"),
                                         group_thousands(settings.context), group_thousands(settings.stride)),
                             allowed);
        }
        settings.batch = batch.value();
    }
    auto first = first_loader_batch(ids, settings);
    if (!first) return std::string(ids_option(raw)) + ": " + first.error();
    ids = std::move(first.value().inputs);
    options.positions.targets = std::move(first.value().targets);
    options.positions.windows = first.value().windows;
    options.positions.loader = settings;
    return std::nullopt;
}

}  // namespace embdemo::option_checks
