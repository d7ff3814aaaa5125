// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Visit counts of a random walk (see random_walk_visits.hpp).

#include "netdp/accounting/random_walk/random_walk_visits.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "netdp/gossip/symmetry.hpp"
#include "netdp/linalg/multiversion.hpp"
#include "netdp/linalg/sparse_block.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/parallel_errors.hpp"

namespace netdp::accounting {

namespace {

/// Throws unless u is a node of the walk and steps >= 1 (messages start with `what`).
void require_visit_query(const SparseMatrix& w, graph::NodeId u, std::size_t steps, const char* what) {
  require(u < static_cast<std::size_t>(w.rows()), "{}: node {} is out of range (n = {})", what, u, w.rows());
  require(steps >= 1, "{}: the number of steps must be >= 1, got {}", what, steps);
}

/// P(N_u >= k) for k = 0..cap, the last entry P(N_u >= cap) (visits beyond cap are pooled in it).
std::vector<double> pooled_tail(const SparseMatrix& w, graph::NodeId u, std::size_t steps, std::size_t cap) {
  const auto n = static_cast<std::size_t>(w.rows());
  const std::size_t width = cap + 1;  // visits so far: 0..cap (cap = "cap or more")
  std::vector<double> current(n * width, 0.0);
  std::vector<double> next(n * width, 0.0);
  current[u * width + std::min<std::size_t>(1, cap)] = 1.0;  // X_0 = u: one visit
  for (std::size_t t = 1; t < steps; ++t) {
    std::fill(next.begin(), next.end(), 0.0);
    for (int x = 0; x < w.outerSize(); ++x) {
      const double* from = current.data() + static_cast<std::size_t>(x) * width;
      for (SparseMatrix::InnerIterator it(w, x); it; ++it) {
        const double p = it.value();
        if (p == 0.0) continue;
        const auto y = static_cast<std::size_t>(it.col());
        double* to = next.data() + y * width;
        if (y == u) {
          // Arriving at u is one more visit (pooled at cap).
          for (std::size_t c = 0; c + 1 < width; ++c) to[c + 1] += p * from[c];
          to[cap] += p * from[cap];
        } else {
#pragma omp simd
          for (std::size_t c = 0; c < width; ++c) to[c] += p * from[c];
        }
      }
    }
    current.swap(next);
  }
  std::vector<double> at_least(width, 0.0);
  for (std::size_t x = 0; x < n; ++x) {
    for (std::size_t c = 0; c < width; ++c) at_least[c] += current[x * width + c];
  }
  // Suffix sums: P(N >= k) = Σ_{c >= k} P(N = c).
  for (std::size_t c = width - 1; c-- > 0;) at_least[c] += at_least[c + 1];
  return at_least;
}

}  // namespace

std::vector<double> visit_tail(const gossip::GossipMatrix& walk, graph::NodeId u, std::size_t steps,
                               double floor) {
  const SparseMatrix& w = walk.matrix();
  require_visit_query(w, u, steps, "visit_tail");
  require(floor >= 0.0 && floor < 1.0, "visit_tail: floor must be in [0, 1), got {}", floor);
  // Grow the pooled count until P(N_u >= cap) is below the floor or no walk can visit more.
  std::size_t cap = std::min<std::size_t>(steps + 1, 32);
  for (;;) {
    std::vector<double> tail = pooled_tail(w, u, steps, cap);
    if (cap == steps + 1 || tail[cap] <= floor) {
      tail[0] = 1.0;
      tail[1] = 1.0;  // exactly, without the rounding of the sums
      return tail;
    }
    cap = std::min(steps + 1, 2 * cap);
  }
}

namespace {

/// Targets per taboo propagation: the lanes, one column each of its node-major blocks (a batch is
/// padded with empty lanes).
constexpr std::size_t kTargetsPerPass = 32;

/// Steps between two checks of whether the taboo states have settled (first_return_laws).
constexpr std::size_t kSettleCheckEvery = 4;

/// The range of the entrywise ratios now/before of each lane, over the entries where either is
/// nonzero (the lanes side by side, without branches, so that the loop vectorises): high and low
/// take the largest and smallest ratio, broken becomes > 0 when an entry of either is zero or
/// subnormal while the other is not zero.
NETDP_MULTIVERSION void ratio_ranges(const double* now, const double* before, std::size_t n, double* high,
                                     double* low, double* broken) {
  constexpr double kNormal = std::numeric_limits<double>::min();
  // Accumulated in locals (registers): through the pointers the compiler would have to assume that
  // the outputs alias the inputs, and would not vectorise.
  std::array<double, kTargetsPerPass> hi;
  std::array<double, kTargetsPerPass> lo;
  std::array<double, kTargetsPerPass> bad;
  std::copy_n(high, kTargetsPerPass, hi.begin());
  std::copy_n(low, kTargetsPerPass, lo.begin());
  std::copy_n(broken, kTargetsPerPass, bad.begin());
  for (std::size_t x = 0; x < n; ++x) {
    for (std::size_t b = 0; b < kTargetsPerPass; ++b) {
      const double a = now[x * kTargetsPerPass + b];
      const double p = before[x * kTargetsPerPass + b];
      const bool both_zero = a == 0.0 && p == 0.0;
      const bool normal = a >= kNormal && p >= kNormal;
      bad[b] = std::max(bad[b], both_zero || normal ? 0.0 : 1.0);
      const double ratio = a / (normal ? p : 1.0);
      hi[b] = std::max(hi[b], both_zero ? hi[b] : ratio);
      lo[b] = std::min(lo[b], both_zero ? lo[b] : ratio);
    }
  }
  std::copy_n(hi.begin(), kTargetsPerPass, high);
  std::copy_n(lo.begin(), kTargetsPerPass, low);
  std::copy_n(bad.begin(), kTargetsPerPass, broken);
}

/// Whether each lane of the taboo state has settled into its quasi-stationary shape: `now` = a_s and
/// `before` = a_{s−2} (two steps, so that a bipartite walk's alternating support compares like with
/// like). Lane b gets c >= max_x a_s(x)/a_{s−2}(x), rounding included, when that ratio is within
/// `tolerance` of the minimum ratio, else nothing. A ratio against a zero entry, or subnormal
/// entries, mean "not settled"; a lane with no mass left gets c = 0 (the walk cannot return).
std::array<std::optional<double>, kTargetsPerPass> settled_ratios(const std::vector<double>& now,
                                                                  const std::vector<double>& before,
                                                                  std::size_t n, double tolerance,
                                                                  double rounding) {
  std::array<double, kTargetsPerPass> high{};
  std::array<double, kTargetsPerPass> low;
  low.fill(std::numeric_limits<double>::infinity());
  std::array<double, kTargetsPerPass> broken{};  // > 0: a lane compared against a zero or subnormal entry
  ratio_ranges(now.data(), before.data(), n, high.data(), low.data(), broken.data());
  std::array<std::optional<double>, kTargetsPerPass> out;
  for (std::size_t b = 0; b < kTargetsPerPass; ++b) {
    if (broken[b] > 0.0) continue;
    if (high[b] == 0.0) {
      out[b] = 0.0;
    } else if (high[b] <= low[b] * (1.0 + tolerance)) {
      out[b] = high[b] * (1.0 + rounding);
    }
  }
  return out;
}

/// g_b[s] = P(the walk from us[b] first returns to us[b] at step s), s = 1..steps−1 (g_b[0] = 0), for
/// up to kTargetsPerPass targets, by propagating the walk with us[b] removed (taboo probabilities); `wt` =
/// Wᵀ. Past the step s where a lane's taboo state a_s has settled (settled_ratios: a_s <= c a_{s−2}
/// entrywise), g_b is continued by g(r) <= c g(r − 2) for r > s: the taboo propagation Q is
/// nonnegative, so a_{s+j} = a_s Q^j <= c a_{s−2} Q^j = c a_{s−2+j}, and g(r) is a_{r−1}'s flow into
/// u. These values are upper bounds on the law past s (clipped so that the law's total stays <= 1),
/// which only raises the moment generating function below: the visit bound stays valid. The true
/// two-step decay lies between the lowest and the highest ratio, so settling at a relative spread
/// of 1e-3/T overstates the continued law by at most (1 + 1e-3/T)^{T/2} < 1.0005. A walk that
/// mixes in s steps (s ≈ 70 on a hypercube of 2048 nodes, T = 1150) then costs s steps, not T.
std::vector<std::vector<double>> first_return_laws(const SparseMatrix& w, const SparseMatrix& wt,
                                                   std::span<const graph::NodeId> us, std::size_t steps) {
  const auto n = static_cast<std::size_t>(w.rows());
  const std::size_t lanes = us.size();
  std::vector<std::vector<double>> g(lanes, std::vector<double>(steps, 0.0));
  std::vector<double> away(n * kTargetsPerPass,
                           0.0);  // a_{s−1} = P(X_{s−1} = x, no return yet) per lane, x != u
  std::vector<double> next(n * kTargetsPerPass, 0.0);
  std::vector<double> older(n * kTargetsPerPass, 0.0);  // a_{s−2}
  for (std::size_t b = 0; b < lanes; ++b) {
    for (SparseMatrix::InnerIterator it(w, static_cast<int>(us[b])); it; ++it) {
      if (static_cast<graph::NodeId>(it.col()) == us[b]) {
        if (steps > 1) g[b][1] += it.value();
      } else {
        away[static_cast<std::size_t>(it.col()) * kTargetsPerPass + b] += it.value();
      }
    }
  }
  // Relative rounding of a_s: each step sums at most max_row_nonzeros nonnegative products.
  int max_row_nonzeros = 1;
  for (int y = 0; y < wt.outerSize(); ++y)
    max_row_nonzeros = std::max(max_row_nonzeros, wt.outerIndexPtr()[y + 1] - wt.outerIndexPtr()[y]);
  std::vector<std::optional<std::pair<std::size_t, double>>> settled(lanes);  // (s, c) per lane
  std::size_t open = lanes;
  for (std::size_t s = 2; s < steps && open > 0; ++s) {
    // next[y][:] = Σ_x away[x][:] · W_xy, each column one target's taboo propagation (row y of Wᵀ
    // lists the x with W_xy != 0).
    linalg::csr_times_block(wt.outerIndexPtr(), wt.innerIndexPtr(), wt.valuePtr(), n, away.data(),
                            kTargetsPerPass, next.data());
    for (std::size_t b = 0; b < lanes; ++b) {
      double& returned = next[us[b] * kTargetsPerPass + b];
      if (!settled[b]) g[b][s] = returned;
      returned = 0.0;
    }
    if (s % kSettleCheckEvery == 0) {
      const double rounding = 4.0 * static_cast<double>(s * static_cast<std::size_t>(max_row_nonzeros)) *
                                  std::numeric_limits<double>::epsilon() +
                              1e-12;
      const std::array<std::optional<double>, kTargetsPerPass> ratios =
          settled_ratios(next, older, n, 1e-3 / static_cast<double>(steps), rounding);
      for (std::size_t b = 0; b < lanes; ++b) {
        if (settled[b] || !ratios[b]) continue;
        settled[b] = std::pair{s, *ratios[b]};
        --open;
      }
    }
    older.swap(away);  // a_{s−1} becomes the older state of the next step
    away.swap(next);
  }
  for (std::size_t b = 0; b < lanes; ++b) {
    if (!settled[b]) continue;
    const auto [from, c] = *settled[b];
    double total = 0.0;
    for (std::size_t r = 1; r <= from; ++r) total += g[b][r];
    for (std::size_t r = from + 1; r < steps; ++r) {
      g[b][r] = std::min(c * g[b][r - 2], std::max(0.0, 1.0 - total));
      total += g[b][r];
    }
  }
  return g;
}

/// Blocks of values of z held in registers through horner_sums' steps.
constexpr std::size_t kHornerBlock = 32;

/// sums[i] = (…(never·z_i + g[steps−1])·z_i + …)·z_i + g[1] for each of the `count` values z_i:
/// Horner's rule, a block of z at a time held in registers through all the steps (the products and
/// sums in the same order as one value at a time, so the same bits at every vector width).
NETDP_MULTIVERSION void horner_sums(const double* g, std::size_t steps, double never, const double* z,
                                    double* sums, std::size_t count) {
  for (std::size_t first = 0; first < count; first += kHornerBlock) {
    const std::size_t width = std::min(kHornerBlock, count - first);
    std::array<double, kHornerBlock> zs{};
    std::array<double, kHornerBlock> acc;
    acc.fill(never);
    std::copy_n(z + first, width, zs.begin());
    for (std::size_t s = steps; s-- > 1;) {
      const double gs = g[s];
      for (std::size_t b = 0; b < kHornerBlock; ++b) acc[b] = acc[b] * zs[b] + gs;
    }
    std::copy_n(acc.begin(), width, sums + first);
  }
}

/// log E[e^{−θR}] = log(Σ_s g[s] e^{−θs} + never·e^{−θT}) for the law g of R with P(R >= T) = never,
/// at each θ of `thetas`. Horner's rule in z = e^{−θ}, all θ side by side (independent chains that
/// vectorise); where the sum comes near the underflow range (terms that flush to zero would lower
/// it), a log-sum-exp over the terms is used instead.
std::vector<double> log_mgfs(const std::vector<double>& g, double never, const std::vector<double>& thetas) {
  const std::size_t steps = g.size();
  std::vector<double> z(thetas.size());
  for (std::size_t i = 0; i < thetas.size(); ++i) z[i] = std::exp(-thetas[i]);
  std::vector<double> sums(thetas.size());
  horner_sums(g.data(), steps, never, z.data(), sums.data(), z.size());
  std::vector<double> out(thetas.size());
  for (std::size_t i = 0; i < thetas.size(); ++i) {
    const double sum = sums[i] * z[i];
    if (sum > 1e-250) {
      out[i] = std::log(sum);
      continue;
    }
    const double theta = thetas[i];
    const auto term = [&](double p, std::size_t s) { return std::log(p) - theta * static_cast<double>(s); };
    double top = never > 0.0 ? term(never, steps) : -std::numeric_limits<double>::infinity();
    for (std::size_t s = 1; s < steps; ++s)
      if (g[s] > 0.0) top = std::max(top, term(g[s], s));
    double scaled = never > 0.0 ? std::exp(term(never, steps) - top) : 0.0;
    for (std::size_t s = 1; s < steps; ++s)
      if (g[s] > 0.0) scaled += std::exp(term(g[s], s) - top);
    out[i] = top + std::log(scaled);
  }
  return out;
}

/// The grid of θ the Chernoff bounds minimise over: 400 values from 1e-4/T to 50, log-spaced
/// (θ = 0 gives the trivial bound 1; the grid reaches tails down to the floor).
std::vector<double> theta_grid(std::size_t steps) {
  constexpr int kGrid = 400;
  const double horizon = static_cast<double>(steps);
  std::vector<double> thetas;
  for (int i = 0; i < kGrid; ++i)
    thetas.push_back(1e-4 / horizon * std::pow(5e5 * horizon, static_cast<double>(i) / (kGrid - 1)));
  return thetas;
}

/// The tail P(N_u >= k + 1) <= min_θ e^{θ(T−1)} E[e^{−θR}]^k from log E[e^{−θR}] (upper bounds) at
/// each θ of the grid, in visit_tail's layout, down to the floor.
std::vector<double> tail_from_log_mgfs(const std::vector<double>& thetas, const std::vector<double>& log_mgf,
                                       std::size_t steps, double floor) {
  const double horizon = static_cast<double>(steps);
  std::vector<double> tail = {1.0, 1.0};
  for (std::size_t k = 1; k <= steps; ++k) {
    double best = 0.0;  // log of the bound on P(N_u >= k + 1)
    for (std::size_t i = 0; i < thetas.size(); ++i)
      best = std::min(best, thetas[i] * (horizon - 1.0) + static_cast<double>(k) * log_mgf[i]);
    // Round up: each sum of the T positive terms above is within 2T ulps, so its k-th power within
    // 2kT ulps (relative); 1e-9 more covers the logarithm, the exponential and the law's own rounding.
    const double rounding =
        1e-9 + 4.0 * static_cast<double>(k) * horizon * std::numeric_limits<double>::epsilon();
    tail.push_back(std::min(1.0, std::exp(best) * (1.0 + rounding)));
    if (tail.back() <= floor) return tail;
  }
  tail.push_back(0.0);  // N_u <= steps always
  return tail;
}

/// The Chernoff bound of visit_tail_bound from the first-return law g.
std::vector<double> tail_bound_from_law(const std::vector<double>& g, std::size_t steps, double floor) {
  double returned = 0.0;
  for (double x : g) returned += x;
  const double never = std::max(0.0, 1.0 - returned);  // R >= T: counted as R = T
  const std::vector<double> thetas = theta_grid(steps);
  return tail_from_log_mgfs(thetas, log_mgfs(g, never, thetas), steps, floor);
}

/// tails[i] for each target, computed once per orbit of W's checked symmetries (gossip::symmetry_orbits:
/// the targets of one orbit have the same return-time law) for the orbit's smallest node:
/// compute(batch) gives the tails of a batch of at most `batch_size` distinct nodes. Batches run in
/// parallel (OpenMP); each batch's arithmetic is its own, so the result
/// does not depend on the thread count.
template <class Compute>
std::vector<std::vector<double>> tails_by_orbit(
    const gossip::GossipMatrix& walk, std::span<const graph::NodeId> targets, std::size_t batch_size,
    const Compute& compute, const std::function<void(std::size_t done, std::size_t total)>& progress) {
  const std::vector<graph::NodeId> representative = gossip::symmetry_orbits(walk).representative;
  std::vector<graph::NodeId> distinct;
  for (const graph::NodeId u : targets) distinct.push_back(representative[u]);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  std::vector<std::vector<double>> tails(distinct.size());
  const std::size_t batches = (distinct.size() + batch_size - 1) / batch_size;
  util::ParallelErrors errors;
  std::size_t done = 0;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(batches); ++i) {
    errors.run(i, [&] {
      const std::size_t first = static_cast<std::size_t>(i) * batch_size;
      const auto batch = std::span<const graph::NodeId>(distinct).subspan(
          first, std::min(batch_size, distinct.size() - first));
      std::vector<std::vector<double>> batch_tails = compute(batch);
      for (std::size_t b = 0; b < batch.size(); ++b) tails[first + b] = std::move(batch_tails[b]);
      if (progress) {
#pragma omp critical(netdp_visit_tail_progress)
        progress(++done, batches);
      }
    });
  }
  errors.rethrow();
  std::vector<std::vector<double>> out;
  out.reserve(targets.size());
  for (const graph::NodeId u : targets) {
    const auto at = std::lower_bound(distinct.begin(), distinct.end(), representative[u]);
    out.push_back(tails[static_cast<std::size_t>(at - distinct.begin())]);
  }
  return out;
}

}  // namespace

std::vector<double> visit_tail_bound(const gossip::GossipMatrix& walk, graph::NodeId u, std::size_t steps,
                                     double floor) {
  const graph::NodeId one[] = {u};
  return visit_tail_bounds(walk, one, steps, floor).front();
}

std::vector<std::vector<double>> visit_tail_bounds(
    const gossip::GossipMatrix& walk, std::span<const graph::NodeId> targets, std::size_t steps, double floor,
    const std::function<void(std::size_t done, std::size_t total)>& progress) {
  const SparseMatrix& w = walk.matrix();
  for (const graph::NodeId u : targets) require_visit_query(w, u, steps, "visit_tail_bound");
  require(floor > 0.0 && floor < 1.0, "visit_tail_bound: floor must be in (0, 1), got {}", floor);
  const SparseMatrix wt = w.transpose();
  const auto compute = [&](std::span<const graph::NodeId> batch) {
    const std::vector<std::vector<double>> laws = first_return_laws(w, wt, batch, steps);
    std::vector<std::vector<double>> tails;
    for (const std::vector<double>& law : laws) tails.push_back(tail_bound_from_law(law, steps, floor));
    return tails;
  };
  return tails_by_orbit(walk, targets, kTargetsPerPass, compute, progress);
}

bool has_return_spectrum(const gossip::GossipMatrix& walk) {
  const SparseMatrix& w = walk.matrix();
  const SparseMatrix difference = w - SparseMatrix(w.transpose());
  for (Eigen::Index k = 0; k < difference.nonZeros(); ++k)
    if (difference.valuePtr()[k] != 0.0) return false;
  return true;
}

ReturnSpectrum return_spectrum(const gossip::GossipMatrix& walk, const linalg::SymmetricEigen& eigen) {
  const SparseMatrix& w = walk.matrix();
  const Eigen::Index n = w.rows();
  require(has_return_spectrum(walk), "return_spectrum: W must equal its transpose exactly");
  require(eigen.values.size() == n && eigen.vectors.rows() == n && eigen.vectors.cols() == n,
          "return_spectrum: the eigendecomposition is of size {} x {}, W has {} nodes", eigen.vectors.rows(),
          eigen.vectors.cols(), n);
  require(eigen.values.allFinite() && eigen.vectors.allFinite(),
          "return_spectrum: the eigendecomposition has a non-finite entry (NaN or infinity)");
  constexpr double kUnit = std::numeric_limits<double>::epsilon() / 2.0;
  ReturnSpectrum out;
  out.values = eigen.values.cwiseMax(-1.0).cwiseMin(1.0);
  out.weights = eigen.vectors.transpose().cwiseAbs2();
  // ‖W‖₂ <= ‖W‖∞ = ‖W‖₁ for a symmetric W: the largest row sum of |W|, rounded up.
  double row_max = 0.0;
  int max_row_nonzeros = 1;
  for (int r = 0; r < w.outerSize(); ++r) {
    double sum = 0.0;
    for (SparseMatrix::InnerIterator it(w, r); it; ++it) sum += std::abs(it.value());
    row_max = std::max(row_max, sum);
    max_row_nonzeros = std::max(max_row_nonzeros, w.outerIndexPtr()[r + 1] - w.outerIndexPtr()[r]);
  }
  out.norm = row_max * (1.0 + linalg::inner_product_gamma(max_row_nonzeros + 1.0));
  // Sums of the n² squares below are within γ_{n²+2} (relative), the square roots within an ulp.
  const double squares_gamma =
      linalg::inner_product_gamma(static_cast<double>(n) * static_cast<double>(n) + 2.0);
  const auto root_up = [&](double squares) {
    return std::sqrt(squares * (1.0 + squares_gamma)) * (1.0 + 2.0 * kUnit);
  };
  const double phi_norm = root_up(out.weights.sum());  // >= ‖Φ̃‖_F
  // ‖W Φ̃ − Φ̃ Λ̂‖_F, a block of columns at a time; each computed entry is within
  // γ_{d+2} (|W||Φ̃| + |Φ̃||Λ̂|) of the exact one, a matrix of Frobenius norm <= γ_{d+2} (‖W‖₂ + 1) ‖Φ̃‖_F.
  constexpr Eigen::Index kBlock = 256;
  double residual_squares = 0.0;
  for (Eigen::Index first = 0; first < n; first += kBlock) {
    const Eigen::Index width = std::min(kBlock, n - first);
    DenseMatrix block = w * eigen.vectors.middleCols(first, width);
    block -= eigen.vectors.middleCols(first, width) * out.values.segment(first, width).asDiagonal();
    residual_squares += block.squaredNorm();
  }
  out.residual = (root_up(residual_squares) +
                  linalg::inner_product_gamma(max_row_nonzeros + 2.0) * (out.norm + 1.0) * phi_norm) *
                 (1.0 + 4.0 * kUnit);
  // ‖I − Φ̃Φ̃ᵀ‖₂ <= ‖I − Φ̃Φ̃ᵀ‖_F; each computed entry of Φ̃Φ̃ᵀ is within γ_n Σ_k |φ̃_ik||φ̃_jk|, a matrix
  // of Frobenius norm <= γ_n ‖Φ̃‖_F².
  const DenseMatrix gram = linalg::lower_gram(eigen.vectors);
  double defect_squares = 0.0;
  for (Eigen::Index j = 0; j < n; ++j) {
    const double diagonal = gram(j, j) - 1.0;
    defect_squares += diagonal * diagonal;
    for (Eigen::Index i = j + 1; i < n; ++i) defect_squares += 2.0 * gram(i, j) * gram(i, j);
  }
  out.orthogonality = (root_up(defect_squares) +
                       linalg::inner_product_gamma(static_cast<double>(n) + 1.0) * phi_norm * phi_norm) *
                      (1.0 + 4.0 * kUnit);
  return out;
}

namespace {

/// Targets per product with the spectral weights (one GEMM of the θ grid by this many columns).
constexpr std::size_t kSpectralBatch = 64;

}  // namespace

std::vector<std::vector<double>> spectral_visit_tail_bounds(
    const gossip::GossipMatrix& walk, const ReturnSpectrum& spectrum, std::span<const graph::NodeId> targets,
    std::size_t steps, double floor,
    const std::function<void(std::size_t done, std::size_t total)>& progress) {
  const SparseMatrix& w = walk.matrix();
  for (const graph::NodeId u : targets) require_visit_query(w, u, steps, "spectral_visit_tail_bounds");
  require(floor > 0.0 && floor < 1.0, "spectral_visit_tail_bounds: floor must be in (0, 1), got {}", floor);
  const Eigen::Index n = w.rows();
  require(spectrum.values.size() == n && spectrum.weights.rows() == n && spectrum.weights.cols() == n,
          "spectral_visit_tail_bounds: the spectrum is of size {}, W has {} nodes", spectrum.values.size(),
          n);
  constexpr double kUnit = std::numeric_limits<double>::epsilon() / 2.0;
  const std::vector<double> thetas = theta_grid(steps);
  const auto grid = static_cast<Eigen::Index>(thetas.size());
  // d(i, k) = 1 / (1 − z_i λ̂_k) with z_i = e^{−θ_i}, formed as (1 − z) + z(1 − λ) for λ >= 0 and
  // 1 + z|λ| for λ < 0 (no cancellation near z λ = 1): each within a few ulps.
  std::vector<double> z(thetas.size());
  std::vector<double> one_minus_z(thetas.size());
  for (std::size_t i = 0; i < thetas.size(); ++i) {
    z[i] = std::exp(-thetas[i]);
    one_minus_z[i] = -std::expm1(-thetas[i]);
  }
  DenseMatrix d(grid, n);
  for (Eigen::Index k = 0; k < n; ++k) {
    const double lambda = spectrum.values[k];
    for (Eigen::Index i = 0; i < grid; ++i) {
      const auto at = static_cast<std::size_t>(i);
      d(i, k) = 1.0 / (lambda >= 0.0 ? one_minus_z[at] + z[at] * (1.0 - lambda) : 1.0 + z[at] * -lambda);
    }
  }
  const DenseMatrix d_squared = d.cwiseAbs2();
  // The sums over n positive terms, each term within a few ulps of its exact value.
  const double eta = linalg::inner_product_gamma(static_cast<double>(n) + 16.0);
  const auto compute = [&](std::span<const graph::NodeId> batch) {
    const auto width = static_cast<Eigen::Index>(batch.size());
    DenseMatrix weights(n, width);
    for (Eigen::Index b = 0; b < width; ++b)
      weights.col(b) = spectrum.weights.col(static_cast<Eigen::Index>(batch[static_cast<std::size_t>(b)]));
    const DenseMatrix sums = d * weights;             // Σ_k φ̃_k(u)² / (1 − z λ̂_k)
    const DenseMatrix spreads = d_squared * weights;  // ‖D Φ̃ᵀ e_u‖²
    std::vector<std::vector<double>> tails;
    std::vector<double> log_mgf(thetas.size());
    for (Eigen::Index b = 0; b < width; ++b) {
      for (Eigen::Index i = 0; i < grid; ++i) {
        const auto at = static_cast<std::size_t>(i);
        // 1 − z‖W‖₂ rounded down: ‖(I − zW)⁻¹‖₂ <= 1 / that.
        const double gap = (one_minus_z[at] - z[at] * (spectrum.norm - 1.0)) * (1.0 - 4.0 * kUnit);
        if (!(gap > 0.0)) {
          log_mgf[at] = 0.0;  // the trivial bound E[z^R] <= 1
          continue;
        }
        const double spread = std::sqrt(spreads(i, b) * (1.0 + eta)) * (1.0 + 2.0 * kUnit);
        const double resolvent =
            (sums(i, b) * (1.0 + eta) + (spectrum.orthogonality + z[at] * spectrum.residual * spread) / gap) *
            (1.0 + 4.0 * kUnit);
        // E[z^R] = 1 − 1/G_uu(z), rounded up (two operations, each within an ulp of 1).
        const double mgf = std::min(1.0, 1.0 - 1.0 / resolvent + 4.0 * kUnit);
        log_mgf[at] = std::log(mgf);
      }
      tails.push_back(tail_from_log_mgfs(thetas, log_mgf, steps, floor));
    }
    return tails;
  };
  return tails_by_orbit(walk, targets, kSpectralBatch, compute, progress);
}

std::size_t visit_bound(const std::vector<double>& tail, double beta) {
  require(std::isfinite(beta) && beta > 0.0 && beta < 1.0, "visit_bound: beta must be in (0, 1), got {}",
          beta);
  for (std::size_t k = 1; k + 1 < tail.size(); ++k) {
    if (tail[k + 1] <= beta) return k;
  }
  require(tail.size() >= 2 && tail.back() == 0.0,
          "visit_bound: the tail stops at P(N >= {}) = {:.3g} > beta = {:.3g}; compute it with a lower floor",
          tail.size() - 1, tail.empty() ? 1.0 : tail.back(), beta);
  return tail.size() - 2;
}

std::size_t max_visits(const gossip::GossipMatrix& walk, graph::NodeId u, std::size_t steps) {
  const SparseMatrix& w = walk.matrix();
  require(u < static_cast<std::size_t>(w.rows()), "max_visits: node {} is out of range (n = {})", u,
          w.rows());
  return w.coeff(static_cast<Eigen::Index>(u), static_cast<Eigen::Index>(u)) > 0.0 ? steps : (steps + 1) / 2;
}

}  // namespace netdp::accounting
