#include "render/views/tokens/compare.hpp"

#include <iterator>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/lessons/tokens_lesson.hpp"
#include "core/limits.hpp"
#include "render/kit/json_text.hpp"
#include "render/kit/table.hpp"
#include "render/views/cost/text.hpp"  // how_many_times

namespace embdemo {

namespace {

constexpr std::size_t k_compared_pieces = 12;  // each tokenizer's first pieces, then a count

const char* long_name(TokenizerKind kind) {
    switch (kind) {
        case TokenizerKind::gpt2: break;
        case TokenizerKind::wordpiece: return "BERT's WordPiece (bert-base-uncased)";
        case TokenizerKind::unigram: return "Unigram trained on this text (SentencePiece)";
        case TokenizerKind::bpe: return "BPE trained on this text (SentencePiece)";
    }
    return "GPT-2's byte-level BPE";
}

double per_word(const TokenizerComparison& comparison, const Tokenized& tokenized) {
    return comparison.words == 0 ? 0.0 : static_cast<double>(tokenized.ids.size()) / static_cast<double>(comparison.words);
}

std::string pieces_section(const TokenizerComparison& comparison) {
    std::string out = "1. The pieces each tokenizer cuts, with their ids (the rows they look up)\n";
    for (const TokenizerRun& run : comparison.runs) {
        const Tokenized& t = run.tokenized;
        out += fmt::format("   {}: {}\n", tokenizer_name(t.kind), count_of(t.ids.size(), "token", "tokens"));
        std::vector<std::string> items;
        for (std::size_t i = 0; i < t.ids.size() && i < k_compared_pieces; ++i) {
            const bool unknown = t.has_unknown && t.ids[i] == t.unknown_id;
            items.push_back(fmt::format("{} {}{}", quoted_text(t.pieces[i], 20), t.ids[i], unknown ? " (unknown)" : ""));
        }
        if (t.ids.size() > k_compared_pieces) {
            items.push_back(fmt::format("... {} more", group_thousands(t.ids.size() - k_compared_pieces)));
        }
        out += fit_items(items, "     ", "     ", "  ");
    }
    return out;
}

std::string table_section(const TokenizerComparison& comparison) {
    const std::uint64_t d = comparison.request.dim;
    std::string out = fmt::format("2. Side by side (d = {}; share: of a GPT-2-small-shaped model whose other\n"
                                  "   parameters at this d are {})\n",
                                  group_thousands(d), group_thousands(comparison.body_parameters));
    out += fmt::format("   {:<9} {:>7} {:>8} {:>9} {:>9} {:>8} {:>11} {:>7}\n", "tokenizer", "V", "tokens", "per word",
                       "distinct", "unknown", "V x d", "share");
    for (const TokenizerRun& run : comparison.runs) {
        const Tokenized& t = run.tokenized;
        const std::string per = comparison.words == 0 ? "-" : fmt::format("{:.2f}", per_word(comparison, t));
        out += fmt::format("   {:<9} {:>7} {:>8} {:>9} {:>9} {:>8} {:>11} {:>7}\n", tokenizer_name(t.kind),
                           group_thousands(t.vocab_size), group_thousands(t.ids.size()), per,
                           group_thousands(t.distinct_ids), group_thousands(t.unknowns),
                           group_thousands(run.table_parameters), share_percent(run.model_share));
    }
    return out;
}

std::string findings_section(const TokenizerComparison& comparison) {
    std::string out;
    const std::uint64_t d = comparison.request.dim;
    out += wrap_words(fmt::format("3. The book's word split finds {} in this text, {} distinct: a word-level table "
                                  "for this text alone would need {} ({} parameters at d = {}), and one for a "
                                  "real corpus {} (GloVe's 6B vectors: {} parameters) to {} (word2vec's Google "
                                  "News vectors, words and phrases: {} parameters).",
                                  count_of(comparison.words, "word", "words"), group_thousands(comparison.distinct_words),
                                  count_of(comparison.distinct_words, "row", "rows"), group_thousands(comparison.distinct_words * d),
                                  group_thousands(d), group_thousands(k_glove_6b_words),
                                  group_thousands(k_glove_6b_words * d), group_thousands(k_word2vec_google_news_words),
                                  group_thousands(k_word2vec_google_news_words * d)),
                      "", "   ");
    for (const TokenizerRun& run : comparison.runs) {
        const Tokenized& t = run.tokenized;
        std::string unknowns;
        if (!t.has_unknown) {
            unknowns = "it has no unknown token: any byte is a token";
        } else if (t.unknowns == 0) {
            unknowns = "no piece of this text is unknown";
        } else {
            unknowns = fmt::format("{} of its {} {} unknown (id {}): what they spelled, no row of the table sees",
                                   group_thousands(t.unknowns), count_of(t.ids.size(), "token", "tokens"),
                                   t.unknowns == 1 ? "is" : "are", t.unknown_id);
        }
        // A text of white space has no words: nothing to divide by.
        const std::string against =
            comparison.distinct_words == 0
                ? fmt::format("{} (the text has no words)", count_of(t.ids.size(), "token", "tokens"))
                : fmt::format("{} the text's distinct words; {:.2f} tokens per word",
                              how_many_times(t.vocab_size, comparison.distinct_words), per_word(comparison, t));
        out += wrap_words(fmt::format("   {}: {} rows, {}; {}.", long_name(t.kind), group_thousands(t.vocab_size),
                                      against, unknowns),
                          "", "   ");
    }
    return out;
}

// The pieces as JSON strings: WordPiece's and SentencePiece's as they are (UTF-8 text), GPT-2's
// as its lesson spells them (token_label: a token can hold half a character).
std::string json_pieces(const Tokenized& tokenized) {
    std::string out = "[";
    for (std::size_t i = 0; i < tokenized.pieces.size(); ++i) {
        const std::string& piece = tokenized.pieces[i];
        out += (i ? ", " : "") + json_string(tokenized.kind == TokenizerKind::gpt2 ? token_label(piece) : piece);
    }
    return out + "]";
}

std::string runs_json(const TokenizerComparison& comparison) {
    std::string out = "[";
    for (const TokenizerRun& run : comparison.runs) {
        const Tokenized& t = run.tokenized;
        fmt::format_to(std::back_inserter(out),
                       "{}\n    {{\"tokenizer\": \"{}\", \"vocab_size\": {}, \"tokens\": {}, \"tokens_per_word\": {}, "
                       "\"distinct_ids\": {}, \"unknown_id\": {}, \"unknowns\": {}, \"table_parameters\": {}, "
                       "\"model_share\": {},\n     \"pieces\": {},\n     \"ids\": [{}]}}",
                       &run == comparison.runs.data() ? "" : ",", tokenizer_name(t.kind), t.vocab_size, t.ids.size(),
                       comparison.words == 0 ? "null" : json_number(per_word(comparison, t)), t.distinct_ids,
                       t.has_unknown ? std::to_string(t.unknown_id) : "null", t.unknowns, run.table_parameters,
                       json_number(run.model_share), json_pieces(t), fmt::join(t.ids, ", "));
    }
    return out + "\n  ]";
}

}  // namespace

std::string share_percent(double share) {
    const double percent = 100.0 * share;
    if (percent >= 0.1 || percent == 0.0) return fmt::format("{:.1f}%", percent);
    return fmt::format("{:.2g}%", percent);
}

std::string render_tokenizer_comparison_text(const TokenizerComparison& comparison) {
    const std::string& text = comparison.request.text;
    std::string out = "Tokenizers side by side: one text, the rows of each tokenizer's table\n";
    const std::string note = count_of(text.size(), "byte", "bytes");
    out += fmt::format("  text   {}  ({})\n\n", quoted_text(text, k_max_line_width - 18 - note.size()), note);
    out += pieces_section(comparison) + '\n';
    out += table_section(comparison) + '\n';
    out += findings_section(comparison);
    return out;
}

ParseResult<LessonReport> tokenizer_comparison_report(const TokenizerComparison& comparison,
                                                      std::uint64_t max_json_bytes) {
    std::string runs = runs_json(comparison);
    const std::uint64_t size = runs.size() + 6 * comparison.request.text.size();  // a text is escaped at most 6x
    if (size > max_json_bytes) {
        return ParseResult<LessonReport>::fail(fmt::format(
            "embdemo tokens --tokenizer --format json: the pieces and ids of this {}-byte text would take about {} "
            "bytes ({}) (allowed: at most {} bytes; use the text view, fewer tokenizers, or a shorter text)",
            group_thousands(comparison.request.text.size()), group_thousands(size), describe_bytes(size),
            group_thousands(max_json_bytes)));
    }
    LessonReport report;
    report.head = {{"schema", json_string(k_tokenizers_json_schema)}, {"text", json_string(comparison.request.text)}};
    report.checks = {
        {"dim", std::to_string(comparison.request.dim)},
        {"words", std::to_string(comparison.words)},
        {"distinct_words", std::to_string(comparison.distinct_words)},
        {"word_table_rows", std::to_string(k_glove_6b_words)},
        {"largest_word_table_rows", std::to_string(k_word2vec_google_news_words)},
        {"other_parameters", std::to_string(comparison.body_parameters)},
        {"tokenizers", std::move(runs)},
    };
    // Whole numbers float32 holds exactly: V is at most 2^20, and a 16 MiB text has fewer than 2^24
    // tokens. The table's parameters and share, which it may not hold, are in the JSON.
    Matrix rows(comparison.runs.size(), 4);
    for (std::size_t r = 0; r < comparison.runs.size(); ++r) {
        const Tokenized& t = comparison.runs[r].tokenized;
        const float values[] = {static_cast<float>(t.vocab_size), static_cast<float>(t.ids.size()),
                                static_cast<float>(t.distinct_ids), static_cast<float>(t.unknowns)};
        for (std::size_t c = 0; c < 4; ++c) rows.at(r, c) = values[c];
    }
    const Matrix* owned = own_matrix(report, std::move(rows));
    LessonTable table("tokenizers", "one row per tokenizer", owned, {owned->rows, owned->cols}, true);
    table.columns = {"vocab_size", "tokens", "distinct_ids", "unknowns"};
    table.in_json = false;
    table.row_text = [&comparison](std::size_t row) { return std::string(tokenizer_name(comparison.runs[row].tokenized.kind)); };
    table.row_text_name = "tokenizer";
    report.tables.push_back(std::move(table));
    return ParseResult<LessonReport>::ok(std::move(report));
}

}  // namespace embdemo
