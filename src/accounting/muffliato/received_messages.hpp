// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the exact joint view (muffliato_joint_view.cpp): the communication graphs of a gossip
// schedule and the messages an observer set receives from them.

#include <cstddef>
#include <mutex>
#include <optional>
#include <vector>

#include "accounting/muffliato/chebyshev_rows.hpp"
#include "accounting/muffliato/muffliato_propagation.hpp"
#include "netdp/accounting/muffliato/muffliato.hpp"
#include "netdp/gossip/schedule.hpp"

namespace netdp::accounting::detail {

using Neighbours = std::vector<std::vector<graph::NodeId>>;

/// The communication graphs of a schedule (one for a fixed schedule), and whether it is a fixed
/// symmetric W (then the Gram of a view comes from powers of W).
class ScheduleNeighbours {
 public:
  explicit ScheduleNeighbours(const gossip::Schedule& schedule) {
    const std::size_t distinct = schedule.is_fixed() ? 1 : schedule.rounds();
    for (std::size_t t = 0; t < distinct; ++t) {
      steps_.push_back(step_neighbours(schedule.at(t)));
      transposed_.emplace_back(schedule.at(t).transpose());
      transposed_.back().makeCompressed();
    }
    if (schedule.is_fixed()) symmetric_fixed_ = exactly_symmetric(schedule.at(0));
  }
  const Neighbours& at(std::size_t t) const { return steps_[steps_.size() == 1 ? 0 : t]; }
  /// W_tᵀ in compressed rows: the message rows propagate as columns, e_wᵀ W_{0:t} = (W_{t−1}ᵀ ⋯ e_w)ᵀ.
  const SparseMatrix& transposed(std::size_t t) const { return transposed_[transposed_.size() == 1 ? 0 : t]; }
  std::size_t distinct_steps() const { return steps_.size(); }
  const Neighbours& step(std::size_t k) const { return steps_[k]; }
  bool symmetric_fixed() const { return symmetric_fixed_; }

  /// The certified spectral interval of a fixed symmetric W, computed once, on first use.
  const SpectralInterval& interval(const SparseMatrix& w) const {
    std::call_once(interval_once_, [&] { interval_ = certified_spectral_interval(w); });
    return interval_;
  }

  /// The Chebyshev rows' error bounds of every sender of the fixed symmetric W up to `last_time`,
  /// for all the views to read instead of measuring their own (chebyshev_rows.hpp). Called before
  /// the views run in parallel: the table is built by all threads.
  void keep_chebyshev_errors(const SparseMatrix& w, std::size_t last_time) {
    chebyshev_errors_ = chebyshev_error_table(w, interval(w), last_time);
  }
  const ChebyshevErrorTable* chebyshev_errors() const {
    return chebyshev_errors_ ? &*chebyshev_errors_ : nullptr;
  }

 private:
  std::vector<Neighbours> steps_;
  std::vector<SparseMatrix> transposed_;
  bool symmetric_fixed_ = false;
  mutable std::once_flag interval_once_;
  mutable SpectralInterval interval_;
  std::optional<ChebyshevErrorTable> chebyshev_errors_;
};

/// A message of the view: sender w's state (W_{0:time} y)_w.
struct Message {
  std::size_t time = 0;
  graph::NodeId sender = 0;
  bool operator<(const Message& o) const { return time != o.time ? time < o.time : sender < o.sender; }
  bool operator==(const Message& o) const { return time == o.time && sender == o.sender; }
};

/// The distinct messages received by the sorted set `observers`, sorted by (time, sender).
std::vector<Message> received_messages(const ScheduleNeighbours& graphs, std::size_t rounds,
                                       const std::vector<graph::NodeId>& observers,
                                       MessageConvention convention);

}  // namespace netdp::accounting::detail
