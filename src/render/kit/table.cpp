#include "render/kit/table.hpp"

#include <algorithm>
#include <string_view>

#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/limits.hpp"

namespace embdemo {

bool should_summarise(std::size_t rows, std::size_t cols) {
    return rows * cols > k_summary_threshold;
}

std::vector<std::size_t> visible_positions(std::size_t size, bool summarise,
                                           std::vector<std::size_t> always_show,
                                           std::size_t edge_items) {
    std::vector<std::size_t> keep;
    if (!summarise || size <= 2 * edge_items) {
        keep.resize(size);
        for (std::size_t i = 0; i < size; ++i) keep[i] = i;
        return keep;
    }
    for (std::size_t i = 0; i < edge_items; ++i) {
        always_show.push_back(i);
        always_show.push_back(size - 1 - i);
    }
    std::sort(always_show.begin(), always_show.end());
    always_show.erase(std::unique(always_show.begin(), always_show.end()), always_show.end());
    for (const std::size_t position : always_show) {
        if (!keep.empty() && position != keep.back() + 1) keep.push_back(k_gap);
        keep.push_back(position);
    }
    return keep;
}

std::size_t hidden_count(const std::vector<std::size_t>& shown, const std::vector<std::size_t>& wanted) {
    std::size_t hidden = 0;
    for (const std::size_t row : wanted) hidden += std::find(shown.begin(), shown.end(), row) == shown.end();
    return hidden;
}

std::string hidden_rows_line(std::size_t hidden, const std::string& what) {
    if (hidden == 0) return "";
    return "  (" + group_thousands(hidden) + " more of " + what + (hidden == 1 ? " is" : " are") + " inside the \"...\")\n";
}

std::string hidden_rows_sentence(std::size_t hidden, const std::string& what) {
    if (hidden == 0) return "";
    return group_thousands(hidden) + " more of " + what + (hidden == 1 ? " falls" : " fall") + " inside the \"...\".";
}

std::vector<std::size_t> fitting_columns(const Matrix& m, const std::vector<std::size_t>& rows,
                                         int precision, std::size_t budget) {
    const auto fits = [&](const std::vector<std::size_t>& cols) {
        return cells_width(cols, visible_format(m, rows, cols, precision).width) <= budget;
    };
    if (!should_summarise(m.rows, m.cols)) {
        auto all = visible_positions(m.cols, false);
        if (fits(all)) return all;
    }
    for (std::size_t edges = k_edge_items; edges > 1; --edges) {
        auto cols = visible_positions(m.cols, true, {}, edges);
        if (fits(cols)) return cols;
    }
    return visible_positions(m.cols, true, {}, 1);
}

NumberFormat visible_format(const Matrix& m, const std::vector<std::size_t>& rows,
                            const std::vector<std::size_t>& cols, int precision) {
    std::vector<float> shown;
    for (const std::size_t r : rows) {
        if (r == k_gap) continue;
        for (const std::size_t c : cols) {
            if (c != k_gap) shown.push_back(m.at(r, c));
        }
    }
    return choose_number_format(shown, precision);
}

std::size_t cells_width(const std::vector<std::size_t>& cols, std::size_t cell_width) {
    std::size_t width = cols.empty() ? 0 : cols.size() - 1;
    for (const std::size_t c : cols) width += c == k_gap ? 3 : cell_width;
    return width;
}

std::string format_row_cells(const Matrix& m, std::size_t r, const std::vector<std::size_t>& cols,
                             const NumberFormat& format) {
    std::string line;
    for (const std::size_t c : cols) {
        if (!line.empty()) line += ' ';
        line += c == k_gap ? std::string("...") : format_number(m.at(r, c), format);
    }
    return line;
}

std::string wrap_words(const std::string& text, const std::string& first_prefix,
                       const std::string& prefix, std::size_t width) {
    std::string out;
    std::string line = first_prefix;
    bool line_has_word = false;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find(' ', start);
        if (end == std::string::npos) end = text.size();
        // "M @ E", "3 x 50,257" and "1 ulp" are read as one: a line never ends or starts at their
        // "@" or "x", nor between a count and "ulp".
        while (text.compare(end, 3, " @ ") == 0 || text.compare(end, 3, " x ") == 0 ||
               text.compare(end, 4, " ulp") == 0) {
            const std::size_t next = text.compare(end, 4, " ulp") == 0 ? end + 1 : end + 3;
            end = text.find(' ', next);
            if (end == std::string::npos) end = text.size();
        }
        // An index such as "E[0, 0]" or "ids[1, 0]" is read as one too: a short bracket still open
        // at the space keeps its words together (a long list such as "[900, 1, ...]" may break).
        for (bool extended = true; extended && end < text.size();) {
            extended = false;
            const std::size_t open = text.rfind('[', end);
            if (open == std::string::npos || open < start) break;
            const std::size_t close = text.find(']', open);
            if (close == std::string::npos || close < end || close - open > 16) break;
            end = text.find(' ', close);
            if (end == std::string::npos) end = text.size();
            extended = true;
        }
        const std::string word = text.substr(start, end - start);
        if (line_has_word && line.size() + 1 + word.size() > width) {
            while (line.size() > prefix.size() && line.back() == ' ') line.pop_back();  // "a  (b)" broke at the gap
            out += line + '\n';
            line = prefix;
            line_has_word = false;
        }
        line += (line_has_word ? " " : "") + word;
        line_has_word = true;
        start = end + 1;
    }
    return out + line + '\n';
}

std::string fit_items(const std::vector<std::string>& items, const std::string& first, const std::string& indent,
                      const std::string& separator) {
    std::string out = first;
    std::size_t column = display_width(first);
    for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string item = items[i] + (i + 1 < items.size() ? separator : "");
        // What the line shows if it ends after this item: the separator's trailing spaces go.
        const std::size_t shown = display_width(std::string_view(item).substr(0, item.find_last_not_of(' ') + 1));
        if (i > 0 && column + shown > k_max_line_width) {
            while (!out.empty() && out.back() == ' ') out.pop_back();
            out += '\n' + indent;
            column = display_width(indent);
        }
        out += item;
        column += display_width(item);
    }
    return out + '\n';
}

std::string pad_right(std::string text, std::size_t width) {
    if (text.size() < width) text.append(width - text.size(), ' ');
    return text;
}

std::string pad_left(std::string text, std::size_t width) {
    if (text.size() < width) text.insert(0, width - text.size(), ' ');
    return text;
}

}  // namespace embdemo
