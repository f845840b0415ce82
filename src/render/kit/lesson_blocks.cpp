#include "render/kit/lesson_blocks.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/table.hpp"

namespace embdemo {
namespace {

constexpr std::size_t k_max_forced_rows = 8;
constexpr std::size_t k_note_room = 24;   // notes up to this width stay beside their row
constexpr std::size_t k_min_cells = 40;   // never fewer characters of cells than this

}  // namespace

std::string render_header_lines(const std::string& title, const std::vector<HeaderLine>& lines) {
    std::size_t width = 0;
    for (const HeaderLine& line : lines) width = std::max(width, line.name.size());
    std::string out = title + '\n';
    for (const HeaderLine& line : lines) {
        const std::string text = fmt::format("  {}  {}{}", pad_right(line.name, width), line.value,
                                             line.note.empty() ? "" : "  (" + line.note + ")");
        out += text.size() <= k_max_line_width ? text + '\n'
                                               : wrap_words(text.substr(2), "  ", std::string(width + 4, ' '));
    }
    return out;
}

std::string render_header_lines(const std::string& title, std::vector<HeaderLine> lines, const IdBatch& ids) {
    const auto after_ids = std::find_if(lines.begin(), lines.end(), [](const HeaderLine& line) { return line.name == "ids"; });
    const std::vector<HeaderLine> tokens = token_parameters(ids);
    lines.insert(after_ids == lines.end() ? after_ids : after_ids + 1, tokens.begin(), tokens.end());
    return render_header_lines(title, lines);
}

std::vector<std::size_t> shown_rows(std::size_t rows, std::size_t cols, const std::vector<std::size_t>& forced) {
    std::vector<std::size_t> kept(forced.begin(), forced.begin() + std::min(forced.size(), k_max_forced_rows));
    return visible_positions(rows, should_summarise(rows, cols), kept);
}

std::size_t widest_label(const std::vector<BlockRow>& rows) {
    std::size_t width = 0;
    for (const BlockRow& row : rows) width = std::max(width, row.label.size());
    return width;
}

std::size_t widest_note(const std::vector<BlockRow>& rows) {
    std::size_t width = 0;
    for (const BlockRow& row : rows) width = std::max(width, row.note.size());
    return width;
}

std::size_t block_cells_budget(std::size_t label_width, std::size_t note_width) {
    const std::size_t used = 4 + label_width + 2 + (note_width ? 3 + std::min(note_width, k_note_room) : 0);
    return used + k_min_cells >= k_max_line_width ? k_min_cells : k_max_line_width - used;
}

std::string render_block(const Matrix& m, const std::vector<BlockRow>& rows, std::size_t label_width,
                         const Screen& screen, Palette palette) {
    std::string out;
    const std::string indent(4 + label_width + 2, ' ');
    for (const BlockRow& row : rows) {
        if (row.row == k_gap) {
            out += fmt::format("  {}  ...\n", std::string(label_width + 2, ' '));
            continue;
        }
        std::string line = fmt::format("{}  {}", pad_right(row.label, label_width),
                                       format_row_cells(m, row.row, screen.cols, screen.format_of(m)));
        line = row.marked ? paint(">", Paint::selected, palette) + ' ' + paint(line, Paint::selected, palette)
                          : "  " + line;
        const std::size_t plain_width = 4 + label_width + 2 + cells_width(screen.cols, screen.format.width);
        if (row.note.empty()) {
            out += "  " + line + '\n';
        } else if (plain_width + 3 + row.note.size() <= k_max_line_width) {
            out += "  " + line + "   " + row.note + '\n';
        } else {
            out += "  " + line + '\n' + wrap_words(row.note, indent, indent);
        }
    }
    return out;
}

std::string text_cells(const Screen& screen, const std::function<std::string(std::size_t)>& cell,
                       const Matrix* under) {
    const std::size_t width = under ? screen.format_of(*under).width : screen.format.width;
    std::string out;
    for (const std::size_t c : screen.cols) {
        if (!out.empty()) out += ' ';
        out += c == k_gap ? std::string("...") : pad_left(cell(c), width);
    }
    return out;
}

std::string flat_position_label(const IdBatch& ids, std::size_t flat) {
    if (!ids.batched) return fmt::format("ids[{}]", flat);
    return fmt::format("ids[{}, {}]", flat / ids.seq, flat % ids.seq);
}

std::string render_verdict(bool identical, const std::string& detail, Palette palette) {
    return wrap_words(fmt::format("verdict: {} -- {}", paint(identical ? "IDENTICAL" : "DIFFERENT",
                                                             identical ? Paint::good : Paint::bad, palette),
                                  detail),
                      "", "  ");
}

std::string millions(std::uint64_t count) {
    if (count < 1000000) return group_thousands(count);
    return fmt::format("{:.1f}M", static_cast<double>(count) / 1e6);
}

}  // namespace embdemo
