// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The MF problem as `netdp factorize` and `netdp.factorize` state it: the workload, its rounds and
// participation, and the method that chooses C (docs/reference/mf.md). The names are parsed once, at the
// front end (kWorkloadNames, kFactorizeMethodNames); one place checks the values and dispatches to
// factorize.hpp.

#include <cstddef>
#include <string>
#include <string_view>

#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/mf/factorize.hpp"
#include "netdp/util/enum_names.hpp"

namespace netdp::mf {

/// The prefix sum, or decentralized learning (MF paper Lemma 10).
enum class Workload { prefix_sum, dl };
inline constexpr auto kWorkloadNames =
    std::to_array<util::EnumName<Workload>>({{Workload::prefix_sum, "prefix-sum"}, {Workload::dl, "dl"}});
static_assert(util::is_valid_enum_table(kWorkloadNames));

/// How C is chosen (docs/reference/mf.md).
enum class FactorizeMethod { optimal, equal_norm, sign_relaxed, identity, sqrt, antipgd, dmf, banded };
inline constexpr auto kFactorizeMethodNames = std::to_array<util::EnumName<FactorizeMethod>>({
    {FactorizeMethod::optimal, "optimal"},
    {FactorizeMethod::equal_norm, "equal-norm"},
    {FactorizeMethod::sign_relaxed, "sign-relaxed"},
    {FactorizeMethod::identity, "identity"},
    {FactorizeMethod::sqrt, "sqrt"},
    {FactorizeMethod::antipgd, "antipgd"},
    {FactorizeMethod::dmf, "dmf"},
    {FactorizeMethod::banded, "banded"},
});
static_assert(util::is_valid_enum_table(kFactorizeMethodNames));

/// The workload and the method from their names; a name that is not one is refused, naming the
/// option (`workload`, `method`) and the names it takes.
Workload parse_workload(std::string_view name);
FactorizeMethod parse_factorize_method(std::string_view name);

struct FactorizeRequest {
  Workload workload = Workload::prefix_sum;
  std::size_t rounds = 16;         ///< T
  std::size_t participations = 1;  ///< k of (k, b)-cyclic participation
  std::size_t separation = 0;      ///< b (0: T/k)
  std::size_t initial_power = 1;   ///< dl: the first power of W (0 or 1)
  FactorizeMethod method = FactorizeMethod::optimal;
  std::size_t bands = 0;  ///< banded: the bands (0: the separation)
};

/// Checks the values, naming the option (`rounds`) and the rule; also the memory of the
/// T × T matrices (util::require_memory).
void check_factorize_request(const FactorizeRequest& request);

/// The workload's Gram H: the prefix sum's, or local_gram of `w` for dl (w must then be given).
DenseMatrix workload_gram(const FactorizeRequest& request, const gossip::GossipMatrix* w);

/// C by the request's method for the Gram h and participation p, with its loss, sensitivity and
/// certificate (a fixed baseline has none).
Factorization factorize(const FactorizeRequest& request, const DenseMatrix& h, const Participation& p);

}  // namespace netdp::mf
