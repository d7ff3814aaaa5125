// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The conversion table: never below the exact root (checked through δ itself, the definition of the
// root), within its stated tolerance above it, exact where it says so, and the same from any thread.
#include "netdp/dp/gdp_table.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include "netdp/dp/gdp.hpp"

namespace netdp::dp {
namespace {

/// `count` values log-uniform in [lo, hi], sorted.
std::vector<double> log_uniform(std::size_t count, double lo, double hi, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> exponent(std::log(lo), std::log(hi));
  std::vector<double> mus(count);
  for (double& mu : mus) mu = std::exp(exponent(rng));
  std::sort(mus.begin(), mus.end());
  return mus;
}

/// The table against the root on random μ: δ at the table's ε is within δ (so it is not below the
/// exact root, to the accuracy of δ's evaluation, ~1e-13), and it exceeds the root by at most the
/// tolerance plus the root-finder's own ~1e-12.
void expect_valid_and_tight(const std::vector<double>& mus, double delta) {
  const GdpEpsilonTable table(delta);
  std::vector<double> roots(mus.size());
  gdp_epsilons_increasing(mus, delta, roots);
  std::size_t below = 0;
  std::size_t loose = 0;
  double worst_excess = 0.0;
  for (std::size_t i = 0; i < mus.size(); ++i) {
    const double epsilon = table.epsilon(mus[i]);
    if (gdp_delta(mus[i], epsilon) > delta * (1.0 + 1e-12)) ++below;
    if (roots[i] > 0.0) {
      const double excess = (epsilon - roots[i]) / roots[i];
      worst_excess = std::max(worst_excess, excess);
      if (excess > GdpEpsilonTable::kTolerance + 2e-12) ++loose;
    } else if (epsilon != 0.0) {
      ++loose;
    }
  }
  EXPECT_EQ(below, 0u) << "values whose δ exceeds the target, of " << mus.size();
  EXPECT_EQ(loose, 0u) << "values above the root by more than the tolerance; worst " << worst_excess;
}

TEST(GdpEpsilonTable, NeverBelowTheRootAndWithinTheToleranceOnAMillionRandomMu) {
  expect_valid_and_tight(log_uniform(1'000'000, 1e-6, 64.0, 1), 1e-5);
}

TEST(GdpEpsilonTable, ValidAndTightAtOtherDeltasAndAroundWhereEpsilonLeavesZero) {
  for (const double delta : {1e-10, 1e-3, 0.3}) {
    // ε leaves 0 at μ₀ with δ(0) = 2Φ(μ₀/2) − 1 = δ, i.e. near δ√(2π) for small δ.
    const double mu0 = delta * std::sqrt(2.0 * 3.141592653589793);
    expect_valid_and_tight(log_uniform(100'000, mu0 / 4.0, mu0 * 64.0, 2), delta);
    expect_valid_and_tight(log_uniform(50'000, 1e-3, 100.0, 3), delta);
  }
}

TEST(GdpEpsilonTable, CellStartsAreTheRootsAndZeroIsZero) {
  const GdpEpsilonTable table(1e-5);
  EXPECT_EQ(table.epsilon(0.0), 0.0);
  EXPECT_EQ(table.epsilon(1e-9), 0.0);            // far below μ₀ ≈ 2.5e-5: δ(0) <= δ
  for (const double mu : {0.5, 1.0, 2.0, 8.0}) {  // cell starts: the root (from a neighbour's guess)
    const double root = gdp_epsilon(mu, 1e-5);
    EXPECT_NEAR(table.epsilon(mu), root, 2e-12 * root);
    EXPECT_LE(gdp_delta(mu, table.epsilon(mu)), 1e-5);
  }
}

TEST(GdpEpsilonTable, ReadsAlmostEveryValueOffAChordAndSolvesNearWhereEpsilonLeavesZero) {
  const double delta = 1e-5;
  const GdpEpsilonTable table(delta);
  const double mu0 = delta * std::sqrt(2.0 * 3.141592653589793);
  std::size_t on_chord = 0;
  const std::vector<double> mus = log_uniform(100'000, 4.0 * mu0, 50.0, 6);
  for (const double mu : mus) on_chord += table.on_chord(mu) ? 1 : 0;
  EXPECT_GE(on_chord, mus.size() * 99 / 100);
  for (const double mu : log_uniform(1000, mu0, 1.05 * mu0, 7)) EXPECT_FALSE(table.on_chord(mu)) << mu;
  EXPECT_FALSE(table.on_chord(0.0));
}

TEST(GdpEpsilonTable, IncreasesWithMu) {
  const GdpEpsilonTable table(1e-5);
  const std::vector<double> mus = log_uniform(200'000, 1e-5, 10.0, 4);
  double before = 0.0;
  std::size_t decreases = 0;
  for (const double mu : mus) {
    const double epsilon = table.epsilon(mu);
    if (epsilon < before) ++decreases;
    before = epsilon;
  }
  EXPECT_EQ(decreases, 0u);
}

TEST(GdpEpsilonTable, ThreadsBuildingTheSamePagesAgreeWithOneThread) {
  const std::vector<double> mus = log_uniform(40'000, 1e-4, 20.0, 5);
  std::vector<double> serial(mus.size());
  GdpEpsilonTable(1e-6).epsilons(mus, serial);
  const GdpEpsilonTable shared(1e-6);
  std::vector<std::vector<double>> outs(4, std::vector<double>(mus.size()));
  std::vector<std::thread> threads;
  for (auto& out : outs) threads.emplace_back([&] { shared.epsilons(mus, out); });
  for (auto& thread : threads) thread.join();
  for (const auto& out : outs) EXPECT_EQ(out, serial);
}

TEST(GdpEpsilonTable, SharedTableIsOnePerDelta) {
  const auto a = shared_gdp_epsilon_table(1e-5);
  EXPECT_EQ(shared_gdp_epsilon_table(1e-5), a);
  EXPECT_NE(shared_gdp_epsilon_table(1e-6), a);
  EXPECT_DOUBLE_EQ(a->delta(), 1e-5);
}

// Where ε overflows (μ beyond about 1e154) the root-finder refuses μ, and so does the table, with the
// same error; the last page of the doubles (it ends at +inf) is solved value by value.
TEST(GdpEpsilonTable, TheTopOfTheDoublesIsSolvedLikeTheRootFinder) {
  const GdpEpsilonTable table(1e-5);
  for (const double mu : {1e200, 1e300, std::numeric_limits<double>::max()}) {
    bool table_threw = false;
    bool root_threw = false;
    double from_table = 0.0;
    double root = 0.0;
    try {
      from_table = table.epsilon(mu);
    } catch (const std::invalid_argument&) {
      table_threw = true;
    }
    try {
      root = gdp_epsilon(mu, 1e-5);
    } catch (const std::invalid_argument&) {
      root_threw = true;
    }
    EXPECT_EQ(table_threw, root_threw) << mu;
    if (!root_threw) {
      EXPECT_EQ(from_table, root) << mu;
    }
    if (!table_threw) {
      EXPECT_FALSE(table.on_chord(mu)) << mu;
    }
  }
}

TEST(GdpEpsilonTable, BadInputNamesTheValue) {
  EXPECT_THROW(GdpEpsilonTable(0.0), std::invalid_argument);
  EXPECT_THROW(GdpEpsilonTable(1.0), std::invalid_argument);
  EXPECT_THROW(GdpEpsilonTable(std::nan("")), std::invalid_argument);
  EXPECT_THROW(shared_gdp_epsilon_table(-1e-5), std::invalid_argument);
  EXPECT_THROW(shared_gdp_epsilon_table(std::nan("")), std::invalid_argument);
  const GdpEpsilonTable table(1e-5);
  EXPECT_THROW(table.epsilon(-1.0), std::invalid_argument);
  EXPECT_THROW(table.epsilon(std::numeric_limits<double>::infinity()), std::invalid_argument);
  EXPECT_THROW(table.epsilon(std::nan("")), std::invalid_argument);
  std::vector<double> out(1);
  EXPECT_THROW(table.epsilons(std::vector<double>{1.0, 2.0}, out), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::dp
