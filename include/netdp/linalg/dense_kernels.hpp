// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Dense kernels shared by the random-walk, MF and Muffliato joint-view accountants (internal):
// symmetric eigendecomposition, spectral reconstruction U f(Λ) Uᵀ, Gram matrices and products.
// Uses LAPACK dsyevd + BLAS dsyrk/dgemm when the build found LAPACKE/CBLAS (NETDP_HAVE_LAPACKE),
// Eigen otherwise. Every LAPACK/BLAS call and the array lengths it is given are listed in
// docs/reference/kernels.md: a new call adds its row there and a case to the LapackContracts tests.

#include <cstddef>
#include <functional>
#include <vector>

#include "netdp/util/types.hpp"

namespace netdp::linalg {

/// A column-major block with any leading dimension (a whole matrix, or e.g. its top rows).
using MatrixBlock = Eigen::Ref<DenseMatrix, 0, Eigen::OuterStride<>>;
using ConstMatrixBlock = Eigen::Ref<const DenseMatrix, 0, Eigen::OuterStride<>>;

/// W = U diag(values) Uᵀ, values ascending, U orthogonal (columns = eigenvectors; empty when only
/// the eigenvalues were asked for).
struct SymmetricEigen {
  Vector values;
  DenseMatrix vectors;
};

/// Eigendecomposition of a symmetric matrix given densely (only the lower triangle is read):
/// LAPACK dsyevd (blocked tridiagonalisation) where netdp is built with LAPACKE, Eigen's
/// SelfAdjointEigenSolver otherwise. Without `vectors`, only the eigenvalues (dsterf). A non-finite
/// entry is refused by name.
/// Below kThreadedEigenMinSize rows the decomposition runs on one BLAS thread, from it on the process's.
SymmetricEigen symmetric_eigen(DenseMatrix symmetric, bool vectors = true);

/// The smallest size whose eigendecomposition uses the BLAS threads (symmetric_eigen).
inline constexpr long kThreadedEigenMinSize = 1100;

/// The smallest eigenvalue of a symmetric matrix given densely (lower triangle read; LAPACK dsyevr,
/// eigenvalues only). A non-finite entry is refused by name.
double smallest_eigenvalue(DenseMatrix symmetric);

/// The smallest and largest eigenvalues of a symmetric matrix given densely (lower triangle read):
/// one tridiagonalisation (LAPACK dsytrd) and bisection for the two ends only (dstebz, to full
/// accuracy) where netdp is built with LAPACKE, Eigen's eigenvalues otherwise. A non-finite entry is
/// refused by name.
struct EigenvalueRange {
  double smallest = 0.0;
  double largest = 0.0;
};
EigenvalueRange extreme_eigenvalues(DenseMatrix symmetric);

/// a = U diag(values) Vᵀ, thin: U is m × min(m, n) with orthonormal columns, values descending.
struct ThinSvd {
  DenseMatrix left;
  Vector values;
};

/// The thin SVD of any matrix, left singular vectors only: LAPACK dgesdd (divide and conquer), then
/// dgesvd (QR iteration) if it does not converge, then Eigen's JacobiSVD (always converges; also
/// the only one without LAPACK).
ThinSvd thin_svd(DenseMatrix a);

/// The singular values of any matrix, descending, without vectors: LAPACK dgesdd, then dgesvd if it
/// does not converge, then Eigen's JacobiSVD (as thin_svd).
Vector singular_values(DenseMatrix a);

/// Σ_k f_k U_k U_kᵀ over the columns k with f_k != 0 (symmetric result, both
/// triangles filled). Computed as B₊B₊ᵀ − B₋B₋ᵀ with B± = U diag(sqrt(±f)),
/// two symmetric rank-k updates (n³ flops in all, half a GEMM each).
DenseMatrix spectral_reconstruction(const DenseMatrix& vectors, const Vector& f);

/// a · diag(f) · bᵀ (a, b: n × k; one GEMM).
DenseMatrix scaled_product(const DenseMatrix& a, const Vector& f, const DenseMatrix& b);

/// The lower triangle of a aᵀ (the strict upper triangle is left unspecified).
DenseMatrix lower_gram(const DenseMatrix& a);

/// z <- L⁻¹ z for the lower-triangular (square, non-singular) `lower` (one TRSM).
void solve_lower_in_place(const DenseMatrix& lower, DenseMatrix& z);

/// z <- L z for the lower-triangular (square) `lower`; its strict upper triangle is not read (one TRMM).
void multiply_lower_in_place(const DenseMatrix& lower, DenseMatrix& z);

/// L <- L⁻¹ for the lower-triangular `lower` (its strict upper triangle is neither read nor
/// written); false when a diagonal entry is zero.
bool invert_lower_in_place(DenseMatrix& lower);

/// G[p, p] ≈ L Lᵀ for the symmetric positive semidefinite G (lower triangle read), with the pivots
/// p chosen greedily (largest remaining diagonal first) and stopped when that diagonal is <= floor:
/// `rank` = r pivots, `pivots[0..r)` the chosen rows, `factor` their r × r lower-triangular L.
struct PivotedCholesky {
  Eigen::Index rank = 0;
  std::vector<Eigen::Index> pivots;
  DenseMatrix factor;
};
PivotedCholesky pivoted_cholesky(const DenseMatrix& gram, double floor);

/// z <- L⁻¹ z with z zᵀ = L Lᵀ (Cholesky), so that the rows of z become orthonormal with the same
/// span (one CholeskyQR step). Returns false, z unchanged, when z zᵀ is not numerically positive definite.
bool orthonormalize_rows(DenseMatrix& z);

/// lower += a aᵀ (lower triangle only; a is n × k, e.g. a block of columns, lower n × n).
void add_gram(DenseMatrix& lower, ConstMatrixBlock a);

/// lower += blockᵀ block (lower triangle only; block is k × n, lower n × n).
void add_transposed_gram(DenseMatrix& lower, const DenseMatrix& block);

/// Whether the Cholesky factorisation of the symmetric matrix (lower triangle read) succeeds.
bool cholesky_succeeds(DenseMatrix symmetric);

/// Cholesky factorisation in place (lower triangle read and overwritten with L, the strict upper
/// triangle left as it was); false when the matrix is not numerically positive definite.
bool cholesky_in_place(DenseMatrix& symmetric);

/// Orders up to which cholesky_in_place and spd_invert_from_cholesky use the small kernels below:
/// their operands stay in the L2 cache there, and they beat LAPACK's blocked xPOTRF and xPOTRI from
/// the smallest orders up (docs/reference/performance.md).
inline constexpr std::ptrdiff_t kSmallSpdMaxOrder = 384;

/// Cholesky factorisation in place of the n × n symmetric matrix at `a` (column-major, leading
/// dimension n; lower triangle read and overwritten with L, strict upper triangle untouched), by a
/// left-looking register-tiled kernel (small_spd.cpp); false at the first pivot that is not positive
/// (or NaN), the matrix then partly overwritten.
bool small_cholesky_in_place(double* a, std::ptrdiff_t n);
bool small_cholesky_in_place(float* a, std::ptrdiff_t n);

/// The lower triangle of (L Lᵀ)⁻¹ = L⁻ᵀ L⁻¹ in place of the factor L in the lower triangle of the
/// n × n matrix at `a` (leading dimension n; strict upper triangle untouched), through R = L⁻ᵀ in
/// per-thread scratch and the Gram R Rᵀ (small_spd.cpp); false when a diagonal entry of L is zero or
/// not finite.
bool small_spd_invert_from_cholesky(double* a, std::ptrdiff_t n);
bool small_spd_invert_from_cholesky(float* a, std::ptrdiff_t n);

/// The inverse of a symmetric positive definite matrix in place (lower triangle read), both
/// triangles filled, by Cholesky; false, the matrix overwritten, when the factorisation fails.
bool spd_invert_in_place(DenseMatrix& symmetric);

/// The same from its Cholesky factor L (lower triangle, as cholesky_in_place leaves it).
bool spd_invert_from_cholesky(DenseMatrix& factor);

/// c = alpha · op(a) op(b) + beta · c, op = transpose when asked (one GEMM). With OpenBLAS, whose
/// kernels are chosen for the CPU at run time (AVX2, AVX-512), a portable build gets the CPU's
/// speed. Throws when the shapes do not match.
void multiply_into(MatrixBlock c, double alpha, ConstMatrixBlock a, bool transpose_a, ConstMatrixBlock b,
                   bool transpose_b, double beta);

/// target += alpha · a b (one GEMM).
void add_product(DenseMatrix& target, double alpha, const DenseMatrix& a, const DenseMatrix& b);

/// a bᵀ (one GEMM).
DenseMatrix product_transposed(const DenseMatrix& a, const DenseMatrix& b);

/// γ_k = k u / (1 − k u), u = ε/2 the unit roundoff (Higham §3.1): the relative error bound of a
/// k-term inner product.
double inner_product_gamma(double k);

/// a bᵀ summed over blocks of `block` columns, each block's product (one GEMM) in a buffer of its
/// own and then added to the sum: the rounding error is at most γ_{block + ⌈N/block⌉} |a||b|ᵀ entrywise
/// (blocked summation, Higham, Accuracy and Stability of Numerical Algorithms, §4.2, with Lemma 3.3),
/// whatever order the GEMM sums in, against γ_N for one GEMM over all N columns.
DenseMatrix product_transposed_blocked(const DenseMatrix& a, const DenseMatrix& b, Eigen::Index block);

/// target -= a b (one GEMM).
void subtract_product(DenseMatrix& target, const DenseMatrix& a, const DenseMatrix& b);

/// uᵀ a (one GEMM).
DenseMatrix transposed_product(const DenseMatrix& u, const DenseMatrix& a);

/// Runs BLAS single-threaded while the caller runs its own OpenMP threads (OpenMP threads x BLAS
/// threads would oversubscribe the cores); restores the previous setting.
class SingleThreadedBlas {
 public:
  SingleThreadedBlas();
  ~SingleThreadedBlas();
  SingleThreadedBlas(const SingleThreadedBlas&) = delete;
  SingleThreadedBlas& operator=(const SingleThreadedBlas&) = delete;

 private:
  int previous_ = 0;
};

/// Single precision, for the first iterations of the vector maximum's interior point
/// (vector_max.cpp): the same operations as the double-precision cholesky_in_place,
/// spd_invert_from_cholesky and add_product (the small SPD kernels up to kSmallSpdMaxOrder, LAPACK
/// above; BLAS sgemm).
using FloatMatrix = Eigen::MatrixXf;
bool cholesky_in_place(FloatMatrix& symmetric);
bool spd_invert_from_cholesky(FloatMatrix& factor);
void add_product(FloatMatrix& target, float alpha, const FloatMatrix& a, const FloatMatrix& b);

/// Whether the fast LAPACK/BLAS backend is compiled in.
bool spectral_backend_is_lapack();

}  // namespace netdp::linalg
