#include "render/formats/projector.hpp"

#include "render/kit/delimited.hpp"

namespace embdemo {
namespace {

// A cell holds no tab or line break, which would start a column or a row: a label file's lines
// cannot hold them, and a token comes escaped; this keeps it so whatever the caller hands over.
std::string tsv_cell(std::string text) {
    std::string out;
    out.reserve(text.size());
    for (const char ch : text) {
        switch (ch) {
            case '\t': out += "\\t"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            default: out += ch;
        }
    }
    return out;
}

}  // namespace

std::string render_projector_vectors(const Matrix& weight, std::size_t first, std::size_t end) {
    return delimited_rows(weight, '\t', false, first, end);
}

std::string render_projector_metadata_header(const ProjectorMetadata& metadata) {
    if (!metadata.token_of) return "";
    return std::string(metadata.labels.empty() ? "id" : "label") + "\ttoken\n";
}

std::string render_projector_metadata(const ProjectorMetadata& metadata, std::size_t first, std::size_t end) {
    std::string out;
    for (std::size_t r = first; r < end; ++r) {
        out += metadata.labels.empty() ? std::to_string(r) : tsv_cell(metadata.labels[r]);
        // Between quotes, as every view shows a token: " the" keeps its space visible, and the
        // tokens that are only spaces still show.
        if (metadata.token_of) out += "\t\"" + tsv_cell(metadata.token_of(r)) + '"';
        out += '\n';
    }
    return out;
}

}  // namespace embdemo
