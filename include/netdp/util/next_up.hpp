// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The next double above x, as std::nextafter(x, +inf) gives it, without the library call: the
// rounding-up of every reported ε runs it, hundreds of millions of times in an all-pairs account.

#include <bit>
#include <cstdint>
#include <limits>

namespace netdp::util {

/// std::nextafter(x, +inf), bit for bit: +inf and NaN stay, ±0 becomes the smallest subnormal, a
/// positive x moves one unit in the last place up and a negative one one unit towards zero.
inline double next_up(double x) {
  if (!(x < std::numeric_limits<double>::infinity())) return x;
  if (x == 0.0) return std::numeric_limits<double>::denorm_min();
  const auto bits = std::bit_cast<std::uint64_t>(x);
  return std::bit_cast<double>(x > 0.0 ? bits + 1 : bits - 1);
}

}  // namespace netdp::util
