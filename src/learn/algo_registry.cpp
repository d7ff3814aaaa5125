// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Name → algorithm factory: a plain table (no static self-registration, which static
// libraries drop). To add an algorithm: declare its factory below and add one row.

#include <fmt/format.h>

#include <stdexcept>
#include <string>

#include "netdp/learn/algorithm.hpp"

namespace netdp::learn {

// ---- factories (defined in src/learn/algo_*.cpp)
// learn-sim (src/learn/algo_gossip*.cpp)
std::unique_ptr<Algorithm> make_d_sgd();
std::unique_ptr<Algorithm> make_dp_d_sgd();
std::unique_ptr<Algorithm> make_muffliato_gd();
std::unique_ptr<Algorithm> make_muffliato_sgd();
std::unique_ptr<Algorithm> make_randomized_gossip();
std::unique_ptr<Algorithm> make_antipgd();
// learn-protocols (src/learn/algo_protocol*.cpp): declare yours here.
std::unique_ptr<Algorithm> make_secure_gossip();
std::unique_ptr<Algorithm> make_random_walk_dp_sgd();
std::unique_ptr<Algorithm> make_dp_fedavg();
std::unique_ptr<Algorithm> make_local_dp_sgd();
// learn-mf (src/learn/algo_mf.cpp)
std::unique_ptr<Algorithm> make_mf_d_sgd();
std::unique_ptr<Algorithm> make_mafalda();

const std::vector<AlgorithmEntry>& algorithm_registry() {
  static const std::vector<AlgorithmEntry> table = {
      {"d-sgd", "decentralized SGD without noise (the non-private baseline)", &make_d_sgd},
      {"dp-d-sgd", "DP-D-SGD / DP-GossipAvg (Koskela-Kulkarni Algorithm 2; MF paper Algorithm 1 with C = I)",
       &make_dp_d_sgd},
      {"muffliato-gd",
       "Muffliato-GD: full local gradient, K (Chebyshev) gossip steps (Cyffers et al. Algorithm 3)",
       &make_muffliato_gd},
      {"muffliato-sgd",
       "Muffliato-SGD: minibatch gradient, K (Chebyshev) gossip steps (Cyffers et al. Algorithm 3)",
       &make_muffliato_sgd},
      {"randomized-gossip",
       "noisy local step, then K pairwise averagings on random edges (Muffliato Algorithm 2)",
       &make_randomized_gossip},
      {"antipgd", "DP-D-SGD with anti-correlated noise z_t - z_{t-1} (MF paper A.3)", &make_antipgd},
      {"mf-d-sgd", "DP-D-SGD with correlated noise C^-1 z from algorithm.correlation (MF paper Algorithm 1)",
       &make_mf_d_sgd},
      {"mafalda", "MAFALDA-SGD: MF-D-SGD with C_local optimized for the network (MF paper Algorithm 2)",
       &make_mafalda},
      // learn-protocols: one row per algorithm, e.g.
      // {"random-walk-dp-sgd", "...", &make_random_walk_dp_sgd},
      {"secure-gossip",
       "DP-D-SGD whose gossip runs the pairwise-masking secure summation (Koskela-Kulkarni Section 3.2)",
       &make_secure_gossip},
      {"random-walk-dp-sgd",
       "a token walks over W; its holder takes a noisy clipped step (Cyffers-Bellet-Upadhyay)",
       &make_random_walk_dp_sgd},
      {"dp-fedavg", "trusted server averages clipped gradients and adds central noise (central-DP baseline)",
       &make_dp_fedavg},
      {"local-dp-sgd", "every node trains alone with DP-SGD (local-DP baseline)", &make_local_dp_sgd},
  };
  return table;
}

std::unique_ptr<Algorithm> make_algorithm(std::string_view name) {
  std::string names;
  for (const auto& entry : algorithm_registry()) {
    if (entry.name == name) return entry.make();
    names += names.empty() ? "" : ", ";
    names += entry.name;
  }
  throw std::invalid_argument(fmt::format("unknown algorithm '{}': expected one of {}", name, names));
}

}  // namespace netdp::learn
