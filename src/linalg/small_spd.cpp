// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Symmetric positive definite kernels for small dense matrices (dense_kernels.hpp):
// small_cholesky_in_place and small_spd_invert_from_cholesky.
//
// Both are left-looking, by panels of four columns. Each panel is first updated with all the
// columns before it (out[i, J] −= Σ_k x[i, k] b[J, k], the level-3 part) in register tiles of two
// vectors of rows × four columns, accumulated over k in one pass, then finished column by column.
// Below about 400 rows the operands stay in the L2 cache, so no cache blocking is needed; the one
// pass over k replaces the packing, TRSM and SYRK calls in which LAPACK's blocked xPOTRF and
// xPOTRI spend most of their time at these orders (2–3× slower at m = 100: docs/reference/performance.md).
//
// Every entry is a sum over k in increasing order whatever the vector width, so the three clones
// (AVX-512, AVX2, baseline) differ only by fused multiply-adds, and no result depends on the
// number of threads.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <vector>

#include "netdp/linalg/dense_kernels.hpp"
#include "netdp/linalg/multiversion.hpp"

namespace netdp::linalg {
namespace {

/// One 64-byte register of Scalar (eight doubles, sixteen floats) as a GCC vector.
template <class Scalar>
struct SpdRegister;
template <>
struct SpdRegister<double> {
  using Type = double __attribute__((vector_size(64)));
  static constexpr std::ptrdiff_t kLanes = 8;
};
template <>
struct SpdRegister<float> {
  using Type = float __attribute__((vector_size(64)));
  static constexpr std::ptrdiff_t kLanes = 16;
};

constexpr std::ptrdiff_t kSpdPanel = 4;

/// Rows in one register tile.
template <class Scalar>
constexpr std::ptrdiff_t kSpdTileRows = 2 * SpdRegister<Scalar>::kLanes;

/// What a tile does with its sums.
enum class TileWrite { subtract, assign };

/// The sums S[i, c] = Σ_{k ∈ [k_begin, k_end)} x[i, k] · b[c, k] for the rows i ∈ [s, s + tile
/// rows) and the four columns c, all matrices column-major with leading dimension n (b points at
/// its first row), written into the columns out[·, c] for the rows i >= first_row, and, when
/// `lower`, i >= c + diagonal (the upper triangle of the output left as it was).
template <class Scalar, TileWrite kWrite>
__attribute__((always_inline)) inline void product_tile(const Scalar* x, const Scalar* b, std::ptrdiff_t n,
                                                        std::ptrdiff_t k_begin, std::ptrdiff_t k_end,
                                                        Scalar* out, std::ptrdiff_t s,
                                                        std::ptrdiff_t first_row, bool lower,
                                                        std::ptrdiff_t diagonal) {
  using V = typename SpdRegister<Scalar>::Type;
  constexpr std::ptrdiff_t lanes = SpdRegister<Scalar>::kLanes;
  V c00 = {}, c01 = {}, c02 = {}, c03 = {}, c10 = {}, c11 = {}, c12 = {}, c13 = {};
  const Scalar* rows = x + s + k_begin * n;
  const Scalar* panel = b + k_begin * n;
  for (std::ptrdiff_t k = k_begin; k < k_end; ++k, rows += n, panel += n) {
    V x0, x1;
    std::memcpy(&x0, rows, sizeof(V));
    std::memcpy(&x1, rows + lanes, sizeof(V));
    c00 += x0 * panel[0];
    c10 += x1 * panel[0];
    c01 += x0 * panel[1];
    c11 += x1 * panel[1];
    c02 += x0 * panel[2];
    c12 += x1 * panel[2];
    c03 += x0 * panel[3];
    c13 += x1 * panel[3];
  }
  const V sums[2][kSpdPanel] = {{c00, c01, c02, c03}, {c10, c11, c12, c13}};
  for (std::ptrdiff_t c = 0; c < kSpdPanel; ++c) {
    Scalar* column = out + c * n;
    const std::ptrdiff_t first = lower ? std::max(first_row, diagonal + c) : first_row;
    if (first <= s) {
      for (std::ptrdiff_t h = 0; h < 2; ++h) {
        V y = sums[h][c];
        if constexpr (kWrite == TileWrite::subtract) {
          V old;
          std::memcpy(&old, column + s + h * lanes, sizeof(V));
          y = old - y;
        }
        std::memcpy(column + s + h * lanes, &y, sizeof(V));
      }
    } else {
      Scalar sum[2 * lanes];
      std::memcpy(sum, &sums[0][c], sizeof(V));
      std::memcpy(sum + lanes, &sums[1][c], sizeof(V));
      for (std::ptrdiff_t i = first; i < s + 2 * lanes; ++i) {
        if constexpr (kWrite == TileWrite::subtract) {
          column[i] -= sum[i - s];
        } else {
          column[i] = sum[i - s];
        }
      }
    }
  }
}

/// The first row of the tile that covers the rows from `done` on in an n-row matrix (n at least
/// one tile): the last tile ends at row n and starts above `done` when fewer rows are left.
template <class Scalar>
constexpr std::ptrdiff_t tile_start(std::ptrdiff_t done, std::ptrdiff_t n) {
  return std::min(done, n - kSpdTileRows<Scalar>);
}

// The loops over tiles below are written out, not passed as lambdas: a lambda is a function of its
// own, compiled for the baseline instruction set, not for the clone that calls it.

/// Cholesky factorisation: the panel J = [j0, j0 + 4) minus L[i, 0:j0] L[J, 0:j0]ᵀ, then each
/// column minus its products with the panel's earlier columns, divided by the root of its pivot.
template <class Scalar>
__attribute__((always_inline)) inline bool left_looking_cholesky(Scalar* a, std::ptrdiff_t n) {
  const bool tiled = n >= kSpdTileRows<Scalar>;
  for (std::ptrdiff_t j0 = 0; j0 < n; j0 += kSpdPanel) {
    const std::ptrdiff_t width = std::min(kSpdPanel, n - j0);
    // Tiles take the columns before the panel where they fit; the column loop below does the rest.
    const bool by_tiles = width == kSpdPanel && tiled;
    if (by_tiles) {
      for (std::ptrdiff_t done = j0; done < n && j0 > 0;) {
        const std::ptrdiff_t s = tile_start<Scalar>(done, n);
        product_tile<Scalar, TileWrite::subtract>(a, a + j0, n, 0, j0, a + j0 * n, s, done, true, j0);
        done = s + kSpdTileRows<Scalar>;
      }
    }
    for (std::ptrdiff_t c = 0; c < width; ++c) {
      const std::ptrdiff_t j = j0 + c;
      Scalar* column = a + j * n;
      for (std::ptrdiff_t k = by_tiles ? j0 : 0; k < j; ++k) {
        const Scalar* factored = a + k * n;
        const Scalar f = factored[j];
        for (std::ptrdiff_t i = j; i < n; ++i) column[i] -= factored[i] * f;
      }
      const Scalar pivot = column[j];
      if (!(pivot > Scalar{0})) return false;  // also false for NaN
      const Scalar root = std::sqrt(pivot);
      column[j] = root;
      const Scalar inverse = Scalar{1} / root;
      for (std::ptrdiff_t i = j + 1; i < n; ++i) column[i] *= inverse;
    }
  }
  return true;
}

/// R = L⁻ᵀ (upper triangular, its strictly lower triangle zero) from the factor L in the lower
/// triangle of `l`: row i of L⁻¹ is (e_i − Σ_{k<i} L[i, k] · row k of L⁻¹) / L[i, i], so column i of
/// R is (e_i − Σ_{k<i} L[i, k] R[:, k]) / L[i, i]. Column k of R is zero below row k, so the rows of
/// a tile starting at s take k from s.
template <class Scalar>
__attribute__((always_inline)) inline bool inverse_transposed_factor(const Scalar* l, Scalar* r,
                                                                     std::ptrdiff_t n) {
  std::fill(r, r + n * n, Scalar{0});
  for (std::ptrdiff_t i = 0; i < n; ++i) r[i + i * n] = Scalar{1};
  const bool tiled = n >= kSpdTileRows<Scalar>;
  for (std::ptrdiff_t i0 = 0; i0 < n; i0 += kSpdPanel) {
    const std::ptrdiff_t width = std::min(kSpdPanel, n - i0);
    // Tiles take the columns before the panel where they fit; the column loop below does the rest.
    const bool by_tiles = width == kSpdPanel && tiled;
    if (by_tiles) {
      for (std::ptrdiff_t done = 0; done < i0 + width;) {
        const std::ptrdiff_t s = tile_start<Scalar>(done, n);
        if (s < i0)
          product_tile<Scalar, TileWrite::subtract>(r, l + i0, n, s, i0, r + i0 * n, s, done, false, 0);
        done = s + kSpdTileRows<Scalar>;
      }
    }
    for (std::ptrdiff_t c = 0; c < width; ++c) {
      const std::ptrdiff_t i = i0 + c;
      Scalar* column = r + i * n;
      for (std::ptrdiff_t k = by_tiles ? i0 : 0; k < i; ++k) {
        const Scalar f = l[i + k * n];
        for (std::ptrdiff_t row = 0; row <= k; ++row) column[row] -= r[row + k * n] * f;
      }
      const Scalar pivot = l[i + i * n];
      if (pivot == Scalar{0} || !std::isfinite(pivot)) return false;
      const Scalar inverse = Scalar{1} / pivot;
      for (std::ptrdiff_t row = 0; row <= i; ++row) column[row] *= inverse;
    }
  }
  return true;
}

/// The lower triangle of R Rᵀ into `out`: out[i, j] = Σ_{k >= i} R[i, k] R[j, k] for i >= j (R
/// upper triangular with a zero strictly lower triangle, so a tile starting at row s takes k from s).
template <class Scalar>
__attribute__((always_inline)) inline void lower_gram_of_upper(const Scalar* r, Scalar* out,
                                                               std::ptrdiff_t n) {
  const bool tiled = n >= kSpdTileRows<Scalar>;
  for (std::ptrdiff_t j0 = 0; j0 < n; j0 += kSpdPanel) {
    const std::ptrdiff_t width = std::min(kSpdPanel, n - j0);
    if (width == kSpdPanel && tiled) {
      for (std::ptrdiff_t done = j0; done < n;) {
        const std::ptrdiff_t s = tile_start<Scalar>(done, n);
        product_tile<Scalar, TileWrite::assign>(r, r + j0, n, s, n, out + j0 * n, s, done, true, j0);
        done = s + kSpdTileRows<Scalar>;
      }
    } else {
      for (std::ptrdiff_t j = j0; j < j0 + width; ++j)
        for (std::ptrdiff_t i = j; i < n; ++i) {
          Scalar sum{0};
          for (std::ptrdiff_t k = i; k < n; ++k) sum += r[i + k * n] * r[j + k * n];
          out[i + j * n] = sum;
        }
    }
  }
}

template <class Scalar>
__attribute__((always_inline)) inline bool invert_from_factor(Scalar* a, Scalar* scratch, std::ptrdiff_t n) {
  if (!inverse_transposed_factor(a, scratch, n)) return false;
  lower_gram_of_upper(scratch, a, n);
  return true;
}

NETDP_MULTIVERSION NETDP_CONTRACT bool small_cholesky_double(double* a, std::ptrdiff_t n) {
  return left_looking_cholesky(a, n);
}
NETDP_MULTIVERSION NETDP_CONTRACT bool small_cholesky_float(float* a, std::ptrdiff_t n) {
  return left_looking_cholesky(a, n);
}
NETDP_MULTIVERSION NETDP_CONTRACT bool small_spd_invert_double(double* a, double* scratch, std::ptrdiff_t n) {
  return invert_from_factor(a, scratch, n);
}
NETDP_MULTIVERSION NETDP_CONTRACT bool small_spd_invert_float(float* a, float* scratch, std::ptrdiff_t n) {
  return invert_from_factor(a, scratch, n);
}

/// Per-thread scratch for R, reused from call to call.
template <class Scalar>
Scalar* spd_scratch(std::ptrdiff_t n) {
  thread_local std::vector<Scalar> scratch;
  scratch.resize(static_cast<std::size_t>(n * n));
  return scratch.data();
}

}  // namespace

bool small_cholesky_in_place(double* a, std::ptrdiff_t n) { return small_cholesky_double(a, n); }
bool small_cholesky_in_place(float* a, std::ptrdiff_t n) { return small_cholesky_float(a, n); }

bool small_spd_invert_from_cholesky(double* a, std::ptrdiff_t n) {
  return small_spd_invert_double(a, spd_scratch<double>(n), n);
}
bool small_spd_invert_from_cholesky(float* a, std::ptrdiff_t n) {
  return small_spd_invert_float(a, spd_scratch<float>(n), n);
}

}  // namespace netdp::linalg
