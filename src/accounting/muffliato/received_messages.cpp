// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The messages an observer set receives (received_messages.hpp).

#include "accounting/muffliato/received_messages.hpp"

#include <algorithm>

namespace netdp::accounting::detail {

using graph::NodeId;

/// The distinct messages received by the sorted set `observers`, sorted by (time, sender).
std::vector<Message> received_messages(const ScheduleNeighbours& graphs, std::size_t rounds,
                                       const std::vector<NodeId>& observers, MessageConvention convention) {
  const auto member = [&](NodeId w) { return std::binary_search(observers.begin(), observers.end(), w); };
  std::vector<Message> messages;
  const std::size_t shift = convention == MessageConvention::authors_code ? 1 : 0;
  for (std::size_t t = 0; t < rounds; ++t) {
    for (NodeId c : observers) {
      // A colluder's own messages are post-processing of the coalition's view.
      for (NodeId w : graphs.at(t)[c]) {
        if (!member(w)) messages.push_back({t + shift, w});
      }
    }
  }
  std::sort(messages.begin(), messages.end());
  messages.erase(std::unique(messages.begin(), messages.end()), messages.end());
  return messages;
}

}  // namespace netdp::accounting::detail
