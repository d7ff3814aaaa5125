// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the audits of the linear views (audit.cpp) and of the random walk (audit_walk.cpp) share.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "netdp/audit/audit.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::audit::detail {

/// Runs per batch: the unit of parallel work and of seeding.
inline constexpr std::size_t kBatch = 1024;

/// The generator of batch `batch` of stream `stream` (0: runs without the shift, 1: with it; the
/// random walk's calibration runs use 2 and 3): the draws depend on (seed, stream, batch) only, so
/// neither the thread count nor the order of the batches changes a result.
inline util::Rng batch_rng(std::uint64_t seed, std::uint64_t stream, std::uint64_t batch) {
  return util::Rng(util::prf_word(util::prf_word(seed, stream), batch));
}

/// Checks the attackers (distinct nodes; at least one unless allow_none), the target (a node, not
/// an attacker), σ and Δ.
inline void check_pair(std::size_t n, const Attackers& attackers, std::size_t target, double sigma,
                       double sensitivity, bool allow_none = false) {
  require(allow_none || !attackers.nodes.empty(), "audit: the coalition of observers is empty");
  require(target < n, "audit: the target {} must be a node 0..{}", target, n - 1);
  for (std::size_t i = 0; i < attackers.nodes.size(); ++i) {
    const std::size_t observer = attackers.nodes[i];
    require(observer < n, "audit: the observer {} must be a node 0..{}", observer, n - 1);
    require(observer != target, "audit: the observer and the target are the same node {}", target);
    for (std::size_t j = 0; j < i; ++j)
      require(attackers.nodes[j] != observer, "audit: the observer {} is named twice", observer);
  }
  require(std::isfinite(sigma) && sigma > 0.0, "audit: sigma must be finite and > 0, got {}", sigma);
  require(std::isfinite(sensitivity) && sensitivity > 0.0,
          "audit: the sensitivity must be finite and > 0, got {}", sensitivity);
}

/// Sums the per-batch error counts (the batches without the shift, then those with it) into
/// `result` and sets its lower bounds from them.
inline void tally(AuditResult& result, const std::vector<std::size_t>& errors, const AuditOptions& options) {
  const std::size_t batches = errors.size() / 2;
  for (std::size_t b = 0; b < batches; ++b) {
    result.false_positives += errors[b];
    result.false_negatives += errors[batches + b];
  }
  result.bound = dp::privacy_lower_bound(result.false_positives, options.trials, result.false_negatives,
                                         options.trials, options.confidence, options.delta);
}

}  // namespace netdp::audit::detail
