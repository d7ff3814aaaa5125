// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "accounting/muffliato/chebyshev_rows.hpp"

#include <Spectra/MatOp/SparseSymMatProd.h>
#include <Spectra/SymEigsSolver.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <tuple>
#include <utility>

#include "netdp/linalg/dense_kernels.hpp"
#include "netdp/linalg/multiversion.hpp"
#include "netdp/linalg/sparse_block.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/parallel_errors.hpp"

namespace netdp::accounting::detail {
namespace {

using Index = Eigen::Index;

constexpr double kUnitRoundoff = std::numeric_limits<double>::epsilon() / 2.0;

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
    if (!linalg::cholesky_in_place(shifted))
      continue;  // LAPACK's DPOTRF when available; R̂ᵀ in the lower triangle
    double factor_norm = 0.0;
    for (Index j = 0; j < n; ++j) factor_norm += shifted.col(j).tail(n - j).squaredNorm();
    if (!std::isfinite(factor_norm)) continue;
    return a - 2.0 * (linalg::inner_product_gamma(static_cast<double>(n + 1)) * factor_norm + diagonal_error);
  }
  return std::nullopt;
}

/// f with f·M bounding the rounding of measured_local_errors' evaluation for a row of k non-zeros:
/// the TwoSum and FMA remainders of the k products sum to at most (k + 1) u (|W||x|)_i, and adding
/// them up in double rounds by at most γ_{2k} of that; the seven operations after it add at most
/// 10 (k + 3) u² M. So f = 1.01 u (γ_{2k} (k + 1) + 10 u (k + 3)), of order k² u².
double evaluation_factor(double k) {
  return 1.01 * kUnitRoundoff *
         (linalg::inner_product_gamma(2.0 * k) * (k + 1.0) + 10.0 * kUnitRoundoff * (k + 3.0));
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
  linalg::csr_times_block(m.outerIndexPtr(), m.innerIndexPtr(), m.valuePtr(),
                          static_cast<std::size_t>(m.rows()), x.data(), static_cast<std::size_t>(x.cols()),
                          next.data());
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
    const double slack = 2.0 * linalg::inner_product_gamma(terms + 2.0) * (std::abs(diagonal) + off);
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
  linalg::multiply_into(square, scale, x_t, false, x_t, true, chebyshev ? -1.0 : 0.0);
  blocks[2 * time] = std::move(square);
  if (2 * time - 1 > last) {
    DenseMatrix cross = blocks[1];  // − T_1 (Chebyshev) or unused (beta 0)
    linalg::multiply_into(cross, scale, x_t, false, x_before, true, chebyshev ? -1.0 : 0.0);
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

namespace {

/// x_{t+1} = c (α p + β x_t) − keep·x_{t−1} entry by entry (p = W x_t), rounded as written: every
/// column's result depends on that column alone, whatever else the block holds.
NETDP_EXACT_ROUNDING void chebyshev_step(const double* product, const double* current, const double* previous,
                                         std::size_t size, double alpha, double beta, double c, double keep,
                                         double* next) {
  for (std::size_t i = 0; i < size; ++i)
    next[i] = c * (alpha * product[i] + beta * current[i]) - keep * previous[i];
}

/// The affine map x -> αx + β that sends a slightly wider interval than the certified one onto
/// [−1, 1], so that the exact spectrum of αW + βI stays inside [−1, 1] whatever the rounding of α, β.
std::pair<double, double> chebyshev_map(SpectralInterval interval) {
  const double width =
      std::max(interval.upper - interval.lower, 1e-6 * std::max(1.0, std::abs(interval.upper)));
  const double lo = interval.lower - 1e-9 * width;
  const double hi = interval.upper + 1e-9 * width;
  const double alpha = 2.0 / (hi - lo);
  const double beta = -(hi + lo) / (hi - lo);
  require(alpha * interval.lower + beta >= -1.0 + 1e-12 && alpha * interval.upper + beta <= 1.0 - 1e-12,
          "internal: the Chebyshev map of [{}, {}] leaves [-1, 1]", interval.lower, interval.upper);
  return {alpha, beta};
}

/// The three-term recurrence x_{t+1} = c (α W x_t + β x_t) − x_{t−1} (c = 1 at the first step, as
/// T_1 = αW + βI, 2 after) on a block of columns e_s (n × B, row-major), with each column's forward
/// error bound: E(t) = E(t − 1) + Σ_{j <= t} ‖δ_j‖ = Σ_j (t − j + 1) ‖δ_j‖, the δ_j measured
/// (measured_local_errors). Each column's rows and bounds depend on that column alone: the sparse
/// product, the step and the measurement all treat columns independently and in the same order.
class ChebyshevRecurrence {
 public:
  ChebyshevRecurrence(const SparseMatrix& w, double alpha, double beta,
                      const std::vector<graph::NodeId>& columns)
      : alpha_(alpha), beta_(beta), width_(columns.size()) {
    const Index n = w.rows();
    if (!w.isCompressed()) {  // row-major CSR (a copy only when W has free space in its storage)
      compressed_ = w;
      compressed_.makeCompressed();
    }
    csr_ = w.isCompressed() ? &w : &compressed_;
    row_factor_.resize(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i)
      row_factor_[static_cast<std::size_t>(i)] =
          evaluation_factor(static_cast<double>(csr_->outerIndexPtr()[i + 1] - csr_->outerIndexPtr()[i]));
    const auto b = static_cast<Index>(width_);
    current_ = RowMajorMatrix::Zero(n, b);
    for (Index j = 0; j < b; ++j) current_(static_cast<Index>(columns[static_cast<std::size_t>(j)]), j) = 1.0;
    previous_ = RowMajorMatrix::Zero(n, b);
    next_.resize(n, b);
    sum_high_.resize(width_);
    sum_low_.resize(width_);
    magnitude_.resize(width_);
    error_.assign(width_, 0.0);
    local_sum_.assign(width_, 0.0);
    local_.assign(width_, 0.0);
  }

  /// x_t (n × B) and x_{t−1}.
  const RowMajorMatrix& current() const { return current_; }
  const RowMajorMatrix& previous() const { return previous_; }
  /// The forward error bound of column j of x_t (0 when not measured).
  double error(std::size_t j) const { return error_[j]; }

  /// One step, t -> t + 1; `measure` keeps the error bounds (false: the rows only).
  void advance(bool measure) {
    const double c = time_ == 0 ? 1.0 : 2.0;
    const double keep = time_ == 0 ? 0.0 : 1.0;
    const auto n = static_cast<std::size_t>(csr_->rows());
    multiply_rows(*csr_, current_, product_);  // W x_t (W symmetric)
    chebyshev_step(product_.data(), current_.data(), previous_.data(), n * width_, alpha_, beta_, c, keep,
                   next_.data());
    if (measure) {
      std::fill(local_.begin(), local_.end(), 0.0);
      measured_local_errors(csr_->outerIndexPtr(), csr_->innerIndexPtr(), csr_->valuePtr(), n, width_,
                            current_.data(), previous_.data(), next_.data(), alpha_, beta_, c, keep,
                            row_factor_.data(), sum_high_.data(), sum_low_.data(), magnitude_.data(),
                            local_.data());
      for (std::size_t j = 0; j < width_; ++j) {
        local_sum_[j] += std::sqrt(local_[j]);
        error_[j] += local_sum_[j];
      }
    }
    previous_.swap(current_);  // previous = x_t
    current_.swap(next_);      // current = x_{t+1}
    ++time_;
  }

 private:
  double alpha_, beta_;
  std::size_t width_;
  std::size_t time_ = 0;
  SparseMatrix compressed_;
  const SparseMatrix* csr_ = nullptr;
  std::vector<double> row_factor_;
  RowMajorMatrix current_, previous_, next_, product_;
  std::vector<double> sum_high_, sum_low_, magnitude_;
  std::vector<double> error_, local_sum_, local_;
};

/// Columns of the error table run per recurrence: 8 AVX-512 registers of the sparse product.
constexpr std::size_t kErrorTableBlock = 64;

}  // namespace

double ChebyshevErrorTable::at(graph::NodeId sender, std::size_t time) const {
  require(sender < nodes_ && time <= last_time_,
          "internal: no Chebyshev error bound for sender {} at time {}", sender, time);
  return errors_[static_cast<std::size_t>(sender) * (last_time_ + 1) + time];
}

ChebyshevErrorTable chebyshev_error_table(const SparseMatrix& w, SpectralInterval interval,
                                          std::size_t last_time) {
  const auto [alpha, beta] = chebyshev_map(interval);
  const auto n = static_cast<std::size_t>(w.rows());
  ChebyshevErrorTable table;
  table.nodes_ = n;
  table.last_time_ = last_time;
  table.alpha_ = alpha;
  table.beta_ = beta;
  table.errors_.assign(n * (last_time + 1), 0.0);
  const auto blocks = static_cast<std::int64_t>((n + kErrorTableBlock - 1) / kErrorTableBlock);
  util::ParallelErrors failures;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t b = 0; b < blocks; ++b) {
    failures.run(b, [&] {
      const std::size_t first = static_cast<std::size_t>(b) * kErrorTableBlock;
      std::vector<graph::NodeId> columns;
      for (std::size_t s = first; s < std::min(n, first + kErrorTableBlock); ++s)
        columns.push_back(static_cast<graph::NodeId>(s));
      // The map's values through `table`: a lambda cannot capture structured bindings in clang 14.
      ChebyshevRecurrence recurrence(w, table.alpha_, table.beta_, columns);
      for (std::size_t time = 0;; ++time) {
        for (std::size_t j = 0; j < columns.size(); ++j)
          table.errors_[(first + j) * (last_time + 1) + time] = recurrence.error(j);
        if (time == last_time) break;
        recurrence.advance(true);
      }
    });
  }
  failures.rethrow();
  return table;
}

ChebyshevRows chebyshev_rows(const SparseMatrix& w, SpectralInterval interval,
                             std::span<const TimedSender> messages, bool with_gram,
                             const ChebyshevErrorTable* errors) {
  const Index n = w.rows();
  ChebyshevRows out;
  out.rows = DenseMatrix::Zero(static_cast<Index>(messages.size()), n);
  if (messages.empty()) return out;
  std::tie(out.alpha, out.beta) = chebyshev_map(interval);

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
  const auto column_of = [&](graph::NodeId s) {
    return std::lower_bound(senders.begin(), senders.end(), s) - senders.begin();
  };
  const std::size_t last = messages.back().time;
  // A table for the same map and deep enough serves every bound; otherwise they are measured here.
  const bool from_table = errors != nullptr && errors->alpha() == out.alpha && errors->beta() == out.beta &&
                          errors->nodes() == static_cast<std::size_t>(n) && errors->last_time() >= last;
  ChebyshevRecurrence recurrence(w, out.alpha, out.beta, senders);
  double squared_error = 0.0;
  // With the Gram: blocks[t](i, j) = T_t(W̃)_{s_i s_j} for t <= 2·last, read off the rows up to
  // `last`, beyond it from T_{2a} = 2 T_a² − I and T_{2a−1} = 2 T_a T_{a−1} − T_1.
  std::vector<DenseMatrix> blocks(with_gram ? 2 * last + 1 : 0);
  std::size_t k = 0;
  for (std::size_t time = 0;; ++time) {
    const RowMajorMatrix& current = recurrence.current();
    for (; k < messages.size() && messages[k].time == time; ++k) {
      const Index column = column_of(messages[k].sender);
      const auto row = static_cast<Index>(k);
      for (Index i = 0; i < n; ++i) out.rows(row, i) = current(i, column);
      const double error = from_table ? errors->at(messages[k].sender, time)
                                      : recurrence.error(static_cast<std::size_t>(column));
      squared_error += error * error;
    }
    if (with_gram)
      sender_blocks(current, recurrence.previous(), senders, time, last, SenderBasis::chebyshev, blocks);
    if (k == messages.size()) break;
    recurrence.advance(!from_table);
  }
  // The bound's own evaluation rounds too: widen it by a little more than that.
  out.forward_error = 1.01 * std::sqrt(squared_error);
  if (with_gram) out.gram = gram_from_sender_blocks(messages, senders, blocks, SenderBasis::chebyshev);
  return out;
}

}  // namespace netdp::accounting::detail
