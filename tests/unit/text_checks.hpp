// Checks on rendered text shared by the view tests: narration is wrapped at 80 columns, so a
// sentence is searched for with its line breaks (and the indent after them) read as one space.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace embdemo::testing {

inline bool contains(const std::string& text, const std::string& part) {
    std::string flat;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\n') {
            flat += text[i];
            continue;
        }
        flat += ' ';
        while (i + 1 < text.size() && text[i + 1] == ' ') ++i;
    }
    return flat.find(part) != std::string::npos;
}

inline std::size_t widest_line(const std::string& text) {
    std::size_t widest = 0;
    std::size_t start = 0;
    for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
        widest = std::max(widest, end - start);
    }
    return widest;
}

inline std::size_t widest_line(const std::vector<std::string>& steps) {
    std::size_t widest = 0;
    for (const auto& step : steps) widest = std::max(widest, widest_line(step));
    return widest;
}

}  // namespace embdemo::testing
