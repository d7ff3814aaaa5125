// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A sample of observers instead of all of them (PairQuery::observers), for graphs whose n² pairs
// are too many to account: every pair of each sampled observer is accounted exactly as in a run of
// all observers, and the per-distance mean over all pairs is estimated from the sample with a
// confidence interval (docs/reference/mpi.md, "Sampled observers").
//
// The estimate is cluster sampling with a ratio estimator (Cochran, Sampling Techniques, 3rd ed.,
// §6.8 and §9.2): the K observers are drawn without replacement from the n nodes, each observer is
// a cluster of its m_i pairs at distance d whose ε add to y_i, and
//   R = Σ y_i / Σ m_i,   s² = Σ (y_i − R m_i)² / (K − 1),   Var(R) ≈ (1 − K/n) s² / (K m̄²),
// m̄ = Σ m_i / K (every sampled observer counts, with m_i = 0 when it has no pair at d), with a
// Student-t interval on K − 1 degrees of freedom, its lower end at least 0. An estimate is not a bound: the sample's
// largest ε is a lower bound on the largest of all pairs, and is labelled as such.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "netdp/accounting/account/pairwise.hpp"

namespace netdp::accounting {

/// `k` distinct observers drawn uniformly from 0..n−1 with util::Rng(sub_seed(seed, ·)), increasing.
/// Throws unless 1 <= k <= n.
std::vector<graph::NodeId> sample_observers(std::size_t n, std::size_t k, std::uint64_t seed);

/// What the sample says of all pairs at one hop distance.
struct DistanceEstimate {
  std::uint32_t distance = 0;
  std::size_t sampled_pairs = 0;  ///< Σ m_i
  double estimated_pairs = 0.0;   ///< n m̄: the pairs at this distance among all observers
  double mean = 0.0;              ///< R, the estimate of the mean ε over all pairs at this distance
  /// The confidence interval of the mean (empty with one observer; [R, R] when K = n).
  std::optional<double> ci_low;
  std::optional<double> ci_high;
  double sample_max = 0.0;  ///< the largest ε of the sample: a lower bound on the largest of all
};

/// Per-distance estimates from the rows of the sampled observers, added as they stream (rows with
/// their distances, whole observer blocks).
class SampleEstimator {
 public:
  /// `sampled` observers of `nodes`.
  SampleEstimator(std::size_t nodes, std::size_t sampled);
  void add(std::span<const PairRow> rows);
  /// The estimates at `confidence` (in (0, 1)), by increasing distance.
  std::vector<DistanceEstimate> finish(double confidence = 0.95) const;

 private:
  struct Cluster {
    double sum = 0.0;       ///< y_i: the ε of the observer's pairs at the distance
    std::size_t pairs = 0;  ///< m_i
    double max = 0.0;
  };
  std::size_t nodes_;
  std::size_t sampled_;
  std::vector<std::vector<Cluster>> by_distance_;  ///< [distance]: one cluster per observer with pairs there
};

}  // namespace netdp::accounting
