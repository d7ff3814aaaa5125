// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Strict number parsing for SPEC strings and configuration values: the whole text must be one
// number as std::stod reads it (leading spaces and '+', "inf" and "nan" included), else nothing.

#include <cstddef>
#include <exception>
#include <optional>
#include <string>

namespace netdp::util {

/// The double that is all of `text`, or empty (empty text, trailing characters, out of range).
inline std::optional<double> parse_double(const std::string& text) {
  std::size_t used = 0;
  double x = 0.0;
  try {
    x = std::stod(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (text.empty() || used != text.size()) return std::nullopt;
  return x;
}

}  // namespace netdp::util
