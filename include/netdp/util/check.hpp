// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
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

/// An input file that cannot be opened for reading (missing or unreadable): a
/// std::invalid_argument (the command exits 2 on it), told apart so that the Python bindings raise
/// FileNotFoundError.
class FileError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Throws FileError with a formatted message when the input file could not be opened.
template <typename... Args>
void require_readable(bool opened, fmt::format_string<Args...> message, Args&&... args) {
  if (!opened) throw FileError(fmt::format(message, std::forward<Args>(args)...));
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
