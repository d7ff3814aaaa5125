// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Test helper: the message of the std::invalid_argument a call throws.

#include <stdexcept>
#include <string>

namespace netdp::testing {

/// Runs `call` and returns the message of the std::invalid_argument it throws ("" if none).
template <typename Call>
std::string error_of(Call&& call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace netdp::testing
