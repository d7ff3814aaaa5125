// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// A training config: TOML text, then the schema's checks (no data is read).
#include "fuzz_target.hpp"
#include "netdp/learn/toml_config.hpp"
#include "netdp/learn/train_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  netdp::fuzz::refuses_cleanly([&] {
    const netdp::learn::FlatConfig config =
        netdp::learn::parse_toml_config(netdp::fuzz::bytes_of(data, size), "fuzz");
    (void)netdp::learn::parse_train_config(config);
  });
  return 0;
}
