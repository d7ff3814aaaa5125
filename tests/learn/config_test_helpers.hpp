// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Test helper: editing a flat training configuration.

#include <string>

#include "netdp/learn/train_config.hpp"

namespace netdp::learn::test {

/// Replaces a key (erase + emplace: plain assignment trips GCC 12's -Wrestrict false positive).
inline void set(FlatConfig& config, const std::string& key, const std::string& value) {
  config.erase(key);
  config.emplace(key, value);
}

}  // namespace netdp::learn::test
