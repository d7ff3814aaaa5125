// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the accounting module: the linear-view engine's per-pair results (PairSensitivity) as
// the rows of a Gaussian pairwise account, shared by the linear-system, MF and Muffliato-GD accounts.

#include <vector>

#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/accounting/linear_system/linear_view.hpp"

namespace netdp::accounting::detail {

/// The unit μ of pair p (observer: the first of p.observers, or the target for an eavesdropper on
/// every message). Throws when the view reads the target exactly (no finite μ), naming the pair by
/// the labels of `g` (by index without one).
UnitPair unit_pair(const PairSensitivity& p, const graph::Graph* g);

/// Appends the engine's numerical verdicts on pair p to `warnings`, each naming its pair.
void collect_warnings(const PairSensitivity& p, const graph::Graph* g, std::vector<Diagnostic>& warnings);

}  // namespace netdp::accounting::detail
