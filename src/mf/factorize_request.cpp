// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/mf/factorize_request.hpp"

#include <fmt/format.h>

#include "netdp/mf/local_gram.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/memory.hpp"

namespace netdp::mf {

Workload parse_workload(std::string_view name) {
  return util::parse_option_value(kWorkloadNames, name, "workload");
}

FactorizeMethod parse_factorize_method(std::string_view name) {
  return util::parse_option_value(kFactorizeMethodNames, name, "method");
}

void check_factorize_request(const FactorizeRequest& r) {
  require(r.rounds >= 1, "`rounds` must be >= 1, got {}", r.rounds);
  const auto rounds = static_cast<double>(r.rounds);
  util::require_memory(6.0 * 8.0 * rounds * rounds, "netdp factorize",
                       fmt::format("six T × T matrices of 8-byte numbers (the workload's Gram, C, the "
                                   "optimizer's gradient and workspace), T = {}",
                                   r.rounds),
                       "lower `rounds`");
  require(r.initial_power <= 1, "`initial_power` must be 0 or 1, got {}", r.initial_power);
}

DenseMatrix workload_gram(const FactorizeRequest& r, const gossip::GossipMatrix* w) {
  if (r.workload == Workload::prefix_sum) return prefix_sum_gram(r.rounds);
  require(w != nullptr, "`workload` dl needs a graph (its gossip matrix W)");
  return local_gram(*w, r.rounds, r.initial_power);
}

Factorization factorize(const FactorizeRequest& r, const DenseMatrix& h, const Participation& p) {
  check_factorize_request(r);
  DenseMatrix c;
  switch (r.method) {
    case FactorizeMethod::optimal:
      return optimal_factorization(h, p);
    case FactorizeMethod::equal_norm: {
      OptimizeOptions options;
      options.constraints = MultiEpochConstraints::unit_diagonal;
      return optimal_factorization(h, p, options);
    }
    case FactorizeMethod::sign_relaxed:
      return sign_relaxed_factorization(h, p);
    case FactorizeMethod::dmf:
      return dmf_factorization(h, p);
    case FactorizeMethod::identity:
      c = identity_correlation(r.rounds);
      break;
    case FactorizeMethod::antipgd:
      c = antipgd_correlation(r.rounds);
      break;
    case FactorizeMethod::sqrt:
      c = r.workload == Workload::prefix_sum ? prefix_sqrt_correlation(r.rounds) : gram_sqrt_correlation(h);
      break;
    case FactorizeMethod::banded:
      c = banded_sqrt_correlation(r.rounds, r.bands == 0 ? p.separation : r.bands);
      break;
  }
  return evaluate_factorization(h, std::move(c), p);
}

}  // namespace netdp::mf
