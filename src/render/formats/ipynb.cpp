#include "render/formats/ipynb.hpp"

#include <cstdint>
#include <vector>

#include <fmt/format.h>

namespace embdemo {
namespace {

struct Cell {
    bool markdown = false;
    std::vector<std::string> lines;
};

bool starts_with(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

// "# text" -> "text", "#" -> "": a markdown cell's lines as the percent format comments them.
std::string uncommented(const std::string& line) {
    if (starts_with(line, "# ")) return line.substr(2);
    if (line == "#") return "";
    return line;
}

std::vector<Cell> cells_of(const std::string& script) {
    std::vector<Cell> cells(1);
    std::size_t start = 0;
    while (start < script.size()) {
        const std::size_t end = std::min(script.find('\n', start), script.size());
        const std::string line = script.substr(start, end - start);
        start = end + 1;
        if (line == "# %%" || starts_with(line, "# %% ")) {
            cells.push_back(Cell{line.find("[markdown]") != std::string::npos, {}});
            continue;
        }
        Cell& cell = cells.back();
        cell.lines.push_back(cell.markdown ? uncommented(line) : line);
    }
    std::vector<Cell> kept;
    for (Cell& cell : cells) {
        while (!cell.lines.empty() && cell.lines.back().empty()) cell.lines.pop_back();
        while (!cell.lines.empty() && cell.lines.front().empty()) cell.lines.erase(cell.lines.begin());
        if (!cell.lines.empty()) kept.push_back(std::move(cell));
    }
    return kept;
}

// A JSON string as Python's json.dumps(ensure_ascii=False) spells it: UTF-8 kept, the quote,
// the backslash and control characters escaped.
std::string json_text(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
                } else {
                    out += c;
                }
        }
    }
    return out + '"';
}

// FNV-1a of the cell's place and text: an id that the same script always gives the same cell,
// unique within the notebook because it starts with the place.
std::string cell_id(std::size_t index, const Cell& cell) {
    std::uint32_t hash = 2166136261u;
    const auto mix = [&hash](unsigned char byte) { hash = (hash ^ byte) * 16777619u; };
    for (const char c : std::to_string(index)) mix(static_cast<unsigned char>(c));
    for (const std::string& line : cell.lines) {
        for (const char c : line) mix(static_cast<unsigned char>(c));
        mix('\n');
    }
    return fmt::format("{:02}-{:08x}", index, hash);
}

std::string source_json(const Cell& cell) {
    std::string out = "[\n";
    for (std::size_t i = 0; i < cell.lines.size(); ++i) {
        const bool last = i + 1 == cell.lines.size();
        out += "    " + json_text(cell.lines[i] + (last ? "" : "\n")) + (last ? "\n" : ",\n");
    }
    return out + "   ]";
}

std::string cell_json(std::size_t index, const Cell& cell) {
    if (cell.markdown) {
        return fmt::format("  {{\n   \"cell_type\": \"markdown\",\n   \"id\": \"{}\",\n   \"metadata\": {{}},\n"
                           "   \"source\": {}\n  }}",
                           cell_id(index, cell), source_json(cell));
    }
    return fmt::format("  {{\n   \"cell_type\": \"code\",\n   \"execution_count\": null,\n   \"id\": \"{}\",\n"
                       "   \"metadata\": {{}},\n   \"outputs\": [],\n   \"source\": {}\n  }}",
                       cell_id(index, cell), source_json(cell));
}

}  // namespace

std::string render_ipynb(const std::string& percent_script) {
    const std::vector<Cell> cells = cells_of(percent_script);
    std::string out = "{\n \"cells\": [\n";
    for (std::size_t i = 0; i < cells.size(); ++i) out += cell_json(i + 1, cells[i]) + (i + 1 < cells.size() ? ",\n" : "\n");
    out += " ],\n"
           " \"metadata\": {\n"
           "  \"kernelspec\": {\n"
           "   \"display_name\": \"Python 3\",\n"
           "   \"language\": \"python\",\n"
           "   \"name\": \"python3\"\n"
           "  },\n"
           "  \"language_info\": {\n"
           "   \"name\": \"python\"\n"
           "  }\n"
           " },\n"
           " \"nbformat\": 4,\n"
           " \"nbformat_minor\": 5\n"
           "}\n";
    return out;
}

}  // namespace embdemo
