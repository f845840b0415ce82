#include "render/views/walkthrough_text.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/escape.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/lessons/tokens_lesson.hpp"
#include "core/limits.hpp"
#include "render/kit/parameters.hpp"
#include "render/kit/table.hpp"
#include "render/kit/token_label.hpp"

namespace embdemo {
namespace {

constexpr std::size_t k_listed_pieces = 6;   // a text's first pieces, and its longest split if later
constexpr std::size_t k_listed_ids = 6;      // a piece's (or a window's) first ids
constexpr std::size_t k_listed_windows = 4;  // the first batch's first windows

// Narration and code as walkthrough.cpp sets them.
std::string paragraph(const std::string& text) { return wrap_words(text, "  ", "  "); }
std::string code(const std::string& line) { return "      " + line + '\n'; }

std::size_t characters(std::string_view text) {
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xc0) != 0x80; }));
}

// Ids, each with its token, at most k_listed_ids of them and how many more.
std::vector<std::string> id_items(const std::uint64_t* ids, std::size_t count, const IdSource& source) {
    std::vector<std::string> items;
    for (std::size_t k = 0; k < count && k < k_listed_ids; ++k) items.push_back(short_id_label(ids[k], source));
    if (count > k_listed_ids) items.push_back(fmt::format("... {} more", group_thousands(count - k_listed_ids)));
    return items;
}

// `    " journey"  -> 7002 " journey"`, the ids wrapping under themselves.
std::string piece_line(const TokensLesson& lesson, const TokenPiece& piece, std::size_t width, const IdSource& source) {
    const std::string quoted = "    " + quoted_text(lesson.bytes_of(piece), 20);
    // Padded by the columns the piece takes: an emoji is one character of two columns and four bytes.
    const std::string first = quoted + std::string(width - display_width(quoted), ' ') + " -> ";
    return fit_items(id_items(lesson.ids_of(piece).begin(), piece.id_count, source), first,
                     std::string(width + 4, ' '), ", ");
}

// The pieces listed: the first ones, and the piece split into the most tokens when it comes later.
std::string pieces_list(const TokensLesson& lesson, std::size_t most_split, const IdSource& source) {
    std::vector<std::size_t> listed;
    for (std::size_t i = 0; i < lesson.pieces.size() && i < k_listed_pieces; ++i) listed.push_back(i);
    if (lesson.pieces[most_split].id_count > 1 && most_split >= k_listed_pieces) listed.push_back(most_split);
    std::size_t width = 0;
    for (const std::size_t i : listed) {
        width = std::max(width, 4 + display_width(quoted_text(lesson.bytes_of(lesson.pieces[i]), 20)));
    }
    std::string out;
    std::size_t next = 0;
    for (const std::size_t i : listed) {
        if (i > next) out += fmt::format("    ... {} ...\n", count_of(i - next, "piece", "pieces"));
        out += piece_line(lesson, lesson.pieces[i], width, source);
        next = i + 1;
    }
    if (next < lesson.pieces.size()) {
        out += fmt::format("    ... {} more\n", group_thousands(lesson.pieces.size() - next));
    }
    return out;
}

// What the listed pieces show, counted over the whole text (the piece split the most is listed).
std::string pieces_story(const TokensLesson& lesson, std::size_t most_split) {
    const std::size_t pieces = lesson.pieces.size();
    const std::size_t split = static_cast<std::size_t>(std::count_if(
        lesson.pieces.begin(), lesson.pieces.end(), [](const TokenPiece& piece) { return piece.id_count > 1; }));
    if (split == 0) {
        return pieces == 1 ? "The piece is a whole token."
                           : "Every piece is a whole token here, so there are as many ids as pieces.";
    }
    const std::string most = count_of(lesson.pieces[most_split].id_count, "token", "tokens");
    if (split == pieces) {
        return fmt::format("No piece is a whole token: {} split, the most into {} (listed above).",
                           pieces == 1 ? std::string("it is") : fmt::format("all {} are", group_thousands(pieces)), most);
    }
    return fmt::format("{} of the {} {} whole tokens; {} {} split, the most into {} (listed above).",
                       group_thousands(pieces - split), count_of(pieces, "piece", "pieces"),
                       pieces - split == 1 ? "is a" : "are", group_thousands(split), split == 1 ? "is" : "are", most);
}

// Tokens that hold only part of a character, and the special token, when the text has them.
std::string byte_story(const TokensLesson& lesson, const Gpt2Vocabulary& vocab) {
    std::size_t partial = 0;
    for (const std::uint64_t id : lesson.ids) partial += !is_valid_utf8(vocab.bytes(id));
    std::string story;
    if (partial > 0) {
        story += fmt::format(" {} only part of a character (its bytes written \\xNN): BPE works on UTF-8 bytes, "
                             "GPT-2's vocabulary has no token for the whole character, and only the ids decoded "
                             "together give it back.",
                             partial == 1 ? std::string("1 token holds") : group_thousands(partial) + " tokens hold");
    }
    const std::size_t special = static_cast<std::size_t>(
        std::count_if(lesson.pieces.begin(), lesson.pieces.end(), [](const TokenPiece& piece) { return piece.special; }));
    if (special > 0) {
        story += fmt::format(" <|endoftext|>{} is GPT-2's special token {}: never cut, never merged.",
                             special == 1 ? "" : fmt::format(" ({} times here)", group_thousands(special)),
                             group_thousands(k_gpt2_vocab_size - 1));
    }
    return story;
}

// "0, 2, 4" or "0, 2, 4, ..., 20": where the windows start.
std::string window_starts(std::size_t windows, std::size_t stride) {
    std::string out = windows == 1 ? "position " : "positions ";
    for (std::size_t w = 0; w < windows && w < 3; ++w) out += (w == 0 ? "" : ", ") + group_thousands(w * stride);
    if (windows > 4) out += ", ...";
    if (windows > 3) out += ", " + group_thousands((windows - 1) * stride);
    return out;
}

std::string loader_story(const DemoRequest& request, std::size_t text_ids) {
    const LoaderWindows& loader = request.source.loader;
    std::string out = paragraph(fmt::format(
        "The book's data loader cuts these {} ids into windows of max_length T = {} {}, a new window every "
        "stride S = {} {} while an id remains to predict: {}, starting at {} (i in range(0, {} - {}, {})). A "
        "window's target is the same window shifted one id to the right: at each position, the id that follows it.",
        group_thousands(text_ids), loader.context, loader.context == 1 ? "id" : "ids", loader.stride,
        loader.stride == 1 ? "id" : "ids", count_of(loader.windows, "window", "windows"),
        window_starts(loader.windows, loader.stride), text_ids, loader.context, loader.stride));
    const std::size_t batches = loader.windows / loader.batch;
    const std::size_t dropped = loader.windows % loader.batch;
    out += paragraph(fmt::format(
        "It hands the windows out in order (shuffle=False), batch_size B = {} at a time: {}{}. The steps below "
        "embed the first batch, B x T = {} x {} ids:",
        loader.batch, count_of(batches, "batch", "batches"),
        dropped == 0 ? std::string()
                     : fmt::format(", and drop_last=True drops the last {}, too few for a batch",
                                   dropped == 1 ? std::string("window") : fmt::format("{} windows", dropped)),
        loader.batch, loader.context));
    const std::size_t listed = std::min(request.shape.batch, k_listed_windows);
    for (std::size_t b = 0; b < listed; ++b) {
        const std::uint64_t* inputs = request.ids.data() + b * request.shape.seq;
        const std::uint64_t* targets = loader.targets.data() + b * request.shape.seq;
        const std::string input_head = fmt::format("    inputs[{}]  ", b);
        out += fit_items(id_items(inputs, request.shape.seq, request.source), input_head,
                         std::string(input_head.size(), ' '), ", ");
        const std::string target_head = fmt::format("    targets[{}] ", b);
        out += fit_items(id_items(targets, request.shape.seq, request.source), target_head,
                         std::string(target_head.size(), ' '), ", ");
    }
    if (listed < request.shape.batch) {
        out += fmt::format("    ... {} more\n", count_of(request.shape.batch - listed, "window", "windows"));
    }
    out += code(fmt::format("dataloader = create_dataloader_v1(text, batch_size={}, max_length={},", loader.batch,
                            loader.context));
    out += code(fmt::format("    stride={}, shuffle=False, drop_last=True)", loader.stride));
    out += code("inputs, targets = next(iter(dataloader))");
    return out;
}

}  // namespace

WalkthroughStep text_step(const DemoRequest& request, const Gpt2Vocabulary& vocab) {
    TokensRequest tokens;
    tokens.text = request.source.text;
    const TokensLesson lesson = run_tokens_lesson(vocab, tokens);
    const std::string& text = request.source.text;
    WalkthroughStep step{"the text, cut into token ids", "", {}};
    std::string& out = step.body;
    out += paragraph(fmt::format("We start from a text of {} ({}). A model never reads the text itself: GPT-2's "
                                 "tokenizer turns it into token ids, in two steps.",
                                 count_of(text.size(), "byte", "bytes"), count_of(characters(text), "character", "characters")));
    out += format_parameter_row(token_parameters(request.id_batch()).front());
    out += paragraph(fmt::format("First its pattern cuts the text into {}: a word with the space before it, a run "
                                 "of digits, a run of punctuation, or white space. Then byte-pair encoding (BPE) "
                                 "turns each piece into one token when GPT-2's vocabulary has the piece whole, or "
                                 "into several smaller ones: {} in all, each an id from 0 to {}.",
                                 count_of(lesson.pieces.size(), "piece", "pieces"),
                                 count_of(lesson.ids.size(), "token", "tokens"), group_thousands(k_gpt2_vocab_size - 1)));
    std::size_t most_split = 0;
    for (std::size_t i = 0; i < lesson.pieces.size(); ++i) {
        if (lesson.pieces[i].id_count > lesson.pieces[most_split].id_count) most_split = i;
    }
    out += pieces_list(lesson, most_split, request.source);
    out += paragraph(pieces_story(lesson, most_split) + byte_story(lesson, vocab));
    out += code("tokenizer = tiktoken.get_encoding(\"gpt2\")");
    const bool special = std::any_of(lesson.pieces.begin(), lesson.pieces.end(), [](const TokenPiece& p) { return p.special; });
    out += code(special ? "token_ids = tokenizer.encode(text, allowed_special={\"<|endoftext|>\"})"
                        : "token_ids = tokenizer.encode(text)");
    if (request.source.loader.used()) out += loader_story(request, lesson.ids.size());
    return step;
}

}  // namespace embdemo
