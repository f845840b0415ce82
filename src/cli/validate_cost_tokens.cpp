// embdemo cost's and embdemo tokens' options, turned into their requests.
#include "cli/option_checks.hpp"

#include <algorithm>
#include <iterator>
#include <optional>
#include <string_view>
#include <utility>

#include "io/text_input.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/ids.hpp"
#include "core/limits.hpp"

namespace embdemo::option_checks {

namespace {

// A shared option the lesson does not read (one not in `taken`), or null.
template <std::size_t N>
const std::string* unread_shared_option(const RawOptions& raw, const char* const (&taken)[N]) {
    for (const std::string& option : raw.shared_given) {
        if (std::find(std::begin(taken), std::end(taken), option) == std::end(taken)) return &option;
    }
    return nullptr;
}

std::optional<std::string> check_cost_shared(const RawOptions& raw) {
    if (const std::string* option = unread_shared_option(raw, k_cost_shared_options)) {
        return *option + " has no effect on embdemo cost (allowed with cost: --ids, --text, --text-file, --vocab, "
               "--dim, --format and the options of embdemo cost --help)";
    }
    return std::nullopt;
}

// n from --ids or --tokens, V and d from --model or --vocab/--dim (or the ids), each bounded.
std::optional<std::string> cost_sizes(const RawOptions& raw, CostRequest& request) {
    const bool has_ids = raw.ids || raw.text || raw.text_file;
    if (has_ids && raw.tokens) return std::string(ids_option(raw)) + " and --tokens both give n (allowed: one of them)";
    if (raw.model) {
        const auto preset = model_preset_option(*raw.model, raw.vocab || raw.dim);
        if (!preset) return preset.error();
        use_model_preset(*preset.value(), request);
    } else if ((!has_ids && !raw.tokens) || !raw.dim || (raw.tokens && !raw.vocab)) {
        return std::string("embdemo cost needs sizes: --model NAME, or --tokens N with --vocab V and --dim D, "
                           "or --ids LIST with --dim D; see embdemo cost --help");
    } else {
        if (auto problem = read_bounded("--dim", *raw.dim, 1, k_max_cost_dim, request.dim)) return problem;
        if (raw.vocab) {
            if (auto problem = read_bounded("--vocab", *raw.vocab, 1, k_max_cost_vocab, request.vocab_size)) {
                return problem;
            }
        }
    }
    if (raw.tokens) {
        if (auto problem = read_bounded("--tokens", *raw.tokens, 1, k_max_cost_tokens, request.ids)) return problem;
        request.token_source = TokenSource::tokens;
    }
    return std::nullopt;
}

// --ids: n is their count, and V is at least the largest + 1 (inferred when not given).
std::optional<std::string> cost_ids(const std::string& text, bool vocab_known, CostRequest& request) {
    const auto ids = parse_id_batch(text);
    if (!ids) return bad_value("--ids", text, ids.error(), "comma-separated non-negative decimal token ids, e.g. 2,3,1");
    const TokenIds& values = ids.value().values;
    if (values.size() > k_max_cost_tokens) {
        return bad_value("--ids", text.substr(0, 20) + "...", "lists " + group_thousands(values.size()) + " ids",
                         "at most " + group_thousands(k_max_cost_tokens));
    }
    request.ids = values.size();
    request.token_source = TokenSource::ids;
    const std::uint64_t largest = *std::max_element(values.begin(), values.end());
    if (!vocab_known) {
        if (largest >= k_max_cost_vocab) {
            return bad_value("--ids", text, "has id " + std::to_string(largest), "ids below " + group_thousands(k_max_cost_vocab));
        }
        request.vocab_size = largest + 1;
        request.vocab_inferred = true;
    } else if (largest >= request.vocab_size) {
        return "--ids: id " + std::to_string(largest) + " is out of range for a vocab of " +
               group_thousands(request.vocab_size) + " (allowed: ids 0 to " + std::to_string(request.vocab_size - 1) + ")";
    }
    return std::nullopt;
}

// --text or --text-file: n is the number of GPT-2 tokens, V GPT-2's 50,257 unless --vocab says.
std::optional<std::string> cost_text(const RawOptions& raw, CostRequest& request) {
    const auto ids = read_ids(raw);
    if (!ids) return ids.error();
    const TokenIds& values = ids.value().values;
    if (values.size() > k_max_cost_tokens) {
        return std::string(ids_option(raw)) + " has " + group_thousands(values.size()) + " tokens (allowed: at most " +
               group_thousands(k_max_cost_tokens) + ")";
    }
    request.ids = values.size();
    request.token_source = TokenSource::text;
    if (request.vocab_size == 0) request.vocab_size = k_gpt2_vocab_size;
    const std::uint64_t largest = *std::max_element(values.begin(), values.end());
    if (largest >= request.vocab_size) {
        return std::string(ids_option(raw)) + ": token id " + std::to_string(largest) + " is out of range for a vocab of " +
               group_thousands(request.vocab_size) + " (allowed: --vocab at least " + group_thousands(largest + 1) + ")";
    }
    return std::nullopt;
}

}  // namespace

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

CommandLine validate_tokens(const RawOptions& raw) {
    CommandLine result;
    Options& options = result.options;
    options.lesson = Lesson::tokens;
    if (const std::string* option = unread_shared_option(raw, k_tokens_shared_options)) {
        return fail(*option + " has no effect on embdemo tokens (allowed with tokens: --text, --text-file, --ids, "
                    "--dim, --format and --piece)");
    }
    const int sources = (raw.text ? 1 : 0) + (raw.text_file ? 1 : 0) + (raw.ids ? 1 : 0);
    if (sources == 0) return fail("embdemo tokens needs --text TEXT or --text-file FILE (or --ids LIST to decode)");
    const auto format = find_named(k_formats, raw.format);
    if (!format) return fail(bad_value("--format", raw.format, "is not a known format", names_of(k_formats)));
    if (auto problem = check_lesson_format(raw, *format)) return fail(*problem);
    options.format = *format;
    if (raw.ids) {
        if (sources > 1) return fail(std::string(raw.text ? "--text" : "--text-file") + " and --ids each give the tokens (allowed: one of them)");
        if (raw.piece) return fail("--piece follows a piece of --text through BPE; --ids decodes ids (allowed: one of them)");
        if (raw.dim) return fail("--dim sets d for the table sizes of --text; --ids decodes ids (allowed: one of them)");
        auto ids = tokens_decode_ids(*raw.ids);
        if (!ids) return fail(ids.error());
        const auto vocab = gpt2_vocabulary();  // the run reads GPT-2's token bytes from it
        if (!vocab) return fail(vocab.error());
        options.tokens.decode_ids = std::move(ids.value());
        result.run = true;
        return result;
    }
    if (raw.text && raw.text_file) return fail("--text and --text-file each give the text (allowed: one of them)");
    auto text = given_text(raw);
    if (!text) return fail(text.error());
    // The same checks and messages as every lesson's --text; the lesson cuts the text itself.
    if (auto problem = check_text(text.value())) return fail(*problem);
    options.tokens.text = std::move(text.value().text);
    if (raw.dim) {
        const auto dim = parse_bounded("--dim", *raw.dim, 1, k_max_cost_dim);
        if (!dim) return fail(dim.error());
        options.tokens.dim = dim.value();
    }
    if (raw.piece) {
        const std::size_t pieces = count_gpt2_pieces(options.tokens.text);
        const auto piece = parse_bounded("--piece", *raw.piece, 0, pieces - 1);
        if (!piece) return fail(piece.error());
        options.tokens.piece = piece.value();
    }
    result.run = true;
    return result;
}

CommandLine validate_cost(const RawOptions& raw) {
    CommandLine result;
    Options& options = result.options;
    options.lesson = Lesson::cost;
    if (auto problem = check_cost_shared(raw)) return fail(*problem);
    const auto format = find_named(k_formats, raw.format);
    if (!format) return fail(bad_value("--format", raw.format, "is not a known format", names_of(k_formats)));
    if (auto problem = check_lesson_format(raw, *format)) return fail(*problem);
    options.format = *format;
    if (auto problem = cost_sizes(raw, options.cost)) return fail(*problem);
    if (raw.ids) {
        if (auto problem = cost_ids(*raw.ids, options.cost.vocab_size != 0, options.cost)) return fail(*problem);
    } else if (raw.text || raw.text_file) {
        if (auto problem = cost_text(raw, options.cost)) return fail(*problem);
    }
    result.run = true;
    return result;
}

}  // namespace embdemo::option_checks
