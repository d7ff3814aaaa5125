#pragma once
// Dense symmetric eigendecomposition and spectral reconstruction U f(Λ) Uᵀ for
// the random-walk accountant (internal). Uses LAPACK dsyevd + BLAS dsyrk when
// the build found LAPACKE/CBLAS (NETDP_HAVE_LAPACKE), Eigen otherwise.

#include <functional>

#include "netdp/util/types.hpp"

namespace netdp::accounting::detail {

/// W = U diag(values) Uᵀ, values ascending, U orthogonal (columns = eigenvectors).
struct SymmetricEigen {
  Vector values;
  DenseMatrix vectors;
};

/// Eigendecomposition of a symmetric matrix given densely (only the lower triangle is read).
SymmetricEigen symmetric_eigen(DenseMatrix symmetric);

/// Σ_k f_k U_k U_kᵀ over the columns k with f_k != 0 (symmetric result, both
/// triangles filled). Computed as B₊B₊ᵀ − B₋B₋ᵀ with B± = U diag(sqrt(±f)),
/// two symmetric rank-k updates (n³ flops in all, half a GEMM each).
DenseMatrix spectral_reconstruction(const DenseMatrix& vectors, const Vector& f);

/// a · diag(f) · bᵀ (a, b: n × k; one GEMM).
DenseMatrix scaled_product(const DenseMatrix& a, const Vector& f, const DenseMatrix& b);

/// Whether the fast LAPACK/BLAS backend is compiled in.
bool spectral_backend_is_lapack();

}  // namespace netdp::accounting::detail
