// The parameters a demonstration ran with (ids, vocab, dim, and the seed or the weight file),
// as name / value / note triples, so that every view that lists them (text header, markdown
// list) says the same thing and a new source of E is described in one place.
#pragma once

#include <string>
#include <vector>

#include "core/lessons/report.hpp"

namespace embdemo {

struct Parameter {
    std::string name;   // "ids", "vocab", "dim", "seed" or "file"
    std::string value;  // ready to print; a path is escaped like an error message
    std::string note;   // "largest id + 1", "torch.manual_seed", ... or empty
};

// One row of a text header, "  name   value  (note)"; the note goes on a line of its own,
// under the value, when the row would pass 80 columns (a long --text beside its byte count).
std::string format_parameter_row(const Parameter& parameter);

// `ids_text` is the ids as the view wants them spelled (the text view shortens long lists).
std::vector<Parameter> demo_parameters(const DemoRequest& request, const std::string& ids_text);

// For ids made from --text: the text (quoted, escaped, shortened) and the tokens, each as
// `ids[0] = 7120 "Your"`, as many to a line as fit in 80 columns, up to k_max_listed_tokens.
// Nothing for typed ids. Every view's header lists these after its "ids" line.
std::vector<Parameter> token_parameters(const IdBatch& ids);
constexpr std::size_t k_max_listed_tokens = 24;

// The note beside "vocab": where V came from ("largest id + 1; set it with --vocab", "rows in
// the file", "GPT-2's vocabulary"), or "" for --vocab.
std::string vocab_note(DemoRequest::VocabSource source, TokenizerKind tokenizer = TokenizerKind::gpt2);

// The table lessons keep only vocab_inferred; their ids say whether --text chose GPT-2's V.
DemoRequest::VocabSource table_vocab_source(bool vocab_inferred, const IdBatch& ids, std::uint64_t vocab_size);

// The note beside "seed": `base`, plus what PyTorch's CPU generator keeps of a seed of 2^32 or
// more (its low 32 bits, so seed 2^32 + 123 draws seed 123's numbers).
std::string seed_note(std::uint64_t seed, const std::string& base);

// Whether the seed draws the table: PyTorch's init or torch.randint, not a file or a pattern.
bool seed_draws_table(const WeightOrigin& origin);

// The JSON's "seed": the seed when the run drew something from it, null when nothing of the run
// came from it (a file's table, an index pattern, and for grad an upstream that is not drawn),
// as the text view then prints no seed line.
std::string seed_json(std::uint64_t seed, bool drew);

}  // namespace embdemo
