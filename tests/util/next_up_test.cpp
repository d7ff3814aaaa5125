// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// util::next_up against std::nextafter(x, +inf), bit for bit.

#include "netdp/util/next_up.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace netdp::util {
namespace {

TEST(NextUp, IsNextafterTowardsInfinityBitForBit) {
  using limits = std::numeric_limits<double>;
  std::vector<double> values = {0.0,
                                -0.0,
                                limits::denorm_min(),
                                -limits::denorm_min(),
                                limits::min(),
                                -limits::min(),
                                limits::max(),
                                -limits::max(),
                                limits::infinity(),
                                -limits::infinity(),
                                1.0,
                                -1.0,
                                limits::quiet_NaN(),
                                0.5,
                                std::nextafter(1.0, 0.0)};
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100000; ++i) {
    const double x = std::bit_cast<double>(rng());
    values.push_back(x);
  }
  for (const double x : values) {
    const double want = std::nextafter(x, limits::infinity());
    const double got = next_up(x);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << x;
    } else {
      EXPECT_EQ(std::bit_cast<std::uint64_t>(got), std::bit_cast<std::uint64_t>(want)) << x;
    }
  }
}

}  // namespace
}  // namespace netdp::util
