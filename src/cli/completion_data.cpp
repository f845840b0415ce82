#include "cli/completion_data.hpp"

#include <algorithm>
#include <iterator>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "cli/lessons/lesson.hpp"
#include "cli/option_checks.hpp"
#include "core/kernels/optim.hpp"
#include "core/kernels/position_encodings.hpp"
#include "core/lessons/bag_lesson.hpp"
#include "core/lessons/cost.hpp"
#include "core/lessons/grad_lesson.hpp"
#include "core/lessons/report_matrices.hpp"
#include "core/tokenizers/tokenized.hpp"

namespace embdemo {
namespace {

using Words = std::vector<std::string>;

// An option's fixed values, for one lesson ("values LESSON --option ...") when two lessons give
// the option different meanings (train's --model and cost's), or for all ("values --option ...").
struct FixedValues {
    std::string lesson;  // "" for every lesson that reads the option
    std::string option;
    Words values;
};

// The fixed values of each option that has them. Where the parser keeps a table, it is used;
// the others are checked against the parser by tests/scripts/completion.sh.
std::vector<FixedValues> fixed_values() {
    Words show, models;
    for (const ReportMatrix which : k_report_matrices) show.emplace_back(matrix_name(which));
    for (const ModelPreset& preset : k_model_presets) models.emplace_back(preset.name);
    Words encodings;
    for (const PositionEncodingTraits& traits : k_position_encodings) encodings.emplace_back(traits.name);
    Words tokenizers;
    for (const TokenizerKind kind : {TokenizerKind::gpt2, TokenizerKind::wordpiece, TokenizerKind::unigram, TokenizerKind::bpe}) {
        tokenizers.emplace_back(tokenizer_name(kind));
    }
    Words compared = tokenizers;
    compared.emplace_back("all");  // tokens compares them side by side
    return {
        {"", "--format", names_in(option_checks::k_formats)},
        {"", "--color", names_in(option_checks::k_color_modes)},
        {"", "--palette", names_in(option_checks::k_palettes)},
        {"", "--show", show},
        {"cost", "--model", models},
        {"train", "--model", {"bigram", "tied", "skipgram"}},
        {"", "--init", names_in(k_init_kinds)},
        {"", "--encoding", encodings},
        {"", "--mode", names_in(k_bag_modes)},
        {"", "--optimizer", names_in(k_optimizers)},
        {"", "--upstream", names_in(k_upstream_sources)},
        {"", "--norm-type", {"1", "2", "inf"}},
        {"tokens", "--tokenizer", compared},
        {"", "--tokenizer", tokenizers},
        {"train", "--level", {"gpt2", "token", "word", "char"}},
    };
}

template <std::size_t N>
bool listed(const char* const (&options)[N], const std::string& option) {
    return std::find(std::begin(options), std::end(options), option) != std::end(options);
}

// The shared options a lesson reads: those its checks do not refuse by name.
Words shared_options_of(const LessonSpec& lesson, const Words& all) {
    using namespace option_checks;
    if (lesson.shared_options != nullptr) return {lesson.shared_options, lesson.shared_options + lesson.shared_option_count};
    const auto refused_by_lesson = [&lesson](const std::string& option) {
        return std::find(lesson.refused_options, lesson.refused_options + lesson.refused_option_count, option) !=
               lesson.refused_options + lesson.refused_option_count;
    };
    Words taken;
    for (const std::string& option : all) {
        const bool refused = (!lesson.caps.demo_views && listed(k_lookup_only_options, option)) ||
                             (!lesson.caps.trace && option == "--trace") ||
                             (lesson.caps.table_ids && listed(k_table_lesson_refused_options, option) &&
                              !(lesson.caps.memory_budget && option == "--max-memory")) ||
                             refused_by_lesson(option);
        if (!refused) taken.push_back(option);
    }
    return taken;
}

void add_options(const LessonHelp& help, Words& options) {
    for (std::size_t i = 0; i < help.option_count; ++i) options.emplace_back(help.options[i].name);
}

std::string line(const std::string& head, const Words& words) {
    return fmt::format("{} {}\n", head, fmt::join(words, " "));
}

}  // namespace

std::string completion_data() {
    Words lessons, shared;
    for (auto spec = lessons_begin(); spec != lessons_end(); ++spec) lessons.emplace_back((*spec)->name);
    lessons.emplace_back("help");
    add_options(k_shared_help, shared);
    std::string out = line("lessons", lessons);
    out += line("options -", [&] {
        Words options{"--help", "--version"};
        options.insert(options.end(), shared.begin(), shared.end());
        return options;
    }());
    // Every option's kind of value, from its type name in --help: FILE, DIR, a flag, or free.
    Words files, dirs, free;
    const auto sort_value = [&](const OptionSpec& spec) {
        const std::string_view type = spec.type_name;
        Words& kind = type == "FILE" ? files : type == "DIR" ? dirs : free;
        if (!type.empty() && std::find(kind.begin(), kind.end(), spec.name) == kind.end()) kind.emplace_back(spec.name);
    };
    for (std::size_t i = 0; i < k_shared_help.option_count; ++i) sort_value(k_shared_help.options[i]);
    for (auto spec = lessons_begin(); spec != lessons_end(); ++spec) {
        if ((*spec)->caps.own_parser) continue;  // embdemo-bench: its --help lists them
        Words options{"--help"};
        add_options((*spec)->help, options);
        for (const std::string& option : shared_options_of(**spec, shared)) {
            // tokens declares --tokenizer of its own (it also takes all) and reads the shared one
            if (std::find(options.begin(), options.end(), option) == options.end()) options.push_back(option);
        }
        out += line("options " + std::string((*spec)->name), options);
        for (std::size_t i = 0; i < (*spec)->help.option_count; ++i) sort_value((*spec)->help.options[i]);
    }
    files.emplace_back("--upstream");  // randn, ones, or a file of G
    for (const FixedValues& fixed : fixed_values()) {
        out += line("values " + (fixed.lesson.empty() ? "" : fixed.lesson + " ") + fixed.option, fixed.values);
        free.erase(std::remove(free.begin(), free.end(), fixed.option), free.end());
    }
    out += line("files", files) + line("dirs", dirs) + line("free", free);
    return out;
}

}  // namespace embdemo
