// A value set as one table of {word, value} pairs: the word the command line, the completion,
// the messages' "allowed:" lists and the tests' random cases all use, so that a new value is a
// new row and nothing that lists the set can leave it out (formats, colours, palettes, inits,
// bag modes).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace embdemo {

template <typename Value>
using NamedValue = std::pair<const char*, Value>;

// The value a word stands for in `table`, or nullopt.
template <typename Value, std::size_t N>
std::optional<Value> find_named(const NamedValue<Value> (&table)[N], std::string_view name) {
    for (const auto& [known, value] : table) {
        if (name == known) return value;
    }
    return std::nullopt;
}

// The table's word for `value` (the first row's when no row has it).
template <typename Value, std::size_t N>
const char* name_of(const NamedValue<Value> (&table)[N], Value value) {
    for (const auto& [known, each] : table) {
        if (each == value) return known;
    }
    return table[0].first;
}

// The words in order: the completion's list.
template <typename Value, std::size_t N>
std::vector<std::string> names_in(const NamedValue<Value> (&table)[N]) {
    std::vector<std::string> names;
    for (const auto& entry : table) names.emplace_back(entry.first);
    return names;
}

// "auto, always, never": the words in order, for the "allowed" part of a message.
template <typename Value, std::size_t N>
std::string names_of(const NamedValue<Value> (&table)[N]) {
    std::string names;
    for (const auto& entry : table) names += (names.empty() ? "" : ", ") + std::string(entry.first);
    return names;
}

}  // namespace embdemo
