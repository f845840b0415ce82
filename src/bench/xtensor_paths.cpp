#include "bench/xtensor_paths.hpp"

#include <array>

#include <xtensor/xadapt.hpp>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xoperation.hpp>
#include <xtensor/xreducer.hpp>
#include <xtensor/xview.hpp>

namespace embdemo {

void xtensor_gather(const float* E, std::size_t V, std::size_t d, const BenchIds& ids, float* out) {
    const auto table = xt::adapt(E, V * d, xt::no_ownership(), std::array<std::size_t, 2>{V, d});
    auto result = xt::adapt(out, ids.size() * d, xt::no_ownership(), std::array<std::size_t, 2>{ids.size(), d});
    // xt::keep copies the ids into the slice: n * 8 bytes against the n * d * 4 the rows move.
    result = xt::view(table, xt::keep(ids), xt::all());
}

void xtensor_onehot_product(const float* E, std::size_t V, std::size_t d, const BenchIds& ids, float* out) {
    const std::size_t n = ids.size();
    const auto table = xt::adapt(E, V * d, xt::no_ownership(), std::array<std::size_t, 2>{V, d});
    const auto id_column = xt::adapt(ids.data(), n, xt::no_ownership(), std::array<std::size_t, 2>{n, 1});
    auto result = xt::adapt(out, n * d, xt::no_ownership(), std::array<std::size_t, 2>{n, d});
    // X[i, k] = (ids[i] == k): n x 1 against 1 x V broadcasts to n x V, computed as it is read.
    const auto onehot = xt::cast<float>(xt::equal(id_column, xt::arange<std::uint64_t>(V)));
    // [n, V, 1] * [1, V, d] -> [n, V, d], summed over k = axis 1 from 0 upwards: for one-hot
    // rows and E without zeros, 0 * w adds nothing and 1 * E[id] is exact, so the bits are the
    // lookup's. The whole expression is assigned at once; no lazy part outlives its operands.
    result = xt::sum(xt::view(onehot, xt::all(), xt::all(), xt::newaxis()) *
                         xt::view(table, xt::newaxis(), xt::all(), xt::all()),
                     {1});
}

}  // namespace embdemo
