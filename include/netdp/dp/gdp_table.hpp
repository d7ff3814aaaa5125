// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// ε(μ, δ) of μ-GDP for many μ at one δ, at memory speed and never below the exact root.
//
// The positive doubles are cut into cells that share their exponent and top kCellBits mantissa bits
// (2¹⁶ cells per binade, each 2⁻¹⁶ of its μ wide). At each cell's start μ_k the table holds the
// conservative root r_k = gdp_epsilon(μ_k, δ) (δ(r_k) <= δ). ε is convex in μ (docs/reference/dp.md: its slope
// is the inverse Mills ratio of b = ε/μ + μ/2, and b increases along δ(ε, μ) = δ), so the chord
//
//     ε(μ) <= r_k + (μ − μ_k)(r_{k+1} − r_k)/(μ_{k+1} − μ_k)     for μ in [μ_k, μ_{k+1}]
//
// is an upper bound. It exceeds the exact root by at most (μ_{k+1} − μ_k)(ε'(μ_{k+1}) − ε'(μ_k))/4,
// about 2⁻³⁴ μ²ε''; a cell where that could exceed kTolerance of its ε (the cells just above the μ
// where ε leaves 0, and μ in the hundreds) converts each of its μ exactly instead. Pages of 1,024
// cells are built on first use, from any thread.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace netdp::dp {

class GdpEpsilonTable {
 public:
  static constexpr int kCellBits = 16;
  /// The largest relative excess of a table value over the exact root, checked cell by cell.
  static constexpr double kTolerance = 1e-10;

  /// Cells per page (2^kPageBits): a page is built at once, this many roots plus one.
  static constexpr int kPageBits = 10;
  static constexpr std::size_t kPageCells = std::size_t{1} << kPageBits;
  /// Pages of the finite doubles >= 0: 2047 exponents (the sign bit is 0), 2^(kCellBits − kPageBits) each.
  static constexpr std::size_t kPageCount = std::size_t{0x7FF} << (kCellBits - kPageBits);
  /// The page holding μ (finite, >= 0).
  static std::size_t page_of(double mu);

  /// Requires δ in (0, 1), a normal number.
  explicit GdpEpsilonTable(double delta);
  ~GdpEpsilonTable();
  GdpEpsilonTable(const GdpEpsilonTable&) = delete;
  GdpEpsilonTable& operator=(const GdpEpsilonTable&) = delete;

  struct Page;  ///< the roots at the starts of kPageCells cells, and which cells are solved exactly

  double delta() const { return delta_; }
  /// An upper bound on the smallest ε with δ_μ(ε) <= δ, within kTolerance of it; 0 for μ = 0.
  /// Requires μ >= 0 finite. Thread-safe.
  double epsilon(double mu) const;
  /// Whether epsilon(mu) is read off a cell's chord (false: 0, or solved exactly). Requires μ >= 0 finite.
  bool on_chord(double mu) const;
  /// epsilon(mus[i]) into out[i].
  void epsilons(std::span<const double> mus, std::span<double> out) const;

 private:
  const Page& page(std::size_t index) const;
  /// Where μ >= 0 finite (checked) lies: its cell (the bits above the cell's), that cell's page and
  /// its index there.
  struct Location {
    std::uint64_t cell;
    const Page& page;
    std::size_t index;
  };
  Location locate(double mu) const;
  /// Publishes a built page unless another thread did first; the page in the table.
  const Page& install(std::size_t index, std::unique_ptr<Page> fresh) const;
  double delta_;
  std::unique_ptr<std::atomic<const Page*>[]> pages_;
};

/// The table of `delta`, shared by every caller in the process (the few most recent δ are kept).
std::shared_ptr<const GdpEpsilonTable> shared_gdp_epsilon_table(double delta);

}  // namespace netdp::dp
