// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a large account says about its worst pairs without listing n² of them: the K pairs of
// largest ε, each observer's and each target's largest ε (kept in O(K + n) memory as the rows
// stream), and a histogram of every pair's ε.

#include <cstddef>
#include <span>
#include <vector>

#include "netdp/accounting/account/pairwise.hpp"

namespace netdp::accounting {

class PairExtremes {
 public:
  /// For an account of `nodes` nodes, keeping the `top` largest pairs (0: none).
  PairExtremes(std::size_t nodes, std::size_t top);
  void add(std::span<const PairRow> rows);
  /// The kept pairs, by decreasing ε (ties: the lower observer, then the lower target, first).
  std::vector<PairRow> top() const;
  /// The largest ε of each observer's pairs (index = node; NaN: no pair).
  const std::vector<double>& observer_max() const { return observer_max_; }
  /// The largest ε over each target's pairs (index = node; NaN: no pair).
  const std::vector<double>& target_max() const { return target_max_; }

 private:
  std::size_t top_;
  std::vector<PairRow> heap_;  ///< the `top_` largest so far; its front is the smallest of them
  std::vector<double> observer_max_;
  std::vector<double> target_max_;
};

/// `bins` equal bins over [0, max]: counts[b] holds the values in [edges[b], edges[b + 1]) (the
/// last bin closed). An empty input gives no bins.
struct Histogram {
  std::vector<double> edges;  ///< bins + 1 edges
  std::vector<std::size_t> counts;
};
/// The histogram of `values` (each finite and >= 0). Throws unless bins >= 1.
Histogram histogram(std::span<const double> values, std::size_t bins);

}  // namespace netdp::accounting
