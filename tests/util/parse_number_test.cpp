// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/util/parse_number.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace netdp::util {
namespace {

TEST(ParseDouble, TheWholeTextIsOneNumberOrNothing) {
  EXPECT_EQ(parse_double("0.25"), 0.25);
  EXPECT_EQ(parse_double("1e-5"), 1e-5);
  EXPECT_TRUE(std::isinf(*parse_double("inf")));
  EXPECT_TRUE(std::isnan(*parse_double("nan")));  // the caller decides whether NaN is allowed
  EXPECT_FALSE(parse_double("").has_value());
  EXPECT_FALSE(parse_double("x").has_value());
  EXPECT_FALSE(parse_double("0.5x").has_value());
  EXPECT_FALSE(parse_double("1e999").has_value());  // out of range
}

}  // namespace
}  // namespace netdp::util
