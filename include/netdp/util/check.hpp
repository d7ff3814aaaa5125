#pragma once
// Input validation helpers. Every public constructor and entry point of netdp
// validates its arguments and throws std::invalid_argument whose message names
// the offending value and the rule it broke (see ../shared/DESIGN.md).

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace netdp {

/// Throws std::invalid_argument with a formatted message when `condition` is false.
template <typename... Args>
void require(bool condition, fmt::format_string<Args...> message, Args&&... args) {
  if (!condition) {
    throw std::invalid_argument(fmt::format(message, std::forward<Args>(args)...));
  }
}

/// Throws unless `value` is finite and strictly positive.
inline void require_positive(double value, const char* name) {
  require(std::isfinite(value) && value > 0.0, "{} must be a finite number > 0, got {}", name, value);
}

/// Throws unless `value` is finite.
inline void require_finite(double value, const char* name) {
  require(std::isfinite(value), "{} must be finite, got {}", name, value);
}

}  // namespace netdp
