#include "netdp/mf/factorize_request.hpp"

#include <fmt/format.h>

#include "netdp/mf/local_gram.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/memory.hpp"

namespace netdp::mf {

void check_factorize_request(const FactorizeRequest& r) {
  require(r.workload == "prefix-sum" || r.workload == "dl", "--workload '{}' is not one of: prefix-sum, dl",
          r.workload);
  require(
      r.method == "optimal" || r.method == "equal-norm" || r.method == "sign-relaxed" ||
          r.method == "identity" || r.method == "sqrt" || r.method == "antipgd" || r.method == "dmf" ||
          r.method == "banded",
      "--method '{}' is not one of: optimal, equal-norm, sign-relaxed, identity, sqrt, antipgd, dmf, banded",
      r.method);
  require(r.rounds >= 1, "--rounds must be >= 1, got {}", r.rounds);
  const auto rounds = static_cast<double>(r.rounds);
  util::require_memory(6.0 * 8.0 * rounds * rounds, "netdp factorize",
                       fmt::format("six T × T matrices of 8-byte numbers (the workload's Gram, C, the "
                                   "optimizer's gradient and workspace), T = {}",
                                   r.rounds),
                       "lower --rounds");
  require(r.initial_power <= 1, "--initial-power must be 0 or 1, got {}", r.initial_power);
}

DenseMatrix workload_gram(const FactorizeRequest& r, const gossip::GossipMatrix* w) {
  if (r.workload == "prefix-sum") return prefix_sum_gram(r.rounds);
  require(w != nullptr, "--workload dl needs a graph (its gossip matrix W)");
  return local_gram(*w, r.rounds, r.initial_power);
}

Factorization factorize(const FactorizeRequest& r, const DenseMatrix& h, const Participation& p) {
  check_factorize_request(r);
  if (r.method == "optimal") return optimal_factorization(h, p);
  if (r.method == "equal-norm") {
    OptimizeOptions options;
    options.constraints = MultiEpochConstraints::unit_diagonal;
    return optimal_factorization(h, p, options);
  }
  if (r.method == "sign-relaxed") return sign_relaxed_factorization(h, p);
  if (r.method == "dmf") return dmf_factorization(h, p);
  DenseMatrix c;
  if (r.method == "identity") {
    c = identity_correlation(r.rounds);
  } else if (r.method == "antipgd") {
    c = antipgd_correlation(r.rounds);
  } else if (r.method == "sqrt") {
    c = r.workload == "prefix-sum" ? prefix_sqrt_correlation(r.rounds) : gram_sqrt_correlation(h);
  } else {
    c = banded_sqrt_correlation(r.rounds, r.bands == 0 ? p.separation : r.bands);
  }
  return evaluate_factorization(h, std::move(c), p);
}

}  // namespace netdp::mf
