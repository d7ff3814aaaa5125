// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/util/format_up.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>

namespace netdp::util {
namespace {

TEST(FormatUp, TheLastDigitGoesUpWhereTheNearestWentDown) {
  EXPECT_EQ(fmt::format("{:.6g}", 1.2454525), "1.24545");  // the nearest: below the value
  EXPECT_EQ(format_up(1.2454525), "1.24546");
  EXPECT_EQ(format_up(1.2454575), "1.24546");  // the nearest already went up
  EXPECT_EQ(format_up(4.37718), "4.37718");    // a six-digit value prints as itself
  EXPECT_EQ(format_up(9.9999951), "10");
  EXPECT_EQ(format_up(123454321.0), "1.23455e+08");
  EXPECT_EQ(format_up(2.0e-7 + 1e-20), "2.00001e-07");
  EXPECT_EQ(format_up(-1.2454525), "-1.24545");  // towards +inf: a negative value goes towards zero
  EXPECT_EQ(format_up(0.0), "0");
  EXPECT_EQ(format_up(1.0, 3), "1");
  EXPECT_EQ(format_up(std::numeric_limits<double>::infinity()), "inf");
}

TEST(FormatUp, NeverBelowTheValueAndAtMostOneDigitAbove) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mantissa(1.0, 10.0);
  std::uniform_int_distribution<int> exponent(-30, 30);
  for (int i = 0; i < 100000; ++i) {
    const double x = mantissa(rng) * std::pow(10.0, exponent(rng));
    const std::string text = format_up(x);
    const double printed = std::strtod(text.c_str(), nullptr);
    ASSERT_GE(printed, x) << text << " for " << fmt::format("{:.17g}", x);
    const double nearest = std::strtod(fmt::format("{:.6g}", x).c_str(), nullptr);
    // Within one unit of the sixth digit of the nearest rounding.
    ASSERT_LE(printed - nearest, 1.0000001 * std::pow(10.0, std::floor(std::log10(nearest)) - 5))
        << text << " for " << fmt::format("{:.17g}", x);
  }
}

}  // namespace
}  // namespace netdp::util
