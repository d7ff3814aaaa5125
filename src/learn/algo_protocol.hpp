// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the learn module: factories of the protocol algorithms (src/learn/algo_protocol*.cpp),
// with the random walk's options exposed for tests until they become config keys.

#include <cstddef>
#include <limits>
#include <memory>

#include "netdp/learn/algorithm.hpp"

namespace netdp::learn {

std::unique_ptr<Algorithm> make_secure_gossip();
std::unique_ptr<Algorithm> make_dp_fedavg();
std::unique_ptr<Algorithm> make_local_dp_sgd();

struct RandomWalkSgdOptions {
  /// K: a node stops contributing after K gradient steps; when the token reaches a capped node it
  /// is passed on unchanged (no gradient, no noise). Unlimited by default.
  std::size_t contribution_cap = std::numeric_limits<std::size_t>::max();
  /// Steps at the start during which the token only walks (nobody contributes). 0 by default.
  std::size_t burn_in = 0;
};
std::unique_ptr<Algorithm> make_random_walk_dp_sgd(const RandomWalkSgdOptions& options);
/// The registry's factory: default options.
std::unique_ptr<Algorithm> make_random_walk_dp_sgd();

}  // namespace netdp::learn
