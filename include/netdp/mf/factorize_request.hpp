#pragma once
// The MF problem by name, as `netdp factorize` and `netdp.factorize` state it: the workload, its
// rounds and participation, and the method that chooses C (docs/mf.md). One place checks the
// names and dispatches to factorize.hpp; the front ends only fill the request.

#include <cstddef>
#include <string>

#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/mf/factorize.hpp"

namespace netdp::mf {

struct FactorizeRequest {
  std::string workload = "prefix-sum";  ///< prefix-sum | dl (decentralized learning, MF paper Lemma 10)
  std::size_t rounds = 16;              ///< T
  std::size_t participations = 1;       ///< k of (k, b)-cyclic participation
  std::size_t separation = 0;           ///< b (0: T/k)
  std::size_t initial_power = 1;        ///< dl: the first power of W (0 or 1)
  /// optimal | equal-norm | sign-relaxed | identity | sqrt | antipgd | dmf | banded
  std::string method = "optimal";
  std::size_t bands = 0;  ///< banded: the bands (0: the separation)
};

/// Checks the names and values, naming the flag (`--method`) and the rule; also the memory of the
/// T × T matrices (util::require_memory).
void check_factorize_request(const FactorizeRequest& request);

/// The workload's Gram H: the prefix sum's, or local_gram of `w` for dl (w must then be given).
DenseMatrix workload_gram(const FactorizeRequest& request, const gossip::GossipMatrix* w);

/// C by the request's method for the Gram h and participation p, with its loss, sensitivity and
/// certificate (a fixed baseline has none).
Factorization factorize(const FactorizeRequest& request, const DenseMatrix& h, const Participation& p);

}  // namespace netdp::mf
