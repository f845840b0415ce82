#include "render/kit/parameters.hpp"

#include "core/escape.hpp"
#include "core/gpt2/data_loader.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/gpt2/gpt2_vocab.hpp"
#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/table.hpp"
#include "render/kit/id_text.hpp"

namespace embdemo {

std::string format_parameter_row(const Parameter& parameter) {
    // A name as wide as the column ("targets") still gets its gap; a value too long for the line
    // (the data loader's call) wraps under itself.
    const std::string name = fmt::format("  {:<7}", parameter.name.size() >= 7 ? parameter.name + ' ' : parameter.name);
    std::string row = name + parameter.value;
    if (display_width(row) > k_max_line_width) {
        row = wrap_words(parameter.value, name, std::string(name.size(), ' '));
        row.pop_back();  // wrap_words ends its last line; the note decides what follows
    }
    if (parameter.note.empty()) return row + '\n';
    const std::string note = "(" + parameter.note + ")";
    if (display_width(row) + 2 + display_width(note) <= k_max_line_width) return row + "  " + note + '\n';
    // A note too long for a line of its own wraps there too (a 20-digit seed's note did not).
    return row + '\n' + wrap_words(note, std::string(9, ' '), std::string(10, ' '));
}

std::vector<Parameter> token_parameters(const IdBatch& ids) {
    if (!ids.source.from_text()) return {};
    constexpr std::size_t k_value_width = 66;  // 80 minus the indent, the name and the gaps
    const std::string quoted = quoted_text(ids.source.text, k_value_width - 5);
    std::vector<Parameter> rows{{"text", quoted, group_thousands(ids.source.text.size()) + " bytes, " + tokenizer_title(ids.source.tokenizer)}};
    std::string line;
    const auto add = [&](const std::string& item) {  // "... N more" too: it takes columns like a token
        if (!line.empty() && line.size() + 3 + item.size() > k_value_width) {
            rows.push_back({rows.size() == 1 ? "tokens" : "", line, ""});
            line.clear();
        }
        line += (line.empty() ? "" : "   ") + item;
    };
    const std::size_t listed = std::min(ids.values.size(), k_max_listed_tokens);
    for (std::size_t i = 0; i < listed; ++i) {
        add(fmt::format("ids[{}] = {} \"{}\"", torch_index(ids.shape(), i), ids.values[i],
                        ids.source.token_of(ids.values[i])));
    }
    if (listed < ids.values.size()) add(fmt::format("... {} more", group_thousands(ids.values.size() - listed)));
    rows.push_back({rows.size() == 1 ? "tokens" : "", line, ""});
    const LoaderWindows& loader = ids.source.loader;
    if (loader.used()) {
        rows.push_back({"loader",
                        fmt::format("the first batch of create_dataloader_v1(batch_size={}, max_length={}, stride={}, "
                                    "shuffle=False, drop_last=True)", loader.batch, loader.context, loader.stride),
                        fmt::format("the text makes {} of {}", count_of(loader.windows, "window", "windows"),
                                    count_of(loader.context, "token", "tokens"))});
        rows.push_back({"targets", format_id_batch(target_batch(loader.targets, ids.batch, ids.seq)),
                        "each window shifted by one token: what the model learns to predict"});
    }
    return rows;
}

std::string vocab_note(DemoRequest::VocabSource source, TokenizerKind tokenizer) {
    switch (source) {
        case DemoRequest::VocabSource::largest_id: return "largest id + 1; set it with --vocab";
        case DemoRequest::VocabSource::weights_file: return "rows in the file";
        case DemoRequest::VocabSource::tokenizer: return tokenizer_vocabulary(tokenizer);
        case DemoRequest::VocabSource::option: break;
    }
    return "";
}

DemoRequest::VocabSource table_vocab_source(bool vocab_inferred, const IdBatch& ids, std::uint64_t vocab_size) {
    if (vocab_inferred) return DemoRequest::VocabSource::largest_id;
    if (ids.source.from_text() && vocab_size == ids.source.vocab_size) return DemoRequest::VocabSource::tokenizer;
    return DemoRequest::VocabSource::option;
}

std::string seed_note(std::uint64_t seed, const std::string& base) {
    if (seed <= UINT32_MAX) return base;
    return fmt::format("{}; PyTorch's CPU generator keeps the low 32 bits: {}", base, seed & UINT32_MAX);
}

bool seed_draws_table(const WeightOrigin& origin) {
    return origin.kind == WeightOrigin::Kind::torch || origin.kind == WeightOrigin::Kind::torch_randint;
}

std::string seed_json(std::uint64_t seed, bool drew) { return drew ? std::to_string(seed) : "null"; }

std::vector<Parameter> demo_parameters(const DemoRequest& request, const std::string& ids_text) {
    const bool from_file = request.origin.kind == WeightOrigin::Kind::file;
    std::vector<Parameter> parameters;
    const IdShape& shape = request.shape;
    parameters.push_back({"ids", ids_text, describe_id_count(shape, request.ids.size())});
    for (Parameter& token : token_parameters(request.id_batch())) parameters.push_back(std::move(token));
    parameters.push_back({"vocab", group_thousands(request.vocab_size), vocab_note(request.vocab_source, request.source.tokenizer)});
    parameters.push_back({"dim", group_thousands(request.dim), from_file ? "columns in the file" : ""});
    const std::string n = group_thousands(request.ids.size());
    const std::string v = group_thousands(request.vocab_size);
    const std::string d = group_thousands(request.dim);
    parameters.push_back({"shapes", "E " + v + " x " + d + ", X " + per_id_shape(shape, request.ids.size(), request.vocab_size) +
                                        ", lookup and product " + per_id_shape(shape, request.ids.size(), request.dim), ""});
    switch (request.origin.kind) {
        case WeightOrigin::Kind::torch:
            parameters.push_back({"seed", std::to_string(request.seed), seed_note(request.seed, "torch.manual_seed")});
            break;
        case WeightOrigin::Kind::torch_randint:
            parameters.push_back({"seed", std::to_string(request.seed),
                                  seed_note(request.seed, "torch.manual_seed, then torch.randint")});
            break;
        case WeightOrigin::Kind::index_pattern:
            parameters.push_back({"init", "index pattern, no random numbers", ""});
            break;
        case WeightOrigin::Kind::file:
            parameters.push_back({"file", escape_for_message(request.origin.detail), ""});
            break;
    }
    return parameters;
}

}  // namespace embdemo
