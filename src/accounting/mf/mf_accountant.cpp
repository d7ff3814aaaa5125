// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// MF accountant entry points: literal or structured K_u, participation classes,
// the engine's per-pair assessment, all single attackers in parallel.

#include "netdp/accounting/mf/mf_accountant.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "netdp/linalg/dense_kernels.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/memory.hpp"
#include "netdp/util/parallel_errors.hpp"

namespace netdp::accounting {
namespace {

using graph::NodeId;
using Index = Eigen::Index;

void validate_options(const MfOptions& options) {
  require_positive(options.noise_std, "noise_std");
  require(std::isfinite(options.delta) && options.delta > 0.0 && options.delta < 1.0,
          "delta must be in (0, 1), got {}", options.delta);
}

// The dense matrices one attacker's view holds at once, in bytes, checked for `workers` attackers
// in parallel before any is built. With N = nT columns and R = d T K observed rows (d the largest
// degree): structured, the observation matrix (R x N), its Gram (R x R) and the targets' T x T
// Grams; literal, also the message map (nTK x N), B = A C† and the noise map (N x N). Besides, the
// participation classes (up to T rounds of 8 bytes) and n T results.
void require_mf_memory(const gossip::GossipMatrix& w, std::size_t rounds, const MfAlgorithmSpec& spec,
                       bool structured, std::size_t workers, const MfOptions& options) {
  const auto n = static_cast<double>(w.num_nodes());
  const auto t = static_cast<double>(rounds);
  const auto k = static_cast<double>(spec.gossip_steps);
  double degree = 0.0;
  for (NodeId v = 0; v < w.num_nodes(); ++v)
    degree = std::max(degree, static_cast<double>(w.graph().degree(v)));
  const double columns = n * t;
  const double rows = degree * t * k;
  const double per_attacker = structured
                                  ? 8.0 * (rows * columns + rows * rows + n * t * t)
                                  : 8.0 * (n * t * k * columns + 2.0 * rows * columns + columns * columns);
  util::require_memory(
      static_cast<double>(workers) * per_attacker + 8.0 * t, "the MF accountant",
      fmt::format("{} path: the dense view of one attacker, {} at a time (n = {}, T = {} from {} {}, K = {}, "
                  "largest degree {})",
                  structured ? "structured" : "literal", workers, w.num_nodes(), rounds,
                  options.rounds_option, rounds, spec.gossip_steps, degree),
      fmt::format("lower {} or the threads (`threads`)", options.rounds_option));
}

std::vector<NodeId> resolve_targets(std::span<const NodeId> targets, const std::vector<NodeId>& attackers,
                                    std::size_t n) {
  const auto is_attacker = [&](NodeId v) {
    return std::find(attackers.begin(), attackers.end(), v) != attackers.end();
  };
  std::vector<NodeId> out;
  if (targets.empty()) {
    for (NodeId v = 0; v < n; ++v) {
      if (!is_attacker(v)) out.push_back(v);
    }
    return out;
  }
  for (NodeId v : targets) {
    require(v < n, "target {} is out of range: the graph has {} nodes", v, n);
    require(!is_attacker(v), "target {} is one of the attackers", v);
    out.push_back(v);
  }
  return out;
}

/// Theorem 7 for the structured views: A = B · diag(0_𝒜, I) and A is block lower triangular in
/// time by construction (MF paper A.2 / A.4), so both hold exactly.
Theorem7Check structured_theorem7() {
  Theorem7Check check;
  check.column_echelon = true;
  check.factorization_residual = 0.0;
  check.range_residual = 0.0;
  check.factorization_holds = true;
  return check;
}

}  // namespace

bool mf_structured_supported(MfTrust trust, const MfAlgorithmSpec& spec) {
  return trust == MfTrust::pndp &&
         (spec.algorithm == MfAlgorithm::dp_d_sgd || spec.algorithm == MfAlgorithm::muffliato_sgd) &&
         spec.correlation.size() == 0;
}

double mf_local_cap_per_round(const MfAlgorithmSpec& spec) {
  const bool independent =
      spec.algorithm == MfAlgorithm::dp_d_sgd || spec.algorithm == MfAlgorithm::muffliato_sgd;
  return independent && spec.correlation.size() == 0 ? 1.0 : 0.0;
}

MfPairResult assess_over_classes(const TargetGram& full, const std::vector<std::vector<std::size_t>>& classes,
                                 const MfOptions& options, double local_cap_per_round) {
  require(!classes.empty(), "at least one participation class is needed");
  require(std::isfinite(local_cap_per_round) && local_cap_per_round >= 0.0,
          "local_cap_per_round must be finite and >= 0, got {}", local_cap_per_round);
  MfPairResult out;
  double ones = 0.0;
  double sum_abs = 0.0;
  bool first = true;
  for (std::size_t c = 0; c < classes.size(); ++c) {
    const auto& rounds = classes[c];
    TargetGram sub = full;
    sub.K.resize(static_cast<Index>(rounds.size()), static_cast<Index>(rounds.size()));
    for (std::size_t i = 0; i < rounds.size(); ++i) {
      for (std::size_t j = 0; j < rounds.size(); ++j) {
        require(rounds[i] < static_cast<std::size_t>(full.K.rows()) &&
                    rounds[j] < static_cast<std::size_t>(full.K.rows()),
                "participation round {} is outside the {} rounds of K_u", std::max(rounds[i], rounds[j]),
                full.K.rows());
        sub.K(static_cast<Index>(i), static_cast<Index>(j)) =
            full.K(static_cast<Index>(rounds[i]), static_cast<Index>(rounds[j]));
      }
    }
    PairSensitivity p = assess_pair(sub, options.noise_std, options.delta, options.assess);
    // Without a local cap, a view given up (margin 1) still bounds: (√v + √|rounds|)², not a cap.
    if (local_cap_per_round == 0.0) p.certificate = Certificate::upper_bound;
    const double cap = local_cap_per_round * static_cast<double>(rounds.size());
    if (local_cap_per_round > 0.0 && cap < p.sensitivity_squared_certified) {
      // K_u ⪯ cap·I: the view is post-processing of the target's own noisy inputs.
      p.sensitivity_squared_uncapped = p.sensitivity_squared_certified;
      p.sensitivity_squared_certified = cap;
      p.sensitivity = std::sqrt(cap);
      p.exact = false;
      fill_privacy(p, options.noise_std, options.delta);
    }
    ones = std::max(ones, p.sensitivity_squared_ones);
    sum_abs = std::max(sum_abs, p.sensitivity_squared_sum_abs);
    if (first || p.sensitivity_squared_certified > out.privacy.sensitivity_squared_certified) {
      out.privacy = std::move(p);
      out.worst_class = c;
      first = false;
    }
  }
  // Every class's true sens² is <= its certified value <= the worst class's certified value, so
  // the max over classes is exact exactly when the worst class's value is.
  out.privacy.sensitivity_squared_ones = ones;
  out.privacy.sensitivity_squared_sum_abs = sum_abs;
  return out;
}

namespace {

// Whether the structured path runs; throws when the options ask for it where it is not supported.
bool uses_structured_path(MfTrust trust, const MfAlgorithmSpec& spec, const MfOptions& options) {
  const bool supported = mf_structured_supported(trust, spec);
  require(options.path != MfOptions::Path::structured || supported,
          "the structured path supports pndp with dp-d-sgd or muffliato-sgd only, not {} with {}",
          to_string(trust), to_string(spec.algorithm));
  return supported && options.path != MfOptions::Path::literal;
}

// One adversary's pairs on the chosen path; the options and the memory are checked by the callers.
MfAccounting account_adversary(const gossip::GossipMatrix& w, std::size_t rounds, const MfAlgorithmSpec& spec,
                               const MfAdversary& adversary, std::span<const NodeId> targets,
                               const MfOptions& options, bool structured) {
  const auto classes = participation_classes(options.participation, rounds);
  MfAccounting out;
  out.structured = structured;
  if (structured) {
    require(spec.gossip_steps == 1 || spec.algorithm == MfAlgorithm::muffliato_sgd,
            "gossip_steps = {} is only meaningful for muffliato-sgd", spec.gossip_steps);
    const StructuredGrams grams = mf_pndp_target_grams(w, rounds, spec.gossip_steps, adversary.attackers);
    const auto chosen = resolve_targets(targets, adversary.attackers, w.num_nodes());
    out.theorem7.push_back(structured_theorem7());
    for (NodeId u : chosen) {
      TargetGram gram;
      gram.K = grams.K[u];
      gram.rank = grams.observations;
      gram.observations = grams.observations;
      gram.condition = grams.condition;
      gram.subspace_margin = grams.subspace_margin;
      gram.certificate_failure_probability = grams.certificate_failure_probability;
      gram.warnings = grams.warnings;
      MfPairResult pair = assess_over_classes(gram, classes, options, mf_local_cap_per_round(spec));
      pair.privacy.observers = adversary.attackers;
      pair.privacy.target = u;
      out.pairs.push_back(std::move(pair));
    }
    return out;
  }
  const MfView view = build_mf_view(w, rounds, spec, adversary);
  out.theorem7.push_back(check_theorem7(view, 1e-9, options.rank));
  const auto chosen = resolve_targets(targets, adversary.attackers, w.num_nodes());
  for (NodeId u : chosen) {
    const TargetGram gram = target_gram_literal(view.view, u, {}, options.rank);
    MfPairResult pair = assess_over_classes(gram, classes, options, mf_local_cap_per_round(spec));
    pair.privacy.observers = adversary.attackers;
    pair.privacy.target = u;
    out.pairs.push_back(std::move(pair));
  }
  return out;
}

}  // namespace

MfAccounting account_mf(const gossip::GossipMatrix& w, std::size_t rounds, const MfAlgorithmSpec& spec,
                        const MfAdversary& adversary, std::span<const NodeId> targets,
                        const MfOptions& options) {
  validate_options(options);
  const bool structured = uses_structured_path(adversary.trust, spec, options);
  require_mf_memory(w, rounds, spec, structured, 1, options);
  return account_adversary(w, rounds, spec, adversary, targets, options, structured);
}

MfAccounting account_mf_all_pairs(const gossip::GossipMatrix& w, std::size_t rounds,
                                  const MfAlgorithmSpec& spec, MfTrust trust, const MfOptions& options,
                                  std::span<const graph::NodeId> attackers) {
  validate_options(options);
  if (trust == MfTrust::ldp) {
    MfAccounting out = account_mf(w, rounds, spec, MfAdversary{MfTrust::ldp, {}}, {}, options);
    if (options.progress) options.progress(1, 1);
    return out;
  }
  const std::size_t n = w.num_nodes();
  require(n >= 2, "all-pairs accounting needs at least 2 nodes, got {}", n);
  const bool structured = uses_structured_path(trust, spec, options);
  require_mf_memory(w, rounds, spec, structured,
                    std::min<std::size_t>(n, static_cast<std::size_t>(omp_get_max_threads())), options);
  (void)participation_classes(options.participation, rounds);  // validate before going parallel
  MfOptions inner = options;
  inner.progress = nullptr;
  std::vector<NodeId> share(attackers.begin(), attackers.end());
  if (share.empty()) {
    share.resize(n);
    std::iota(share.begin(), share.end(), NodeId{0});
  }
  for (const NodeId a : share) require(a < n, "attacker {} is out of range 0..{}", a, n - 1);
  std::vector<MfAccounting> per_attacker(share.size());
  util::ParallelErrors errors;
  std::size_t done = 0;
  // Costliest attackers (highest degree: cost grows like deg³) first, for load balance; every
  // attacker writes its own slot, so the results do not depend on the schedule.
  std::vector<std::size_t> order(share.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return w.graph().degree(share[x]) > w.graph().degree(share[y]);
  });
  const auto count = static_cast<long long>(share.size());
  const linalg::SingleThreadedBlas single_threaded_blas;
#pragma omp parallel for schedule(dynamic, 1)
  for (long long i = 0; i < count; ++i) {
    const std::size_t slot = order[static_cast<std::size_t>(i)];
    const NodeId a = share[slot];
    errors.run(static_cast<std::int64_t>(a), [&] {
      const MfAdversary adversary{trust, {a}};
      per_attacker[slot] = account_adversary(w, rounds, spec, adversary, {}, inner, structured);
    });
    if (options.progress) {
#pragma omp critical(netdp_mf_progress)
      options.progress(++done, share.size());
    }
  }
  errors.rethrow();
  MfAccounting out;
  for (auto& part : per_attacker) {
    out.structured = part.structured;
    for (auto& pair : part.pairs) out.pairs.push_back(std::move(pair));
    for (auto& check : part.theorem7) out.theorem7.push_back(std::move(check));
  }
  return out;
}

}  // namespace netdp::accounting
