// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The accountant families (registry.hpp): the list of the entries each family defines beside its
// account, and the refusals the families share.

#include "netdp/accounting/account/registry.hpp"

#include <fmt/format.h>

#include <array>
#include <stdexcept>

#include "accounting/account/families.hpp"
#include "accounting/account/pairwise_detail.hpp"

namespace netdp::accounting {

namespace detail {

std::optional<std::string> fixed_schedule_refusal(const Protocol& protocol, Method method) {
  if (protocol.schedule.kind == gossip::ScheduleSpec::Kind::fixed) return std::nullopt;
  return fmt::format("the {} method needs the fixed schedule, got '{}'", util::name_of(kMethodNames, method),
                     gossip::schedule_spec_string(protocol.schedule));
}

std::optional<std::string> group_refusal(const PairQuery& q) {
  if (q.group.empty()) return std::nullopt;
  return std::string("`group` applies to `method` muffliato only");
}

}  // namespace detail

std::span<const AccountantFamily> accountant_families() {
  static const std::array kFamilies{muffliato_family(), random_walk_family(), linear_system_family(),
                                    mf_family()};
  return kFamilies;
}

const AccountantFamily& accountant_family(Method method) {
  for (const AccountantFamily& family : accountant_families())
    if (family.method == method) return family;
  throw std::invalid_argument("no accountant family for this method");
}

}  // namespace netdp::accounting
