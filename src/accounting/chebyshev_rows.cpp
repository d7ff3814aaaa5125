#include "chebyshev_rows.hpp"

#include <Spectra/MatOp/SparseSymMatProd.h>
#include <Spectra/SymEigsSolver.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

#include "dense_kernels.hpp"
#include "multiversion.hpp"
#include "netdp/util/check.hpp"
#include "sparse_block.hpp"

namespace netdp::accounting::detail {
namespace {

using Index = Eigen::Index;

constexpr double kUnitRoundoff = std::numeric_limits<double>::epsilon() / 2.0;

/// γ_k = k u / (1 − k u) (Higham §3.1): the relative error of a k-term inner product.
double inner_product_gamma(double k) { return k * kUnitRoundoff / (1.0 - k * kUnitRoundoff); }

/// Largest n whose spectrum's lower end is verified by a dense Cholesky (8n² bytes, n³/3 flops).
constexpr Index kDenseVerifyLimit = 6000;

/// Below this n, the estimate of λ_min comes from a dense eigensolver instead of Lanczos.
constexpr Index kDenseEstimateLimit = 400;

/// An estimate of λ_min(W) (not a bound): Lanczos on the sparse W, or a dense solver.
std::optional<double> estimate_smallest_eigenvalue(const SparseMatrix& w) {
  const Index n = w.rows();
  if (n <= kDenseEstimateLimit) {
    const Eigen::SelfAdjointEigenSolver<DenseMatrix> solver(DenseMatrix(w), Eigen::EigenvaluesOnly);
    if (solver.info() != Eigen::Success) return std::nullopt;
    return solver.eigenvalues()(0);
  }
  Spectra::SparseSymMatProd<double, Eigen::Lower, Eigen::RowMajor> op(w);
  Spectra::SymEigsSolver<Spectra::SparseSymMatProd<double, Eigen::Lower, Eigen::RowMajor>> solver(
      op, 1, std::min<Index>(n, 40));
  solver.init();
  solver.compute(Spectra::SortRule::SmallestAlge, 5000, 1e-12);
  if (solver.info() != Spectra::CompInfo::Successful) return std::nullopt;
  return solver.eigenvalues()(0);
}

/// A proven lower bound on λ_min(W), when the dense Cholesky of W − aI succeeds for a just below
/// the estimate: W − aI (formed with an error of at most u |W_ii − a| on the diagonal) + ΔA = R̂ᵀR̂
/// with ‖ΔA‖₂ <= γ_{n+1} ‖R̂‖_F² (Higham Theorem 10.3), so λ_min(W) >= a − γ_{n+1} ‖R̂‖_F² − u max|W_ii − a|.
/// Both terms are doubled against the rounding of their own evaluation and blocked orderings.
std::optional<double> verified_lower_end(const SparseMatrix& w, double estimate, double scale) {
  const Index n = w.rows();
  for (const double relative_pad : {1e-8, 1e-6, 1e-4, 1e-2}) {
    const double a = estimate - relative_pad * scale;
    DenseMatrix shifted(w);  // the factorisation reads the lower triangle only
    double diagonal_error = 0.0;
    for (Index i = 0; i < n; ++i) {
      shifted(i, i) -= a;
      diagonal_error = std::max(diagonal_error, kUnitRoundoff * std::abs(shifted(i, i)));
    }
    if (!cholesky_in_place(shifted)) continue;  // LAPACK's DPOTRF when available; R̂ᵀ in the lower triangle
    double factor_norm = 0.0;
    for (Index j = 0; j < n; ++j) factor_norm += shifted.col(j).tail(n - j).squaredNorm();
    if (!std::isfinite(factor_norm)) continue;
    return a - 2.0 * (inner_product_gamma(static_cast<double>(n + 1)) * factor_norm + diagonal_error);
  }
  return std::nullopt;
}

/// f with f·M bounding the rounding of measured_local_errors' evaluation for a row of k non-zeros:
/// the TwoSum and FMA remainders of the k products sum to at most (k + 1) u (|W||x|)_i, and adding
/// them up in double rounds by at most γ_{2k} of that; the seven operations after it add at most
/// 10 (k + 3) u² M. So f = 1.01 u (γ_{2k} (k + 1) + 10 u (k + 3)), of order k² u².
double evaluation_factor(double k) {
  return 1.01 * kUnitRoundoff * (inner_product_gamma(2.0 * k) * (k + 1.0) + 10.0 * kUnitRoundoff * (k + 3.0));
}

/// s + e = a + b exactly (Knuth's TwoSum).
NETDP_EXACT_ROUNDING inline void two_sum(double a, double b, double& s, double& e) {
  s = a + b;
  const double bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}

/// The local error of one step of the recurrence, measured: for every node i and column j,
/// r = x_{t+1} − (c (α (W x_t)_i + β x_t,i) − keep x_{t−1,i}) evaluated in double-double (products
/// split exactly by FMA, sums by TwoSum), so |δ| <= |r| (1 + 4u) + f_i M_i, where
/// M_i = c (|α| (|W||x_t|)_i + |β| |x_t,i|) + keep |x_{t−1,i}| and f_i M_i (evaluation_factor) bounds
/// the rounding of the double-double evaluation itself. Adds Σ_i bound² to local[j]. W in CSR form;
/// the blocks row-major n × width. A fused a·b + s would break the exact splits: no contraction.
NETDP_MULTIVERSION NETDP_EXACT_ROUNDING void measured_local_errors(
    const int* row_start, const int* columns, const double* values, std::size_t n, std::size_t width,
    const double* current, const double* previous, const double* next, double alpha, double beta, double c,
    double keep, const double* row_factor, double* hi, double* lo, double* magnitude, double* local) {
  for (std::size_t i = 0; i < n; ++i) {
    std::fill(hi, hi + width, 0.0);
    std::fill(lo, lo + width, 0.0);
    std::fill(magnitude, magnitude + width, 0.0);
    for (int e = row_start[i]; e < row_start[i + 1]; ++e) {
      const double a = values[e];
      const double* x = current + static_cast<std::size_t>(columns[e]) * width;
      for (std::size_t j = 0; j < width; ++j) {
        const double p = a * x[j];
        const double p_error = std::fma(a, x[j], -p);
        double sum = 0.0;
        double sum_error = 0.0;
        two_sum(hi[j], p, sum, sum_error);
        hi[j] = sum;
        lo[j] += sum_error + p_error;
        magnitude[j] += std::abs(a) * std::abs(x[j]);
      }
    }
    const std::size_t row = i * width;
    const double f = row_factor[i];
    for (std::size_t j = 0; j < width; ++j) {
      const double x = current[row + j];
      const double before = previous[row + j];
      const double scaled = alpha * hi[j];
      double low = std::fma(alpha, hi[j], -scaled) + alpha * lo[j];
      const double shift = beta * x;
      low += std::fma(beta, x, -shift);
      double head = 0.0;
      double carry = 0.0;
      two_sum(scaled, shift, head, carry);
      low += carry;
      head *= c;  // c is 1 or 2: exact
      low *= c;
      double exact_head = 0.0;
      two_sum(head, -keep * before, exact_head, carry);
      low += carry;
      double difference = 0.0;
      two_sum(next[row + j], -exact_head, difference, carry);
      const double residual = difference + (carry - low);
      const double m =
          c * (std::abs(alpha) * magnitude[j] + std::abs(beta) * std::abs(x)) + keep * std::abs(before);
      const double bound = std::abs(residual) * (1.0 + 4.0 * kUnitRoundoff) + f * m;
      local[j] += bound * bound;
    }
  }
}

}  // namespace

void multiply_rows(const SparseMatrix& m, const RowMajorMatrix& x, RowMajorMatrix& next) {
  require(m.isCompressed() && m.cols() == x.rows(),
          "multiply_rows needs a compressed {} x {} matrix for {} rows", m.rows(), m.cols(), x.rows());
  next.resize(m.rows(), x.cols());
  csr_times_block(m.outerIndexPtr(), m.innerIndexPtr(), m.valuePtr(), static_cast<std::size_t>(m.rows()),
                  x.data(), static_cast<std::size_t>(x.cols()), next.data());
}

bool exactly_symmetric(const SparseMatrix& w) {
  if (w.rows() != w.cols()) return false;
  const SparseMatrix transposed = w.transpose();
  return (w - transposed).cwiseAbs().sum() == 0.0;
}

SpectralInterval certified_spectral_interval(const SparseMatrix& w) {
  const Index n = w.rows();
  require(w.cols() == n && n >= 1, "the spectral interval needs a square, non-empty W, got {} x {}", n,
          w.cols());
  for (Index j = 0; j < w.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(w, j); it; ++it)
      require(std::isfinite(it.value()), "the spectral interval needs finite entries, got W({}, {}) = {}",
              it.row(), it.col(), it.value());
  }
  require(exactly_symmetric(w), "the spectral interval needs a symmetric W (W = Wᵀ entry for entry)");
  // Gershgorin's discs, each end rounded outwards by twice the error of its own sums.
  SpectralInterval out{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (Index j = 0; j < w.outerSize(); ++j) {
    double diagonal = 0.0;
    double off = 0.0;
    double terms = 1.0;
    for (SparseMatrix::InnerIterator it(w, j); it; ++it) {
      if (it.row() == it.col()) {
        diagonal = it.value();
      } else {
        off += std::abs(it.value());
        terms += 1.0;
      }
    }
    const double slack = 2.0 * inner_product_gamma(terms + 2.0) * (std::abs(diagonal) + off);
    out.upper = std::max(out.upper, diagonal + off + slack);
    out.lower = std::min(out.lower, diagonal - off - slack);
  }
  if (n > kDenseVerifyLimit) return out;
  const std::optional<double> estimate = estimate_smallest_eigenvalue(w);
  if (!estimate || !std::isfinite(*estimate)) return out;
  const double scale = std::max({std::abs(out.upper), std::abs(out.lower), 1e-300});
  if (const std::optional<double> verified = verified_lower_end(w, *estimate, scale))
    out.lower = std::max(out.lower, *verified);
  return out;
}

void sender_blocks(const RowMajorMatrix& current, const RowMajorMatrix& previous,
                   const std::vector<graph::NodeId>& senders, std::size_t time, std::size_t last,
                   SenderBasis basis, std::vector<DenseMatrix>& blocks) {
  const auto s = static_cast<Index>(senders.size());
  if (time <= last) {
    DenseMatrix block(s, s);
    for (Index i = 0; i < s; ++i)
      block.row(i) = current.row(static_cast<Index>(senders[static_cast<std::size_t>(i)]));
    blocks[time] = std::move(block);
  }
  if (2 * time <= last) return;
  // x (n × |S| row-major) is xᵀ column-major: each product is one BLAS call.
  const Eigen::Map<const DenseMatrix> x_t(current.data(), current.cols(), current.rows());
  const Eigen::Map<const DenseMatrix> x_before(previous.data(), previous.cols(), previous.rows());
  const bool chebyshev = basis == SenderBasis::chebyshev;
  const double scale = chebyshev ? 2.0 : 1.0;
  DenseMatrix square = DenseMatrix::Identity(s, s);  // − I (Chebyshev) or unused (beta 0)
  multiply_into(square, scale, x_t, false, x_t, true, chebyshev ? -1.0 : 0.0);
  blocks[2 * time] = std::move(square);
  if (2 * time - 1 > last) {
    DenseMatrix cross = blocks[1];  // − T_1 (Chebyshev) or unused (beta 0)
    multiply_into(cross, scale, x_t, false, x_before, true, chebyshev ? -1.0 : 0.0);
    blocks[2 * time - 1] = std::move(cross);
  }
}

DenseMatrix gram_from_sender_blocks(std::span<const TimedSender> messages,
                                    const std::vector<graph::NodeId>& senders,
                                    const std::vector<DenseMatrix>& blocks, SenderBasis basis) {
  const auto m = static_cast<Index>(messages.size());
  std::vector<Index> index(messages.size());
  for (std::size_t k = 0; k < messages.size(); ++k)
    index[k] = std::lower_bound(senders.begin(), senders.end(), messages[k].sender) - senders.begin();
  const bool chebyshev = basis == SenderBasis::chebyshev;
  DenseMatrix gram = DenseMatrix::Zero(m, m);
  for (Index j = 0; j < m; ++j) {
    const std::size_t tj = messages[static_cast<std::size_t>(j)].time;
    const Index wj = index[static_cast<std::size_t>(j)];
    for (Index i = j; i < m; ++i) {
      const std::size_t ti = messages[static_cast<std::size_t>(i)].time;
      const Index wi = index[static_cast<std::size_t>(i)];
      const double sum = blocks[ti + tj](wi, wj);
      gram(i, j) = chebyshev ? 0.5 * (sum + blocks[ti > tj ? ti - tj : tj - ti](wi, wj)) : sum;
    }
  }
  return gram;
}

ChebyshevRows chebyshev_rows(const SparseMatrix& w, SpectralInterval interval,
                             std::span<const TimedSender> messages, bool with_gram) {
  const Index n = w.rows();
  ChebyshevRows out;
  out.rows = DenseMatrix::Zero(static_cast<Index>(messages.size()), n);
  if (messages.empty()) return out;
  // The affine map x -> αx + β sends a slightly wider interval onto [−1, 1], so that the exact
  // spectrum of αW + βI stays inside [−1, 1] whatever the rounding of α and β.
  const double width =
      std::max(interval.upper - interval.lower, 1e-6 * std::max(1.0, std::abs(interval.upper)));
  const double lo = interval.lower - 1e-9 * width;
  const double hi = interval.upper + 1e-9 * width;
  const double alpha = 2.0 / (hi - lo);
  const double beta = -(hi + lo) / (hi - lo);
  out.alpha = alpha;
  out.beta = beta;
  require(alpha * interval.lower + beta >= -1.0 + 1e-12 && alpha * interval.upper + beta <= 1.0 - 1e-12,
          "internal: the Chebyshev map of [{}, {}] leaves [-1, 1]", interval.lower, interval.upper);

  std::vector<graph::NodeId> senders;
  for (std::size_t k = 0; k < messages.size(); ++k) {
    require(messages[k].sender < static_cast<std::size_t>(n), "message {}: sender {} is not a node (n = {})",
            k, messages[k].sender, n);
    require(k == 0 || messages[k - 1].time <= messages[k].time,
            "message {}: the messages must be sorted by time, got time {} after {}", k, messages[k].time,
            k == 0 ? 0 : messages[k - 1].time);
    senders.push_back(messages[k].sender);
  }
  std::sort(senders.begin(), senders.end());
  senders.erase(std::unique(senders.begin(), senders.end()), senders.end());
  const auto width_s = static_cast<Index>(senders.size());
  const auto column_of = [&](graph::NodeId s) {
    return std::lower_bound(senders.begin(), senders.end(), s) - senders.begin();
  };
  std::vector<double> row_factor(static_cast<std::size_t>(n));
  for (Index j = 0; j < w.outerSize(); ++j) {
    double nnz = 0.0;
    for (SparseMatrix::InnerIterator it(w, j); it; ++it) nnz += 1.0;
    row_factor[static_cast<std::size_t>(j)] = evaluation_factor(nnz);
  }
  // Row-major CSR for the measured local errors (a copy only when W has free space in its storage).
  SparseMatrix compressed;
  if (!w.isCompressed()) {
    compressed = w;
    compressed.makeCompressed();
  }
  const SparseMatrix& csr = w.isCompressed() ? w : compressed;

  RowMajorMatrix current = RowMajorMatrix::Zero(n, width_s);
  for (Index j = 0; j < width_s; ++j)
    current(static_cast<Index>(senders[static_cast<std::size_t>(j)]), j) = 1.0;
  RowMajorMatrix previous = RowMajorMatrix::Zero(n, width_s);
  RowMajorMatrix product;
  RowMajorMatrix next(n, width_s);
  const auto block_width = static_cast<std::size_t>(width_s);
  std::vector<double> sum_high(block_width), sum_low(block_width), magnitude(block_width);
  // Per column: the error bound of the current vector, and the running sum of the local bounds
  // (E(t) = E(t − 1) + Σ_{j <= t} ‖δ_j‖ is Σ_j (t − j + 1) ‖δ_j‖).
  std::vector<double> error(block_width, 0.0);
  std::vector<double> local_sum(block_width, 0.0);
  std::vector<double> local(block_width, 0.0);
  double squared_error = 0.0;
  const std::size_t last = messages.back().time;
  // With the Gram: blocks[t](i, j) = T_t(W̃)_{s_i s_j} for t <= 2·last, read off the rows up to
  // `last`, beyond it from T_{2a} = 2 T_a² − I and T_{2a−1} = 2 T_a T_{a−1} − T_1.
  std::vector<DenseMatrix> blocks(with_gram ? 2 * last + 1 : 0);
  std::size_t k = 0;
  for (std::size_t time = 0;; ++time) {
    for (; k < messages.size() && messages[k].time == time; ++k) {
      const Index column = column_of(messages[k].sender);
      const auto row = static_cast<Index>(k);
      for (Index i = 0; i < n; ++i) out.rows(row, i) = current(i, column);
      squared_error += error[static_cast<std::size_t>(column)] * error[static_cast<std::size_t>(column)];
    }
    if (with_gram) sender_blocks(current, previous, senders, time, last, SenderBasis::chebyshev, blocks);
    if (k == messages.size()) break;
    // x_{t+1} = c (α W x_t + β x_t) − x_{t−1}, c = 1 at the first step (T_1 = αW + βI), 2 after.
    const double c = time == 0 ? 1.0 : 2.0;
    const double keep = time == 0 ? 0.0 : 1.0;
    multiply_rows(csr, current, product);  // W x_t (W symmetric)
    next = c * (alpha * product + beta * current) - keep * previous;
    std::fill(local.begin(), local.end(), 0.0);
    measured_local_errors(csr.outerIndexPtr(), csr.innerIndexPtr(), csr.valuePtr(),
                          static_cast<std::size_t>(n), block_width, current.data(), previous.data(),
                          next.data(), alpha, beta, c, keep, row_factor.data(), sum_high.data(),
                          sum_low.data(), magnitude.data(), local.data());
    previous.swap(current);  // previous = x_t
    current.swap(next);      // current = x_{t+1}
    for (std::size_t j = 0; j < block_width; ++j) {
      local_sum[j] += std::sqrt(local[j]);
      error[j] += local_sum[j];
    }
  }
  // The bound's own evaluation rounds too: widen it by a little more than that.
  out.forward_error = 1.01 * std::sqrt(squared_error);
  if (with_gram) out.gram = gram_from_sender_blocks(messages, senders, blocks, SenderBasis::chebyshev);
  return out;
}

}  // namespace netdp::accounting::detail
