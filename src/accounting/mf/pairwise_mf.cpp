// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The matrix-factorization pairwise accounts (pairwise_mf.hpp): the MF paper's Theorem 7 views of
// every algorithm under each trust model, built once at σ = Δ = 1; and the family's registry entry.

#include "netdp/accounting/mf/pairwise_mf.hpp"

#include <fmt/format.h>

#include "accounting/account/families.hpp"
#include "accounting/account/pairwise_detail.hpp"
#include "accounting/linear_system/linear_view_pairs.hpp"

namespace netdp::accounting {

using detail::collect_warnings;
using detail::unit_pair;

std::unique_ptr<GaussianPairwiseAccount> mf_account(const Protocol& protocol, const PairQuery& q,
                                                    const MfAlgorithmSpec& spec, MfTrust trust,
                                                    MfOptions options) {
  detail::validate_query(protocol, q, Method::mf);
  if (const auto why = detail::fixed_schedule_refusal(protocol, Method::mf))
    throw std::invalid_argument(*why);
  options.noise_std = 1.0;
  const gossip::GossipMatrix& w = protocol.network;
  const std::size_t n = w.num_nodes();
  const std::size_t rounds = protocol.rounds;
  MfAccounting accounting;
  const bool single_attackers = trust == MfTrust::pndp && q.colluders.empty() && !q.observer;
  if (single_attackers && !q.target) {
    accounting = account_mf_all_pairs(w, rounds, spec, trust, options, q.observers);
  } else if (single_attackers) {
    // Every attacker against one target: one adversary at a time.
    for (const graph::NodeId a : detail::asked_observers(q, n)) {
      if (a == *q.target) continue;
      MfAccounting one =
          account_mf(w, rounds, spec, {trust, {a}}, std::vector<graph::NodeId>{*q.target}, options);
      accounting.pairs.insert(accounting.pairs.end(), one.pairs.begin(), one.pairs.end());
      accounting.theorem7.insert(accounting.theorem7.end(), one.theorem7.begin(), one.theorem7.end());
    }
  } else {
    MfAdversary adversary{trust, {}};
    if (!q.colluders.empty()) adversary.attackers = q.colluders;
    if (q.observer) adversary.attackers = {*q.observer};
    const std::vector<graph::NodeId> targets =
        q.target ? std::vector<graph::NodeId>{*q.target} : std::vector<graph::NodeId>{};
    accounting = account_mf(w, rounds, spec, adversary, targets, options);
  }
  std::vector<UnitPair> pairs;
  std::vector<Diagnostic> warnings;
  for (const MfPairResult& result : accounting.pairs) {
    UnitPair pair = unit_pair(result.privacy, &w.graph());
    // The local-DP adversary's pairs (each node its own observer) come all at once; a share keeps
    // its own observers'.
    if (trust == MfTrust::ldp && !detail::asks_observer(q, pair.observer)) continue;
    pairs.push_back(std::move(pair));
    collect_warnings(result.privacy, &w.graph(), warnings);
  }
  for (const Theorem7Check& check : accounting.theorem7) {
    if (!check.column_echelon)
      warnings.push_back({DiagnosticKind::theorem_condition_fails,
                          "Theorem 7: A is not column-echelon (adaptive gradients not covered)"});
    if (!check.factorization_holds) {
      warnings.push_back(
          {DiagnosticKind::theorem_condition_fails,
           fmt::format("Theorem 7: A = BC fails (range residual {:.3g})", check.range_residual)});
    }
    append_diagnostics(warnings, check.warnings, "Theorem 7: ");
  }
  GaussianPairwiseAccount::Info info;
  info.method = "mf";
  info.sensitivity = protocol.sensitivity;
  const bool cyclic =
      options.participation.kind == MfParticipation::Kind::cyclic && options.participation.k > 0;
  info.releases = static_cast<double>(cyclic ? options.participation.k : rounds);
  info.alpha = q.alpha;
  info.diagnostics = std::move(warnings);
  return std::make_unique<GaussianPairwiseAccount>(pairs, std::move(info));
}

// ------------------------------------------------------------------ the family (registry.hpp)

namespace {

std::optional<std::string> mf_family_refusal(const Protocol& protocol, const PairQuery& q,
                                             const AccountRequest& r) {
  if (auto why = detail::group_refusal(q)) return why;
  // Under local DP every message is public: there is no observer to choose.
  if (r.trust == MfTrust::ldp && (q.observer || !q.colluders.empty()))
    return std::string("`trust` ldp has no observer nor colluders: every message is public");
  return detail::fixed_schedule_refusal(protocol, Method::mf);
}

std::unique_ptr<PairwiseAccount> build_mf(const Protocol& protocol, const PairQuery& q,
                                          const AccountRequest& r, const ProgressCallback& progress) {
  MfOptions options;
  options.assess = release_options(r);
  options.participation = mf_participation(r, protocol.rounds);
  options.progress = progress;
  return mf_account(protocol, q, mf_algorithm_spec(r), r.trust_or_default(), options);
}

}  // namespace

const AccountantFamily& mf_family() {
  static constexpr AccountantFamily family{
      Method::mf,
      "matrix-factorization mechanisms over the gossip matrix (Bellet et al., Theorem 7): DP-D-SGD, "
      "Muffliato-SGD, AntiPGD, DECOR, Zip-DL, MF-D-SGD",
      mf_family_refusal, build_mf};
  return family;
}

}  // namespace netdp::accounting
