#include "render/sheet/lesson_sheet.hpp"

#include <stdexcept>

namespace embdemo {
namespace {

std::uint64_t values_of(const SheetTable& table) {
    std::uint64_t count = 1;
    for (const std::size_t extent : table.shape) count *= extent;
    return count;
}

}  // namespace

const SheetTable& LessonSheet::table(const std::string& name) const {
    for (const SheetTable& candidate : tables) {
        if (candidate.name == name) return candidate;
    }
    throw std::logic_error("a lesson sheet names a table it does not list: " + name);
}

bool LessonSheet::identical() const {
    for (const SheetCheck& check : checks) {
        if (!check.comparison.identical) return false;
    }
    return true;
}

std::uint64_t report_values(const std::vector<SheetTable>& tables) {
    std::uint64_t count = 0;
    for (const SheetTable& table : tables) count += table.in_json ? values_of(table) : 0;
    return count;
}

std::uint64_t script_values(const std::vector<SheetTable>& tables) {
    std::uint64_t count = 0;
    for (const SheetTable& table : tables) count += table.python.empty() ? 0 : values_of(table);
    return count;
}

}  // namespace embdemo
