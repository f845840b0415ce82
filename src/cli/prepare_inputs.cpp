// A lesson's prepare step, the one step of a run that reads its inputs before the checks that
// bound values by them: --text-file read, a text tokenised, --ids parsed, and the book's data
// loader over a text's ids (--context T --stride S --batch B), whose first batch replaces them.
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
#include "core/limits.hpp"

namespace embdemo::option_checks {

// The text of --text or --text-file, whichever is given.
ParseResult<GivenText> given_text(const RawOptions& raw) {
    if (raw.text) return ParseResult<GivenText>::ok({*raw.text, "--text"});
    auto text = read_text_file(*raw.text_file);
    if (!text) return ParseResult<GivenText>::fail(text.error());
    return ParseResult<GivenText>::ok({std::move(text.value()), "--text-file " + quote_for_message(*raw.text_file) + ":"});
}

ParseResult<TextTokenizer> text_tokenizer(const RawOptions& raw) {
    using Result = ParseResult<TextTokenizer>;
    TextTokenizer tokenizer;
    const bool text = raw.text || raw.text_file;
    if ((raw.tokenizer || raw.vocab_size) && !text) {
        return Result::fail(std::string(raw.tokenizer ? "--tokenizer" : "--vocab-size") +
                            " chooses how a text is cut into ids (allowed: with --text or --text-file)");
    }
    if (raw.tokenizer) {
        using K = TokenizerKind;
        bool known = false;
        for (const K kind : {K::gpt2, K::wordpiece, K::unigram, K::bpe}) {
            if (*raw.tokenizer == tokenizer_name(kind)) {
                tokenizer.kind = kind;
                known = true;
            }
        }
        if (!known) {
            const char* problem = *raw.tokenizer == "all" ? "compares the tokenizers, which embdemo tokens does"
                                                          : "is not a tokenizer";
            return Result::fail(bad_value("--tokenizer", *raw.tokenizer, problem, "gpt2, wordpiece, unigram or bpe"));
        }
    }
    if (raw.vocab_size) {
        if (tokenizer.kind != TokenizerKind::unigram && tokenizer.kind != TokenizerKind::bpe) {
            return Result::fail("--vocab-size sets the size of the vocabulary trained on the text (allowed with "
                                "--tokenizer unigram or bpe)");
        }
        if (auto problem = read_bounded("--vocab-size", *raw.vocab_size, 1, k_max_trained_vocab, tokenizer.vocab_size)) {
            return Result::fail(*problem);
        }
        tokenizer.vocab_size_given = true;
    }
    return Result::ok(tokenizer);
}

// The ids from --ids, --text or --text-file (exactly one of them).
ParseResult<IdBatch> read_ids(const RawOptions& raw) {
    using Result = ParseResult<IdBatch>;
    const int given = int(raw.ids.has_value()) + int(raw.text.has_value()) + int(raw.text_file.has_value());
    if (given > 1) {
        return Result::fail("--ids, --text and --text-file each give the ids (allowed: one of them)");
    }
    if (raw.text || raw.text_file) {
        const auto tokenizer = text_tokenizer(raw);
        if (!tokenizer) return Result::fail(tokenizer.error());
        auto text = given_text(raw);
        if (!text) return Result::fail(text.error());
        return ids_from_text(std::move(text.value()), tokenizer.value());
    }
    auto ids = parse_id_batch(*raw.ids);
    if (!ids) {
        return Result::fail(bad_value("--ids", *raw.ids, ids.error(),
                                      "comma-separated non-negative decimal token ids, e.g. 2,3,1, or rows "
                                      "of them separated by ';' for a batch"));
    }
    return ids;
}

// With a text and --context T, the first batch of the book's data loader replaces the text's
// ids (B x T windows); --stride and --batch mean nothing without it.
std::optional<std::string> apply_data_loader(const RawOptions& raw, IdBatch& ids) {
    const bool loader = ids.source.from_text() && raw.context;
    if (!loader) {
        // Without a text, positions' --context is C, the rows of its position table.
        if (raw.context && !raw.lesson->caps.own_context) {
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
    ids = std::move(first.value().inputs);  // its source carries the targets and the windows
    return std::nullopt;
}

ParseResult<IdBatch> prepare_ids(const RawOptions& raw) {
    using Result = ParseResult<IdBatch>;
    const bool need_dim = !raw.dim && !raw.weights;  // a weight file brings its own dim
    const bool has_ids = raw.ids || raw.text || raw.text_file;
    if (!has_ids || need_dim) {
        const char* missing = !has_ids && need_dim ? "--ids and --dim are" : !has_ids ? "--ids is" : "--dim is";
        return Result::fail(std::string(missing) + " required, e.g. embdemo --ids 2,3,1 --dim 5; see embdemo --help");
    }
    auto ids = read_ids(raw);
    if (!ids) return ids;
    if (auto problem = apply_data_loader(raw, ids.value())) return Result::fail(*problem);
    return ids;
}

}  // namespace embdemo::option_checks
