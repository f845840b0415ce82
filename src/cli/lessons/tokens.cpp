// embdemo tokens: GPT-2's tokenizer, text -> pieces -> merges -> ids.
#include <iterator>
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/lesson_kit.hpp"
#include "cli/option_checks.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/lessons/cost.hpp"  // k_max_cost_dim: the d of the table sizes it lists
#include "core/lessons/tokenizer_comparison.hpp"
#include "core/tokenizers/sentencepiece_trained.hpp"
#include "cli/exit_codes.hpp"
#include "core/limits.hpp"
#include "core/memory.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/option_spec.hpp"
#include "io/text_input.hpp"
#include "render/views/tokens/view.hpp"

namespace embdemo {
namespace {

using namespace option_checks;

// --ids for tokens: GPT-2 ids to decode, each one of GPT-2's 50,257.
ParseResult<std::vector<std::uint64_t>> tokens_decode_ids(const std::string& text) {
    using Result = ParseResult<std::vector<std::uint64_t>>;
    const auto ids = parse_id_list(text);
    if (!ids) return Result::fail(bad_value("--ids", text, ids.error(), "comma-separated GPT-2 token ids, e.g. 464,3290"));
    for (std::size_t i = 0; i < ids.value().size(); ++i) {
        const std::uint64_t id = ids.value()[i];
        if (id < k_gpt2_vocab_size) continue;
        return Result::fail("--ids: ids[" + std::to_string(i) + "] = " + std::to_string(id) +
                            " is out of range for GPT-2's vocab of " + group_thousands(k_gpt2_vocab_size) +
                            " (allowed: ids 0 to " + std::to_string(k_gpt2_vocab_size - 1) + ")");
    }
    return ids;
}

constexpr const char* k_tokenizer_names = "gpt2, wordpiece, unigram, bpe or all";

// --tokenizer and --vocab-size into the request: which tokenizers to compare (none for gpt2,
// GPT-2's own lesson) and the trained vocabularies' size.
std::optional<std::string> read_tokenizers(const RawOptions& raw, TokensRequest& tokens) {
    // Its own options, or the shared ones of the same name given before the lesson's name.
    const std::string* name = raw.value("--tokenizer") ? raw.value("--tokenizer") : raw.tokenizer ? &*raw.tokenizer : nullptr;
    const std::string* vocab_size = raw.value("--vocab-size") ? raw.value("--vocab-size")
                                    : raw.vocab_size ? &*raw.vocab_size : nullptr;
    using K = TokenizerKind;
    if (name && *name == "all") {
        tokens.tokenizers = {K::gpt2, K::wordpiece, K::unigram, K::bpe};
    } else if (name && *name != "gpt2") {
        for (const K kind : {K::wordpiece, K::unigram, K::bpe}) {
            if (*name == tokenizer_name(kind)) tokens.tokenizers = {kind};
        }
        if (tokens.tokenizers.empty()) return bad_value("--tokenizer", *name, "is not a tokenizer", k_tokenizer_names);
    }
    const bool trains = !tokens.tokenizers.empty() && tokens.tokenizers.back() != K::wordpiece;
    if (vocab_size) {
        if (!trains) {
            return std::string("--vocab-size sets the size of the vocabularies trained on the text (allowed with "
                               "--tokenizer unigram, bpe or all)");
        }
        if (auto problem = read_bounded("--vocab-size", *vocab_size, 1, k_max_trained_vocab, tokens.trained_vocab_size)) {
            return problem;
        }
        tokens.vocab_size_given = true;
    }
    if (!tokens.tokenizers.empty() && raw.value("--piece")) {
        return std::string("--piece follows a piece through GPT-2's merges (allowed with --tokenizer gpt2 only)");
    }
    return std::nullopt;
}

// What GPT-2's lesson of a text holds at its peak, from the text's size and its counted pieces
// and ids, listed before it is cut. Measured with /usr/bin/time -f %M by
// tests/scripts/memory_estimate.sh.
std::vector<Buffer> tokens_buffers(OutputFormat format, std::uint64_t text_bytes, const TokenCounts& counts) {
    const std::uint64_t pieces = counts.pieces;
    const std::uint64_t ids = counts.ids;
    std::vector<Buffer> buffers{{"the text (as read and as the lesson's)", text_bytes, 2},
                                {"the pieces (20 bytes each)", pieces, sizeof(TokenPiece)},
                                {"the ids", ids, sizeof(std::uint64_t)}};
    // The tables of csv, tsv and markdown: 4 numbers an id and 5 a piece, as float32.
    const std::uint64_t table_values = 4 * ids + 5 * pieces;
    switch (format) {
        case OutputFormat::json: {
            // A piece's record is about 58 bytes beside its text and tokens, an id about 24 in
            // the three lists, and the text is spelled three times. The lists, the page they
            // are joined into and the piece being written: about 2.5 times the page.
            const std::uint64_t page = 58 * pieces + 24 * ids + 3 * text_bytes;
            buffers.push_back({"the JSON (its lists, the page and the write)", page / 2, 5});
            break;
        }
        case OutputFormat::csv:
        case OutputFormat::tsv:
            // Whole numbers of at most 8 digits: an id's row (id, piece, bytes, merge rank) takes
            // about 21 bytes, a piece's (offset, bytes, first token, tokens, special) about 23.
            buffers.push_back({"the tables (float32)", table_values, 4});
            buffers.push_back({"the printed tables", 21 * ids + 23 * pieces, 1});
            break;
        case OutputFormat::markdown:
            // The tables, and the ids and tokens lists the page cuts its two lines from (about 17
            // bytes an id), each held three times as markdown_value spells it visibly and unquotes it.
            buffers.push_back({"the tables (float32)", table_values, 4});
            buffers.push_back({"the ids and tokens lists (three copies)", ids, 3 * 17});
            break;
        default: break;  // the text, svg and html views summarise: a few kilobytes beside the lists
    }
    return buffers;
}

CommandLine check_tokens(const RawOptions& raw) {
    CommandLine result;
    Options& options = result.options;
    options.lesson = raw.lesson;
    TokensRequest& tokens = own_settings<TokensRequest>(options);
    if (const std::string* option = unread_shared_option(raw)) {
        return fail(*option + " has no effect on embdemo tokens (allowed with tokens: --text, --text-file, --ids, "
                    "--dim, --format, --tokenizer, --vocab-size, --max-memory and --piece)");
    }
    const int sources = (raw.text ? 1 : 0) + (raw.text_file ? 1 : 0) + (raw.ids ? 1 : 0);
    if (sources == 0) return fail("embdemo tokens needs --text TEXT or --text-file FILE (or --ids LIST to decode)");
    const auto format = find_named(k_formats, raw.format);
    if (!format) return fail(bad_value("--format", raw.format, "is not a known format", names_of(k_formats)));
    if (auto problem = check_lesson_format(raw, *format)) return fail(*problem);
    options.format = *format;
    if (raw.ids) {
        if (sources > 1) return fail(std::string(raw.text ? "--text" : "--text-file") + " and --ids each give the tokens (allowed: one of them)");
        if (raw.value("--piece")) return fail("--piece follows a piece of --text through BPE; --ids decodes ids (allowed: one of them)");
        if (raw.dim) return fail("--dim sets d for the table sizes of --text; --ids decodes ids (allowed: one of them)");
        if (raw.value("--tokenizer") || raw.value("--vocab-size") || raw.tokenizer || raw.vocab_size) {
            return fail(std::string(raw.value("--tokenizer") || raw.tokenizer ? "--tokenizer" : "--vocab-size") +
                        " is for --text; --ids decodes GPT-2 ids (allowed: one of them)");
        }
        auto ids = tokens_decode_ids(*raw.ids);
        if (!ids) return fail(ids.error());
        const auto vocab = gpt2_vocabulary();  // the run reads GPT-2's token bytes from it
        if (!vocab) return fail(vocab.error());
        tokens.decode_ids = std::move(ids.value());
        result.run = true;
        return result;
    }
    if (raw.text && raw.text_file) return fail("--text and --text-file each give the text (allowed: one of them)");
    // The words first, before the file is opened (a FIFO nobody writes must not hold the answer).
    if (auto problem = read_tokenizers(raw, tokens)) return fail(*problem);
    auto text = given_text(raw);
    if (!text) return fail(text.error());
    // The same checks and messages as every lesson's --text; the lesson cuts the text itself.
    if (auto problem = check_text(text.value())) return fail(*problem);
    tokens.text = std::move(text.value().text);
    if (!tokens.tokenizers.empty()) {
        for (const TokenizerKind kind : tokens.tokenizers) {
            if (kind != TokenizerKind::wordpiece) continue;
            if (const auto bert = bert_vocabulary(); !bert) return fail(bert.error());
        }
    }
    if (raw.dim) {
        const auto dim = parse_bounded("--dim", *raw.dim, 1, k_max_cost_dim);
        if (!dim) return fail(dim.error());
        tokens.dim = dim.value();
    }
    if (raw.max_memory) {
        const auto budget = parse_memory_size(*raw.max_memory);
        if (!budget) {
            return fail(bad_value("--max-memory", *raw.max_memory, budget.error(),
                                  "a size of at least 1M: bytes, or a number with K, M, G or T, e.g. 512M, 4G"));
        }
        options.max_memory = budget.value();
        // A budget the run would not keep is refused rather than ignored.
        if (!tokens.tokenizers.empty()) {
            return fail("--max-memory holds GPT-2's tokenizer to a budget; embdemo has no estimate of what WordPiece "
                        "and SentencePiece's training take (allowed: --max-memory with --tokenizer gpt2)");
        }
    }
    if (tokens.tokenizers.empty()) {
        // Counted before the cut, which then reserves its lists once.
        const auto vocab = gpt2_vocabulary();
        if (!vocab) return fail(vocab.error());
        const TokenCounts counts = count_tokens(*vocab.value(), tokens.text);
        if (auto problem = check_tokens_tables(options.format, tokens.text.size(), counts.ids, counts.pieces)) {
            return fail(*problem);
        }
        if (auto problem = check_memory_budget(tokens_buffers(options.format, tokens.text.size(), counts),
                                               options.max_memory, "a shorter text")) {
            return fail(*problem);
        }
        tokens.counts = counts;
    }
    if (const std::string* piece_text = raw.value("--piece")) {
        const std::size_t pieces = tokens.counts ? tokens.counts->pieces : count_gpt2_pieces(tokens.text);
        const auto piece = parse_bounded("--piece", *piece_text, 0, pieces - 1);
        if (!piece) return fail(piece.error());
        tokens.piece = piece.value();
    }
    result.run = true;
    return result;
}

}  // namespace

// --ids: the ids decoded back to text.
int run_tokens_decode(const Options& options, const Gpt2Vocabulary& vocab) {
    const Gpt2Decoding decoding = decode_gpt2(vocab, *own_settings<TokensRequest>(options).decode_ids);
    LessonView view;
    view.report = [&](const std::vector<std::string>&) { return tokens_decode_report(decoding); };
    view.figure = [&](int) { return tokens_decode_figure(decoding); };
    view.text = [&](const TextOptions&, View) { return std::vector<std::string>{render_tokens_decode_text(decoding)}; };
    return write_view(options, view);
}

// --tokenizer wordpiece, unigram, bpe or all: the text through each. Training fails when the
// text cannot make --vocab-size pieces: that is bad input, known only once the trainer has read it.
int run_tokenizer_comparison(const Options& options, const Gpt2Vocabulary& vocab) {
    const TokensRequest& request = own_settings<TokensRequest>(options);
    const auto bert = bert_vocabulary();
    const bool trains = std::any_of(request.tokenizers.begin(), request.tokenizers.end(), [](TokenizerKind kind) {
        return kind == TokenizerKind::unigram || kind == TokenizerKind::bpe;
    });
    const auto sentencepiece = trains ? sentencepiece_library() : ParseResult<const SentencePieceLibrary*>::ok(nullptr);
    if (!sentencepiece) {
        print_error(sentencepiece.error());
        return k_exit_usage;
    }
    const auto comparison = compare_tokenizers({request.text, request.tokenizers, request.trained_vocab_size,
                                                request.vocab_size_given, request.dim, sentencepiece.value()},
                                               &vocab, bert ? bert.value() : nullptr);
    if (!comparison) {
        print_error(comparison.error());
        return k_exit_usage;
    }
    const TokenizerComparison& shown = comparison.value();
    LessonView view;
    view.report = [&](const std::vector<std::string>&) { return tokenizer_comparison_report(shown); };
    view.figure = [&](int) { return tokenizer_comparison_figure(shown); };
    view.text = [&](const TextOptions&, View) { return std::vector<std::string>{render_tokenizer_comparison_text(shown)}; };
    return write_view(options, view);
}

int run_tokens(const Options& options) {
    const Gpt2Vocabulary& vocab = *gpt2_vocabulary().value();  // validation loaded it
    if (own_settings<TokensRequest>(options).decode_ids) return run_tokens_decode(options, vocab);
    if (!own_settings<TokensRequest>(options).tokenizers.empty()) return run_tokenizer_comparison(options, vocab);
    const TokensRequest& request = own_settings<TokensRequest>(options);
    const TokensLesson lesson = run_tokens_lesson(vocab, request, request.counts ? &*request.counts : nullptr);
    LessonView view;
    view.report = [&](const std::vector<std::string>&) { return tokens_report(lesson, vocab, options.format); };
    view.figure = [&](int precision) { return tokens_figure(lesson, vocab, precision); };
    view.text = [&](const TextOptions&, View) { return std::vector<std::string>{render_tokens_text(lesson, vocab)}; };
    return write_view(options, view);
}


namespace {

constexpr const char* k_tokens_footer = R"(The text comes from --text (up to Linux's 131,072 bytes per argument) or
--text-file (UTF-8, up to 16 MiB); --dim sets d for the table sizes (default
768, GPT-2 small's); --format text, json, csv, tsv, markdown, svg or html
(python: the tokenizer is tiktoken's, not PyTorch's). The ids are those of
tiktoken.get_encoding("gpt2").encode(text, allowed_special={"<|endoftext|>"}).

--ids LIST decodes GPT-2 ids (0 to 50,256) instead: each id's bytes (tiktoken's
decode_single_token_bytes), escaped where they are not UTF-8 on their own, and
the text they join into (decode_bytes; decode puts U+FFFD where they are not).
--max-memory SIZE bounds the memory GPT-2's tokenizer may take (default 1G), as
in embdemo --help; the other tokenizers are not estimated and refuse it.

Examples:
  embdemo tokens --text "Your journey starts with one step"
  embdemo tokens --text "unbelievably" --piece 0
  embdemo tokens --text-file notes.txt --format json
  embdemo tokens --ids 7120,7002,4940,351,530,2239
  embdemo tokens --text-file notes.txt --tokenizer all --vocab-size 300

--tokenizer wordpiece is BERT's uncased WordPiece (bert-base-uncased's 30,522
pieces); unigram and bpe are trained on the text itself by SentencePiece
(--vocab-size pieces, one thread, every line; without --vocab-size, 1,000 or
the most the text allows); all shows the four side by side, with each table's
V x d and its share of a GPT-2-small-shaped model.
)";

const OptionSpec k_tokens_options[] = {
    own_value("--piece", "K", "the piece to follow, from 0 (default: most merges)"),
    own_value("--tokenizer", "NAME", "gpt2 (default), wordpiece, unigram, bpe, or all"),
    own_value("--vocab-size", "N", "unigram's and bpe's size (default 1,000 or less)"),
};

}  // namespace

// The shared options tokens reads; any other one given is refused rather than ignored.
constexpr const char* k_tokens_shared_options[] = {"--text", "--text-file", "--ids",        "--dim",
                                                   "--format", "--tokenizer", "--vocab-size", "--max-memory"};

extern const LessonSpec k_tokens_lesson = [] {
    LessonSpec spec{"tokens", "GPT-2's tokenizer: text -> pieces -> merges -> ids"};
    spec.caps.one_hot = std::nullopt;  // no table: the tokenizer alone
    spec.caps.memory_budget = true;
    spec.help = lesson_help(k_tokens_options, "", k_tokens_footer);
    spec.formats = fixed_formats<k_every_format & ~format_bit(OutputFormat::python)>;
    spec.checks.whole = check_tokens;
    spec.run = run_tokens;
    spec.shared_options = k_tokens_shared_options;
    spec.shared_option_count = std::size(k_tokens_shared_options);
    return spec;
}();

}  // namespace embdemo
