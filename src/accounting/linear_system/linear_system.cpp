// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Koskela–Kulkarni accountants: literal views, the all-pairs structured path,
// coalitions, and the Theorem 13 asymptotic rate.

#include "netdp/accounting/linear_system/linear_system.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

#include "accounting/linear_system/linear_system_detail.hpp"
#include "accounting/linear_system/row_space.hpp"
#include "netdp/accounting/worst_case/sign_max.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/dp/gdp_table.hpp"
#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/gossip/spectral.hpp"
#include "netdp/linalg/dense_kernels.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/enum_names.hpp"
#include "netdp/util/memory.hpp"
#include "netdp/util/parallel_errors.hpp"

namespace netdp::accounting {
namespace {

/// Observers per sparse matrix–block product in the fixed secure-sum path.
constexpr std::size_t kObserverBatch = 16;
/// Observers sharing each target's rows in the target-dependent views (plain, adaptive): the rows
/// depend only on the target, so a batch builds them once per target instead of once per pair.
constexpr std::size_t kPerTargetObserverBatch = 4;
/// Batches finished before results are handed to the sink (bounds memory).
constexpr std::size_t kBatchesPerBlock = 8;

using RowMajorMap = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

/// The memory one pair's result holds: the struct (240 bytes), its observer list (32), two heap
/// headers and the spare capacity of its observer's vector, 352 bytes in all (measured: all pairs of
/// facebook_combined and of ba:n=2000,m=10, docs/reference/performance.md); and the heap left fragmented
/// between the results by the worst-case maximisation (the SDP) of every pair whose K_u has a
/// negative entry, scalar and vector releases alike: 480 bytes a pair in all, as measured on
/// ba:n=2000,m=10 (188 MB against 157 MB without it); and K_u (T² doubles) when kept.
double pair_result_bytes(const detail::Resolved& r, const PairwiseOptions& options) {
  const auto t = static_cast<double>(r.rounds);
  return 480.0 + (options.keep_gram ? 8.0 * t * t : 0.0);
}

/// Checks the memory of `workers` workers against the limit, before any view is built, with
/// `besides` bytes held by the results. A worker holds the rows of `batch` views of `row_nodes`
/// observed nodes each over the n·T injections: a fixed W's power blocks and lags (16 T K c n bytes
/// a view, K gossip steps per round), a time-varying schedule's T blocks of T K c rows (8 T · T K c ·
/// n); and, one view at a time, the noise Gram of its T K c observations with its factor (16 (T K c)²)
/// and the targets' T x T Grams with the injections' Gram and factor (8 (n T² + 2 T²)).
void require_view_memory(const detail::Resolved& r, double row_nodes, double batch, double workers,
                         double besides) {
  const auto t = static_cast<double>(r.rounds);
  const auto k = static_cast<double>(r.steps);
  const auto n = static_cast<double>(r.num_nodes);
  const double observations = t * k * row_nodes;
  const double rows = batch * (r.fixed ? 16.0 * observations * n : 8.0 * t * observations * n);
  const double per_worker = rows + 16.0 * observations * observations + 8.0 * (n * t * t + 2.0 * t * t);
  util::require_memory(
      workers * per_worker + besides, "the linear-system accountant",
      fmt::format(
          "per thread, the rows of {} view{} ({} x {} observations), a noise Gram and the T x T Grams "
          "of the targets, n = {}, T = {} rounds of K = {} gossip steps (`gossip_steps`), {} "
          "thread{}; and {} for the results",
          batch, batch == 1.0 ? "" : "s", r.fixed ? "16 n" : "8 n T", observations, r.num_nodes, r.rounds,
          r.steps, workers, workers == 1.0 ? "" : "s", util::format_bytes(besides)),
      "lower the rounds (`rounds`, `rounds_grid`), the gossip steps (`gossip_steps`) or the threads "
      "(`threads`)");
}

void validate(const PairwiseOptions& p) {
  require_positive(p.noise_std, "noise_std");
  require(std::isfinite(p.delta) && p.delta > 0.0 && p.delta < 1.0, "delta must be in (0, 1), got {}",
          p.delta);
  require(p.threads >= 0, "threads must be >= 0 (0 = OpenMP default), got {}", p.threads);
}

void validate_nodes(std::span<const graph::NodeId> nodes, std::size_t n, const char* what) {
  for (const auto v : nodes) require(v < n, "{} {} is not a node (num_nodes = {})", what, v, n);
}

/// Sets ε of every pair of `results` from the shared conversion table of δ (dp::GdpEpsilonTable:
/// never below the exact root, within 1e-10 relative of it).
void fill_epsilon_from_table(std::vector<std::vector<PairResult>>& results, double delta, int threads) {
  const std::shared_ptr<const dp::GdpEpsilonTable> table = dp::shared_gdp_epsilon_table(delta);
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads)
  for (std::size_t k = 0; k < results.size(); ++k) {
    for (auto& r : results[k]) {
      const double mu = r.pair.mu;
      if (!std::isfinite(mu)) {
        r.pair.epsilon = std::numeric_limits<double>::infinity();
      } else {
        r.pair.epsilon = mu > 0.0 ? table->epsilon(mu) : 0.0;
      }
    }
  }
}

/// H (m x n·T) of a view: column s·n + u holds node u's coefficients for injection s.
DenseMatrix coefficient_matrix(const detail::ViewRows& rows, std::size_t n) {
  const std::size_t t = rows.injections;
  const auto m = static_cast<Eigen::Index>(rows.observations);
  DenseMatrix h = DenseMatrix::Zero(m, static_cast<Eigen::Index>(n * t));
  for (std::size_t s = 0; s < t; ++s) {
    for (Eigen::Index o = 0; o < m; ++o) {
      const auto first = static_cast<Eigen::Index>(s * rows.shift);
      if (o < first) continue;
      for (std::size_t u = 0; u < n; ++u) {
        const auto col = static_cast<Eigen::Index>(s * n + u);
        h(o, col) = rows.toeplitz ? rows.lag(o - first, static_cast<Eigen::Index>(u))
                                  : rows.block[s](o, static_cast<Eigen::Index>(u));
      }
    }
  }
  return h;
}

/// One pair from a kernel summary (and K_u when it was kept).
PairResult make_result(std::span<const graph::NodeId> observers, graph::NodeId target,
                       const detail::GramSummary& summary, const double* gram, std::size_t rounds,
                       const detail::Factor& factor, std::size_t observations,
                       const PairwiseOptions& options) {
  PairResult result;
  PairSensitivity& pair = result.pair;
  const auto t = static_cast<Eigen::Index>(rounds);
  // K_u >= 0 entrywise: c = 1 attains Σ|K| for scalars and vectors alike, nothing to search.
  const bool attained = summary.nonnegative && factor.subspace_margin == 0.0;
  const bool vector = options.release_dimension != 1;
  // K_u comes with every target that has a negative entry (and with all when kept or searched).
  if (gram != nullptr && (!attained || (!vector && options.sign_search == SignSearch::automatic))) {
    TargetGram tg;
    tg.K = RowMajorMap(gram, t, t);
    tg.K = (0.5 * (tg.K + tg.K.transpose())).eval();
    tg.rank = factor.rank;
    tg.observations = observations;
    tg.condition = factor.condition;
    tg.subspace_margin = factor.subspace_margin;
    tg.warnings = factor.warnings;
    pair = assess_pair(tg, options.noise_std, options.delta,
                       AssessOptions{options.sign_search, options.release_dimension});
    // K_u ⪯ I: tr(K_u G) <= tr(G) <= T for scalars and vectors.
    if (pair.sensitivity_squared_certified > static_cast<double>(rounds)) {
      pair.sensitivity_squared_uncapped = pair.sensitivity_squared_certified;
      pair.sensitivity_squared_certified = static_cast<double>(rounds);
      pair.sensitivity = std::sqrt(pair.sensitivity_squared_certified);
      fill_privacy(pair, options.noise_std, options.delta);
    }
  } else {
    // A_u's columns are columns of B (A = B C), so the range residual is 0 by construction.
    pair.sensitivity_squared_ones = summary.ones;
    pair.sensitivity_squared_sum_abs = detail::widen_sum_abs(summary.sum_abs, factor.subspace_margin, rounds);
    // K_u ⪯ I (A_u = B C_u, C_u orthonormal), so T bounds the box maximum too.
    const double uncapped =
        std::min(pair.sensitivity_squared_sum_abs,
                 detail::widen_by_margin(summary.sum_abs, factor.subspace_margin, rounds));
    pair.sensitivity_squared_certified = std::min(uncapped, static_cast<double>(rounds));
    if (uncapped > pair.sensitivity_squared_certified) pair.sensitivity_squared_uncapped = uncapped;
    pair.exact = attained;
    if (pair.exact) pair.sensitivity_squared_exact = summary.ones;
    if (vector) {
      pair.sensitivity_squared_vector_lower = pair.sensitivity_squared_certified;
      pair.sensitivity_squared_vector_upper = pair.sensitivity_squared_certified;
    }
    pair.sensitivity = std::sqrt(std::max(pair.sensitivity_squared_certified, 0.0));
    pair.rank = factor.rank;
    pair.condition = factor.condition;
    pair.warnings = factor.warnings;
    pair.certificate = detail::margin_certificate(factor.subspace_margin);
    pair.certificate_failure_probability = factor.certificate_failure_probability;
    if (options.epsilon_mode == EpsilonMode::exact) {
      fill_privacy(pair, options.noise_std, options.delta);
    } else {
      pair.delta = options.delta;
      pair.mu = pair.sensitivity / options.noise_std;  // ε filled per block from the table
    }
  }
  pair.observers.assign(observers.begin(), observers.end());
  pair.target = target;
  if (options.keep_gram && gram != nullptr) result.gram = DenseMatrix(RowMajorMap(gram, t, t));
  return result;
}

/// A view whose noise Gram is singular in floating point: K_u is the block of the projector on
/// row(B) at u's columns (A_u = columns of B), from an orthonormal basis completed below the Gram's
/// resolution (row_space.hpp) and widened by its margin.
void solve_dependent_view(const detail::Resolved& r, const detail::ViewRows& rows,
                          std::span<const graph::NodeId> observers, std::span<const graph::NodeId> excluded,
                          std::span<const graph::NodeId> targets, const PairwiseOptions& options,
                          std::vector<PairResult>& out) {
  const std::size_t n = r.num_nodes;
  const std::size_t t = rows.injections;
  DenseMatrix b = coefficient_matrix(rows, n);
  for (std::size_t s = 0; s < t; ++s)
    for (const auto x : excluded) b.col(static_cast<Eigen::Index>(s * n + x)).setZero();
  detail::RowSpace space =
      detail::row_space(b, std::nullopt,
                        detail::rounding_floor_factor(b.cols(), b.rows(),
                                                      r.rounds * r.steps + static_cast<std::size_t>(r.power)),
                        detail::structural_rank(b));
  detail::Factor factor;
  // A rank cut is checked against the exact rank of B: observation (step, j) holds
  // e_{r_j}ᵀ W_{step−1+p} ⋯ W_{sK} at injection s.
  if (space.rank_decided) {
    std::vector<detail::SweptRow> swept;
    swept.reserve(rows.observations);
    for (std::size_t step = 0; step < r.rounds * r.steps; ++step)
      for (const graph::NodeId node : rows.nodes)
        swept.push_back({node, step + static_cast<std::size_t>(r.power), step / r.steps});
    factor.certificate_failure_probability =
        detail::certify_rank_cut(space, *r.certifier, swept, r.steps, t, excluded, factor.warnings);
  }
  factor.rank = static_cast<std::size_t>(space.rank());
  factor.subspace_margin = space.margin;
  factor.condition = space.rank() > 0 && space.smallest_singular > 0.0
                         ? std::pow(b.norm() / space.smallest_singular, 2)
                         : std::numeric_limits<double>::infinity();
  for (const auto u : targets) {
    const DenseMatrix k = detail::projector_block(space, static_cast<Eigen::Index>(u),
                                                  static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(t));
    detail::GramSummary summary{k.sum(), k.cwiseAbs().sum(), k.size() == 0 || k.minCoeff() >= 0.0};
    out.push_back(make_result(observers, u, summary, k.data(), t, factor, rows.observations, options));
  }
}

/// All `targets` (minus the excluded/observer nodes) against one view.
void solve_view(const detail::Resolved& r, const detail::ViewRows& rows,
                std::span<const graph::NodeId> observers, std::span<const graph::NodeId> targets,
                const PairwiseOptions& options, std::vector<PairResult>& out) {
  const std::span<const graph::NodeId> excluded =
      r.keep_observer_noise ? std::span<const graph::NodeId>{} : observers;
  const detail::Factor factor = detail::factor_noise_gram(detail::noise_gram(rows, excluded), r.rank);
  std::vector<graph::NodeId> kept;
  kept.reserve(targets.size());
  for (const auto u : targets) {
    if (std::find(observers.begin(), observers.end(), u) == observers.end()) kept.push_back(u);
  }
  if (factor.rank < rows.observations) {
    solve_dependent_view(r, rows, observers, excluded, kept, options, out);
    return;
  }
  const bool want_gram =
      options.keep_gram || options.release_dimension != 1 || options.sign_search == SignSearch::automatic;
  const std::size_t first = out.size();
  out.resize(first + kept.size());
  detail::target_grams(rows, factor, kept, want_gram,
                       [&](std::size_t k, const detail::GramSummary& summary, const double* gram) {
                         out[first + k] = make_result(observers, kept[k], summary, gram, rows.injections,
                                                      factor, rows.observations, options);
                       });
}

/// A target-dependent view (adaptive, plain): one solve per target.
void solve_per_target(const gossip::Schedule& schedule, const detail::Resolved& r,
                      std::span<const graph::NodeId> observers, std::span<const graph::NodeId> targets,
                      const PairwiseOptions& options, std::vector<PairResult>& out) {
  for (const auto j : targets) {
    if (std::find(observers.begin(), observers.end(), j) != observers.end()) continue;
    const auto row_nodes = detail::view_rows(schedule, r, observers, j);
    const detail::ViewRows rows = detail::build_view_rows(r, row_nodes);
    const graph::NodeId one[] = {j};
    solve_view(r, rows, observers, one, options, out);
  }
}

/// A target-dependent view for single observers: the rows of target j (view_rows depends only on
/// j for the plain and adaptive views) are built once and solved for every observer of the batch;
/// out[k] receives observer k's pairs in target order.
void solve_per_target_batch(const gossip::Schedule& schedule, const detail::Resolved& r,
                            std::span<const graph::NodeId> observers, std::span<const graph::NodeId> targets,
                            const PairwiseOptions& options, std::span<std::vector<PairResult>> out) {
  for (const auto j : targets) {
    const graph::NodeId one[] = {j};
    std::optional<detail::ViewRows> rows;
    for (std::size_t k = 0; k < observers.size(); ++k) {
      if (observers[k] == j) continue;
      const auto observer = observers.subspan(k, 1);
      if (!rows) rows = detail::build_view_rows(r, detail::view_rows(schedule, r, observer, j));
      solve_view(r, *rows, observer, one, options, out[k]);
    }
  }
}

}  // namespace

namespace {

constexpr auto kViewNames = std::to_array<util::EnumName<LinearSystemView>>({
    {LinearSystemView::secure_sum, "secure-sum"},
    {LinearSystemView::secure_sum_adaptive, "secure-sum-adaptive"},
    {LinearSystemView::plain, "plain"},
});
static_assert(util::is_valid_enum_table(kViewNames));

}  // namespace

std::string_view linear_system_view_name(LinearSystemView view) { return util::name_of(kViewNames, view); }

LinearSystemView parse_linear_system_view(std::string_view name) {
  return util::parse_enum(kViewNames, name, "linear-system view");
}

LinearView linear_system_view_literal(const gossip::Schedule& schedule,
                                      std::span<const graph::NodeId> observers, graph::NodeId target,
                                      const LinearSystemOptions& options) {
  const detail::Resolved r = detail::resolve(schedule, options);
  const auto row_nodes = detail::view_rows(schedule, r, observers, target);
  const detail::ViewRows rows = detail::build_view_rows(r, row_nodes);
  const std::size_t n = r.num_nodes;
  const std::size_t t = r.rounds;
  DenseMatrix h = coefficient_matrix(rows, n);
  LinearView view;
  view.num_nodes = n;
  view.rounds = t;
  view.A = h;
  if (r.keep_observer_noise) {
    view.B = std::move(h);
    return view;
  }
  std::vector<Eigen::Index> kept;
  for (std::size_t s = 0; s < t; ++s) {
    for (std::size_t u = 0; u < n; ++u) {
      if (std::find(observers.begin(), observers.end(), u) == observers.end()) {
        kept.push_back(static_cast<Eigen::Index>(s * n + u));
      }
    }
  }
  view.B = h(Eigen::all, kept);
  return view;
}

void account_pairs(const gossip::Schedule& schedule, std::span<const graph::NodeId> observers,
                   std::span<const graph::NodeId> targets, const LinearSystemOptions& options,
                   const PairwiseOptions& pairwise, const PairSink& sink, const ProgressCallback& progress) {
  validate(pairwise);
  require(static_cast<bool>(sink), "account_pairs needs a result sink");
  const detail::Resolved r = detail::resolve(schedule, options);
  validate_nodes(observers, r.num_nodes, "observer");
  validate_nodes(targets, r.num_nodes, "target");

  const linalg::SingleThreadedBlas single_threaded_blas;  // BLAS inside the OpenMP loop below
  // Units of work: batches of observers sharing one sparse product (fixed
  // secure-sum) or single observers. Fixed sizes: results do not depend on threads.
  const bool batched = r.fixed && r.view == LinearSystemView::secure_sum;
  const bool per_target = r.view != LinearSystemView::secure_sum;
  const std::size_t unit = batched ? kObserverBatch : per_target ? kPerTargetObserverBatch : 1;
  const std::size_t units = (observers.size() + unit - 1) / unit;
  const int threads = pairwise.threads > 0 ? pairwise.threads : omp_get_max_threads();
  // A block's results are allocated by the workers, each in its own heap (glibc's per-thread arenas),
  // so each heap may come to hold a whole block's worth: measured on facebook_combined (4,039 nodes),
  // the peak grows by one block per thread (docs/reference/performance.md, "Memory").
  const double per_block = static_cast<double>(std::min(units, kBatchesPerBlock) * unit) *
                           static_cast<double>(targets.size()) * pair_result_bytes(r, pairwise);
  require_view_memory(r, 1.0, static_cast<double>(batched ? unit : 1), static_cast<double>(threads),
                      static_cast<double>(threads) * per_block + pairwise.caller_bytes);
  std::size_t done = 0;
  // Per thread: the batch's view rows and power blocks, reused from batch to batch.
  struct BatchScratch {
    std::vector<detail::ViewRows> rows;
    std::vector<double> blocks;
  };
  std::vector<BatchScratch> scratch(static_cast<std::size_t>(threads));

  for (std::size_t block = 0; block < units; block += kBatchesPerBlock) {
    const std::size_t block_end = std::min(units, block + kBatchesPerBlock);
    const std::size_t first_observer = block * unit;
    const std::size_t last_observer = std::min(observers.size(), block_end * unit);
    std::vector<std::vector<PairResult>> results(last_observer - first_observer);
    util::ParallelErrors errors;

#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (std::size_t b = block; b < block_end; ++b) {
      errors.run(static_cast<std::int64_t>(b), [&] {
        const std::size_t lo = b * unit;
        const std::size_t hi = std::min(observers.size(), lo + unit);
        const auto group = observers.subspan(lo, hi - lo);
        const std::span<std::vector<PairResult>> out(results.data() + (lo - first_observer), group.size());
        if (batched) {
          BatchScratch& own = scratch[static_cast<std::size_t>(omp_get_thread_num())];
          detail::build_single_rows_batch(r, group, own.rows, own.blocks);
          const auto& rows = own.rows;
          for (std::size_t k = 0; k < group.size(); ++k) {
            solve_view(r, rows[k], group.subspan(k, 1), targets, pairwise, out[k]);
          }
        } else if (per_target) {
          solve_per_target_batch(schedule, r, group, targets, pairwise, out);
        } else {
          for (std::size_t k = 0; k < group.size(); ++k) {
            const detail::ViewRows rows = detail::build_view_rows(r, group.subspan(k, 1));
            solve_view(r, rows, group.subspan(k, 1), targets, pairwise, out[k]);
          }
        }
      });
    }
    errors.rethrow();
    if (pairwise.epsilon_mode == EpsilonMode::table) {
      fill_epsilon_from_table(results, pairwise.delta, threads);
    }
    for (auto& per_observer : results) {
      sink(per_observer);
      ++done;
      if (progress) progress(done, observers.size());
    }
  }
}

std::vector<PairResult> account_all_pairs(const gossip::Schedule& schedule,
                                          std::span<const graph::NodeId> observers,
                                          std::span<const graph::NodeId> targets,
                                          const LinearSystemOptions& options, const PairwiseOptions& pairwise,
                                          const ProgressCallback& progress) {
  std::vector<PairResult> all;
  account_pairs(
      schedule, observers, targets, options, pairwise,
      [&](std::span<const PairResult> rows) { all.insert(all.end(), rows.begin(), rows.end()); }, progress);
  return all;
}

std::vector<PairResult> account_coalition(const gossip::Schedule& schedule,
                                          std::span<const graph::NodeId> coalition,
                                          std::span<const graph::NodeId> targets,
                                          const LinearSystemOptions& options,
                                          const PairwiseOptions& pairwise) {
  validate(pairwise);
  const detail::Resolved r = detail::resolve(schedule, options);
  validate_nodes(coalition, r.num_nodes, "coalition member");
  validate_nodes(targets, r.num_nodes, "target");
  require_view_memory(
      r, static_cast<double>(coalition.size()), 1.0, 1.0,
      static_cast<double>(targets.size()) * pair_result_bytes(r, pairwise) + pairwise.caller_bytes);
  std::vector<PairResult> out;
  if (r.view == LinearSystemView::secure_sum) {
    // view_rows validates the coalition (non-empty, distinct); any non-member target will do.
    graph::NodeId probe = 0;
    while (probe < r.num_nodes && std::find(coalition.begin(), coalition.end(), probe) != coalition.end())
      ++probe;
    require(probe < r.num_nodes, "the coalition contains every node: no target is left");
    const auto row_nodes = detail::view_rows(schedule, r, coalition, probe);
    const detail::ViewRows rows = detail::build_view_rows(r, row_nodes);
    solve_view(r, rows, coalition, targets, pairwise, out);
  } else {
    solve_per_target(schedule, r, coalition, targets, pairwise, out);
  }
  if (pairwise.epsilon_mode == EpsilonMode::table) {
    std::vector<std::vector<PairResult>> wrapped{std::move(out)};
    fill_epsilon_from_table(wrapped, pairwise.delta, 1);
    out = std::move(wrapped.front());
  }
  return out;
}

AsymptoticRate asymptotic_rate(const gossip::Schedule& schedule, graph::NodeId observer, graph::NodeId target,
                               std::span<const std::size_t> rounds_grid, const LinearSystemOptions& options) {
  require(options.view == LinearSystemView::secure_sum, "Theorem 13 concerns the secure-sum view, got {}",
          linear_system_view_name(options.view));
  require(schedule.is_fixed(), "Theorem 13 needs a time-invariant W (a fixed schedule)");
  const gossip::GossipMatrix w = gossip::GossipMatrix::from_support(schedule.at(0));
  require(gossip::primitivity(w).primitive(), "Theorem 13 needs a primitive W (irreducible and aperiodic)");
  require(observer < w.num_nodes() && target < w.num_nodes() && observer != target,
          "observer {} and target {} must be distinct nodes below {}", observer, target, w.num_nodes());
  AsymptoticRate rate;
  rate.stationary = gossip::stationary_distribution(w).pi;
  const double norm2 = rate.stationary.squaredNorm();
  const double pj = rate.stationary(target);
  const double pi_obs = rate.stationary(observer);
  rate.limit_theorem13 = pj * pj / norm2;
  rate.limit_observer_noise_removed = pj * pj / (norm2 - pi_obs * pi_obs);
  rate.limit = options.keep_observer_noise ? rate.limit_theorem13 : rate.limit_observer_noise_removed;

  const graph::NodeId obs[] = {observer};
  const graph::NodeId tgt[] = {target};
  for (const std::size_t t : rounds_grid) {
    LinearSystemOptions at = options;
    at.rounds = t;
    const gossip::Schedule sched = gossip::Schedule::fixed(schedule.at(0), t * options.gossip_steps);
    PairwiseOptions pairwise;
    pairwise.keep_gram = true;
    const auto result = account_coalition(sched, obs, tgt, at, pairwise);  // the vector release
    const PairSensitivity& pair = result.front().pair;
    const SignMaxResult scalar = maximize_over_signs(*result.front().gram);
    AsymptoticRatePoint p;
    p.rounds = t;
    p.sensitivity_squared_ones = pair.sensitivity_squared_ones;
    p.sensitivity_squared_sign_max = scalar.certified;
    p.sign_max_exact = scalar.is_exact;
    p.sensitivity_squared_vector =
        pair.sensitivity_squared_vector_upper.value_or(pair.sensitivity_squared_certified);
    p.vector_exact = pair.exact;
    p.sensitivity_squared_certified = pair.sensitivity_squared_certified;
    const auto per_round = [t](double value) { return value / static_cast<double>(t); };
    p.per_round_ones = per_round(p.sensitivity_squared_ones);
    p.per_round_sign_max = per_round(p.sensitivity_squared_sign_max);
    p.per_round_vector = per_round(p.sensitivity_squared_vector);
    p.per_round_certified = per_round(p.sensitivity_squared_certified);
    rate.points.push_back(p);
  }
  return rate;
}

}  // namespace netdp::accounting
