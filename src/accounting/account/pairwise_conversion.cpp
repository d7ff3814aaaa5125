// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// μ-GDP to ε for many pairs at once (pairwise_detail.hpp): each distinct μ converted once, rounded
// up, through dp::GdpEpsilonTable when its pages pay.

#include <omp.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "accounting/account/pairwise_detail.hpp"
#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/dp/gdp_table.hpp"
#include "netdp/dp/rdp.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/parallel_errors.hpp"

namespace netdp::accounting {

namespace detail {

void require_evaluation(double sigma, double delta) {
  require(std::isfinite(sigma) && sigma > 0.0, "σ must be a finite number > 0, got {}", sigma);
  require(std::isfinite(1.0 / sigma), "σ = {} is so small that 1/σ overflows", sigma);
  require(delta > 0.0 && delta < 1.0, "δ must be in (0, 1), got {}", delta);
  require(delta >= std::numeric_limits<double>::min(), "δ = {} is subnormal: it must be a normal number",
          delta);
}

double gdp_epsilon_or_zero(double mu, double delta) { return mu > 0.0 ? dp::gdp_epsilon(mu, delta) : 0.0; }

namespace {

/// The bits of μ > 0 finite rounded up to 40 significant bits (IEEE doubles order as their bits).
std::uint64_t rounded_up_bits(double mu) {
  constexpr std::uint64_t kLowBits = (std::uint64_t{1} << (52 - 40)) - 1;
  const auto bits = std::bit_cast<std::uint64_t>(mu);
  return (bits & kLowBits) == 0 ? bits : (bits | kLowBits) + 1;
}

/// The distinct keys of a list with few of them, by open addressing in a fixed table of
/// kCapacity slots (key 0 marks a free slot: rounded bits of a μ > 0 are never 0). A symmetric
/// graph's chunk (a hypercube has d + 1 values) then needs no sort of every pair.
class FewDistinct {
 public:
  static constexpr std::size_t kCapacity = 4096;  // a power of two
  static constexpr std::size_t kMaxDistinct = kCapacity / 4;
  static constexpr std::size_t kFull = ~std::size_t{0};
  /// The slot holding `key` (inserted if new), or kFull once more than kMaxDistinct keys were seen.
  std::size_t insert(std::uint64_t key) {
    std::size_t slot = hash(key);
    while (keys_[slot] != 0 && keys_[slot] != key) slot = (slot + 1) & (kCapacity - 1);
    if (keys_[slot] == 0) {
      if (++size_ > kMaxDistinct) return kFull;
      keys_[slot] = key;
    }
    return slot;
  }
  std::uint64_t key(std::size_t slot) const { return keys_[slot]; }
  /// The occupied slots, ordered by their keys.
  std::vector<std::size_t> slots_by_key() const {
    std::vector<std::size_t> slots;
    for (std::size_t slot = 0; slot < kCapacity; ++slot)
      if (keys_[slot] != 0) slots.push_back(slot);
    std::sort(slots.begin(), slots.end(), [&](std::size_t a, std::size_t b) { return keys_[a] < keys_[b]; });
    return slots;
  }

 private:
  static std::size_t hash(std::uint64_t key) {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> 52);  // the top 12 bits
  }
  std::vector<std::uint64_t> keys_ = std::vector<std::uint64_t>(kCapacity, 0);
  std::size_t size_ = 0;
};

/// gdp_epsilons_rounded_up when at most FewDistinct::kMaxDistinct rounded values occur: false (and
/// `out` partly written) otherwise.
bool few_distinct_epsilons(std::span<const double> mus, double delta, std::span<double> out,
                           const dp::GdpEpsilonTable* table) {
  FewDistinct set;
  constexpr std::uint16_t kNoRoot = FewDistinct::kCapacity;  // μ <= 0 or not finite: converted directly
  static_assert(FewDistinct::kCapacity < std::numeric_limits<std::uint16_t>::max());
  std::vector<std::uint16_t> slot_of_pair(mus.size(), kNoRoot);
  for (std::size_t i = 0; i < mus.size(); ++i) {
    const double mu = mus[i];
    if (!(mu > 0.0 && std::isfinite(mu))) continue;
    const std::size_t slot = set.insert(rounded_up_bits(mu));
    if (slot == FewDistinct::kFull) return false;
    slot_of_pair[i] = static_cast<std::uint16_t>(slot);
  }
  const std::vector<std::size_t> slots = set.slots_by_key();
  std::vector<double> distinct(slots.size());
  for (std::size_t d = 0; d < slots.size(); ++d) distinct[d] = std::bit_cast<double>(set.key(slots[d]));
  std::vector<double> roots(distinct.size());
  if (table != nullptr) {
    table->epsilons(distinct, roots);
  } else {
    roots = increasing_roots(distinct, delta);
  }
  std::vector<double> root_in_slot(FewDistinct::kCapacity);
  for (std::size_t d = 0; d < slots.size(); ++d) root_in_slot[slots[d]] = roots[d];
  for (std::size_t i = 0; i < mus.size(); ++i) {
    out[i] = slot_of_pair[i] == kNoRoot ? gdp_epsilon_or_zero(mus[i], delta) : root_in_slot[slot_of_pair[i]];
  }
  return true;
}

}  // namespace

// Runs of kRootRun: each root after a run's third starts from the previous three extrapolated by
// their quadratic (one δ evaluation, mostly, instead of about ten). The runs do not depend on the
// thread count, so neither do the values.
std::vector<double> increasing_roots(std::span<const double> distinct_mus, double delta) {
  constexpr std::size_t kRootRun = 256;
  const std::size_t distinct = distinct_mus.size();
  const std::size_t runs = (distinct + kRootRun - 1) / kRootRun;
  std::vector<double> roots(distinct);
  util::ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::ptrdiff_t r = 0; r < static_cast<std::ptrdiff_t>(runs); ++r) {
    errors.run(static_cast<std::int64_t>(r), [&] {
      const std::size_t begin = static_cast<std::size_t>(r) * kRootRun;
      const std::size_t end = std::min(distinct, begin + kRootRun);
      dp::gdp_epsilons_increasing(distinct_mus.subspan(begin, end - begin), delta,
                                  std::span<double>(roots).subspan(begin, end - begin));
    });
  }
  errors.rethrow();
  return roots;
}

void TablePages::add(double unit_mu) {
  if (!(unit_mu > 0.0 && std::isfinite(unit_mu))) return;
  const std::size_t page = dp::GdpEpsilonTable::page_of(unit_mu);
  bits_[page / 64] |= std::uint64_t{1} << (page % 64);
}

bool TablePages::pays(std::size_t values) const {
  std::size_t pages = 0;
  for (const std::uint64_t word : bits_) pages += static_cast<std::size_t>(std::popcount(word));
  return pages * (dp::GdpEpsilonTable::kPageCells + 1) <= values;
}

std::shared_ptr<const dp::GdpEpsilonTable> conversion_table(bool pays, double delta) {
  return pays ? dp::shared_gdp_epsilon_table(delta) : nullptr;
}

void gdp_epsilons_rounded_up(std::span<const double> mus, double delta, std::span<double> out,
                             const dp::GdpEpsilonTable* table) {
  require(out.size() == mus.size(), "gdp_epsilons_rounded_up: {} outputs for {} values", out.size(),
          mus.size());
  require(table == nullptr || table->delta() == delta, "gdp_epsilons_rounded_up: a table for δ = {}, not {}",
          table == nullptr ? delta : table->delta(), delta);
  if (few_distinct_epsilons(mus, delta, out, table)) return;
  if (table != nullptr) {
    util::ParallelErrors errors;
#pragma omp parallel for schedule(static, 4096)
    for (std::ptrdiff_t k = 0; k < static_cast<std::ptrdiff_t>(mus.size()); ++k) {
      errors.run(k, [&] {
        const double mu = mus[static_cast<std::size_t>(k)];
        out[static_cast<std::size_t>(k)] = mu > 0.0 && std::isfinite(mu)
                                               ? table->epsilon(std::bit_cast<double>(rounded_up_bits(mu)))
                                               : gdp_epsilon_or_zero(mu, delta);
      });
    }
    errors.rethrow();
    return;
  }
  // (rounded bits, position) of every finite μ > 0, sorted: equal values side by side, increasing,
  // so each distinct value is solved once, from its neighbours' roots.
  std::vector<std::pair<std::uint64_t, std::size_t>> keyed;
  keyed.reserve(mus.size());
  for (std::size_t i = 0; i < mus.size(); ++i) {
    const double mu = mus[i];
    if (mu > 0.0 && std::isfinite(mu)) {
      keyed.emplace_back(rounded_up_bits(mu), i);
    } else {
      out[i] = gdp_epsilon_or_zero(mu, delta);
    }
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::size_t> first;  // where each distinct value starts in `keyed`
  std::vector<double> distinct;
  for (std::size_t k = 0; k < keyed.size(); ++k) {
    if (k == 0 || keyed[k].first != keyed[k - 1].first) {
      first.push_back(k);
      distinct.push_back(std::bit_cast<double>(keyed[k].first));
    }
  }
  first.push_back(keyed.size());
  const std::vector<double> roots = increasing_roots(distinct, delta);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t d = 0; d < static_cast<std::ptrdiff_t>(distinct.size()); ++d) {
    const auto slot = static_cast<std::size_t>(d);
    for (std::size_t k = first[slot]; k < first[slot + 1]; ++k) out[keyed[k].second] = roots[slot];
  }
}

}  // namespace detail

}  // namespace netdp::accounting
