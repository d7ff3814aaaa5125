// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The random walk's audit, inside: the law of the target's visits in the segments of the walk the
// observer cannot see, and one run of the walk with the log-likelihood ratio of the observer's
// view (audit.hpp, audit_random_walk; docs/reference/audit.md, "The random walk").

#include <cstddef>
#include <optional>
#include <vector>

#include "netdp/accounting/random_walk/random_walk.hpp"
#include "netdp/audit/audit.hpp"
#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/util/rng.hpp"
#include "netdp/util/types.hpp"

namespace netdp::audit::detail {

/// log P(c | segment) for the segments the observers F (one node, or a coalition) cannot see. A
/// segment starts at a node drawn from a start law (a point mass: whom F sent the token to; or the
/// walk's start law), holds L >= 1 nodes outside F, and ends with a step into F, told apart by an
/// end: the receiving member and, when the sender is known, the sender. c counts the segment's
/// nodes equal to the target u. By dynamic programming over (node, count):
/// f_1(x, c) = start(x)·[c = 1{x = u}], f_{L+1}(x′, c + 1{x′ = u}) += f_L(x, c)·W_xx′ for x′ ∉ F,
/// and P(c | L, end e) ∝ Σ_x f_L(x, c)·e(x), e(x) the probability of the closing step from x.
class SegmentLaws {
 public:
  /// members: F as a flag per node; starts: distributions over the nodes (zero on F); ends: the
  /// closing steps' probabilities per node (zero on F); counts: c = 0..counts−1 are tracked (higher
  /// counts are dropped). Cost O(starts · max_length · nnz(W) · counts).
  SegmentLaws(const SparseMatrix& w, const std::vector<bool>& members, graph::NodeId target,
              const std::vector<Eigen::VectorXd>& starts, const std::vector<Eigen::VectorXd>& ends,
              std::size_t max_length, std::size_t counts);

  /// log P(c | segment) for c = 0..counts()−1, segment of `length` (1..max_length) nodes from start
  /// `start` ending at end index `end` (0 when anonymous); all −∞ for a segment of probability 0.
  const double* log_law(std::size_t start, std::size_t length, std::size_t end) const {
    return &log_law_[index(start, length, end)];
  }
  std::size_t counts() const { return counts_; }

 private:
  std::size_t index(std::size_t start, std::size_t length, std::size_t end) const {
    return ((start * (max_length_ + 1) + length) * ends_ + end) * counts_;
  }

  std::size_t ends_;
  std::size_t max_length_;
  std::size_t counts_;
  std::vector<double> log_law_;
};

/// The walk of Algorithm 1 on a sum query as the audit runs it, and the log-likelihood ratio of
/// the observers' view of eq. (7) between the target's inputs Δ and 0 (the others 0).
class WalkAudit {
 public:
  /// observers: one node or a coalition pooling its members' visits; start: public start node, or
  /// none for a uniformly drawn secret one. Checks the memory of the segment laws
  /// (util::require_memory).
  WalkAudit(const gossip::GossipMatrix& w, const Attackers& observers, graph::NodeId target, double sigma,
            double sensitivity, std::size_t steps, std::optional<graph::NodeId> start,
            accounting::RandomWalkView view);

  /// One run (with the target's input Δ when `shifted`): returns the statistic Σ over the unseen
  /// segments of log Σ_c P(c | segment) N(D; cΔ, Lσ²)/N(D; 0, Lσ²), D the segment's increment;
  /// `messages` gets the token values the observer received.
  double run(util::Rng& rng, bool shifted, std::size_t& messages) const;

 private:
  double segment_ratio(std::size_t start, std::size_t length, std::size_t end, double increment) const;

  const SparseMatrix& w_;
  std::vector<bool> member_;               ///< per node: an observer
  std::vector<std::size_t> member_index_;  ///< per node: its place among the observers
  std::size_t members_ = 0;
  graph::NodeId target_;
  double sigma_;
  double sensitivity_;
  std::size_t steps_;
  std::optional<graph::NodeId> start_;
  std::vector<std::size_t> start_index_;  ///< per node: its segment start, when the observer sends to it
  std::vector<std::size_t> end_index_;    ///< per (sender x, member i): the end at x · members + i
  std::size_t initial_ = static_cast<std::size_t>(-1);  ///< the start law's index
  std::optional<SegmentLaws> laws_;
};

}  // namespace netdp::audit::detail
