// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a reported privacy loss is, pair by pair (docs/explanation/certificates.md).
//
//   exact             the exact loss of the observer's whole view, rounded up: proven, or proven
//                     except with the probability the account states (exact arithmetic modulo
//                     random primes, docs/explanation/certificates.md)
//   upper-bound       a proven upper bound on the exact loss (a certified lower bound may be given
//                     beside it)
//   cap-in-span       the local-DP cap, and the exact value: the observer can solve its view for
//                     the target's release
//   cap-undetermined  the local-DP cap as a give-up: valid, but the exact value may be lower (the
//                     account says why: no certificate within the effort limit, or a value that
//                     neither exact arithmetic nor floating point resolved)
//   paper-formula     a paper's formula that is not a bound (only when asked for by name)

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "netdp/util/enum_names.hpp"

namespace netdp::accounting {

enum class Certificate : std::uint8_t { exact, upper_bound, cap_in_span, cap_undetermined, paper_formula };

inline constexpr auto kCertificateNames =
    std::to_array<util::EnumName<Certificate>>({{Certificate::exact, "exact"},
                                                {Certificate::upper_bound, "upper-bound"},
                                                {Certificate::cap_in_span, "cap-in-span"},
                                                {Certificate::cap_undetermined, "cap-undetermined"},
                                                {Certificate::paper_formula, "paper-formula"}});
static_assert(util::is_valid_enum_table(kCertificateNames));
inline constexpr std::size_t kCertificateKinds = kCertificateNames.size();

inline std::string_view certificate_name(Certificate c) { return util::name_of(kCertificateNames, c); }

/// What an account's values are as a whole (PairwiseAccount::guarantee): upper bounds, the exact
/// loss of the whole view (each pair's certificate says more), or a paper's formula that is not a
/// bound, kept under the paper's name and labelled in every output.
enum class Guarantee : std::uint8_t { upper_bound, exact_joint_view, paper_formula };
inline constexpr auto kGuaranteeNames =
    std::to_array<util::EnumName<Guarantee>>({{Guarantee::upper_bound, "upper-bound"},
                                              {Guarantee::exact_joint_view, "exact-joint-view"},
                                              {Guarantee::paper_formula, "paper-formula"}});
static_assert(util::is_valid_enum_table(kGuaranteeNames));

/// How many pairs of an account carry each certificate (indexed by the enum's value).
struct CertificateCounts {
  std::array<std::size_t, kCertificateKinds> pairs{};
  void add(Certificate c, std::size_t count = 1) { pairs[static_cast<std::size_t>(c)] += count; }
  std::size_t operator[](Certificate c) const { return pairs[static_cast<std::size_t>(c)]; }
  std::size_t total() const {
    std::size_t sum = 0;
    for (const std::size_t p : pairs) sum += p;
    return sum;
  }
  void merge(const CertificateCounts& other) {
    for (std::size_t k = 0; k < kCertificateKinds; ++k) pairs[k] += other.pairs[k];
  }
};

/// The chance that exact arithmetic modulo random primes misjudged (a union bound) as every output
/// shows it: rounded up to two significant digits, at most 1; 0 stays 0.
double shown_failure_probability(double probability);

/// One plain sentence for the human table: the share of pairs of each kind present, e.g. "of
/// 1,190 pairs, 812 are exact (68 %), 378 upper bounds".
std::string certificate_sentence(const CertificateCounts& counts);

}  // namespace netdp::accounting
