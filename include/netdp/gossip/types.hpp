#pragma once
// Matrix types shared by the gossip, accounting and learning modules.

#include <Eigen/Dense>
#include <Eigen/Sparse>

namespace netdp {

/// Sparse row-major matrix: gossip matrices W and their products with vectors.
using SparseMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;
using DenseMatrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;

}  // namespace netdp
