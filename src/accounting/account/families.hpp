// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the accounting module: each family's registry entry (registry.hpp), defined beside the
// family's account (muffliato/pairwise_muffliato.cpp, …), and the refusals families share.

#include <optional>
#include <string>

#include "netdp/accounting/account/registry.hpp"

namespace netdp::accounting {

const AccountantFamily& muffliato_family();
const AccountantFamily& random_walk_family();
const AccountantFamily& linear_system_family();
const AccountantFamily& mf_family();

namespace detail {

/// A group of targets is Muffliato's alone (Theorem 13, and the exact view of a group).
std::optional<std::string> group_refusal(const PairQuery& query);

}  // namespace detail

}  // namespace netdp::accounting
