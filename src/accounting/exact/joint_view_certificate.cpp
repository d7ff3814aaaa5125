// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The certificate of each joint-view value: see joint_view_certificate.hpp and
// docs/explanation/certificates.md.

#include "accounting/exact/joint_view_certificate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "accounting/linear_system/row_space.hpp"

namespace netdp::accounting::detail {

using graph::NodeId;

void CertifierTotals::merge(const CertifierTotals& o, std::size_t count) {
  over_effort += o.over_effort * count;
  float_rank_short += o.float_rank_short * count;
  reconstructed += o.reconstructed * count;
  over_memory += o.over_memory * count;
  bad_prime_count += o.bad_prime_count;
}

ViewCertifier::ViewCertifier(const gossip::Schedule& schedule, std::uint64_t seed, double effort)
    : rational_(schedule),
      fixed_(schedule.is_fixed()),
      p_([&] {
        std::mt19937_64 rng(seed);
        return draw_modular_schedule(rational_, schedule, rng, 0);
      }()),
      q_([&] {
        std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ULL);
        return draw_modular_schedule(rational_, schedule, rng, p_.prime());
      }()),
      effort_(effort) {}

double ViewCertifier::failure_probability(const CertifierTotals& totals) {
  return std::min(1.0, totals.bad_prime_count / primes_in_range(kPrimeBits));
}

std::vector<CertifiedSum> ViewCertifier::certify(const ObserverLeverage& view,
                                                 std::span<const TimedSender> messages,
                                                 std::span<const NodeId> observers,
                                                 const std::vector<std::vector<NodeId>>& targets,
                                                 std::span<const double> raw, CertifierTotals& totals) const {
  const std::size_t n = rational_.num_nodes();
  const bool within_effort = static_cast<double>(messages.size()) * static_cast<double>(n) <= effort_;
  const ModularView exact(p_, messages, observers, within_effort);
  std::vector<CertifiedSum> out(targets.size());
  const auto cap = [](const std::vector<NodeId>& set) { return static_cast<double>(set.size()); };
  if (!within_effort) {
    ++totals.over_effort;
    for (std::size_t j = 0; j < targets.size(); ++j) {
      const bool reached =
          std::any_of(targets[j].begin(), targets[j].end(), [&](NodeId u) { return exact.reached(u); });
      out[j] = reached ? CertifiedSum{cap(targets[j]), Certificate::cap_undetermined, 0.0}
                       : CertifiedSum{0.0, Certificate::exact, 0.0};
    }
    return out;
  }
  // The floating-point leverages stand where their rank is the exact one and their margin leaves a
  // gap; the rank statement and each membership below is one event of the union bound.
  const bool rank_agrees = exact.rank() == view.rank;
  const bool float_certified = rank_agrees && view.margin < 1.0 && !view.capped && !view.dense_spectrum;
  if (!view.capped && exact.rank() > view.rank) ++totals.float_rank_short;
  const bool trusted = exact.rank() >= view.rank || view.capped;  // else p is unlucky here
  totals.bad_prime_count += misleading_primes(exact.height_bits()) * static_cast<double>(1 + targets.size());

  std::vector<NodeId> wanted;  // singletons whose exact value is needed
  std::vector<std::size_t> wanted_set;
  for (std::size_t j = 0; j < targets.size(); ++j) {
    const std::vector<NodeId>& set = targets[j];
    const double full = cap(set);
    CertifiedSum& c = out[j];
    const bool reached = std::any_of(set.begin(), set.end(), [&](NodeId u) { return exact.reached(u); });
    if (!reached) {
      c = {0.0, Certificate::exact, 0.0};
      continue;
    }
    if (!trusted) {
      c = {full, Certificate::cap_undetermined, 0.0};
      continue;
    }
    if (std::all_of(set.begin(), set.end(), [&](NodeId u) { return exact.in_span(u); })) {
      c = {full, Certificate::cap_in_span, full};  // P_UU = I: the maximum is |U|
      continue;
    }
    if (float_certified) {
      const double value = widen_by_margin(raw[j], view.margin, set.size());
      const double root = std::max(
          0.0, std::sqrt(std::max(raw[j], 0.0)) - view.margin * std::sqrt(static_cast<double>(set.size())));
      if (value < full) {
        c = {value, Certificate::upper_bound, root * root};
        continue;
      }
      c = {full, Certificate::cap_undetermined, root * root};
    } else {
      c = {full, Certificate::cap_undetermined, 0.0};
    }
    if (set.size() == 1) {
      wanted.push_back(set.front());
      wanted_set.push_back(j);
    }
  }
  if (wanted.empty()) return out;
  // Certified ball arithmetic on the part of the row space the in-span targets leave:
  // V = span{e_u : u in span} ⊕ V′, and for u outside the span ℓ_u is its leverage in V′.
  {
    std::vector<std::uint8_t> keep(n, 0);
    std::size_t spanned = 0;
    for (std::size_t j = 0; j < n; ++j) {
      keep[j] = exact.reached(static_cast<NodeId>(j)) && !exact.in_span(static_cast<NodeId>(j)) ? 1 : 0;
      spanned += exact.in_span(static_cast<NodeId>(j)) ? 1 : 0;
    }
    const std::vector<std::size_t> rows = exact.independent_rows(keep);
    // The restriction has rank r − (targets in span) when p is not unlucky; otherwise give up here.
    std::size_t kept = 0;
    for (const std::uint8_t k : keep) kept += k;
    const bool fits = ball_leverage_bytes(static_cast<double>(rows.size()), static_cast<double>(kept),
                                          static_cast<double>(wanted.size()), 256) <= ball_budget_;
    if (!fits) ++totals.over_memory;
    const std::optional<std::vector<LeverageBounds>> balls =
        rows.size() + spanned == exact.rank() && fits
            ? ball_leverages(rational_, fixed_, messages, rows, keep, wanted, ball_budget_)
            : std::nullopt;
    if (balls) {
      for (std::size_t k = 0; k < wanted.size(); ++k) {
        const LeverageBounds& b = (*balls)[k];
        const bool tight = b.upper - b.lower <= 0x1p-50;
        out[wanted_set[k]] = {b.upper, tight ? Certificate::exact : Certificate::upper_bound, b.lower};
      }
    }
  }
  // What the balls left: ℓ_u mod p, its rational reconstruction, confirmed by ℓ_u mod q from an
  // independent reduction of the same view.
  std::vector<NodeId> rest;
  std::vector<std::size_t> rest_set;
  for (std::size_t k = 0; k < wanted.size(); ++k) {
    if (out[wanted_set[k]].kind == Certificate::cap_undetermined) {
      rest.push_back(wanted[k]);
      rest_set.push_back(wanted_set[k]);
    }
  }
  if (rest.empty()) return out;
  // The events of the second prime: its rank and memberships, and one check per target. A wrong
  // candidate a/b ≠ ℓ = c/d agrees mod q only if q divides cb − ad, of at most 2H + n + 33 bits
  // (ℓ's numerator and denominator are below 2^(2H + n): Cauchy–Binet).
  const double check_bits = 2.0 * exact.height_bits() + static_cast<double>(n) + 33.0;
  totals.bad_prime_count += (misleading_primes(exact.height_bits()) + misleading_primes(check_bits)) *
                            static_cast<double>(1 + rest.size());
  const std::optional<std::vector<std::uint64_t>> mod_p = exact.leverages(rest);
  if (mod_p) {
    std::vector<std::optional<SmallRational>> candidates(rest.size());
    bool any = false;
    for (std::size_t k = 0; k < rest.size(); ++k) {
      candidates[k] = reconstruct_rational((*mod_p)[k], p_.prime());
      any = any || candidates[k].has_value();
    }
    if (any) {
      const ModularView check(q_, messages, observers, true);
      const std::optional<std::vector<std::uint64_t>> mod_q =
          check.rank() == exact.rank() ? check.leverages(rest) : std::nullopt;
      for (std::size_t k = 0; k < rest.size() && mod_q; ++k) {
        if (!candidates[k] || candidates[k]->num < 0 || candidates[k]->num > candidates[k]->den) continue;
        if (reduce_rational(*candidates[k], q_.prime()) != (*mod_q)[k]) continue;
        const double value = round_up(*candidates[k]);
        const double below =
            static_cast<double>(candidates[k]->num) / static_cast<double>(candidates[k]->den);
        out[rest_set[k]] = {value, value >= 1.0 ? Certificate::cap_in_span : Certificate::exact,
                            std::nextafter(below, 0.0)};
        ++totals.reconstructed;
      }
    }
  }
  return out;
}

std::vector<Diagnostic> certifier_warnings(const CertifierTotals& totals, std::size_t observer_sets,
                                           std::size_t undetermined_pairs, double effort) {
  std::vector<Diagnostic> out;
  if (totals.float_rank_short > 0)
    out.push_back(tally_diagnostic(
        DiagnosticKind::rank_unresolved,
        "exact joint view: in {0} of {1} observer sets floating point resolved fewer directions than the "
        "view "
        "has (exact rank modulo a random prime); their values come from exact arithmetic or are reported at "
        "the cap",
        totals.float_rank_short, observer_sets));
  if (totals.over_effort > 0)
    out.push_back(tally_diagnostic(
        DiagnosticKind::effort_limit,
        fmt::format("exact joint view: {{0}} of {{1}} observer sets are above the effort limit of the exact "
                    "certificate (messages x nodes above --exact-effort {:.0f}); the targets they reach are "
                    "reported at the cap, undetermined",
                    effort),
        totals.over_effort, observer_sets));
  if (totals.over_memory > 0)
    out.push_back(tally_diagnostic(
        DiagnosticKind::effort_limit,
        "exact joint view: the ball arithmetic of {0} of {1} observer sets does not fit in the memory "
        "--max-memory leaves per thread; their values come from rational reconstruction or are reported at "
        "the cap",
        totals.over_memory, observer_sets));
  if (undetermined_pairs > 0)
    out.push_back(tally_diagnostic(DiagnosticKind::rank_unresolved,
                                   "exact joint view: {0} pairs are at the local-DP cap as a give-up "
                                   "(cap-undetermined): the exact value may be lower",
                                   undetermined_pairs));
  return out;
}

}  // namespace netdp::accounting::detail
