// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the exact arithmetic of the views (modular_view.cpp, ball_leverages.cpp): W's
// matrices as rationals, and the walk that builds message rows in any arithmetic.

#include <gmpxx.h>

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "accounting/exact/modular_view.hpp"

namespace netdp::accounting::detail {

struct RationalSchedule::Impl {
  /// One matrix in compressed rows with rational entries (structural zeros dropped).
  struct Rows {
    std::vector<std::size_t> start;
    std::vector<std::size_t> column;
    std::vector<mpq_class> value;
  };
  std::vector<Rows> matrices;  // one for a fixed schedule, else W_0..W_{T−1}
};

/// Visits the rows e_wᵀ W_{t−1}⋯W_0 of the messages `chosen` (indices into `messages`), in whatever
/// arithmetic the callbacks keep: start(w) sets x = e_w, step(t) sets x ← x W_t, store(k) takes x as
/// the row of message k. A fixed W propagates each sender once, in increasing time; a time-varying
/// schedule applies W_{t−1} first, message by message.
template <class Start, class Step, class Store>
void propagate_messages(std::span<const TimedSender> messages, std::vector<std::size_t> chosen, bool fixed,
                        const Start& start, const Step& step, const Store& store) {
  if (!fixed) {
    for (const std::size_t k : chosen) {
      start(messages[k].sender);
      for (std::size_t t = messages[k].time; t-- > 0;) step(t);
      store(k);
    }
    return;
  }
  std::sort(chosen.begin(), chosen.end(), [&](std::size_t a, std::size_t b) {
    return messages[a].sender != messages[b].sender ? messages[a].sender < messages[b].sender
                                                    : messages[a].time < messages[b].time;
  });
  for (std::size_t i = 0; i < chosen.size();) {
    const graph::NodeId w = messages[chosen[i]].sender;
    start(w);
    std::size_t time = 0;
    for (; i < chosen.size() && messages[chosen[i]].sender == w; ++i) {
      for (; time < messages[chosen[i]].time; ++time) step(0);
      store(chosen[i]);
    }
  }
}

}  // namespace netdp::accounting::detail
