#include "cli/lessons/lesson.hpp"

#include <iterator>
#include <string>
#include <vector>

namespace embdemo {

// Each lesson's spec, defined in its own cli/lessons/NAME.cpp.
extern const LessonSpec k_lookup_lesson, k_grad_lesson, k_cost_lesson, k_bench_lesson, k_positions_lesson,
    k_tied_lesson, k_factor_lesson, k_tokens_lesson, k_bag_lesson, k_train_lesson;

namespace {

// The one list of lessons: their order is --help's.
const LessonSpec* const k_lessons[] = {
    &k_lookup_lesson, &k_grad_lesson,   &k_cost_lesson,   &k_bench_lesson, &k_positions_lesson,
    &k_tied_lesson,   &k_factor_lesson, &k_tokens_lesson, &k_bag_lesson, &k_train_lesson,
};

}  // namespace

const LessonSpec* const* lessons_begin() { return std::begin(k_lessons); }
const LessonSpec* const* lessons_end() { return std::end(k_lessons); }

std::string lessons_with(bool LessonCaps::*capability) {
    std::vector<std::string> names;
    for (const LessonSpec* spec : k_lessons) {
        if (spec->caps.*capability) names.emplace_back(spec->name);
    }
    std::string out = "the ";
    for (std::size_t i = 0; i < names.size(); ++i) {
        out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    }
    return out + (names.size() == 1 ? " lesson" : " lessons");
}

}  // namespace embdemo
