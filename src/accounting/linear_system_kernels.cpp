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

#include "linear_system_detail.hpp"
#include "multiversion.hpp"
#include "netdp/util/check.hpp"
#include "noise_spectrum.hpp"

namespace netdp::accounting::detail {
namespace {

/// Targets processed together by the kernels (the vectorised dimension).
constexpr std::size_t kChunk = 16;

/// g (m x m, column-major, lower triangle) += Σ_u col_u col_uᵀ over the columns not masked out.
NETDP_MULTIVERSION
void accumulate_outer(const double* cols, std::size_t m, std::size_t count, const unsigned char* skip,
                      double* g) {
  for (std::size_t u = 0; u < count; ++u) {
    if (skip[u] != 0) continue;
    const double* col = cols + u * m;
    for (std::size_t b = 0; b < m; ++b) {
      const double cb = col[b];
      if (cb == 0.0) continue;
      double* gcol = g + b * m;
      for (std::size_t a = b; a < m; ++a) gcol[a] += col[a] * cb;
    }
  }
}

/// Rows of F that chunk_project accumulates together: each row of A_u it loads serves kRowBlock
/// independent sums (2·kRowBlock vector registers at AVX-512), instead of one chain of dependent
/// multiply-adds that waits on the latency of the last.
constexpr std::size_t kRowBlock = 4;

static_assert(kChunk == 2 * kLanes, "a chunk of targets is two Lanes");

/// x[s][k][:] = Σ_o f(k, o) a(s, o)[:] over o in [s·shift, hi(k)], k in [lo(s), rank), with hi(k) = k
/// for a lower-triangular F (its entries above the diagonal are zero) and m − 1 otherwise. The rows
/// a(s, o) are present from o = s·shift on. Every sum runs over o in increasing order, so the
/// blocking of k changes no bit: a block runs o up to its last row's hi(k), and the zeros of F it
/// meets on the way add exact zeros.
NETDP_MULTIVERSION NETDP_CONTRACT void chunk_project(const double* f, std::size_t rank, std::size_t m,
                                                     bool lower, std::size_t injections, std::size_t shift,
                                                     const double* const* a_rows, double* x) {
  for (std::size_t s = 0; s < injections; ++s) {
    const std::size_t o_first = s * shift;
    const std::size_t k_first = lower ? o_first : 0;
    const double* const* rows = a_rows + s * m;
    double* xs = x + s * rank * kChunk;
    std::fill(xs, xs + k_first * kChunk, 0.0);  // rows below lo(s); chunk_gram's tiles read them
    std::size_t k = k_first;
    for (; k + kRowBlock <= rank; k += kRowBlock) {
      // Eight vectors of accumulators, spelled out so that they stay in registers.
      Lanes a0l{}, a0h{}, a1l{}, a1h{}, a2l{}, a2h{}, a3l{}, a3h{};
      const std::size_t o_last = lower ? std::min(k + kRowBlock, m) : m;
      for (std::size_t o = o_first; o < o_last; ++o) {
        Lanes lo;
        Lanes hi;
        std::memcpy(&lo, rows[o], sizeof(Lanes));
        std::memcpy(&hi, rows[o] + kLanes, sizeof(Lanes));
        const double* fo = f + o * rank + k;  // column-major rank x m: f(k .. k + 3, o)
        a0l += fo[0] * lo;
        a0h += fo[0] * hi;
        a1l += fo[1] * lo;
        a1h += fo[1] * hi;
        a2l += fo[2] * lo;
        a2h += fo[2] * hi;
        a3l += fo[3] * lo;
        a3h += fo[3] * hi;
      }
      const Lanes block[2 * kRowBlock] = {a0l, a0h, a1l, a1h, a2l, a2h, a3l, a3h};
      std::memcpy(xs + k * kChunk, block, sizeof(block));
    }
    for (; k < rank; ++k) {
      std::array<double, kChunk> acc{};
      const std::size_t o_last = lower ? std::min(k + 1, m) : m;
      for (std::size_t o = o_first; o < o_last; ++o) {
        const double* row = rows[o];
        const double fk = f[o * rank + k];
        for (std::size_t j = 0; j < kChunk; ++j) acc[j] += fk * row[j];
      }
      std::copy(acc.begin(), acc.end(), xs + k * kChunk);
    }
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
/// is non-null. x holds injections + kTileCols − 1 blocks (the last ones zero) so that tiles never
/// run off the end.
NETDP_MULTIVERSION NETDP_CONTRACT void chunk_gram(const double* x, std::size_t rank, bool lower,
                                                  std::size_t injections, std::size_t shift,
                                                  ChunkSummary& summary, double* gram) {
  // The summary as vectors (low and high half of the chunk); folded with vector operations.
  Lanes ones[2] = {};
  Lanes sum_abs[2] = {};
  Lanes least[2];
  for (Lanes& v : least)
    for (std::size_t j = 0; j < kLanes; ++j) v[j] = std::numeric_limits<double>::infinity();
  const std::size_t block = rank * kChunk;
  for (std::size_t s = 0; s < injections; s += kTileRows) {
    for (std::size_t t = s; t < injections; t += kTileCols) {
      Lanes acc[kTileRows][kTileCols][2] = {};  // entry (s + a, t + b); low and high half
      const std::size_t k_first = lower ? t * shift : 0;
      for (std::size_t k = k_first; k < rank; ++k) {
        const std::size_t off = k * kChunk;
        for (std::size_t h = 0; h < 2; ++h) {
          Lanes u[kTileRows];
          Lanes v[kTileCols];
          for (std::size_t a = 0; a < kTileRows; ++a)
            std::memcpy(&u[a], x + (s + a) * block + off + h * kLanes, sizeof(Lanes));
          for (std::size_t b = 0; b < kTileCols; ++b)
            std::memcpy(&v[b], x + (t + b) * block + off + h * kLanes, sizeof(Lanes));
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
            const Lanes entry = acc[a][b][h];
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

std::vector<unsigned char> skip_mask(std::size_t n, std::span<const graph::NodeId> excluded) {
  std::vector<unsigned char> skip(n, 0);
  for (const auto x : excluded) {
    require(x < n, "excluded node {} is not a node (num_nodes = {})", x, n);
    skip[x] = 1;
  }
  return skip;
}

}  // namespace

DenseMatrix noise_gram(const ViewRows& rows, std::span<const graph::NodeId> excluded) {
  const std::size_t m = rows.observations;
  const auto mi = static_cast<Eigen::Index>(m);
  DenseMatrix bbt = DenseMatrix::Zero(mi, mi);
  if (rows.toeplitz) {
    const auto n = static_cast<std::size_t>(rows.lag.cols());
    const auto skip = skip_mask(n, excluded);
    DenseMatrix g = DenseMatrix::Zero(mi, mi);
    accumulate_outer(rows.lag.data(), m, n, skip.data(), g.data());
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
  for (const DenseMatrix& block : rows.block) {
    const auto n = static_cast<std::size_t>(block.cols());
    const auto skip = skip_mask(n, excluded);
    accumulate_outer(block.data(), m, n, skip.data(), bbt.data());
  }
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
    out.warnings.push_back("B Bᵀ is zero: the view carries no noise");
    return out;
  }
  out.condition = spectrum.condition;
  if (rank == m) {
    const Eigen::LLT<DenseMatrix> llt(bbt);
    if (llt.info() == Eigen::Success) {
      out.f = llt.matrixL().solve(DenseMatrix::Identity(m, m));
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
  const DenseMatrix x = factor.lower_triangular ? DenseMatrix(factor.f.triangularView<Eigen::Lower>() * a)
                                                : DenseMatrix(factor.f * a);
  DenseMatrix k = DenseMatrix::Zero(t, t);
  k.selfadjointView<Eigen::Lower>().rankUpdate(x.transpose());
  k.triangularView<Eigen::StrictlyUpper>() = k.transpose();
  return k;
}

}  // namespace

void target_grams(const ViewRows& rows, const Factor& factor, std::span<const graph::NodeId> targets,
                  bool want_gram, const GramEmit& emit) {
  if (targets.size() == 1 && factor.rank > 0) {
    const DenseMatrix k = single_target_gram(rows, factor, targets.front());
    emit(0, GramSummary{k.sum(), k.cwiseAbs().sum(), k.minCoeff()}, want_gram ? k.data() : nullptr);
    return;
  }
  const std::size_t t = rows.injections;
  const std::size_t m = rows.observations;
  const std::size_t rank = factor.rank;
  const DenseMatrix f = factor.f;  // rank x m, column-major
  std::vector<double> gathered((rows.toeplitz ? m : t * m) * kChunk, 0.0);
  std::vector<const double*> a_rows(t * m, nullptr);
  // + zero blocks for the tiles of chunk_gram that reach past the last injection
  std::vector<double> x((t + kTileCols - 1) * std::max<std::size_t>(rank, 1) * kChunk, 0.0);
  std::vector<double> gram_chunk(t * t * kChunk, 0.0);
  std::vector<double> gram(t * t, 0.0);
  ChunkSummary summary;

  for (std::size_t begin = 0; begin < targets.size(); begin += kChunk) {
    const std::size_t width = std::min(kChunk, targets.size() - begin);
    std::fill(gathered.begin(), gathered.end(), 0.0);
    if (rows.toeplitz) {
      for (std::size_t j = 0; j < width; ++j) {
        const auto u = static_cast<Eigen::Index>(targets[begin + j]);
        for (std::size_t o = 0; o < m; ++o)
          gathered[o * kChunk + j] = rows.lag(static_cast<Eigen::Index>(o), u);
      }
      for (std::size_t s = 0; s < t; ++s) {
        for (std::size_t o = 0; o < m; ++o) {
          a_rows[s * m + o] = o >= s * rows.shift ? gathered.data() + (o - s * rows.shift) * kChunk : nullptr;
        }
      }
    } else {
      for (std::size_t s = 0; s < t; ++s) {
        for (std::size_t j = 0; j < width; ++j) {
          const auto u = static_cast<Eigen::Index>(targets[begin + j]);
          for (std::size_t o = 0; o < m; ++o) {
            gathered[(s * m + o) * kChunk + j] = rows.block[s](static_cast<Eigen::Index>(o), u);
          }
        }
        for (std::size_t o = 0; o < m; ++o) {
          a_rows[s * m + o] = o >= s * rows.shift ? gathered.data() + (s * m + o) * kChunk : nullptr;
        }
      }
    }
    if (rank > 0) {
      chunk_project(f.data(), rank, m, factor.lower_triangular, t, rows.shift, a_rows.data(), x.data());
      chunk_gram(x.data(), rank, factor.lower_triangular, t, rows.shift, summary,
                 want_gram ? gram_chunk.data() : nullptr);
    } else {
      std::fill(gram_chunk.begin(), gram_chunk.end(), 0.0);
      summary = ChunkSummary{};
      summary.min.fill(0.0);
    }
    for (std::size_t j = 0; j < width; ++j) {
      if (want_gram) {
        for (std::size_t e = 0; e < t * t; ++e) gram[e] = gram_chunk[e * kChunk + j];
      }
      emit(begin + j, GramSummary{summary.ones[j], summary.sum_abs[j], summary.min[j]},
           want_gram ? gram.data() : nullptr);
    }
  }
}

}  // namespace netdp::accounting::detail
