// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The accountant families, one entry each: what the family accounts, which protocols and queries it
// refuses and why (the combinations it has no theorem or view for), and how it builds its account.
// make_account (account_request.hpp) checks the options' values, asks the family for a refusal and
// then builds; a front end can ask the same question before it runs anything.

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "netdp/accounting/account/account_request.hpp"
#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/accounting/account/progress.hpp"

namespace netdp::accounting {

struct AccountantFamily {
  Method method;
  std::string_view accounts;  ///< what the family accounts, with its papers
  /// Why the family does not account this protocol and query under these options (nullopt: it
  /// does). The options' values are check_request's; a build may still refuse for what it finds
  /// (a view that is not private, a memory estimate above the limit).
  std::optional<std::string> (*refusal)(const Protocol&, const PairQuery&, const AccountRequest&);
  /// The account (at σ = 1) of a combination the family does not refuse.
  std::unique_ptr<PairwiseAccount> (*build)(const Protocol&, const PairQuery&, const AccountRequest&,
                                            const ProgressCallback&);
};

/// Every family, in the order of kMethodNames.
std::span<const AccountantFamily> accountant_families();
/// The family of `method`.
const AccountantFamily& accountant_family(Method method);

}  // namespace netdp::accounting
