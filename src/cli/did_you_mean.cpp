#include "cli/did_you_mean.hpp"

#include <algorithm>
#include <utility>

namespace embdemo {
namespace {

// git's weights (levenshtein(cmd, candidate, 0, 2, 1, 3)): deleting costs more than a swap or an
// insertion, so "tags" suggests "tag" and a scrambled word is not preferred to a shortened one.
constexpr int k_swap_cost = 0;
constexpr int k_substitution_cost = 2;
constexpr int k_insertion_cost = 1;
constexpr int k_deletion_cost = 3;
// git's SIMILARITY_FLOOR: a score (distance + 1) of 7 or more is not a suggestion.
constexpr int k_similarity_floor = 7;

}  // namespace

// The optimal-string-alignment form of Damerau-Levenshtein: row `i` holds the cost of turning the
// first i characters of `typed` into each prefix of `candidate`; a swap looks two rows back.
int typo_distance(std::string_view typed, std::string_view candidate) {
    const std::size_t width = candidate.size() + 1;
    std::vector<int> two_back(width), previous(width), current(width);
    for (std::size_t j = 0; j < width; ++j) previous[j] = static_cast<int>(j) * k_insertion_cost;
    for (std::size_t i = 0; i < typed.size(); ++i) {
        current[0] = static_cast<int>(i + 1) * k_deletion_cost;
        for (std::size_t j = 0; j < candidate.size(); ++j) {
            int cost = previous[j] + (typed[i] == candidate[j] ? 0 : k_substitution_cost);
            if (i > 0 && j > 0 && typed[i - 1] == candidate[j] && typed[i] == candidate[j - 1]) {
                cost = std::min(cost, two_back[j - 1] + k_swap_cost);
            }
            cost = std::min(cost, previous[j + 1] + k_deletion_cost);
            cost = std::min(cost, current[j] + k_insertion_cost);
            current[j + 1] = cost;
        }
        std::swap(two_back, previous);
        std::swap(previous, current);
    }
    return previous[candidate.size()];
}

std::vector<std::string> closest_names(std::string_view typed, const std::vector<std::string>& candidates) {
    if (typed.empty() || std::find(candidates.begin(), candidates.end(), typed) != candidates.end()) return {};
    // git's score: 0 for a prefix match, the distance + 1 otherwise.
    std::vector<int> scores;
    for (const std::string& candidate : candidates) {
        const bool prefix = candidate.compare(0, typed.size(), typed) == 0;
        // Each character typed beyond the candidate's length costs a deletion (3), so two put
        // it at the floor: skipping those keeps a megabyte-long word from costing seconds.
        const bool too_long = typed.size() > candidate.size() + 1;
        scores.push_back(prefix ? 0 : too_long ? k_similarity_floor : typo_distance(typed, candidate) + 1);
    }
    const bool all_prefixes = std::all_of(scores.begin(), scores.end(), [](int score) { return score == 0; });
    if (all_prefixes) return {};  // git: "prefix matches with everything? that is too ambiguous"
    const int best = *std::min_element(scores.begin(), scores.end());
    if (best >= k_similarity_floor) return {};
    std::vector<std::string> names;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        if (scores[i] == best) names.push_back(candidates[i]);
    }
    return names;
}

std::string suggestion_list(const std::vector<std::string>& names, bool quoted) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        out += i == 0 ? "" : i + 1 == names.size() ? " or " : ", ";
        out += quoted ? '"' + names[i] + '"' : names[i];
    }
    return out;
}

}  // namespace embdemo
