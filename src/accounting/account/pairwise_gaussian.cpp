// The μ-GDP pairwise accounts: Muffliato (Theorems 1, 6, 11, 12, 13), Koskela–Kulkarni linear
// systems (Theorems 8, 9, 10) and matrix factorization (MF paper, Theorem 7), each built once at
// σ = Δ = 1 into a GaussianPairwiseAccount (pairwise.hpp).

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "accounting/account/pairwise_detail.hpp"
#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/accounting/muffliato/muffliato_gd.hpp"
#include "netdp/accounting/muffliato/muffliato_gd_view.hpp"
#include "netdp/util/check.hpp"

namespace netdp::accounting {

namespace detail {

void validate_query(const Protocol& protocol, const PairQuery& q, Method method) {
  const std::size_t n = protocol.network.num_nodes();
  require(n >= 2, "accounting needs at least 2 nodes, got {}", n);
  require(protocol.rounds >= 1, "rounds must be >= 1, got {}", protocol.rounds);
  require_positive(protocol.sensitivity, "the sensitivity Δ");
  if (q.alpha) require(std::isfinite(*q.alpha) && *q.alpha > 1.0, "alpha must be > 1, got {}", *q.alpha);
  if (q.observer) {
    require(*q.observer < n, "observer {} is out of range: the graph has nodes 0..{}", *q.observer, n - 1);
  }
  if (q.target)
    require(*q.target < n, "target {} is out of range: the graph has nodes 0..{}", *q.target, n - 1);
  for (const auto& [set, name] : {std::pair{&q.colluders, "colluders"}, std::pair{&q.group, "group"}}) {
    for (std::size_t i = 0; i < set->size(); ++i) {
      const graph::NodeId node = (*set)[i];
      require(node < n, "{}: node {} is out of range 0..{}", name, node, n - 1);
      require(std::find(set->begin(), set->begin() + static_cast<std::ptrdiff_t>(i), node) ==
                  set->begin() + static_cast<std::ptrdiff_t>(i),
              "{}: node {} is repeated", name, node);
    }
  }
  require(method == Method::muffliato || q.group.empty(),
          "a group of targets applies to the muffliato method only");
  require(!(q.observer && !q.colluders.empty()), "give either an observer or colluders, not both");
  if (q.observer && q.target) {
    require(*q.observer != *q.target, "the observer and the target are the same node {}", *q.target);
  }
  if (q.target) {
    require(std::find(q.colluders.begin(), q.colluders.end(), *q.target) == q.colluders.end(),
            "target {} is one of the colluders", *q.target);
  }
  // A coalition or a group that leaves no (observer, target) pair would print an empty account.
  const auto set_text = [](const std::vector<graph::NodeId>& set) {
    std::string out = "{";
    for (std::size_t i = 0; i < set.size(); ++i) {
      if (i > 0) out += ',';
      out += std::to_string(set[i]);
    }
    return out + "}";
  };
  const auto in = [](const std::vector<graph::NodeId>& set, graph::NodeId v) {
    return std::find(set.begin(), set.end(), v) != set.end();
  };
  for (const graph::NodeId v : q.group) {
    require(!in(q.colluders, v),
            "the group {} and the colluders {} share node {}: the coalition holds part of the group's data, "
            "so no (observer, target) pair is left to account",
            set_text(q.group), set_text(q.colluders), v);
  }
  require(q.colluders.empty() || q.colluders.size() < n,
          "the colluders {} are all {} nodes of the graph: no target is left outside the coalition",
          set_text(q.colluders), n);
  if (q.observer) {
    require(!in(q.group, *q.observer),
            "the observer {} is in the group {}: no (observer, target) pair is left to account", *q.observer,
            set_text(q.group));
  }
  require(q.group.empty() || q.observer || !q.colluders.empty() || q.group.size() < n,
          "the group {} holds all {} nodes of the graph: no observer is left outside it", set_text(q.group),
          n);
}

std::vector<graph::NodeId> all_nodes(std::size_t n) {
  std::vector<graph::NodeId> nodes(n);
  std::iota(nodes.begin(), nodes.end(), graph::NodeId{0});
  return nodes;
}

}  // namespace detail

namespace {

using detail::all_nodes;

// ---------------------------------------------------------------- Muffliato
// Muffliato-GD under options.bound = paper: gradient_steps G steps of protocol.rounds gossip rounds
// each, Theorem 6 for a fixed W, Theorem 11 with one matrix of the schedule per gradient step (the
// default, exact bound goes through muffliato_gd_view_account). One observer and one target at a
// time: muffliato_account has refused groups and colluders (detail::muffliato_refusal).
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
  if (const auto why = detail::muffliato_refusal(protocol, q, MuffliatoBound::exact, gradient_steps))
    throw std::invalid_argument(*why);
  if (protocol.schedule.kind != gossip::ScheduleSpec::Kind::fixed) {
    const std::vector<graph::NodeId> observers =
        q.observer ? std::vector<graph::NodeId>{*q.observer} : std::vector<graph::NodeId>{};
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
  if (const auto why = detail::muffliato_refusal(protocol, q, options.bound, gradient_steps))
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
    if (q.observer && observer != *q.observer) continue;
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

// ------------------------------------------------------- linear-view accountants
namespace {

SensitivityFields sensitivity_fields(const PairSensitivity& p) {
  return {p.sensitivity_squared_ones,
          p.sensitivity_squared_sum_abs,
          p.sensitivity_squared_exact,
          p.sensitivity_squared_vector_lower,
          p.sensitivity_squared_vector_upper,
          p.sensitivity_squared_certified,
          p.sensitivity,
          p.exact};
}

UnitPair unit_pair(const PairSensitivity& p, const graph::Graph* g) {
  const auto name = [g](graph::NodeId v) { return g ? g->label(v) : std::to_string(v); };
  require(std::isfinite(p.sensitivity),
          "{} reads target {}'s change exactly: it leaves the range of the noise, so the view is not private "
          "and no finite mu bounds the loss (as with zip-dl, whose zero-sum noise cancels in the sum of a "
          "node's messages, or a sender with one neighbour)",
          p.observers.empty() ? std::string("an eavesdropper on every message")
                              : "observer " + name(p.observers.front()),
          name(p.target));
  const double uncapped =
      p.sensitivity_squared_uncapped ? std::sqrt(*p.sensitivity_squared_uncapped) : p.sensitivity;
  return {p.observers.empty() ? p.target : p.observers.front(),
          p.target,
          p.sensitivity,
          uncapped,
          sensitivity_fields(p),
          p.certificate,
          p.certificate_failure_probability};
}

// The engine's numerical verdicts, each naming its pair by the graph's labels (all of them: the
// caller decides what to show).
// (Without a graph: by index.)
void collect_warnings(const PairSensitivity& p, const graph::Graph* g, std::vector<Diagnostic>& warnings) {
  const auto name = [g](graph::NodeId v) { return g ? g->label(v) : std::to_string(v); };
  append_diagnostics(warnings, p.warnings,
                     fmt::format("pair ({}, {}): ",
                                 name(p.observers.empty() ? p.target : p.observers.front()), name(p.target)));
}

}  // namespace

std::unique_ptr<GaussianPairwiseAccount> muffliato_gd_view_pairs_account(
    const gossip::Schedule& rounds, std::size_t gradient_steps, std::size_t gossip_rounds,
    std::span<const graph::NodeId> observers, std::optional<graph::NodeId> target,
    const ProgressCallback& progress, std::size_t release_dimension, const graph::Graph* names) {
  std::vector<UnitPair> pairs;
  std::vector<Diagnostic> warnings;
  for (const PairSensitivity& p : muffliato_gd_view_pairs(rounds, gradient_steps, gossip_rounds, observers,
                                                          progress, release_dimension)) {
    if (target && p.target != *target) continue;
    pairs.push_back(unit_pair(p, names));
    collect_warnings(p, names, warnings);
  }
  GaussianPairwiseAccount::Info info;
  info.method = "muffliato";
  info.releases = static_cast<double>(gradient_steps);
  info.diagnostics = std::move(warnings);
  return std::make_unique<GaussianPairwiseAccount>(pairs, std::move(info));
}

std::unique_ptr<GaussianPairwiseAccount> linear_system_account(const Protocol& protocol, const PairQuery& q,
                                                               LinearSystemOptions options,
                                                               AssessOptions release,
                                                               const ProgressCallback& progress,
                                                               bool pair_fields) {
  detail::validate_query(protocol, q, Method::linear_system);
  options.rounds = protocol.rounds;
  const gossip::Schedule schedule = protocol_schedule(protocol, protocol.rounds * options.gossip_steps);
  PairwiseOptions pairwise;
  pairwise.noise_std = 1.0;
  pairwise.sign_search = release.sign_search;
  pairwise.release_dimension = release.release_dimension;
  pairwise.epsilon_mode = EpsilonMode::table;  // the engine's own ε is not used here
  const std::size_t n = protocol.network.num_nodes();
  const std::vector<graph::NodeId> targets = q.target ? std::vector<graph::NodeId>{*q.target} : all_nodes(n);
  const std::vector<graph::NodeId> observers =
      !q.colluders.empty() ? std::vector<graph::NodeId>{q.colluders.front()}
                           : (q.observer ? std::vector<graph::NodeId>{*q.observer} : all_nodes(n));
  // The unit μ go straight into the observers × targets grid as each observer's results arrive
  // (8 bytes a value, not a list of pairs): 16 M pairs of facebook_combined held 3.8 GB as a list.
  UnitMuGrid grid;
  grid.observers = observers;
  grid.targets = targets;
  const auto rows = static_cast<Eigen::Index>(targets.size());
  const auto cols = static_cast<Eigen::Index>(observers.size());
  // The two grids, and each pair's fields when kept (their struct and ~64 bytes on the heap).
  using KeptFields = decltype(grid.sensitivity)::value_type;
  pairwise.caller_bytes = (16.0 + (pair_fields ? static_cast<double>(sizeof(KeptFields)) + 64.0 : 0.0)) *
                          static_cast<double>(rows) * static_cast<double>(cols);
  std::vector<Eigen::Index> row_of(n, -1);
  for (Eigen::Index j = 0; j < rows; ++j) row_of[targets[static_cast<std::size_t>(j)]] = j;
  std::vector<Diagnostic> warnings;
  Eigen::Index column = -1;
  Eigen::Index last_row = -1;
  // The grids are allocated once the accountant has checked its memory (caller_bytes above).
  bool allocated = false;
  const auto allocate = [&] {
    if (allocated) return;
    grid.uncapped = DenseMatrix::Constant(rows, cols, std::numeric_limits<double>::quiet_NaN());
    grid.reported = DenseMatrix::Constant(rows, cols, std::numeric_limits<double>::quiet_NaN());
    allocated = true;
  };
  const auto keep = [&](std::span<const PairResult> results) {
    allocate();
    for (const PairResult& result : results) {
      const UnitPair p = unit_pair(result.pair, &protocol.network.graph());
      if (column < 0 || p.observer != observers[static_cast<std::size_t>(column)]) {
        ++column;
        last_row = -1;
        require(column < cols && p.observer == observers[static_cast<std::size_t>(column)],
                "linear-system account: observer {} out of order", p.observer);
      }
      const Eigen::Index row = row_of[p.target];
      require(row > last_row, "linear-system account: target {} of observer {} out of order", p.target,
              p.observer);
      last_row = row;
      grid.uncapped(row, column) = p.uncapped_unit_mu;
      (*grid.reported)(row, column) = p.unit_mu;
      if (pair_fields) grid.sensitivity.push_back(*p.sensitivity);
      collect_warnings(result.pair, &protocol.network.graph(), warnings);
    }
  };
  if (!q.colluders.empty()) {
    keep(account_coalition(schedule, q.colluders, targets, options, pairwise));
  } else {
    // Streamed observer by observer: only the compact per-pair fields are kept.
    account_pairs(schedule, observers, targets, options, pairwise, keep, progress);
  }
  allocate();
  GaussianPairwiseAccount::Info info;
  info.method = "linear-system";
  info.sensitivity = protocol.sensitivity;
  info.releases = static_cast<double>(protocol.rounds);
  info.alpha = q.alpha;
  info.diagnostics = std::move(warnings);
  return std::make_unique<GaussianPairwiseAccount>(std::move(grid), std::move(info));
}

std::unique_ptr<GaussianPairwiseAccount> mf_account(const Protocol& protocol, const PairQuery& q,
                                                    const MfAlgorithmSpec& spec, MfTrust trust,
                                                    MfOptions options) {
  detail::validate_query(protocol, q, Method::mf);
  if (const auto why = detail::fixed_schedule_refusal(protocol, Method::mf))
    throw std::invalid_argument(*why);
  options.noise_std = 1.0;
  const gossip::GossipMatrix& w = protocol.network;
  const std::size_t n = w.num_nodes();
  const std::size_t rounds = protocol.rounds;
  MfAccounting accounting;
  const bool single_attackers = trust == MfTrust::pndp && q.colluders.empty() && !q.observer;
  if (single_attackers && !q.target) {
    accounting = account_mf_all_pairs(w, rounds, spec, trust, options);
  } else if (single_attackers) {
    // Every attacker against one target: one adversary at a time.
    for (graph::NodeId a = 0; a < n; ++a) {
      if (a == *q.target) continue;
      MfAccounting one =
          account_mf(w, rounds, spec, {trust, {a}}, std::vector<graph::NodeId>{*q.target}, options);
      accounting.pairs.insert(accounting.pairs.end(), one.pairs.begin(), one.pairs.end());
      accounting.theorem7.insert(accounting.theorem7.end(), one.theorem7.begin(), one.theorem7.end());
    }
  } else {
    MfAdversary adversary{trust, {}};
    if (!q.colluders.empty()) adversary.attackers = q.colluders;
    if (q.observer) adversary.attackers = {*q.observer};
    const std::vector<graph::NodeId> targets =
        q.target ? std::vector<graph::NodeId>{*q.target} : std::vector<graph::NodeId>{};
    accounting = account_mf(w, rounds, spec, adversary, targets, options);
  }
  std::vector<UnitPair> pairs;
  std::vector<Diagnostic> warnings;
  for (const MfPairResult& result : accounting.pairs) {
    pairs.push_back(unit_pair(result.privacy, &w.graph()));
    collect_warnings(result.privacy, &w.graph(), warnings);
  }
  for (const Theorem7Check& check : accounting.theorem7) {
    if (!check.column_echelon)
      warnings.push_back({DiagnosticKind::theorem_condition_fails,
                          "Theorem 7: A is not column-echelon (adaptive gradients not covered)"});
    if (!check.factorization_holds) {
      warnings.push_back(
          {DiagnosticKind::theorem_condition_fails,
           fmt::format("Theorem 7: A = BC fails (range residual {:.3g})", check.range_residual)});
    }
    append_diagnostics(warnings, check.warnings, "Theorem 7: ");
  }
  GaussianPairwiseAccount::Info info;
  info.method = "mf";
  info.sensitivity = protocol.sensitivity;
  const bool cyclic =
      options.participation.kind == MfParticipation::Kind::cyclic && options.participation.k > 0;
  info.releases = static_cast<double>(cyclic ? options.participation.k : rounds);
  info.alpha = q.alpha;
  info.diagnostics = std::move(warnings);
  return std::make_unique<GaussianPairwiseAccount>(pairs, std::move(info));
}

}  // namespace netdp::accounting
