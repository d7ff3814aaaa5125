// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/util/format_up.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

namespace netdp::util {

std::string format_up(double x, int digits) {
  std::string text = fmt::format("{:.{}g}", x, digits);
  if (!std::isfinite(x)) return text;
  // Each step adds one unit of the last printed digit to what was printed and prints it again.
  for (double printed = std::strtod(text.c_str(), nullptr); printed < x;
       printed = std::strtod(text.c_str(), nullptr)) {
    const double magnitude = std::floor(std::log10(std::fabs(printed != 0.0 ? printed : x)));
    const double unit = std::pow(10.0, magnitude - (digits - 1));
    text = fmt::format("{:.{}g}", printed + unit, digits);
  }
  return text;
}

}  // namespace netdp::util
