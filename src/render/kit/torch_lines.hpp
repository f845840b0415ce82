// The PyTorch lines that recreate a run's inputs: its ids as a tensor and its table E, whatever
// E's origin (torch's seeded init, randint, the index pattern, a .npy/.csv/.tsv file). Shared
// by the walkthrough, which quotes them, and the Python export, which runs them; so the two
// can never tell a student different code. Lines only: no indentation, no trailing newline.
#pragma once

#include <string>
#include <vector>

#include "core/lessons/report.hpp"

namespace embdemo {

// `text` as a Python string literal; bytes outside printable ASCII are written as the escapes
// of our messages, the best a one-line listing can do for them.
std::string python_string(const std::string& text);

// "idx = torch.tensor([2, 3, 1])", or a nested list for a B x T batch.
// Long lists are elided for reading ("... 587 more ..."), as the text views print them.
std::string ids_python(const DemoRequest& request);
// Every id, wrapped at 100 columns: code to run.
std::string all_ids_python(const DemoRequest& request);

// The lines that leave `embedding` holding E. `module_args` are extra keyword arguments of the
// module (", padding_idx=1"), given to nn.Embedding or to Embedding.from_pretrained. Seeded
// origins start with torch.manual_seed(seed).
std::vector<std::string> weight_python(const DemoRequest& request, const std::string& module_args = "");

// The expression that loads a matrix file as the weight files are read: a .npy by its content,
// a CSV or TSV file by its name.
std::string load_matrix_python(const std::string& path);

}  // namespace embdemo
