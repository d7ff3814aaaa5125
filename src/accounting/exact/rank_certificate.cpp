// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Rank cuts checked by exact arithmetic: see rank_certificate.hpp.

#include "accounting/exact/rank_certificate.hpp"

#include <fmt/format.h>

namespace netdp::accounting::detail {

const SweptRankCertifier& LazyRankCertifier::get() const {
  std::call_once(once_, [&] { certifier_.emplace(schedule_, fresh_certificate_seed()); });
  return *certifier_;
}

double certify_rank_cut(RowSpace& space, const LazyRankCertifier& certifier, std::span<const SweptRow> rows,
                        std::size_t block_steps, std::size_t blocks, std::span<const graph::NodeId> known,
                        std::vector<Diagnostic>& warnings) {
  if (!space.rank_decided) return 0.0;
  const RankStatement exact = certifier.get().rank(rows, block_steps, blocks, known);
  const auto kept = static_cast<std::size_t>(space.rank());
  if (exact.rank <= kept) return exact.failure_probability;
  // rank_p <= rank_ℚ always: the dropped directions exist, whatever the prime.
  space.margin = 1.0;
  warnings.push_back({DiagnosticKind::rank_unresolved,
                      fmt::format("floating point resolved {} of the view's {} directions (its exact rank "
                                  "modulo a random prime); its "
                                  "targets are reported at the local-DP cap (cap-undetermined)",
                                  kept, exact.rank)});
  return 0.0;
}

}  // namespace netdp::accounting::detail
