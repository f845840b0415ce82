#include "bench/options.hpp"

#include <CLI/CLI.hpp>

#include "core/escape.hpp"
#include "core/ids.hpp"
#include "core/limits.hpp"

namespace embdemo {
namespace {

constexpr const char* k_description =
    "embdemo bench times the two forms of an embedding on this machine: the lookup\n"
    "(a row copy), the one-hot product through OpenBLAS's cblas_sgemm and through\n"
    "embdemo's own dense kernel (every term, in order of k), the sparse (CSR)\n"
    "one-hot product, the naive reference loop (small sizes only) and a memcpy of\n"
    "the same bytes. Medians after a warm-up; every result is checked against the\n"
    "lookup. E is filled with pseudo-random floats (xorshift, not torch's draw).\n";

constexpr const char* k_footer = R"(The sizes come from --model (n = its context length unless --tokens says
otherwise), or from --tokens, --vocab and --dim. Models: gpt2 (V 50,257, d 768,
n 1,024), gpt2-xl (d 1,600), llama3-8b (V 128,256, d 4,096, n 8,192).
Runs that would need more memory than is available (or than --max-memory) are
refused before anything is allocated. OPENBLAS_CORETYPE, when set, chooses
OpenBLAS's kernels; the output says which core ran.

Examples:
  embdemo bench --model gpt2                   GPT-2 small, 1,024 tokens
  embdemo bench --model gpt2 --tokens 8192 --threads 1
  embdemo bench --tokens 64 --vocab 1000 --dim 64 --format json
  embdemo bench --tokenizer book.txt           GPT-2's tokenizer, MB/s, next to
                                               js-tiktoken's when node has it

Exit status: 0, 3 when a path's result differs from the lookup's, 2 for bad
input (one line on stderr), 1 for a failed write.)";

struct Raw {
    std::optional<std::string> model, tokens, vocab, dim, threads, repeats, max_memory, tokenizer;
    std::string format = "text";
};

BenchCommandLine fail(std::string message) {
    BenchCommandLine result;
    result.exit_code = 2;
    result.error = std::move(message);
    return result;
}

// A decimal integer option from `min` to `max`, or the message saying so.
std::optional<std::string> bounded(const char* option, const std::optional<std::string>& text, std::uint64_t min,
                                   std::uint64_t max, std::uint64_t& value) {
    if (!text) return std::nullopt;
    const auto parsed = parse_decimal(*text, max);
    if (parsed && parsed.value() >= min) {
        value = parsed.value();
        return std::nullopt;
    }
    return std::string(option) + ' ' + quote_for_message(*text) + ": " +
           (parsed ? "is less than " + std::to_string(min) : parsed.error()) + " (allowed: a decimal integer from " +
           group_thousands(min) + " to " + group_thousands(max) + ')';
}

std::optional<std::string> sizes(const Raw& raw, BenchConfig& config) {
    if (raw.model) {
        const auto preset = model_preset_option(*raw.model, raw.vocab || raw.dim);
        if (!preset) return preset.error();
        use_model_preset(*preset.value(), config);
    } else if (!raw.tokens || !raw.vocab || !raw.dim) {
        return std::string("embdemo bench needs sizes: --model NAME, or --tokens N, --vocab V and --dim D; "
                           "see embdemo bench --help");
    }
    if (auto problem = bounded("--vocab", raw.vocab, 1, k_max_cost_vocab, config.vocab_size)) return problem;
    if (auto problem = bounded("--dim", raw.dim, 1, k_max_cost_dim, config.dim)) return problem;
    if (raw.tokens) config.token_source = TokenSource::tokens;
    return bounded("--tokens", raw.tokens, 1, k_max_cost_tokens, config.ids);
}

// --tokenizer FILE: a run of its own, which takes only --repeats and --format.
BenchCommandLine validate_tokenizer(const Raw& raw) {
    BenchCommandLine result;
    if (raw.model || raw.tokens || raw.vocab || raw.dim || raw.threads || raw.max_memory) {
        return fail("--tokenizer times GPT-2's tokenizer on a text (allowed with it: --repeats and --format)");
    }
    std::uint64_t repeats = 5;
    if (auto problem = bounded("--repeats", raw.repeats, 1, 1000, repeats)) return fail(*problem);
    if (raw.format != "text" && raw.format != "json") {
        return fail("--format " + quote_for_message(raw.format) + ": is not a format of embdemo bench (allowed: text, json)");
    }
    result.json = raw.format == "json";
    result.tokenizer_file = *raw.tokenizer;
    result.tokenizer_repeats = repeats;
    result.run = true;
    return result;
}

BenchCommandLine validate(const Raw& raw, unsigned cores) {
    if (raw.tokenizer) return validate_tokenizer(raw);
    BenchCommandLine result;
    BenchConfig& config = result.config;
    if (auto problem = sizes(raw, config)) return fail(*problem);
    std::uint64_t threads = cores;
    if (auto problem = bounded("--threads", raw.threads, 1, 256, threads)) return fail(*problem);
    config.threads = static_cast<unsigned>(threads);
    result.threads_given = raw.threads.has_value();
    std::uint64_t repeats = 0;
    if (auto problem = bounded("--repeats", raw.repeats, 1, 1000, repeats)) return fail(*problem);
    config.repeats = repeats;
    if (raw.format == "json") {
        result.json = true;
    } else if (raw.format != "text") {
        return fail("--format " + quote_for_message(raw.format) + ": is not a format of embdemo bench (allowed: text, json)");
    }
    if (raw.max_memory) {
        const auto budget = parse_memory_size(*raw.max_memory);
        if (!budget) {
            return fail("--max-memory " + quote_for_message(*raw.max_memory) + ": " + budget.error() +
                        " (allowed: a size of at least 1M: bytes, or a number with K, M, G or T, e.g. 512M, 4G)");
        }
        result.max_memory = budget.value();
    }
    result.run = true;
    return result;
}

// What CLI11 2.1.2 would misread or word its own way, found before it parses: "--opt=" with
// nothing after the "=" (read as "--opt", taking the next word), an unknown option or a stray
// word (said in CLI11's words, "The following arguments were not expected").
std::optional<std::string> check_words(const CLI::App& app, int argc, const char* const argv[]) {
    for (int i = 1; i < argc; ++i) {
        const std::string word = argv[i];
        if (word == "--") {
            return std::string("unexpected \"--\" (allowed: options only; embdemo bench takes no other arguments)");
        }
        if (word.size() < 2 || word[0] != '-') {
            return "unexpected argument " + quote_for_message(word) +
                   " (allowed: options only, e.g. embdemo bench --model gpt2)";
        }
        const std::size_t equals = word.rfind("--", 0) == 0 ? word.find('=') : std::string::npos;
        const std::string name = word.substr(0, equals);
        const CLI::Option* option = app.get_option_no_throw(name);
        if (option == nullptr) {
            return "unknown option " + quote_for_message(word) + " (allowed: the options listed by embdemo bench --help)";
        }
        if (option->get_expected_min() == 0) {  // --help
            if (equals != std::string::npos) {
                return name + ' ' + quote_for_message(word.substr(equals + 1)) +
                       ": is a flag and takes no value (allowed: " + name + " alone)";
            }
            continue;
        }
        if (equals != std::string::npos) {
            if (equals + 1 == word.size()) {
                return name + " \"\": is empty (allowed: a value after the \"=\", or " + name + " VALUE)";
            }
            continue;
        }
        // The option's value: any word but another option ("-1" is a value, refused by the
        // validators in their words).
        ++i;
        const std::string value = i < argc ? argv[i] : "";
        const bool is_option = value.size() > 1 && value[0] == '-' && !(value[1] >= '0' && value[1] <= '9');
        if (i == argc || is_option) return name + " needs a value; see embdemo bench --help";
    }
    return std::nullopt;
}

// CLI11's errors that check_words leaves possible, in embdemo's words.
std::string describe_parse_error(const CLI::App& app, const CLI::ParseError& error) {
    for (const CLI::Option* option : app.get_options()) {
        if (option->count() > 1) {
            return option->get_name() + " was given " + std::to_string(option->count()) + " times (allowed: once)";
        }
    }
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&error) != nullptr) {
        const std::string what = error.what();
        const std::string name = what.substr(0, what.find(':'));
        if (app.get_option_no_throw(name) != nullptr) return name + " needs a value; see embdemo bench --help";
    }
    return "the command line cannot be read (allowed: the options of embdemo bench --help, each given once, with "
           "its value after a space or an \"=\")";
}

}  // namespace

BenchCommandLine parse_bench_command_line(int argc, const char* const argv[], unsigned cores) {
    CLI::App app{k_description, "embdemo bench"};
    app.footer(k_footer);
    app.get_formatter()->column_width(24);
    Raw raw;
    const auto single = [](CLI::Option* option) { return option->multi_option_policy(CLI::MultiOptionPolicy::Throw); };
    single(app.add_option("--model", raw.model, "a real model's sizes: gpt2, gpt2-xl, llama3-8b"))->type_name("NAME");
    single(app.add_option("--tokens", raw.tokens, "n, the number of ids (1 to 1,048,576)"))->type_name("N");
    single(app.add_option("--vocab", raw.vocab, "V, rows of E (1 to 16,777,216)"))->type_name("V");
    single(app.add_option("--dim", raw.dim, "d, columns of E (1 to 65,536)"))->type_name("D");
    single(app.add_option("--threads", raw.threads, "threads for every path (default: all cores)"))->type_name("N");
    single(app.add_option("--repeats", raw.repeats, "timed runs per path (default: ~0.5 s)"))->type_name("N");
    single(app.add_option("--format", raw.format, "text or json"))->type_name("FORMAT")->capture_default_str();
    single(app.add_option("--max-memory", raw.max_memory, "refuse runs needing more (default: available)"))
        ->type_name("SIZE");
    single(app.add_option("--tokenizer", raw.tokenizer, "time GPT-2's tokenizer on a UTF-8 file of 1 MB+"))
        ->type_name("FILE");
    if (auto problem = check_words(app, argc, argv)) return fail(*problem);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        BenchCommandLine result;
        result.stdout_text = app.help();
        return result;
    } catch (const CLI::ParseError& error) {
        return fail(describe_parse_error(app, error));
    }
    return validate(raw, cores);
}

}  // namespace embdemo
