// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The certificate of each value of a joint-view account (docs/explanation/certificates.md): exact arithmetic
// modulo random primes decides the rank of every view and which targets its row space holds; the
// floating-point leverages are kept only where their rank is the exact rank.

#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <vector>

#include "accounting/exact/modular_view.hpp"
#include "netdp/accounting/account/certificate.hpp"
#include "netdp/accounting/account/diagnostic.hpp"
#include "netdp/accounting/muffliato/muffliato_joint_view.hpp"

namespace netdp::accounting::detail {

/// A reported sum S (μ² = (Δ/σ)² S) with what it is.
struct CertifiedSum {
  double value = 0.0;
  Certificate kind = Certificate::upper_bound;
  double lower = 0.0;  ///< a certified lower bound on the exact S (0 when none is known)
};

/// What the certificates of the views did, for the account's report and warnings.
struct CertifierTotals {
  std::size_t over_effort = 0;       ///< views too large for exact arithmetic (cap: undetermined)
  std::size_t float_rank_short = 0;  ///< views whose floating-point rank is below the exact rank
  std::size_t reconstructed = 0;     ///< pairs whose exact rational value was reconstructed
  std::size_t over_memory = 0;       ///< views whose ball arithmetic did not fit in the memory left
  double bad_prime_count = 0.0;      ///< the union bound's count of primes that could mislead
  /// Adds a view's totals, its counts standing for `count` observer sets (a symmetry orbit: the
  /// other members' values are copies, their statements not made again, so the count of primes is not
  /// multiplied).
  void merge(const CertifierTotals& o, std::size_t count = 1);
};

/// The exact-arithmetic side of one joint-view run: W read as rationals once, two primes drawn once
/// (p for ranks and memberships, q to confirm reconstructed values).
class ViewCertifier {
 public:
  /// Views of more than `effort` entries (messages × nodes) are not computed in exact arithmetic.
  ViewCertifier(const gossip::Schedule& schedule, std::uint64_t seed, double effort);

  /// The certified sums of every target set of one view. `raw[j]` is the floating-point value of
  /// set j (ℓ_u, or the sign maximum of a group) before the margin; `view` its float account.
  std::vector<CertifiedSum> certify(const ObserverLeverage& view, std::span<const TimedSender> messages,
                                    std::span<const graph::NodeId> observers,
                                    const std::vector<std::vector<graph::NodeId>>& targets,
                                    std::span<const double> raw, CertifierTotals& totals) const;

  /// Keeps every sender's message rows up to `rounds` modulo both primes (ModularSchedule::keep_rows),
  /// when they fit. Call before the views run in parallel.
  void keep_rows(std::size_t rounds) {
    p_.keep_rows(rounds);
    q_.keep_rows(rounds);
  }
  /// The bytes keep_rows keeps for a schedule of n nodes.
  static double kept_bytes(std::size_t nodes, std::size_t rounds, bool fixed) {
    return 2.0 * ModularSchedule::row_table_bytes(nodes, rounds, fixed);
  }

  /// The memory one view's ball arithmetic may hold (what --max-memory leaves per thread); a view
  /// that needs more is not computed in balls (counted in CertifierTotals::over_memory).
  void set_ball_budget(double bytes) { ball_budget_ = bytes; }

  /// The chance that any statement made from the primes is wrong, given the union bound's count.
  static double failure_probability(const CertifierTotals& totals);
  /// Entries of W read at their binary value (no small fraction rounds to them).
  std::size_t binary_entries() const { return rational_.binary_entries(); }

 private:
  RationalSchedule rational_;
  bool fixed_ = true;
  ModularSchedule p_;
  ModularSchedule q_;
  double effort_ = 0.0;
  double ball_budget_ = std::numeric_limits<double>::infinity();
};

/// Warnings for display: what the certificates could not settle, with the number of pairs left at
/// the cap as a give-up (empty when all were settled).
std::vector<Diagnostic> certifier_warnings(const CertifierTotals& totals, std::size_t observer_sets,
                                           std::size_t undetermined_pairs, double effort);

}  // namespace netdp::accounting::detail
