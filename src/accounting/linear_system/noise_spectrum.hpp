// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the accounting module: the one rank decision on the noise Gram
// B Bᵀ shared by the literal engine (linear_view.cpp) and the structured
// Koskela–Kulkarni path (linear_system_kernels.cpp).

#include <string>
#include <vector>

#include "netdp/accounting/account/diagnostic.hpp"
#include "netdp/accounting/linear_system/linear_view.hpp"
#include "netdp/linalg/dense_kernels.hpp"

namespace netdp::accounting::detail {

/// B Bᵀ = Q Λ Qᵀ with Λ increasing; the kept eigenpairs are the last `rank`
/// (eigenvalues above rank_tolerance · λ_max and > 0), so (B Bᵀ)⁺ = Q_r Λ_r⁻¹ Q_rᵀ.
struct NoiseSpectrum {
  linalg::SymmetricEigen eig;  ///< eig.vectors empty when only the eigenvalues were computed
  Eigen::Index size = 0;
  Eigen::Index rank = 0;
  double condition = 1.0;  ///< λ_max / smallest kept eigenvalue (1 when rank = 0)
};

/// Decomposes a symmetric B Bᵀ (m x m, m >= 1); throws if the eigensolver fails. Without
/// `eigenvectors` only the rank and condition are computed: from the two ends of the spectrum when
/// the smallest eigenvalue is kept (eig left empty), else from every eigenvalue.
NoiseSpectrum noise_spectrum(const DenseMatrix& gram, const RankOptions& options, bool eigenvectors = true);

/// Appends the rank-deficiency and ill-conditioning warnings of `spectrum`.
void append_spectrum_warnings(const NoiseSpectrum& spectrum, const RankOptions& options,
                              std::vector<Diagnostic>& warnings);

}  // namespace netdp::accounting::detail
