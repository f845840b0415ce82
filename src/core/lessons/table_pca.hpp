// The top two principal components of a table's rows, for a picture of the table in 2-D: the rows
// centred on their mean, the covariance's two largest eigenvectors found by cyclic Jacobi rotations
// (every eigenpair at once, no starting vector to be unlucky with), all in double.
#pragma once

#include <array>
#include <vector>

#include "core/matrix.hpp"

namespace embdemo {

struct TablePca {
    std::vector<std::array<double, 2>> coords;  // per row, its (PC1, PC2) coordinates
    std::array<double, 2> variance{};           // the two components' variances, largest first
    double total_variance = 0.0;                // the trace of the covariance
    // variance[0] + variance[1] over total_variance; 1 for a table with no variance at all.
    double share() const;
};

// Empty coords when the table has fewer than two rows or columns.
TablePca table_pca(const Matrix& table);

}  // namespace embdemo
