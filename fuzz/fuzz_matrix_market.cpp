// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The Matrix Market reader (gossip matrices, correlations, adjacency) on arbitrary bytes.
#include <sstream>

#include "fuzz_target.hpp"
#include "netdp/util/matrix_market.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(netdp::fuzz::bytes_of(data, size));
  netdp::fuzz::refuses_cleanly([&] { (void)netdp::util::parse_matrix_market(in, "fuzz"); });
  return 0;
}
