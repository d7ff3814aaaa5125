// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The matrix types of every module (Eigen): sparse row-major W, dense matrices, vectors.

#include <Eigen/Dense>
#include <Eigen/Sparse>

namespace netdp {

/// Sparse row-major matrix: gossip matrices W and their products with vectors.
using SparseMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;
using DenseMatrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;

}  // namespace netdp
