#include "render/views/tokens/report.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/limits.hpp"
#include "render/kit/json_text.hpp"
#include "render/kit/markdown_text.hpp"

namespace embdemo {
namespace {

// Counts the bytes a write would make: the JSON's size is known before it is allocated.
struct ByteCount {
    using value_type = char;
    std::size_t size = 0;
    void push_back(char) { ++size; }
    ByteCount& operator+=(std::string_view text) {
        size += text.size();
        return *this;
    }
};

// Every token's label as a JSON string, by id: a text uses the same few thousand tokens millions
// of times, and each is spelled twice.
std::vector<std::string> json_labels(const Gpt2Vocabulary& vocab) {
    std::vector<std::string> labels(vocab.size());
    for (std::uint64_t id = 0; id < vocab.size(); ++id) labels[id] = json_string(token_label(vocab.bytes(id)));
    return labels;
}

// The big fields, into a std::string or a ByteCount: one writer for both, so the count is exact.
template <typename Out>
void write_pieces(const TokensLesson& lesson, const std::vector<std::string>& labels, Out& out) {
    const auto sink = std::back_inserter(out);
    out += "[\n";
    for (std::size_t i = 0; i < lesson.pieces.size(); ++i) {
        const TokenPiece& piece = lesson.pieces[i];
        const IdRange ids = lesson.ids_of(piece);
        fmt::format_to(sink, "    {{\"text\": {}, \"ids\": [{}], \"tokens\": [",
                       json_string(token_label(lesson.bytes_of(piece))), fmt::join(ids, ", "));
        for (const std::uint64_t& id : ids) {
            if (&id != ids.begin()) out += ", ";
            out += labels[id];
        }
        fmt::format_to(sink, "], \"special\": {}}}{}\n", piece.special, i + 1 < lesson.pieces.size() ? "," : "");
    }
    out += "  ]";
}

template <typename Out>
void write_ids(const TokensLesson& lesson, Out& out) {
    fmt::format_to(std::back_inserter(out), "[{}]", fmt::join(lesson.ids, ", "));
}

template <typename Out>
void write_tokens(const TokensLesson& lesson, const std::vector<std::string>& labels, Out& out) {
    out += "[";
    for (std::size_t i = 0; i < lesson.ids.size(); ++i) {
        if (i > 0) out += ", ";
        out += labels[lesson.ids[i]];
    }
    out += "]";
}

template <typename Write>
std::string written(std::size_t size, const Write& write) {
    // Exactly the size counted: a growing string would hold its old and its new buffer at once.
    std::string out;
    out.reserve(size);
    write(out);
    return out;
}

std::string merges_json(const TokensLesson& lesson) {
    std::string out = "[";
    for (const BpeMerge& m : lesson.merges) {
        fmt::format_to(std::back_inserter(out), "{}{{\"left\": {}, \"right\": {}, \"merged\": {}, \"rank\": {}}}",
                       &m == lesson.merges.data() ? "" : ", ", m.left, m.right, m.merged, m.merged - 256);
    }
    return out + "]";
}

// A token's line in vocab.bpe (its merge rank), or -1 for the 256 single bytes and <|endoftext|>,
// which no merge made.
float merge_rank(std::uint64_t id) {
    return id >= 256 && id < k_gpt2_end_of_text ? static_cast<float>(id - 256) : -1.0f;
}

// The lists as tables of whole numbers. Every value is at most the text's size, and a text is
// at most 16 MiB = 2^24 bytes, which float32 holds exactly.
Matrix token_rows(const TokensLesson& lesson, const Gpt2Vocabulary& vocab) {
    Matrix m(lesson.ids.size(), 4);
    for (std::size_t p = 0; p < lesson.pieces.size(); ++p) {
        const TokenPiece& piece = lesson.pieces[p];
        for (std::size_t k = piece.first_id; k < piece.first_id + piece.id_count; ++k) {
            const std::uint64_t id = lesson.ids[k];
            const float row[] = {static_cast<float>(id), static_cast<float>(p),
                                 static_cast<float>(vocab.bytes(id).size()), merge_rank(id)};
            for (std::size_t c = 0; c < 4; ++c) m.at(k, c) = row[c];
        }
    }
    return m;
}

// `count` records of N numbers, record i from `record(i)`.
template <std::size_t N, typename Record>
Matrix record_rows(std::size_t count, const Record& record) {
    Matrix m(count, N);
    for (std::size_t i = 0; i < count; ++i) {
        const std::array<float, N> values = record(i);
        for (std::size_t c = 0; c < N; ++c) m.at(i, c) = values[c];
    }
    return m;
}

Matrix piece_rows(const TokensLesson& lesson) {
    return record_rows<5>(lesson.pieces.size(), [&](std::size_t p) {
        const TokenPiece& piece = lesson.pieces[p];
        return std::array<float, 5>{static_cast<float>(piece.offset), static_cast<float>(piece.size),
                                    static_cast<float>(piece.first_id), static_cast<float>(piece.id_count),
                                    piece.special ? 1.0f : 0.0f};
    });
}

Matrix merge_rows(const TokensLesson& lesson) {
    return record_rows<4>(lesson.merges.size(), [&](std::size_t k) {
        const BpeMerge& merge = lesson.merges[k];
        return std::array<float, 4>{static_cast<float>(merge.left), static_cast<float>(merge.right),
                                    static_cast<float>(merge.merged), merge_rank(merge.merged)};
    });
}

// A table of whole-number records, csv/tsv/markdown only (the JSON has the lists).
void add_records(LessonReport& report, std::string name, std::string formula, Matrix values,
                 std::vector<std::string> columns) {
    const Matrix* owned = own_matrix(report, std::move(values));
    LessonTable table(std::move(name), std::move(formula), owned, {owned->rows, owned->cols}, true);
    table.columns = std::move(columns);
    table.in_json = false;
    report.tables.push_back(std::move(table));
}

// What render_lesson_json makes of fields alone: "{\n", each `  "name": value` joined by
// ",\n" (with the version's field after "schema"), then "\n}\n".
std::uint64_t fields_json_size(const std::vector<LessonField>& fields, std::uint64_t big_values) {
    std::uint64_t size = 2 + big_values + 3;
    std::uint64_t count = fields.size();
    for (const LessonField& field : fields) {
        size += 6 + field.name.size() + field.json.size();
        if (field.name == "schema") {
            size += 6 + std::string(k_version_json_name).size() + version_json_value().size();
            ++count;
        }
    }
    return size + 2 * (count - 1);
}

}  // namespace

namespace {

// The three long lists a format prints: JSON all three, markdown the two it cuts its ids and
// tokens lines from (it leaves out the pieces' records), csv and tsv none (only the tables).
struct Lists {
    bool pieces = false;
    bool ids = false;
    bool tokens = false;
};

Lists lists_of(OutputFormat format) {
    switch (format) {
        case OutputFormat::csv:
        case OutputFormat::tsv: return {};
        case OutputFormat::markdown: return {false, true, true};
        default: return {true, true, true};
    }
}

// The report with the lists `format` prints, or why they are refused: a JSON past
// `max_json_bytes`, or tables of more than `max_table_values` numbers in csv or tsv.
ParseResult<LessonReport> build_report(const TokensLesson& lesson, const Gpt2Vocabulary& vocab, OutputFormat format,
                                       std::uint64_t max_json_bytes, std::uint64_t max_table_values) {
    const Lists lists = lists_of(format);
    if (auto refused = check_tokens_tables(format, lesson.request.text.size(), lesson.ids.size(), lesson.pieces.size(),
                                           max_table_values)) {
        return ParseResult<LessonReport>::fail(*refused);
    }
    const std::vector<std::string> labels =
        lists.pieces || lists.tokens ? json_labels(vocab) : std::vector<std::string>{};
    ByteCount pieces_size;
    if (lists.pieces) write_pieces(lesson, labels, pieces_size);
    ByteCount ids_size;
    if (lists.ids) write_ids(lesson, ids_size);
    ByteCount tokens_size;
    if (lists.tokens) write_tokens(lesson, labels, tokens_size);

    LessonReport report;
    // In the schema's order; the three long lists are written once their size has passed the cap.
    report.head = {{"schema", json_string(k_tokens_json_schema)}, {"text", json_string(lesson.request.text)}};
    report.checks = {
        {"pieces", ""},
        {"followed_piece", std::to_string(lesson.followed)},
        {"merges", merges_json(lesson)},
        {"ids", ""},
        {"tokens", ""},
        {"distinct_tokens", std::to_string(lesson.distinct_tokens)},
        {"words", std::to_string(lesson.words)},
        {"distinct_words", std::to_string(lesson.distinct_words)},
        {"dim", std::to_string(lesson.request.dim)},
        {"word_table_rows", std::to_string(k_glove_6b_words)},
        {"gpt2_table_rows", std::to_string(k_gpt2_vocab_size)},
    };
    if (format == OutputFormat::json) {
        std::vector<LessonField> fields = report.head;
        fields.insert(fields.end(), report.checks.begin(), report.checks.end());
        const std::uint64_t size = fields_json_size(fields, pieces_size.size + ids_size.size + tokens_size.size);
        if (size > max_json_bytes) {
            return ParseResult<LessonReport>::fail(fmt::format(
                "embdemo tokens --format json: the JSON of this {}-byte text would be {} bytes ({}) (allowed: at most "
                "{} bytes; use the text view, or a shorter text)",
                group_thousands(lesson.request.text.size()), group_thousands(size), describe_bytes(size),
                group_thousands(max_json_bytes)));
        }
    }
    if (lists.pieces) {
        report.checks[0].json = written(pieces_size.size, [&](std::string& out) { write_pieces(lesson, labels, out); });
    }
    if (lists.ids) report.checks[3].json = written(ids_size.size, [&](std::string& out) { write_ids(lesson, out); });
    if (lists.tokens) {
        report.checks[4].json = written(tokens_size.size, [&](std::string& out) { write_tokens(lesson, labels, out); });
    }
    // A list the format does not print is no field of it.
    const auto unprinted = [&](const LessonField& field) {
        return (field.name == "pieces" && !lists.pieces) || (field.name == "ids" && !lists.ids) ||
               (field.name == "tokens" && !lists.tokens);
    };
    report.checks.erase(std::remove_if(report.checks.begin(), report.checks.end(), unprinted), report.checks.end());

    add_records(report, "token_ids", "GPT-2's ids of the text, in order", token_rows(lesson, vocab),
                {"id", "piece", "bytes", "rank"});
    report.tables.back().row_text = [&vocab, &lesson](std::size_t row) {
        return token_label(vocab.bytes(lesson.ids[row]));
    };
    report.tables.back().row_text_name = "token";
    add_records(report, "piece_spans", "the pieces GPT-2's pattern cut", piece_rows(lesson),
                {"offset", "bytes", "first_token", "tokens", "special"});
    report.tables.back().row_text = [&lesson](std::size_t row) {
        // A piece can be a megabyte long; markdown shows its start.
        return token_label(cut_for_markdown(lesson.bytes_of(lesson.pieces[row]), k_row_text_chars + 1));
    };
    report.tables.back().row_text_name = "piece";
    add_records(report, "followed_merges", fmt::format("BPE's merges of piece {}", lesson.followed),
                merge_rows(lesson), {"left", "right", "merged", "rank"});
    report.tables.back().row_text = [&vocab, &lesson](std::size_t row) {
        return token_label(vocab.bytes(lesson.merges[row].merged));
    };
    report.tables.back().row_text_name = "token";
    return ParseResult<LessonReport>::ok(std::move(report));
}

}  // namespace

std::optional<std::string> check_tokens_tables(OutputFormat format, std::uint64_t text_bytes, std::uint64_t ids,
                                               std::uint64_t pieces, std::uint64_t max_table_values) {
    if (format != OutputFormat::csv && format != OutputFormat::tsv) return std::nullopt;
    const std::uint64_t values = 4 * ids + 5 * pieces;
    if (values <= max_table_values) return std::nullopt;
    return fmt::format(
        "embdemo tokens --format {}: the tables of this {}-byte text would print {} numbers (4 an id, 5 a piece) "
        "(allowed: at most {}; use the text view, or a shorter text)",
        format == OutputFormat::csv ? "csv" : "tsv", group_thousands(text_bytes), group_thousands(values),
        group_thousands(max_table_values));
}

ParseResult<LessonReport> tokens_report(const TokensLesson& lesson, const Gpt2Vocabulary& vocab,
                                        std::uint64_t max_json_bytes) {
    return build_report(lesson, vocab, OutputFormat::json, max_json_bytes, k_max_tokens_table_values);
}

ParseResult<LessonReport> tokens_report(const TokensLesson& lesson, const Gpt2Vocabulary& vocab, OutputFormat format,
                                        std::uint64_t max_table_values) {
    return build_report(lesson, vocab, format, k_max_tokens_json_bytes, max_table_values);
}

}  // namespace embdemo
