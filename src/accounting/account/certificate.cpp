// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/accounting/account/certificate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

namespace netdp::accounting {

double shown_failure_probability(double probability) {
  if (!(probability > 0.0)) return probability;
  if (probability >= 1.0) return 1.0;
  // The smallest two-digit decimal k·10^(e−1) whose double is >= the probability: a value read
  // back from its two digits stays an upper bound.
  const int e = static_cast<int>(std::floor(std::log10(probability)));
  const double start = std::floor(probability / std::pow(10.0, e - 1)) - 1.0;
  for (double k = std::max(1.0, start);; k += 1.0) {
    const double candidate = std::strtod(fmt::format("{}e{}", k, e - 1).c_str(), nullptr);
    if (candidate >= probability) return std::min(1.0, candidate);
  }
}

std::string certificate_sentence(const CertificateCounts& counts) {
  const std::size_t total = counts.total();
  if (total == 0) return "no pairs";
  const auto share = [total](std::size_t k) {
    return 100.0 * static_cast<double>(k) / static_cast<double>(total);
  };
  std::vector<std::string> parts;
  // cap-in-span is an exact value too: it is counted with them and named.
  const std::size_t exact = counts[Certificate::exact] + counts[Certificate::cap_in_span];
  if (exact > 0) {
    std::string part = fmt::format("{} exact ({:.3g} %", exact, share(exact));
    if (counts[Certificate::cap_in_span] > 0)
      part += fmt::format("; {} of them exactly the local-DP cap: the observer can solve for the target",
                          counts[Certificate::cap_in_span]);
    parts.push_back(part + ")");
  }
  const auto part = [&](Certificate c, std::string_view what) {
    if (counts[c] > 0) parts.push_back(fmt::format("{} {} ({:.3g} %)", counts[c], what, share(counts[c])));
  };
  part(Certificate::upper_bound, "upper bounds");
  if (counts[Certificate::cap_undetermined] > 0)
    parts.push_back(
        fmt::format("{} at the local-DP cap as a give-up ({:.3g} %; the exact value may be lower)",
                    counts[Certificate::cap_undetermined], share(counts[Certificate::cap_undetermined])));
  part(Certificate::paper_formula, "a paper's formula, not a bound");
  std::string out = fmt::format("of {} pairs, ", total);
  for (std::size_t k = 0; k < parts.size(); ++k) {
    if (k > 0) out += k + 1 == parts.size() ? " and " : ", ";
    out += parts[k];
  }
  return out;
}

}  // namespace netdp::accounting
