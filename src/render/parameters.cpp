#include "render/parameters.hpp"

#include "core/escape.hpp"
#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/text_sections.hpp"

namespace embdemo {

std::vector<Parameter> demo_parameters(const DemoRequest& request, const std::string& ids_text) {
    const bool from_file = request.origin.kind == WeightOrigin::Kind::file;
    std::vector<Parameter> parameters;
    const IdShape& shape = request.shape;
    parameters.push_back({"ids", ids_text, describe_id_count(shape, request.ids.size())});
    parameters.push_back({"vocab", group_thousands(request.vocab_size),
                          request.vocab_inferred ? "largest id + 1; set it with --vocab" : from_file ? "rows in the file" : ""});
    parameters.push_back({"dim", group_thousands(request.dim), from_file ? "columns in the file" : ""});
    const std::string n = group_thousands(request.ids.size());
    const std::string v = group_thousands(request.vocab_size);
    const std::string d = group_thousands(request.dim);
    parameters.push_back({"shapes", "E " + v + " x " + d + ", X " + per_id_shape(shape, request.ids.size(), request.vocab_size) +
                                        ", lookup and product " + per_id_shape(shape, request.ids.size(), request.dim), ""});
    switch (request.origin.kind) {
        case WeightOrigin::Kind::torch:
            parameters.push_back({"seed", std::to_string(request.seed), "torch.manual_seed"});
            break;
        case WeightOrigin::Kind::torch_randint:
            parameters.push_back({"seed", std::to_string(request.seed),
                                  "torch.manual_seed, then torch.randint"});
            break;
        case WeightOrigin::Kind::index_pattern:
            parameters.push_back({"init", "index pattern, no random numbers", ""});
            break;
        case WeightOrigin::Kind::file:
            parameters.push_back({"file", escape_for_message(request.origin.detail), ""});
            break;
    }
    return parameters;
}

}  // namespace embdemo
