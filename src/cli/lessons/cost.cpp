// embdemo cost: what each form costs for n, V, d or a real model; counts only, nothing to load.
#include <algorithm>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "cli/lesson_kit.hpp"
#include "cli/option_checks.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/limits.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/option_spec.hpp"
#include "cli/lessons/table_lesson.hpp"
#include "render/views/cost/view.hpp"

namespace embdemo {
namespace {

using namespace option_checks;

std::optional<std::string> check_cost_shared(const RawOptions& raw) {
    if (const std::string* option = unread_shared_option(raw)) {
        return *option + " has no effect on embdemo cost (allowed with cost: --ids, --text, --text-file, --tokenizer, "
               "--vocab-size, --vocab, --dim, --format and the options of embdemo cost --help)";
    }
    return std::nullopt;
}

// n from --ids or --tokens, V and d from --model or --vocab/--dim (or the ids), each bounded.
std::optional<std::string> cost_sizes(const RawOptions& raw, CostRequest& request) {
    const bool has_ids = raw.ids || raw.text || raw.text_file;
    if (has_ids && raw.value("--tokens")) return std::string(ids_option(raw)) + " and --tokens both give n (allowed: one of them)";
    if (const std::string* model = raw.value("--model")) {
        const auto preset = model_preset_option(*model, raw.vocab || raw.dim);
        if (!preset) return preset.error();
        use_model_preset(*preset.value(), request);
    } else if ((!has_ids && !raw.value("--tokens")) || !raw.dim || (raw.value("--tokens") && !raw.vocab)) {
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
    if (const std::string* tokens = raw.value("--tokens")) {
        if (auto problem = read_bounded("--tokens", *tokens, 1, k_max_cost_tokens, request.ids)) return problem;
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

// --text or --text-file: n is the number of the tokenizer's tokens, V its vocabulary's size
// (GPT-2's 50,257) unless --vocab says.
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
    request.tokenizer = ids.value().source.tokenizer;
    if (request.vocab_size == 0) request.vocab_size = ids.value().source.vocab_size;
    const std::uint64_t largest = *std::max_element(values.begin(), values.end());
    if (largest >= request.vocab_size) {
        return std::string(ids_option(raw)) + ": token id " + std::to_string(largest) + " is out of range for a vocab of " +
               group_thousands(request.vocab_size) + " (allowed: --vocab at least " + group_thousands(largest + 1) + ")";
    }
    return std::nullopt;
}

}  // namespace

CommandLine check_cost(const RawOptions& raw) {
    CommandLine result;
    Options& options = result.options;
    options.lesson = raw.lesson;
    if (auto problem = check_cost_shared(raw)) return fail(*problem);
    const auto format = find_named(k_formats, raw.format);
    if (!format) return fail(bad_value("--format", raw.format, "is not a known format", names_of(k_formats)));
    if (auto problem = check_lesson_format(raw, *format)) return fail(*problem);
    options.format = *format;
    if (const auto tokenizer = text_tokenizer(raw); !tokenizer) return fail(tokenizer.error());
    CostRequest& cost = own_settings<CostRequest>(options);
    if (auto problem = cost_sizes(raw, cost)) return fail(*problem);
    if (raw.ids) {
        if (auto problem = cost_ids(*raw.ids, cost.vocab_size != 0, cost)) return fail(*problem);
    } else if (raw.text || raw.text_file) {
        if (auto problem = cost_text(raw, cost)) return fail(*problem);
    }
    result.run = true;
    return result;
}

int run_cost(const Options& options) {
    const CostLesson lesson = run_cost_lesson(own_settings<CostRequest>(options));
    const LessonView view = table_view(lesson, cost_report, [](const CostLesson& shown, const TextOptions&, View) {
        return render_cost_text(shown);
    }, [](const CostLesson& shown, int) { return cost_figure(shown); }, nullptr);
    return write_view(options, view);
}


namespace {

constexpr const char* k_cost_footer = R"(The sizes come from --model, or from --tokens N (or --ids LIST, n = its
length) with --vocab V and --dim D; --format json or csv gives every count
exactly, svg or html draws them on a log scale.
Models: gpt2 (GPT-2 small, V 50,257, d 768, n 1,024), gpt2-xl (d 1,600),
llama3-8b (V 128,256, d 4,096, n 8,192), bert-base (V 30,522, d 768),
llama-3.2-1b (V 128,256, d 2,048), qwen2.5-0.5b (V 151,936, d 896),
gemma-3-270m (V 262,144, d 640), xlm-r-base (V 250,002, d 768); n is the
model's context length unless --tokens or --ids says otherwise. With a model,
the table's share of its parameters and ALBERT's factorised saving (r = 128).

Examples:
  embdemo cost --model gpt2                     GPT-2 small, 1,024 tokens
  embdemo cost --model llama3-8b --tokens 1     one token of a large vocabulary
  embdemo cost --model gemma-3-270m --tokens 1  a table that is most of a model
  embdemo cost --ids 2,3,1 --dim 5              the notebook's sizes
  embdemo cost --tokens 4096 --vocab 32000 --dim 4096 --format json

Exit status: 0, or 2 for bad input (one line on stderr), 1 for a failed write.)";

const OptionSpec k_cost_options[] = {
    own_value("--model", "NAME", "a real model's sizes (the list below)"),
    own_value("--tokens", "N", "n, the number of ids (1 to 1,048,576)"),
};

}  // namespace

// The shared options cost reads; any other one given is refused rather than ignored.
constexpr const char* k_cost_shared_options[] = {"--ids", "--text", "--text-file", "--tokenizer", "--vocab-size",
                                                 "--vocab", "--dim", "--format"};

extern const LessonSpec k_cost_lesson = [] {
    LessonSpec spec{"cost", "the cost of both forms for n, V, d or a real model"};
    spec.caps.one_hot = std::nullopt;  // it counts, and holds nothing
    spec.help = lesson_help(k_cost_options, "", k_cost_footer);
    spec.formats = fixed_formats<k_every_format & ~format_bit(OutputFormat::python)>;
    spec.checks.whole = check_cost;
    spec.run = run_cost;
    spec.shared_options = k_cost_shared_options;
    spec.shared_option_count = std::size(k_cost_shared_options);
    return spec;
}();

}  // namespace embdemo
