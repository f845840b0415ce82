// embdemo train: an embedding table learned end to end (bigram, tied head, word2vec's skip-gram)
// on --ids or a text, with the loss, the rows each step moved and why, and the neighbours.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "cli/exit_codes.hpp"
#include "cli/lesson_kit.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/lessons/table_lesson.hpp"
#include "cli/option_checks.hpp"
#include "cli/optimizer_options.hpp"
#include "cli/option_spec.hpp"
#include "cli/outputs.hpp"
#include "core/escape.hpp"
#include "core/lessons/train_lesson.hpp"
#include "core/lessons/train_lesson_text.hpp"
#include "core/limits.hpp"
#include "io/text_input.hpp"
#include "render/sheet/sheet_view.hpp"
#include "render/views/train/view.hpp"

namespace embdemo {
namespace {

using namespace option_checks;

// The steps a run may take, and the logits (pairs x V) and tables (V x d) it may hold.
constexpr std::uint64_t k_max_train_steps = 100000;
constexpr std::uint64_t k_max_train_logits = std::uint64_t{1} << 24;
// word2vec.c's MAX_SENTENCE_LENGTH: a longer line is cut into sentences of this many words.
constexpr std::size_t k_max_sentence = 1000;

struct TrainSettings {
    TrainRequest request;
    TrainViewSettings view;
};

// "token" is the tokenizer's tokens (--tokenizer, GPT-2's by default); "gpt2" names GPT-2's.
std::optional<TextLevel> level_named(const std::string& name) {
    if (name == "gpt2" || name == "token") return TextLevel::gpt2;
    if (name == "word") return TextLevel::word;
    if (name == "char") return TextLevel::character;
    return std::nullopt;
}

const char* level_words(TextLevel level, TokenizerKind tokenizer) {
    switch (level) {
        case TextLevel::gpt2: return tokenizer_tokens(tokenizer);
        case TextLevel::word: return "words";
        case TextLevel::character: return "characters";
    }
    return "";
}

// The text's units renumbered by count, each row's label kept for the views.
ParseResult<IdBatch> text_units(GivenText given, TextLevel level, const TextTokenizer& tokenizer) {
    using Result = ParseResult<IdBatch>;
    IdBatch batch;
    std::vector<std::string> labels;
    if (level == TextLevel::gpt2) {
        auto tokens = ids_from_text(std::move(given), tokenizer);
        if (!tokens) return tokens;
        const CompactIds compact = compact_by_count(tokens.value().values);
        for (const std::uint64_t id : compact.rows) labels.push_back(tokens.value().source.token_of(id));
        batch.values = compact.ids;
        batch.source.text = std::move(tokens.value().source.text);
        batch.source.tokenizer = tokenizer.kind;
    } else {
        if (!is_valid_utf8(given.text)) {
            return Result::fail(given.option + " " + quote_for_message(given.text) + " is not UTF-8 text (allowed: UTF-8)");
        }
        const FirstSeen seen = ids_by_first_appearance(split_text(given.text, level).units);
        if (seen.ids.empty()) {
            return Result::fail(fmt::format("{} {} has no {} (allowed: a text with at least two)", given.option,
                                            quote_for_message(given.text), level_words(level, tokenizer.kind)));
        }
        const CompactIds compact = compact_by_count(seen.ids);
        for (const std::uint64_t id : compact.rows) labels.push_back(seen.values[id]);
        batch.values = compact.ids;
        batch.source.text = std::move(given.text);
    }
    batch.seq = batch.values.size();
    batch.source.vocab_size = labels.size();  // the rows are renumbered by count
    batch.source.token_of = [labels = std::move(labels)](std::uint64_t row) {
        return row < labels.size() ? labels[row] : std::string();
    };
    return Result::ok(std::move(batch));
}

ParseResult<IdBatch> prepare_train(const RawOptions& raw) {
    using Result = ParseResult<IdBatch>;
    const std::string model = raw.value_or("--model", "bigram");
    if (model != "bigram" && model != "tied" && model != "skipgram") {
        return Result::fail(bad_value("--model", model, "is not a known model", "bigram, tied, skipgram"));
    }
    const bool has_ids = raw.ids || raw.text || raw.text_file;
    if (!has_ids) return Result::fail("embdemo train needs --ids, --text or --text-file, e.g. embdemo train --text 'the cat sat' --level word");
    if (model != "bigram" && !raw.dim) {
        return Result::fail(fmt::format("embdemo train --model {} needs --dim D, the width of its table (e.g. --dim 16)", model));
    }
    const std::string* level_given = raw.value("--level");
    if (raw.ids) {
        if (level_given) return Result::fail("--level cuts a text into units (allowed: --level with --text or --text-file)");
        return read_ids(raw);
    }
    const auto level = level_named(level_given ? *level_given : "gpt2");
    if (!level) return Result::fail(bad_value("--level", *level_given, "is not a known level", "gpt2, token, word, char"));
    const auto tokenizer = text_tokenizer(raw);
    if (!tokenizer) return Result::fail(tokenizer.error());
    // Without --level, a tokenizer's tokens are the units; word and char cut by their own rules.
    const bool by_tokenizer = *level == TextLevel::gpt2 &&
                              (!level_given || *level_given == "token" || tokenizer.value().kind == TokenizerKind::gpt2);
    if ((raw.tokenizer || raw.vocab_size) && !by_tokenizer) {
        return Result::fail(fmt::format("{} {}: --level {} cuts the text into {}, not into the tokenizer's tokens "
                                        "(allowed: --level token with --tokenizer)",
                                        raw.tokenizer ? "--tokenizer" : "--vocab-size",
                                        quote_for_message(raw.tokenizer ? *raw.tokenizer : *raw.vocab_size), *level_given,
                                        level_words(*level, TokenizerKind::gpt2)));
    }
    auto text = given_text(raw);
    if (!text) return Result::fail(text.error());
    auto ids = text_units(std::move(text.value()), *level, tokenizer.value());
    if (!ids) return ids;
    if (auto problem = apply_data_loader(raw, ids.value())) return Result::fail(*problem);
    return ids;
}

std::optional<std::string> read_count(const RawOptions& raw, const char* option, std::uint64_t min, std::uint64_t max,
                                      std::size_t& target) {
    if (const std::string* given = raw.value(option)) return read_bounded(option, *given, min, max, target);
    return std::nullopt;
}

std::optional<std::string> read_real(const RawOptions& raw, const char* option, double& target) {
    if (const std::string* given = raw.value(option)) return parse_real(option, *given, 0.0, target);
    return std::nullopt;
}

std::optional<std::string> read_skipgram(const RawOptions& raw, TrainRequest& request) {
    SkipgramSettings& s = request.skipgram;
    const std::size_t units = request.ids.values.size();
    if (units < 2) {
        return fmt::format("{}: skip-gram needs a word and a context, and the text has {} (allowed: at least two)",
                           ids_option(raw), count_of(units, "unit", "units"));
    }
    // word2vec's default window, shortened to fit a short text; a window given must fit it.
    s.window = std::min<std::size_t>(5, units - 1);
    if (auto problem = read_count(raw, "--window", 1, 1000, s.window)) return problem;
    if (s.window >= units) {
        return bad_value("--window", std::to_string(s.window),
                         fmt::format("reaches past a text of {}", count_of(units, "unit", "units")),
                         units > 1 ? fmt::format("1 to {}", units - 1) : std::string("a text of at least two units"));
    }
    if (auto problem = read_count(raw, "--negative", 0, 100, s.negative)) return problem;
    if (auto problem = read_count(raw, "--epochs", 1, 1000, s.epochs)) return problem;
    std::size_t min_count = request.ids.source.from_text() ? 5 : 1;  // word2vec's 5 for a text; typed ids are few
    if (auto problem = read_count(raw, "--min-count", 1, UINT32_MAX, min_count)) return problem;
    request.min_count = min_count;
    if (auto problem = read_real(raw, "--sample", s.sample)) return problem;
    if (s.sample >= 1.0) return bad_value("--sample", raw.value_or("--sample", ""), "keeps every word", "0 (off) to below 1, e.g. 1e-3");
    s.alpha = 0.025;
    if (auto problem = read_real(raw, "--lr", s.alpha)) return problem;
    if (s.alpha > std::numeric_limits<float>::max()) {
        return bad_value("--lr", raw.value_or("--lr", ""), "is past float32", "a learning rate such as 0.025");
    }
    for (const char* option : {"--optimizer", "--weight-decay", "--steps"}) {
        if (raw.value(option)) return fmt::format("{} sets bigram's and tied's steps; skipgram takes word2vec's --epochs and its own linear decay of --lr (allowed: --model bigram or tied)", option);
    }
    return std::nullopt;
}

std::optional<std::string> read_probes(const RawOptions& raw, const IdBatch& ids, TrainRequest& request) {
    const std::string* given = raw.value("--probe");
    if (!given) return std::nullopt;
    std::size_t begin = 0;
    while (begin <= given->size()) {
        const std::size_t end = std::min(given->find(',', begin), given->size());
        const std::string name = given->substr(begin, end - begin);
        std::optional<std::size_t> row;
        if (ids.source.from_text()) {
            for (std::size_t k = 0; k < request.vocab_size && !row; ++k) {
                if (ids.source.token_of(k) == name) row = k;
            }
        } else if (const auto id = parse_decimal(name); id && id.value() < request.vocab_size) {
            row = static_cast<std::size_t>(id.value());
        }
        if (!row) {
            return bad_value("--probe", name, "is not in the vocabulary",
                             ids.source.from_text() ? "words of the text, comma-separated"
                                                    : fmt::format("ids 0 to {}, comma-separated", request.vocab_size - 1));
        }
        request.probes.push_back(*row);
        begin = end + 1;
    }
    return read_count(raw, "--top", 1, std::max<std::uint64_t>(1, request.vocab_size - 1), request.top);
}

std::optional<std::string> check_train(const RawOptions& raw, Options& options) {
    if (raw.trace || raw.walkthrough || raw.pause || raw.timing || raw.show || raw.labels ||
        raw.weights || raw.max_memory || raw.init != "torch") {
        return std::string("embdemo train draws its table as PyTorch does after torch.manual_seed and takes no "
                           "view options of the lookup (allowed: --save-weights, --export-projector, and the options of embdemo train --help)");
    }
    TrainSettings& settings = own_settings<TrainSettings>(options);
    TrainRequest& request = settings.request;
    const std::string model = raw.value_or("--model", "bigram");
    if (model == "bigram") {
        request.model = TrainModel::bigram;
        if (raw.dim) return std::string("--dim: the bigram's table is V x V, a row of logits per token (allowed: no --dim, or --model tied or skipgram)");
    } else if (model == "tied") {
        request.model = TrainModel::tied;
    } else if (model == "skipgram") {
        request.model = TrainModel::skipgram;
    } else {
        return bad_value("--model", model, "is not a known model", "bigram, tied, skipgram");
    }
    request.sizes() = options.request.sizes();
    request.ids = options.id_batch;
    const IdBatch& ids = request.ids;
    if (ids.source.from_text() && !raw.vocab) {
        std::uint64_t largest = 0;
        for (const std::uint64_t id : ids.values) largest = std::max(largest, id);
        for (const std::uint64_t id : ids.source.loader.targets) largest = std::max(largest, id);
        request.vocab_size = largest + 1;
    }
    if (request.model == TrainModel::bigram) request.dim = request.vocab_size;
    if (request.vocab_size * request.dim > k_max_matrix_values || request.vocab_size > k_max_matrix_values) {
        return fmt::format("{}: the table would be {} x {} values (allowed: at most {}; use a smaller vocabulary, "
                           "--level char, or a smaller --dim)",
                           options.size_options, group_thousands(request.vocab_size), group_thousands(request.dim),
                           group_thousands(k_max_matrix_values));
    }
    settings.view.labels.rows.clear();
    if (ids.source.from_text()) {
        for (std::size_t k = 0; k < request.vocab_size; ++k) settings.view.labels.rows.push_back(ids.source.token_of(k));
        settings.view.level = level_words(*level_named(raw.value_or("--level", "gpt2")), ids.source.tokenizer);
        settings.view.text = ids.source.text;
        settings.view.text_quote = quote_for_message(ids.source.text, 50);
        settings.view.text_note = fmt::format("{} bytes, cut into {}", group_thousands(ids.source.text.size()), settings.view.level);
    }
    settings.view.shown_ids = ids;
    settings.view.shown_ids.source = IdSource{};
    if (request.model == TrainModel::skipgram) {
        if (auto problem = read_skipgram(raw, request)) return problem;
        const std::vector<std::size_t> lines =
            ids.source.from_text() && settings.view.level == "words" && !ids.source.loader.used()
                ? split_text(ids.source.text, TextLevel::word).line_ends
                : std::vector<std::size_t>{ids.values.size()};
        request.sentence_ends = sentence_ends(lines, k_max_sentence);
    } else {
        const std::vector<NextTokenPairs> batches = next_token_batches(ids);
        std::size_t pairs = 0;
        for (const NextTokenPairs& batch : batches) pairs = std::max(pairs, batch.inputs.size());
        if (pairs == 0) {
            return fmt::format("{}: one token has no next token to predict (allowed: at least two ids or units)",
                               ids_option(raw));
        }
        if (pairs * request.vocab_size > k_max_train_logits) {
            return fmt::format("{}: the logits would be {} pairs x {} = {} values in a step (allowed: at most {}; use "
                               "--context and --batch for fewer pairs, or --level char)",
                               options.size_options, group_thousands(pairs), group_thousands(request.vocab_size),
                               group_thousands(pairs * request.vocab_size), group_thousands(k_max_train_logits));
        }
        if (auto problem = read_optimizer(raw, OptimizerKind::sgd, 1.0, request.optimizer)) return problem;
        if (auto problem = read_count(raw, "--steps", 1, k_max_train_steps, request.steps)) return problem;
        for (const char* option : {"--window", "--negative", "--min-count", "--sample", "--epochs"}) {
            if (raw.value(option)) return fmt::format("{} is word2vec's (allowed: with --model skipgram)", option);
        }
    }
    if (request.model == TrainModel::skipgram && raw.value("--every")) {
        return std::string("--every lists bigram's and tied's steps; skipgram's loss is kept over 20 stretches of the run "
                           "(allowed: --model bigram or tied)");
    }
    if (auto problem = read_count(raw, "--every", 1, k_max_train_steps, settings.view.every)) return problem;
    if (raw.value("--top") && !raw.value("--probe")) {
        return std::string("--top sets how many neighbours each --probe lists (allowed: with --probe W,...)");
    }
    if (auto problem = read_probes(raw, ids, request)) return problem;
    if (raw.value("--seeds") && !raw.value("--probe")) {
        return std::string("--seeds measures how stable each --probe's neighbours are (allowed: with --probe W,...)");
    }
    if (auto problem = read_count(raw, "--seeds", 1, 16, request.seeds)) return problem;
    const std::vector<SheetTable> tables = train_tables(request, nullptr);
    if (prints_every_value(options.format) && request.model != TrainModel::skipgram) {
        // Beside the tables, the JSON and the script list every step's moved rows (at most V each,
        // and their counts); the script also embeds the trained table's bits.
        const bool script = options.format == OutputFormat::python;
        const std::uint64_t ledger = request.steps * (request.vocab_size + 6);
        const std::uint64_t printed = script ? script_values(tables) + request.vocab_size * request.dim + ledger
                                             : report_values(tables) + ledger;
        if (auto too_big = check_printed(options.lesson->name, options.format, printed)) return too_big;
    }
    return check_sheet_plan(options, tables);
}

int run_train(const Options& options) {
    if (auto problem = check_output_paths(options)) {
        print_error(*problem);
        return k_exit_usage;
    }
    const TrainSettings& settings = own_settings<TrainSettings>(options);
    TrainRequest request = settings.request;
    request.progress = terminal_progress("train", request.model == TrainModel::skipgram ? "words" : "steps");
    const TrainLesson lesson = run_train_lesson(request);
    FileTransaction transaction;
    if (const std::string problem = stage_output_files(options, lesson.weight, settings.view.labels.rows, transaction);
        !problem.empty()) {
        print_error(problem);
        return k_exit_failure;
    }
    StagedFiles files;
    for (const OutputFile& file : requested_output_files(options)) {
        if (file.kind == OutputFile::Kind::projector_metadata) continue;
        files.not_written += (files.not_written.empty() ? "" : " and ") + std::string(file.option) + " " +
                             quote_for_message(file.kind == OutputFile::Kind::npy ? options.save_weights : options.export_projector);
    }
    if (!files.not_written.empty()) {
        files.not_written += options.save_weights.empty() || options.export_projector.empty() ? " was" : " were";
    }
    files.commit = [&options, &transaction] { return commit_output_files(options, transaction); };
    const LessonSheet sheet = train_sheet(lesson, settings.view);
    const LessonView view = sheet_view(sheet, [&](int precision) { return train_figure(lesson, settings.view, precision); });
    return lesson_status(options, write_view(options, view, files), sheet.identical());
}

// The script replays bigram and tied in PyTorch; skip-gram is no PyTorch module (its draws are
// replayed in numpy by tests/scripts/train_live.py).
FormatSet train_formats(const RawOptions& raw) {
    const std::string* model = raw.value("--model");
    return model && *model == "skipgram" ? k_every_format & ~format_bit(OutputFormat::python) : k_every_format;
}

constexpr const char* k_train_footer = R"(bigram and tied learn each token's next: the pairs of a list, of each row of a
batch, or of the book's loader's windows and their targets, all of them at
every step. skipgram is word2vec's, with its draws from torch's generator.

Examples:
  embdemo train --ids 1,2,3,1,2,3,1,2 --steps 20 --every 5
  embdemo train --model tied --dim 8 --text 'the cat sat on the mat'
                --level word --optimizer adam --lr 0.1
  embdemo train --model skipgram --dim 50 --text-file book.txt
                --level word --probe king,queen

Exit status: 0 when the first step's scatter-add and one_hot(x).T @ G agree bit
for bit, 3 when they differ, 2 for bad input, 1 for a failed write.)";

const OptionSpec k_train_options[] = {
    own_value("--model", "M", "bigram (default), tied or skipgram"),
    own_value("--level", "L", "a text's units: gpt2 (default), token, word or char"),
    own_value("--optimizer", "OPT", "bigram, tied: sgd (default), adam, adamw"),
    own_value("--lr", "LR", "sgd 1, adam/adamw 0.001, skipgram 0.025"),
    own_value("--weight-decay", "W", "default 0, adamw 0.01"),
    own_value("--steps", "N", "bigram, tied: 1 to 100,000 (default 1)"),
    own_value("--every", "K", "list every K-th step (default 1)"),
    own_value("--probe", "W,...", "rows (words, or ids) whose neighbours to list"),
    own_value("--top", "K", "neighbours per probe (default 5)"),
    own_value("--seeds", "N", "N runs from seed S: how stable the neighbours are"),
    own_value("--window", "N", "skipgram: context words each side (default 5)"),
    own_value("--negative", "N", "skipgram: noise words per pair (default 5)"),
    own_value("--min-count", "N", "skipgram: drop rarer words (default 5)"),
    own_value("--sample", "T", "skipgram: subsampling threshold (default 0.001)"),
    own_value("--epochs", "N", "skipgram: passes over the text (default 5)"),
};

}  // namespace

extern const LessonSpec k_train_lesson = [] {
    LessonSpec spec{"train", "learn a table end to end: loss, moved rows, neighbours"};
    spec.caps.table_ids = true;
    spec.caps.one_hot = std::nullopt;
    spec.caps.saves_weights = true;
    spec.help = lesson_help(k_train_options, k_table_lesson_shared, k_train_footer);
    spec.formats = train_formats;
    spec.checks.prepare = prepare_train;
    spec.checks.own = check_train;
    spec.run = run_train;
    return spec;
}();

}  // namespace embdemo
