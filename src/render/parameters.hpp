// The parameters a demonstration ran with (ids, vocab, dim, and the seed or the weight file),
// as name / value / note triples, so that every view that lists them (text header, markdown
// list) says the same thing and a new source of E is described in one place.
#pragma once

#include <string>
#include <vector>

#include "core/report.hpp"

namespace embdemo {

struct Parameter {
    std::string name;   // "ids", "vocab", "dim", "seed" or "file"
    std::string value;  // ready to print; a path is escaped like an error message
    std::string note;   // "largest id + 1", "torch.manual_seed", ... or empty
};

// `ids_text` is the ids as the view wants them spelled (the text view shortens long lists).
std::vector<Parameter> demo_parameters(const DemoRequest& request, const std::string& ids_text);

}  // namespace embdemo
