// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/dp/gdp_table.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <bitset>
#include <cmath>
#include <cstdint>
#include <limits>
#include <mutex>
#include <utility>
#include <vector>

#include "netdp/dp/gdp.hpp"
#include "netdp/dp/normal.hpp"
#include "netdp/util/check.hpp"
#include "tail.hpp"

namespace netdp::dp {

namespace {

constexpr int kCellShift = 52 - GdpEpsilonTable::kCellBits;  // a cell: the bits above this
constexpr int kPageBits = GdpEpsilonTable::kPageBits;
constexpr std::size_t kPageCells = GdpEpsilonTable::kPageCells;
constexpr std::size_t kPages = GdpEpsilonTable::kPageCount;

double cell_start(std::uint64_t cell) { return std::bit_cast<double>(cell << kCellShift); }

double up(double x) { return std::nextafter(x, std::numeric_limits<double>::infinity()); }

}  // namespace

/// The roots at the starts of kPageCells cells and of the next page, and which cells convert exactly.
struct GdpEpsilonTable::Page {
  std::array<double, kPageCells + 1> roots{};
  std::bitset<kPageCells> solved;
  bool on_chord(std::size_t j) const { return roots[j + 1] > 0.0 && !solved[j]; }
};

std::size_t GdpEpsilonTable::page_of(double mu) {
  return static_cast<std::size_t>(std::bit_cast<std::uint64_t>(mu) >> (kCellShift + kPageBits));
}

GdpEpsilonTable::GdpEpsilonTable(double delta)
    : delta_(delta), pages_(std::make_unique<std::atomic<const Page*>[]>(kPages)) {
  detail::require_delta(delta);
  for (std::size_t p = 0; p < kPages; ++p) pages_[p].store(nullptr, std::memory_order_relaxed);
}

namespace {

/// Every page below the μ where ε leaves 0 (ε = 0 on all its cells) is this one.
const GdpEpsilonTable::Page& zero_page() {
  static const GdpEpsilonTable::Page zero{};
  return zero;
}

}  // namespace

GdpEpsilonTable::~GdpEpsilonTable() {
  for (std::size_t p = 0; p < kPages; ++p) {
    const Page* page = pages_[p].load(std::memory_order_relaxed);
    if (page != &zero_page()) delete page;
  }
}

const GdpEpsilonTable::Page& GdpEpsilonTable::page(std::size_t index) const {
  if (const Page* built = pages_[index].load(std::memory_order_acquire)) return *built;
  const std::uint64_t first_cell = std::uint64_t{index} << kPageBits;
  std::array<double, kPageCells + 1> starts{};
  for (std::size_t j = 0; j <= kPageCells; ++j) starts[j] = cell_start(first_cell + j);
  const double last = std::isfinite(starts[kPageCells]) ? gdp_epsilon(starts[kPageCells], delta_)
                                                        : std::numeric_limits<double>::infinity();
  if (last == 0.0) {
    // A page below the μ where ε leaves 0 (its last root 0) is all 0; the cell start 0 has ε = 0.
    const Page* expected = nullptr;
    pages_[index].compare_exchange_strong(expected, &zero_page(), std::memory_order_acq_rel);
    return zero_page();
  }
  auto fresh = std::make_unique<Page>();
  if (!std::isfinite(last)) {
    // The top of the doubles (the page ends at +inf, or ε overflows there): every μ solved alone.
    fresh->roots.fill(std::numeric_limits<double>::infinity());
    fresh->solved.set();
    return install(index, std::move(fresh));
  }
  {
    // The next page computes its first root from scratch too, so both hold the same boundary root.
    const std::size_t first = starts[0] > 0.0 ? 0 : 1;
    gdp_epsilons_increasing(std::span<const double>(starts).subspan(first, kPageCells - first), delta_,
                            std::span<double>(fresh->roots).subspan(first, kPageCells - first));
    fresh->roots[kPageCells] = last;
  }
  for (std::size_t j = 0; j < kPageCells; ++j) {
    const double r0 = fresh->roots[j];
    const double r1 = fresh->roots[j + 1];
    if (r1 == 0.0) continue;  // ε = 0 on the whole cell: slope 0
    const double width = starts[j + 1] - starts[j];
    // ε is convex, so the chord lies above it by at most width·(ε'(μ₁) − ε'(μ₀))/4 (the gap between
    // the chord and the larger of the two end tangents); r0 itself is above the exact root by up to
    // ~1e-12 of it (the root-finder's conservative end).
    const double excess = width *
                          (inverse_mills_ratio(r1 / starts[j + 1] + starts[j + 1] / 2.0) -
                           inverse_mills_ratio(r0 / starts[j] + starts[j] / 2.0)) /
                          4.0;
    const bool within = r0 > 0.0 && excess <= (kTolerance - 1e-12) * r0;
    fresh->solved[j] = !within;
  }
  return install(index, std::move(fresh));
}

const GdpEpsilonTable::Page& GdpEpsilonTable::install(std::size_t index, std::unique_ptr<Page> fresh) const {
  const Page* expected = nullptr;
  if (pages_[index].compare_exchange_strong(expected, fresh.get(), std::memory_order_acq_rel)) {
    return *fresh.release();
  }
  return *expected;  // another thread built the same page first
}

GdpEpsilonTable::Location GdpEpsilonTable::locate(double mu) const {
  require(std::isfinite(mu) && mu >= 0.0, "μ must be a finite number >= 0, got {}", mu);
  const std::uint64_t cell = std::bit_cast<std::uint64_t>(mu) >> kCellShift;
  return {cell, page(static_cast<std::size_t>(cell >> kPageBits)), cell & (kPageCells - 1)};
}

double GdpEpsilonTable::epsilon(double mu) const {
  if (mu == 0.0) return 0.0;
  const auto [cell, p, j] = locate(mu);
  const double r1 = p.roots[j + 1];
  if (r1 == 0.0) return 0.0;
  if (p.solved[j]) return gdp_epsilon(mu, delta_, p.roots[j] > 0.0 ? p.roots[j] : r1);
  // μ − μ_k and the cell's width are exact (same binade). The rounding of the slope, the product and
  // the sum is below 3·2⁻⁵³ of the result: raised by 2⁻⁴⁹ and one ulp, it stays above the chord.
  const double start = cell_start(cell);
  const double slope = (r1 - p.roots[j]) / (cell_start(cell + 1) - start);
  const double chord = p.roots[j] + (mu - start) * slope;
  return std::min(r1, up(chord * (1.0 + 0x1.0p-49)));
}

bool GdpEpsilonTable::on_chord(double mu) const {
  if (mu == 0.0) return false;
  const Location at = locate(mu);
  return at.page.on_chord(at.index);
}

void GdpEpsilonTable::epsilons(std::span<const double> mus, std::span<double> out) const {
  require(out.size() == mus.size(), "GdpEpsilonTable::epsilons: {} outputs for {} values", out.size(),
          mus.size());
  for (std::size_t i = 0; i < mus.size(); ++i) out[i] = epsilon(mus[i]);
}

std::shared_ptr<const GdpEpsilonTable> shared_gdp_epsilon_table(double delta) {
  detail::require_delta(delta);
  constexpr std::size_t kKept = 4;
  static std::mutex mutex;
  static std::vector<std::shared_ptr<const GdpEpsilonTable>> recent;  // most recent first
  const std::lock_guard lock(mutex);
  const auto found =
      std::find_if(recent.begin(), recent.end(), [&](const auto& t) { return t->delta() == delta; });
  if (found != recent.end()) {
    std::rotate(recent.begin(), found, found + 1);
  } else {
    recent.insert(recent.begin(), std::make_shared<const GdpEpsilonTable>(delta));
    if (recent.size() > kKept) recent.pop_back();
  }
  return recent.front();
}

}  // namespace netdp::dp
