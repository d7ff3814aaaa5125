// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A floating-point rank cut of a swept view (row_space.hpp) checked against the view's exact rank
// modulo a random prime (modular_view.hpp, docs/explanation/certificates.md): the Muffliato-GD whole view, the
// dependent Koskela–Kulkarni views and PNDP's dependent observations.

#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "accounting/exact/modular_view.hpp"
#include "accounting/linear_system/row_space.hpp"
#include "netdp/accounting/account/diagnostic.hpp"

namespace netdp::accounting::detail {

/// The certifier of a schedule, built on first use from any thread (most views cut no rank). The
/// schedule must outlive it.
class LazyRankCertifier {
 public:
  explicit LazyRankCertifier(const gossip::Schedule& schedule) : schedule_(schedule) {}
  const SweptRankCertifier& get() const;

 private:
  const gossip::Schedule& schedule_;
  mutable std::once_flag once_;
  mutable std::optional<SweptRankCertifier> certifier_;
};

/// When `space` cut its rank in floating point, the exact rank of the same view (its swept rows,
/// see SweptRankCertifier::rank) decides. Equal or below: the cut kept every direction (returns the
/// chance that rank_p < rank_ℚ). Above: a real direction was dropped, so nothing of the computed
/// space is trusted (margin 1, the bound of any projector: the cap, reported cap-undetermined) and a
/// warning says so. Returns 0 when no rank was cut.
double certify_rank_cut(RowSpace& space, const LazyRankCertifier& certifier, std::span<const SweptRow> rows,
                        std::size_t block_steps, std::size_t blocks, std::span<const graph::NodeId> known,
                        std::vector<Diagnostic>& warnings);

}  // namespace netdp::accounting::detail
