// "Did you mean ...?" for a mistyped lesson or option, chosen as git chooses a command
// (help.c's help_unknown_cmd): a weighted Damerau-Levenshtein distance, prefix matches first, and
// nothing suggested when even the best candidate is not similar enough. Names only: the messages
// that carry the suggestion are composed by the caller.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace embdemo {

// The cost of turning `typed` into `candidate` with git's weights: a swap of two neighbouring
// characters 0, a substitution 2, an inserted character 1, a deleted one 3. Not symmetric: a
// typed word missing letters ("--id" for "--ids") is closer than one with letters too many.
int typo_distance(std::string_view typed, std::string_view candidate);

// The candidates closest to `typed`, in the candidates' order, scored as git scores them: 0 for a
// candidate that starts with `typed`, the distance + 1 for any other. Those with the best score
// are suggested (ties and all), unless every candidate starts with `typed` (too ambiguous) or
// the best score is not below git's similarity floor of 7. Unlike git, prefix matches do not
// also bring along the best of the rest. Empty `typed` or an exact match suggests nothing.
std::vector<std::string> closest_names(std::string_view typed, const std::vector<std::string>& candidates);

// "\"grad\"" or "\"tied\" or \"tokens\"" (quoted: true), "--ids or --dim" (quoted: false); empty
// when nothing is close.
std::string suggestion_list(const std::vector<std::string>& names, bool quoted);

}  // namespace embdemo
