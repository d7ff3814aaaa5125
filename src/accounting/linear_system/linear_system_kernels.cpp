// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The per-view solve of the structured path: B Bᵀ by diagonal cumulative sums,
// its factorisation, and K_u = (F A_u)ᵀ (F A_u) for chunks of targets at once.
//
// The hot loops are plain loops over a fixed-width chunk of targets, compiled
// for the x86-64-v4 / v3 feature levels and a baseline (target_clones,
// dispatched at load time on CPU features). No loop reassociates a sum; clones
// with FMA fuse multiply-adds, so results are reproducible on one machine (for
// any thread count) and agree across machines to rounding.

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

#include "accounting/linear_system/linear_system_detail.hpp"
#include "accounting/linear_system/noise_spectrum.hpp"
#include "netdp/linalg/dense_kernels.hpp"
#include "netdp/linalg/multiversion.hpp"
#include "netdp/util/check.hpp"

namespace netdp::accounting::detail {
namespace {

/// Targets processed together by the kernels (the vectorised dimension).
constexpr std::size_t kChunk = 16;

/// Rows of F that chunk_project accumulates together: each row of A_u it loads serves kRowBlock
/// independent sums (2·kRowBlock vector registers at AVX-512), instead of one chain of dependent
/// multiply-adds that waits on the latency of the last.
constexpr std::size_t kRowBlock = 4;

static_assert(kChunk == 2 * linalg::kLanes, "a chunk of targets is two linalg::Lanes");

/// Per target of a chunk: whether X_u = F A_u has no negative entry, and ‖X_u 1‖². X_u >= 0
/// entrywise makes K_u = X_uᵀ X_u >= 0 entrywise, so that Σ|K_u| = 1ᵀ K_u 1 = ‖X_u 1‖² without
/// forming K_u.
struct ChunkSigns {
  std::array<double, kChunk> ones{};
  std::array<bool, kChunk> nonnegative{};
};

/// acc[i][r] = Σ_o f(k + r, o) a(s + i, o) over o in [o_first, o_last), for S injections s + i at
/// once: each broadcast entry of F serves 2·S vector sums. Every sum runs over o in increasing
/// order. Spelled out over fixed-size arrays that the compiler keeps in registers.
template <std::size_t S>
[[gnu::always_inline]] inline void project_rows(const double* f, std::size_t ld, std::size_t k,
                                                std::size_t o_first, std::size_t o_last,
                                                const double* const* const* rows,
                                                linalg::Lanes (&acc)[S][kRowBlock][2]) {
  for (std::size_t i = 0; i < S; ++i)
    for (std::size_t r = 0; r < kRowBlock; ++r) acc[i][r][0] = acc[i][r][1] = linalg::Lanes{};
  for (std::size_t o = o_first; o < o_last; ++o) {
    linalg::Lanes a[S][2];
    for (std::size_t i = 0; i < S; ++i) {
      std::memcpy(&a[i][0], rows[i][o], sizeof(linalg::Lanes));
      std::memcpy(&a[i][1], rows[i][o] + linalg::kLanes, sizeof(linalg::Lanes));
    }
    const double* fo = f + o * ld + k;  // column-major ld x m: f(k .. k + 3, o)
    for (std::size_t r = 0; r < kRowBlock; ++r) {
      const double fr = fo[r];
      for (std::size_t i = 0; i < S; ++i) {
        acc[i][r][0] += fr * a[i][0];
        acc[i][r][1] += fr * a[i][1];
      }
    }
  }
}

/// x[s][k][:] = Σ_o f(k, o) a(s, o)[:] over o in [s·shift, hi(k)], k in [lo(s), ld), with hi(k) = k
/// for a lower-triangular F (its entries above the diagonal are zero) and m − 1 otherwise. F is
/// ld x m with ld a multiple of kRowBlock (rows past the rank are zero). The rows a(s, o) are zero
/// rows for o < s·shift. Every sum runs over o in increasing order, so the blocking changes no bit:
/// a block of rows runs o up to its last row's hi(k), and a pair of injections runs o from the
/// first one's s·shift; the zeros of F and of a(s, o) met on the way add exact zeros. The rows of
/// x[s] below lo(s) are not written: they are zero on entry, and stay so between chunks. Also fills
/// `signs`, with the row sums (X_u 1)_k taken over s in increasing order in `row_sums` (ld x kChunk).
NETDP_MULTIVERSION NETDP_CONTRACT void chunk_project(const double* f, std::size_t ld, std::size_t m,
                                                     bool lower, std::size_t injections, std::size_t shift,
                                                     const double* const* a_rows, double* x, double* row_sums,
                                                     ChunkSigns& signs) {
  std::fill(row_sums, row_sums + ld * kChunk, 0.0);
  linalg::Lanes least_lo{};  // min(0, every entry): negative exactly where some entry is
  linalg::Lanes least_hi{};
  // Stores row k of x[s .. s + S − 1] from acc[·][r] and folds it into the row sums (s increasing)
  // and the least entry.
  const auto fold = [&]<std::size_t S>(double* xk, std::size_t stride, double* sum,
                                       const linalg::Lanes(&acc)[S][kRowBlock][2], std::size_t r) {
    linalg::Lanes sum_lo;
    linalg::Lanes sum_hi;
    std::memcpy(&sum_lo, sum, sizeof(linalg::Lanes));
    std::memcpy(&sum_hi, sum + linalg::kLanes, sizeof(linalg::Lanes));
    for (std::size_t i = 0; i < S; ++i) {
      const linalg::Lanes& lo = acc[i][r][0];
      const linalg::Lanes& hi = acc[i][r][1];
      std::memcpy(xk + i * stride, &lo, sizeof(linalg::Lanes));
      std::memcpy(xk + i * stride + linalg::kLanes, &hi, sizeof(linalg::Lanes));
      sum_lo += lo;
      sum_hi += hi;
      least_lo = lo < least_lo ? lo : least_lo;
      least_hi = hi < least_hi ? hi : least_hi;
    }
    std::memcpy(sum, &sum_lo, sizeof(linalg::Lanes));
    std::memcpy(sum + linalg::kLanes, &sum_hi, sizeof(linalg::Lanes));
  };
  const std::size_t block = ld * kChunk;
  const auto run = [&]<std::size_t S>(std::size_t s) {
    const std::size_t o_first = s * shift;
    // Blocks of rows start at a multiple of kRowBlock; the rows below lo(s) come out as exact zeros.
    const std::size_t k_first = lower ? o_first / kRowBlock * kRowBlock : 0;
    const double* const* rows[S];
    for (std::size_t i = 0; i < S; ++i) rows[i] = a_rows + (s + i) * m;
    linalg::Lanes acc[S][kRowBlock][2];
    for (std::size_t k = k_first; k < ld; k += kRowBlock) {
      project_rows<S>(f, ld, k, o_first, lower ? std::min(k + kRowBlock, m) : m, rows, acc);
      for (std::size_t r = 0; r < kRowBlock; ++r)
        fold.template operator()<S>(x + s * block + (k + r) * kChunk, block, row_sums + (k + r) * kChunk, acc,
                                    r);
    }
  };
  std::size_t s = 0;
  for (; s + 2 <= injections; s += 2) run.template operator()<2>(s);
  if (s < injections) run.template operator()<1>(s);
  linalg::Lanes ones_lo{};
  linalg::Lanes ones_hi{};
  for (std::size_t k = 0; k < ld; ++k) {
    linalg::Lanes lo;
    linalg::Lanes hi;
    std::memcpy(&lo, row_sums + k * kChunk, sizeof(linalg::Lanes));
    std::memcpy(&hi, row_sums + k * kChunk + linalg::kLanes, sizeof(linalg::Lanes));
    ones_lo += lo * lo;
    ones_hi += hi * hi;
  }
  std::memcpy(signs.ones.data(), &ones_lo, sizeof(linalg::Lanes));
  std::memcpy(signs.ones.data() + linalg::kLanes, &ones_hi, sizeof(linalg::Lanes));
  for (std::size_t j = 0; j < linalg::kLanes; ++j) {
    signs.nonnegative[j] = !(least_lo[j] < 0.0);
    signs.nonnegative[linalg::kLanes + j] = !(least_hi[j] < 0.0);
  }
}

/// Running Σ K, Σ |K| and min K of the targets of a chunk.
struct ChunkSummary {
  std::array<double, kChunk> ones{};
  std::array<double, kChunk> sum_abs{};
  std::array<double, kChunk> min{};
};

/// Blocks of a tile of chunk_gram: kTileRows × kTileCols entries K[s][t], each a pair of Lanes
/// (16 vector sums, 12 loads for 16 multiply-adds per step).
constexpr std::size_t kTileRows = 2;
constexpr std::size_t kTileCols = 4;

/// K[s][t][:] = Σ_k x[s][k][:] x[t][k][:] for s <= t in kTileRows × kTileCols tiles; folds every
/// entry into the summary (off-diagonal entries twice) and stores both triangles into gram when it
/// is non-null. x holds injections + kTileCols − 1 blocks of ld rows (the last blocks zero) so that
/// tiles never run off the end.
NETDP_MULTIVERSION NETDP_CONTRACT void chunk_gram(const double* x, std::size_t ld, bool lower,
                                                  std::size_t injections, std::size_t shift,
                                                  ChunkSummary& summary, double* gram) {
  // The summary as vectors (low and high half of the chunk); folded with vector operations.
  linalg::Lanes ones[2] = {};
  linalg::Lanes sum_abs[2] = {};
  linalg::Lanes least[2];
  for (linalg::Lanes& v : least)
    for (std::size_t j = 0; j < linalg::kLanes; ++j) v[j] = std::numeric_limits<double>::infinity();
  const std::size_t block = ld * kChunk;
  for (std::size_t s = 0; s < injections; s += kTileRows) {
    for (std::size_t t = s; t < injections; t += kTileCols) {
      linalg::Lanes acc[kTileRows][kTileCols][2] = {};  // entry (s + a, t + b); low and high half
      const std::size_t k_first = lower ? t * shift : 0;
      for (std::size_t k = k_first; k < ld; ++k) {
        const std::size_t off = k * kChunk;
        for (std::size_t h = 0; h < 2; ++h) {
          linalg::Lanes u[kTileRows];
          linalg::Lanes v[kTileCols];
          for (std::size_t a = 0; a < kTileRows; ++a)
            std::memcpy(&u[a], x + (s + a) * block + off + h * linalg::kLanes, sizeof(linalg::Lanes));
          for (std::size_t b = 0; b < kTileCols; ++b)
            std::memcpy(&v[b], x + (t + b) * block + off + h * linalg::kLanes, sizeof(linalg::Lanes));
          for (std::size_t a = 0; a < kTileRows; ++a)
            for (std::size_t b = 0; b < kTileCols; ++b) acc[a][b][h] += u[a] * v[b];
        }
      }
      for (std::size_t a = 0; a < kTileRows; ++a) {
        for (std::size_t b = 0; b < kTileCols; ++b) {
          const std::size_t r = s + a;
          const std::size_t c = t + b;
          // Each unordered pair once: skip the lower triangle and the padding blocks.
          if (r > c || c >= injections) continue;
          const double weight = r == c ? 1.0 : 2.0;
          for (std::size_t h = 0; h < 2; ++h) {
            const linalg::Lanes entry = acc[a][b][h];
            ones[h] += weight * entry;
            sum_abs[h] += weight * (entry < 0.0 ? -entry : entry);
            least[h] = entry < least[h] ? entry : least[h];  // std::min(least, entry)
          }
          if (gram != nullptr) {
            std::memcpy(gram + (r * injections + c) * kChunk, acc[a][b], sizeof(acc[a][b]));
            std::memcpy(gram + (c * injections + r) * kChunk, acc[a][b], sizeof(acc[a][b]));
          }
        }
      }
    }
  }
  std::memcpy(summary.ones.data(), ones, sizeof(ones));
  std::memcpy(summary.sum_abs.data(), sum_abs, sizeof(sum_abs));
  std::memcpy(summary.min.data(), least, sizeof(least));
}

GramSummary summary_of(const ChunkSummary& summary, std::size_t lane) {
  return GramSummary{summary.ones[lane], summary.sum_abs[lane], summary.min[lane] >= 0.0};
}

/// lower += Σ_u col_u col_uᵀ over the columns u of `cols` not in `excluded` (lower triangle; one
/// symmetric rank-k update per run of kept columns).
void add_kept_gram(DenseMatrix& lower, const DenseMatrix& cols, std::span<const graph::NodeId> excluded) {
  const auto n = static_cast<std::size_t>(cols.cols());
  std::vector<graph::NodeId> cut(excluded.begin(), excluded.end());
  for (const auto x : cut) require(x < n, "excluded node {} is not a node (num_nodes = {})", x, n);
  std::sort(cut.begin(), cut.end());
  cut.erase(std::unique(cut.begin(), cut.end()), cut.end());
  std::size_t begin = 0;
  for (std::size_t i = 0; i <= cut.size(); ++i) {
    const std::size_t end = i < cut.size() ? cut[i] : n;
    if (end > begin) {
      linalg::add_gram(
          lower, cols.middleCols(static_cast<Eigen::Index>(begin), static_cast<Eigen::Index>(end - begin)));
    }
    begin = end + 1;
  }
}

}  // namespace

DenseMatrix noise_gram(const ViewRows& rows, std::span<const graph::NodeId> excluded) {
  const std::size_t m = rows.observations;
  const auto mi = static_cast<Eigen::Index>(m);
  DenseMatrix bbt = DenseMatrix::Zero(mi, mi);
  if (rows.toeplitz) {
    DenseMatrix g = DenseMatrix::Zero(mi, mi);
    add_kept_gram(g, rows.lag, excluded);
    g.triangularView<Eigen::StrictlyUpper>() = g.transpose();
    // (B Bᵀ)(o, o') = Σ_s G(o − s·shift, o' − s·shift): the diagonal cumulative sum.
    for (Eigen::Index b = 0; b < mi; ++b) {
      for (Eigen::Index a = 0; a < mi; ++a) {
        const auto shift = static_cast<Eigen::Index>(rows.shift);
        const double previous = (a >= shift && b >= shift) ? bbt(a - shift, b - shift) : 0.0;
        bbt(a, b) = g(a, b) + previous;
      }
    }
    return bbt;
  }
  for (const DenseMatrix& block : rows.block) add_kept_gram(bbt, block, excluded);
  bbt.triangularView<Eigen::StrictlyUpper>() = bbt.transpose();
  return bbt;
}

Factor factor_noise_gram(const DenseMatrix& bbt, const RankOptions& options) {
  const Eigen::Index m = bbt.rows();
  Factor out;
  if (m == 0) return out;
  // The eigenvalues decide the rank; the eigenvectors are needed only when B Bᵀ is not factored
  // by Cholesky (rank deficient, or the factorisation fails).
  NoiseSpectrum spectrum = noise_spectrum(bbt, options, false);
  const Eigen::Index rank = spectrum.rank;
  out.rank = static_cast<std::size_t>(rank);
  if (rank == 0) {
    out.f.resize(0, m);
    out.warnings.push_back({DiagnosticKind::noiseless_view, "B Bᵀ is zero: the view carries no noise"});
    return out;
  }
  out.condition = spectrum.condition;
  if (rank == m) {
    out.f = bbt;
    if (linalg::cholesky_in_place(out.f) && linalg::invert_lower_in_place(out.f)) {
      out.f.triangularView<Eigen::StrictlyUpper>().setZero();
      out.lower_triangular = true;
    }
  }
  if (!out.lower_triangular) {
    spectrum = noise_spectrum(bbt, options, true);
    const Vector inv_sqrt = spectrum.eig.values.tail(rank).cwiseSqrt().cwiseInverse();
    out.f = inv_sqrt.asDiagonal() * spectrum.eig.vectors.rightCols(rank).transpose();
  }
  append_spectrum_warnings(spectrum, options, out.warnings);
  return out;
}

namespace {

/// K_u = (F A_u)ᵀ (F A_u) for one target by dense products (the chunked kernels would spend
/// their kChunk lanes on one target). Column s of A_u is the target's coefficient in the
/// observations from o = s·shift on.
DenseMatrix single_target_gram(const ViewRows& rows, const Factor& factor, graph::NodeId target) {
  const auto t = static_cast<Eigen::Index>(rows.injections);
  const auto m = static_cast<Eigen::Index>(rows.observations);
  const auto shift = static_cast<Eigen::Index>(rows.shift);
  const auto u = static_cast<Eigen::Index>(target);
  DenseMatrix a = DenseMatrix::Zero(m, t);
  for (Eigen::Index s = 0; s < t; ++s) {
    const Eigen::Index first = std::min(m, s * shift);
    if (rows.toeplitz) {
      a.col(s).tail(m - first) = rows.lag.col(u).head(m - first);
    } else {
      a.col(s).tail(m - first) = rows.block[static_cast<std::size_t>(s)].col(u).tail(m - first);
    }
  }
  DenseMatrix x;
  if (factor.lower_triangular) {
    linalg::multiply_lower_in_place(factor.f, a);
    x = std::move(a);
  } else {
    x = DenseMatrix::Zero(factor.f.rows(), t);
    linalg::multiply_into(x, 1.0, factor.f, false, a, false, 0.0);
  }
  DenseMatrix k = DenseMatrix::Zero(t, t);
  linalg::add_transposed_gram(k, x);
  k.triangularView<Eigen::StrictlyUpper>() = k.transpose();
  return k;
}

}  // namespace

void target_grams(const ViewRows& rows, const Factor& factor, std::span<const graph::NodeId> targets,
                  bool want_gram, const GramEmit& emit) {
  if (targets.size() == 1 && factor.rank > 0) {
    const DenseMatrix k = single_target_gram(rows, factor, targets.front());
    emit(0, GramSummary{k.sum(), k.cwiseAbs().sum(), k.minCoeff() >= 0.0}, k.data());
    return;
  }
  const std::size_t t = rows.injections;
  const std::size_t m = rows.observations;
  const std::size_t rank = factor.rank;
  if (rank == 0) {  // no noise in the view: K_u = 0
    const std::vector<double> zero(t * t, 0.0);
    for (std::size_t k = 0; k < targets.size(); ++k)
      emit(k, GramSummary{0.0, 0.0, true}, want_gram ? zero.data() : nullptr);
    return;
  }
  // F (rank x m, column-major) with zero rows up to a multiple of kRowBlock: the kernels' leading
  // dimension. The zero rows add exact zeros to every sum.
  const std::size_t ld = (rank + kRowBlock - 1) / kRowBlock * kRowBlock;
  DenseMatrix f = DenseMatrix::Zero(static_cast<Eigen::Index>(ld), static_cast<Eigen::Index>(m));
  f.topRows(static_cast<Eigen::Index>(rank)) = factor.f;
  // The targets' coefficients, lane j = targets[begin + j], then one zero row: a(s, o) for o < s·shift.
  const std::size_t data_rows = rows.toeplitz ? m : t * m;
  std::vector<double> gathered((data_rows + 1) * kChunk, 0.0);
  const double* zero_row = gathered.data() + data_rows * kChunk;
  std::vector<const double*> a_rows(t * m, zero_row);
  for (std::size_t s = 0; s < t; ++s) {
    for (std::size_t o = s * rows.shift; o < m; ++o) {
      const std::size_t row = rows.toeplitz ? o - s * rows.shift : s * m + o;
      a_rows[s * m + o] = gathered.data() + row * kChunk;
    }
  }
  // Zero once: chunk_project never writes the rows of x[s] below lo(s), and the blocks after the
  // last injection serve the tiles of chunk_gram that reach past it.
  const std::size_t x_size = (t + kTileCols - 1) * ld * kChunk;
  std::vector<double> x(x_size, 0.0);
  std::vector<double> gram_chunk(t * t * kChunk, 0.0);
  std::vector<double> gram(t * t, 0.0);
  ChunkSummary summary;
  // Without K_u wanted, targets with X_u >= 0 are summed from X_u (ChunkSigns); the others wait in
  // the lanes of a pending chunk, in the layout of x, until chunk_gram can fill all its lanes.
  ChunkSigns signs;
  std::vector<double> row_sums(ld * kChunk, 0.0);
  std::vector<double> pending;  // allocated at the first target with a negative entry
  std::array<std::size_t, kChunk> pending_target{};
  std::size_t pending_count = 0;
  // Each lane's K_u is emitted (a target with a negative entry needs it for its bound).
  const auto emit_chunk = [&](std::size_t lanes, const auto& target_of) {
    for (std::size_t j = 0; j < lanes; ++j) {
      for (std::size_t e = 0; e < t * t; ++e) gram[e] = gram_chunk[e * kChunk + j];
      emit(target_of(j), summary_of(summary, j), gram.data());
    }
  };
  const auto flush_pending = [&] {
    chunk_gram(pending.data(), ld, factor.lower_triangular, t, rows.shift, summary, gram_chunk.data());
    emit_chunk(pending_count, [&](std::size_t j) { return pending_target[j]; });
    pending_count = 0;
  };

  for (std::size_t begin = 0; begin < targets.size(); begin += kChunk) {
    const std::size_t width = std::min(kChunk, targets.size() - begin);
    if (width < kChunk) std::fill(gathered.begin(), gathered.end(), 0.0);
    for (std::size_t j = 0; j < width; ++j) {
      const auto u = static_cast<Eigen::Index>(targets[begin + j]);
      if (rows.toeplitz) {
        for (std::size_t o = 0; o < m; ++o)
          gathered[o * kChunk + j] = rows.lag(static_cast<Eigen::Index>(o), u);
      } else {
        for (std::size_t s = 0; s < t; ++s)
          for (std::size_t o = 0; o < m; ++o)
            gathered[(s * m + o) * kChunk + j] = rows.block[s](static_cast<Eigen::Index>(o), u);
      }
    }
    chunk_project(f.data(), ld, m, factor.lower_triangular, t, rows.shift, a_rows.data(), x.data(),
                  row_sums.data(), signs);
    if (want_gram) {
      chunk_gram(x.data(), ld, factor.lower_triangular, t, rows.shift, summary, gram_chunk.data());
      emit_chunk(width, [&](std::size_t j) { return begin + j; });
      continue;
    }
    for (std::size_t j = 0; j < width; ++j) {
      if (signs.nonnegative[j]) {
        emit(begin + j, GramSummary{signs.ones[j], signs.ones[j], true}, nullptr);
        continue;
      }
      // Lane j of every block of x into lane `pending_count` of the pending chunk.
      if (pending.empty()) pending.assign(x_size, 0.0);
      for (std::size_t e = 0; e < t * ld; ++e) pending[e * kChunk + pending_count] = x[e * kChunk + j];
      pending_target[pending_count++] = begin + j;
      if (pending_count == kChunk) flush_pending();
    }
  }
  if (pending_count > 0) flush_pending();
}

}  // namespace netdp::accounting::detail
