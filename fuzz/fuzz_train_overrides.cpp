// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// `netdp train --set key=value ...`: each line of the input is one override, applied in order to an
// empty config, then checked against the schema (no data is read, nothing is trained).
#include <sstream>
#include <vector>

#include "fuzz_target.hpp"
#include "netdp/learn/toml_config.hpp"
#include "netdp/learn/train_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream lines(netdp::fuzz::bytes_of(data, size));
  std::vector<std::string> overrides;
  for (std::string line; std::getline(lines, line);) overrides.push_back(line);
  netdp::fuzz::refuses_cleanly([&] {
    netdp::learn::FlatConfig config;
    netdp::learn::apply_overrides(config, overrides);
    (void)netdp::learn::parse_train_config(config);
  });
  return 0;
}
