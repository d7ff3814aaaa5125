// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The worst pairs of a large account, and a histogram of its losses (pair_extremes.hpp).

#include "netdp/accounting/account/pair_extremes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "netdp/util/check.hpp"

namespace netdp::accounting {

namespace {

/// Whether a ranks before b in the top list: larger ε, then the lower observer, then the lower target.
bool ranks_before(const PairRow& a, const PairRow& b) {
  if (a.epsilon != b.epsilon) return a.epsilon > b.epsilon;
  if (a.observer != b.observer) return a.observer < b.observer;
  return a.target < b.target;
}

}  // namespace

PairExtremes::PairExtremes(std::size_t nodes, std::size_t top)
    : top_(top),
      observer_max_(nodes, std::numeric_limits<double>::quiet_NaN()),
      target_max_(nodes, std::numeric_limits<double>::quiet_NaN()) {
  heap_.reserve(top);
}

void PairExtremes::add(std::span<const PairRow> rows) {
  const auto raise = [](double& slot, double value) {
    if (std::isnan(slot) || value > slot) slot = value;
  };
  for (const PairRow& row : rows) {
    require(row.observer < observer_max_.size() && row.target < target_max_.size(),
            "pair ({}, {}) is outside the {} nodes", row.observer, row.target, observer_max_.size());
    raise(observer_max_[row.observer], row.epsilon);
    raise(target_max_[row.target], row.epsilon);
    if (top_ == 0) continue;
    // A min-heap under ranks_before: its front ranks last among the kept pairs.
    if (heap_.size() < top_) {
      heap_.push_back(row);
      std::push_heap(heap_.begin(), heap_.end(), ranks_before);
    } else if (ranks_before(row, heap_.front())) {
      std::pop_heap(heap_.begin(), heap_.end(), ranks_before);
      heap_.back() = row;
      std::push_heap(heap_.begin(), heap_.end(), ranks_before);
    }
  }
}

std::vector<PairRow> PairExtremes::top() const {
  std::vector<PairRow> out = heap_;
  std::sort(out.begin(), out.end(), ranks_before);
  return out;
}

Histogram histogram(std::span<const double> values, std::size_t bins) {
  require(bins >= 1, "a histogram needs at least 1 bin, got {}", bins);
  Histogram h;
  if (values.empty()) return h;
  double max = 0.0;
  for (const double v : values) {
    require(std::isfinite(v) && v >= 0.0, "a histogram of losses takes finite values >= 0, got {}", v);
    max = std::max(max, v);
  }
  const double width = max > 0.0 ? max / static_cast<double>(bins) : 1.0;
  for (std::size_t b = 0; b <= bins; ++b)
    h.edges.push_back(b == bins && max > 0.0 ? max : width * static_cast<double>(b));
  h.counts.assign(bins, 0);
  for (const double v : values) {
    // The bin whose edges hold v, found from the edges themselves (not v / width alone, which can
    // round across an edge).
    auto b = static_cast<std::size_t>(v / width);
    b = std::min(b, bins - 1);
    while (b > 0 && v < h.edges[b]) --b;
    while (b + 1 < bins && v >= h.edges[b + 1]) ++b;
    ++h.counts[b];
  }
  return h;
}

}  // namespace netdp::accounting
