// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Muffliato's pairwise accounts (pairwise_muffliato.hpp): gossip averaging's exact joint view or
// the paper's Theorems 1, 12, 13 (muffliato.hpp), Muffliato-GD's whole view or Theorems 6 / 11, each
// built once at σ = Δ = 1 into a GaussianPairwiseAccount; and the family's registry entry.

#include "netdp/accounting/muffliato/pairwise_muffliato.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "accounting/account/families.hpp"
#include "accounting/account/pairwise_detail.hpp"
#include "accounting/linear_system/linear_view_pairs.hpp"
#include "netdp/accounting/mf/pairwise_mf.hpp"
#include "netdp/accounting/muffliato/muffliato_gd.hpp"
#include "netdp/accounting/muffliato/muffliato_gd_view.hpp"
#include "netdp/util/check.hpp"

namespace netdp::accounting {

namespace {

using detail::all_nodes;

/// Why the Muffliato accountant of `bound` with `gradient_steps` does not account this protocol and
/// query (a combination it has no theorem or view for), or nullopt.
std::optional<std::string> muffliato_refusal(const Protocol& protocol, const PairQuery& q,
                                             MuffliatoBound bound, std::size_t gradient_steps) {
  if (!q.group.empty() && q.target) return "give either a target or a group, not both";
  if (gradient_steps == 0) return std::nullopt;
  // Theorems 6 and 11 are stated for one observer and one target.
  if (bound == MuffliatoBound::paper && (!q.group.empty() || !q.colluders.empty()))
    return "Muffliato-GD (gradient steps) does not combine with a group or colluders";
  if (!q.group.empty()) return "Muffliato-GD (gradient steps) does not combine with a group of targets";
  if (protocol.schedule.kind != gossip::ScheduleSpec::Kind::fixed && !q.colluders.empty())
    return "Muffliato-GD on a time-varying schedule does not combine with colluders";
  return std::nullopt;
}

// ---------------------------------------------------------------- Muffliato
// Muffliato-GD under options.bound = paper: gradient_steps G steps of protocol.rounds gossip rounds
// each, Theorem 6 for a fixed W, Theorem 11 with one matrix of the schedule per gradient step (the
// default, exact bound goes through muffliato_gd_view_account). One observer and one target at a
// time: muffliato_account has refused groups and colluders (muffliato_refusal).
MuffliatoLosses muffliato_gd_losses(const Protocol& protocol, const MuffliatoOptions& options,
                                    std::size_t gradient_steps) {
  if (protocol.schedule.kind == gossip::ScheduleSpec::Kind::fixed) {
    return muffliato_gd_all_pairs(protocol.network.matrix(), gradient_steps, protocol.rounds, options);
  }
  const gossip::Schedule steps = protocol_schedule(protocol, gradient_steps);
  std::vector<SparseMatrix> per_step;
  for (std::size_t t = 0; t < gradient_steps; ++t) per_step.push_back(steps.at(t));
  return muffliato_gd_all_pairs(per_step, protocol.rounds, options);
}

// Gossip averaging on the protocol's schedule: the exact joint view, or Theorem 1 (all pairs, one
// observer, one target), Theorem 12 (colluders), Theorem 13 (group) under options.bound = paper.
MuffliatoLosses muffliato_gossip_losses(const gossip::Schedule& schedule, const PairQuery& q,
                                        const MuffliatoOptions& options) {
  MuffliatoQuery query;
  if (!q.colluders.empty()) query.observers = {q.colluders};
  if (q.observer) query.observers = {{*q.observer}};
  for (const graph::NodeId v : q.observers) query.observers.push_back({v});
  if (!q.observers.empty())  // a share of the account of every node
    for (graph::NodeId v = 0; v < schedule.num_nodes(); ++v) query.population.push_back({v});
  if (!q.group.empty()) query.targets = {q.group};
  if (q.target) query.targets = {{*q.target}};
  return muffliato_losses(schedule, query, options);
}

}  // namespace

// Muffliato-GD's whole view: each gradient step's noisy release is gossiped for K rounds, and the
// parameters carry it into every later step, so the per-step sums (Theorems 6, 11) do not bound
// it. The view is the linear Gaussian view of Muffliato-SGD(K) (MF paper, A.4; Lemma 11 removes
// the observer's own inputs and noise), accounted by the MF engine for gradient releases of
// options.release_dimension (default: vectors of any dimension, the SDP value). Fixed W only.
std::unique_ptr<GaussianPairwiseAccount> muffliato_gd_view_account(const Protocol& protocol,
                                                                   const PairQuery& q,
                                                                   const MuffliatoOptions& options,
                                                                   std::size_t gradient_steps) {
  require(options.messages == MessageConvention::paper,
          "Muffliato-GD's view sends each release raw first (power 0, the paper's convention); "
          "`authors_convention` applies to `bound` paper only");
  require(options.observer_noise == ObserverNoise::known,
          "the view of Muffliato-GD always knows the observer's own noise; `count_observer_noise` applies to "
          "`bound` paper only");
  if (const auto why = muffliato_refusal(protocol, q, MuffliatoBound::exact, gradient_steps))
    throw std::invalid_argument(*why);
  if (protocol.schedule.kind != gossip::ScheduleSpec::Kind::fixed) {
    const std::vector<graph::NodeId> observers =
        q.observer || !q.observers.empty() ? detail::asked_observers(q, protocol.network.num_nodes())
                                           : std::vector<graph::NodeId>{};
    return muffliato_gd_view_pairs_account(
        muffliato_gd_rounds(protocol_schedule(protocol, gradient_steps), gradient_steps, protocol.rounds),
        gradient_steps, protocol.rounds, observers, q.target, options.progress, options.release_dimension,
        &protocol.network.graph());
  }
  Protocol steps = protocol;
  steps.rounds = gradient_steps;
  MfAlgorithmSpec spec;
  spec.algorithm = MfAlgorithm::muffliato_sgd;
  spec.gossip_steps = protocol.rounds;
  MfOptions mf;
  mf.assess.sign_search = SignSearch::none;  // scalar releases: Σ|K|
  mf.assess.release_dimension = options.release_dimension;
  mf.progress = options.progress;
  mf.rounds_option = "`gradient_steps`";
  std::unique_ptr<GaussianPairwiseAccount> view = mf_account(steps, q, spec, MfTrust::pndp, mf);
  GaussianPairwiseAccount::Info info = view->info();
  info.method = "muffliato";
  info.guarantee = Guarantee::upper_bound;
  std::vector<UnitPair> pairs = view->unit_pairs();
  return std::make_unique<GaussianPairwiseAccount>(pairs, std::move(info));
}

std::unique_ptr<GaussianPairwiseAccount> muffliato_account(const Protocol& protocol, const PairQuery& q,
                                                           MuffliatoOptions options,
                                                           std::size_t gradient_steps) {
  detail::validate_query(protocol, q, Method::muffliato);
  if (const auto why = muffliato_refusal(protocol, q, options.bound, gradient_steps))
    throw std::invalid_argument(*why);
  options.sigma = 1.0;
  options.sensitivity = 1.0;
  options.symmetries = protocol.network.graph().symmetry_hints();
  GaussianPairwiseAccount::Info info;
  info.method = "muffliato";
  info.sensitivity = protocol.sensitivity;
  info.alpha = q.alpha;
  info.guarantee = bound_guarantee(options.bound);
  if (info.guarantee == Guarantee::paper_formula) info.certificate = Certificate::paper_formula;
  if (gradient_steps > 0) {
    // Local-DP releases of the target: one per gradient step.
    info.releases = static_cast<double>(gradient_steps);
    if (options.bound == MuffliatoBound::exact)
      return muffliato_gd_view_account(protocol, q, options, gradient_steps);
    return muffliato_losses_account(muffliato_gd_losses(protocol, options, gradient_steps), q,
                                    std::move(info));
  }
  // One release per node; a group of targets makes |group| releases. The schedule is drawn once.
  info.releases = q.group.empty() ? 1.0 : static_cast<double>(q.group.size());
  const gossip::Schedule schedule = protocol_schedule(protocol, protocol.rounds);
  info.communications = communication_counts(schedule);
  return muffliato_losses_account(muffliato_gossip_losses(schedule, q, options), q, std::move(info));
}

namespace {

// Unit μ from sums S (observers × targets): the transpose (targets × observers), sqrt(S) at every
// pair and NaN elsewhere, keeping the observer indices `columns` and target indices `rows` only.
// The full grid is transposed in place, so an all-pairs account holds one n × n matrix.
DenseMatrix unit_mu_grid(DenseMatrix sums, const MuffliatoLosses& losses,
                         const std::vector<std::size_t>& columns, const std::vector<std::size_t>& rows) {
  DenseMatrix grid;
  if (columns.size() == losses.num_observers() && rows.size() == losses.num_targets()) {
    grid = std::move(sums);
    grid.transposeInPlace();
  } else {
    grid.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(columns.size()));
    for (std::size_t c = 0; c < columns.size(); ++c) {
      for (std::size_t r = 0; r < rows.size(); ++r) {
        grid(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) =
            sums(static_cast<Eigen::Index>(columns[c]), static_cast<Eigen::Index>(rows[r]));
      }
    }
  }
  // μ at σ = Δ = 1 is the square root of the sum S (muffliato.hpp).
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t c = 0; c < static_cast<std::ptrdiff_t>(columns.size()); ++c) {
    for (std::size_t r = 0; r < rows.size(); ++r) {
      double& value = grid(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c));
      value = losses.defined(columns[static_cast<std::size_t>(c)], rows[r])
                  ? std::sqrt(value)
                  : std::numeric_limits<double>::quiet_NaN();
    }
  }
  return grid;
}

}  // namespace

std::unique_ptr<GaussianPairwiseAccount> muffliato_losses_account(MuffliatoLosses losses, const PairQuery& q,
                                                                  GaussianPairwiseAccount::Info info) {
  UnitMuGrid grid;
  std::vector<std::size_t> columns;
  std::vector<std::size_t> rows;
  for (std::size_t i = 0; i < losses.num_observers(); ++i) {
    const graph::NodeId observer = losses.observer_set(i).front();
    if (q.colluders.empty() && !detail::asks_observer(q, observer)) continue;
    columns.push_back(i);
    grid.observers.push_back(observer);
  }
  for (std::size_t j = 0; j < losses.num_targets(); ++j) {
    const graph::NodeId target = losses.target_set(j).front();
    if (q.target && target != *q.target) continue;
    rows.push_back(j);
    grid.targets.push_back(target);
    // sqrt(min(S, cap)) = min(sqrt(S), sqrt(cap)): sqrt is correctly rounded, hence monotone.
    grid.caps.push_back(std::sqrt(losses.sum_cap(j)));
  }
  if (std::optional<DenseMatrix> capped = losses.take_capped_sums()) {
    grid.reported = unit_mu_grid(std::move(*capped), losses, columns, rows);
  }
  if (losses.certificates()) {
    // What each value is, and the lower bound's unit μ (rounded down), on the same grid.
    const auto& kinds = *losses.certificates();
    grid.certificates.emplace(static_cast<Eigen::Index>(rows.size()),
                              static_cast<Eigen::Index>(columns.size()));
    grid.lower.emplace(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(columns.size()));
    for (std::size_t c = 0; c < columns.size(); ++c)
      for (std::size_t r = 0; r < rows.size(); ++r) {
        const auto [i, j] =
            std::pair(static_cast<Eigen::Index>(columns[c]), static_cast<Eigen::Index>(rows[r]));
        const auto [ri, ci] = std::pair(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c));
        (*grid.certificates)(ri, ci) = kinds(i, j);
        (*grid.lower)(ri, ci) = std::nextafter(std::sqrt(std::max(0.0, (*losses.lower_sums())(i, j))), 0.0);
      }
    info.certificate_failure_probability = losses.certificate_failure_probability();
  }
  grid.uncapped = unit_mu_grid(losses.take_sums(), losses, columns, rows);
  append_diagnostics(info.diagnostics, losses.warnings());
  return std::make_unique<GaussianPairwiseAccount>(std::move(grid), std::move(info));
}

std::unique_ptr<GaussianPairwiseAccount> muffliato_gd_view_pairs_account(
    const gossip::Schedule& rounds, std::size_t gradient_steps, std::size_t gossip_rounds,
    std::span<const graph::NodeId> observers, std::optional<graph::NodeId> target,
    const ProgressCallback& progress, std::size_t release_dimension, const graph::Graph* names) {
  std::vector<UnitPair> pairs;
  std::vector<Diagnostic> warnings;
  for (const PairSensitivity& p : muffliato_gd_view_pairs(rounds, gradient_steps, gossip_rounds, observers,
                                                          progress, release_dimension)) {
    if (target && p.target != *target) continue;
    pairs.push_back(detail::unit_pair(p, names));
    detail::collect_warnings(p, names, warnings);
  }
  GaussianPairwiseAccount::Info info;
  info.method = "muffliato";
  info.releases = static_cast<double>(gradient_steps);
  info.diagnostics = std::move(warnings);
  return std::make_unique<GaussianPairwiseAccount>(pairs, std::move(info));
}

// ------------------------------------------------------------------ the family (registry.hpp)

namespace {

std::optional<std::string> muffliato_family_refusal(const Protocol& protocol, const PairQuery& q,
                                                    const AccountRequest& r) {
  return muffliato_refusal(protocol, q, r.bound_or_default(), r.gradient_steps);
}

std::unique_ptr<PairwiseAccount> build_muffliato(const Protocol& protocol, const PairQuery& q,
                                                 const AccountRequest& r, const ProgressCallback& progress) {
  MuffliatoOptions options;
  options.bound = r.bound_or_default();
  options.messages = r.authors_convention ? MessageConvention::authors_code : MessageConvention::paper;
  options.observer_noise = r.count_observer_noise ? ObserverNoise::counted : ObserverNoise::known;
  options.release_dimension = r.release_dimension_or_default();
  options.exact_effort = r.exact_effort_or_default();
  options.progress = progress;
  return muffliato_account(protocol, q, options, r.gradient_steps);
}

}  // namespace

const AccountantFamily& muffliato_family() {
  static constexpr AccountantFamily family{
      Method::muffliato,
      "gossip averaging with local noise: the exact joint view of every observer (default), or the Muffliato "
      "paper's Theorems 1, 6, 11, 12, 13 by name (not a bound); Muffliato-GD with gradient steps",
      muffliato_family_refusal, build_muffliato};
  return family;
}

}  // namespace netdp::accounting
