#include "cli/lessons/lesson.hpp"

#include <iterator>
#include <stdexcept>

namespace embdemo {
namespace {

constexpr LessonSpec k_lessons[] = {
    {Lesson::lookup, "lookup", "the notebook's demonstration (the default)", run_lookup},
    {Lesson::grad, "grad", "backward two ways: only used rows get a gradient", run_grad},
    {Lesson::cost, "cost", "the cost of both forms for n, V, d or a real model", run_cost},
    {Lesson::bench, "bench", "time both forms on this machine (embdemo bench --help)", run_bench},
    {Lesson::positions, "positions", "token + position tables: E[ids] + P[0..T)", run_positions},
    {Lesson::tied, "tied", "the output layer reuses E: logits = H @ E.T", run_tied},
    {Lesson::factor, "factor", "ALBERT's factorised table: E1[ids] @ E2", run_factor},
    {Lesson::tokens, "tokens", "GPT-2's tokenizer: text -> pieces -> merges -> ids", run_tokens},
    {Lesson::bag, "bag", "nn.EmbeddingBag as a multi-hot product: sum/mean/max", run_bag},
};

}  // namespace

const LessonSpec* lessons_begin() { return std::begin(k_lessons); }
const LessonSpec* lessons_end() { return std::end(k_lessons); }

const LessonSpec& lesson_spec(Lesson id) {
    for (const LessonSpec& spec : k_lessons) {
        if (spec.id == id) return spec;
    }
    throw std::logic_error("a lesson missing from k_lessons");
}

const LessonSpec* find_lesson(std::string_view name) {
    for (const LessonSpec& spec : k_lessons) {
        if (name == spec.name) return &spec;
    }
    return nullptr;
}

}  // namespace embdemo
