// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The GraphML reader on arbitrary bytes.
#include "fuzz_target.hpp"
#include "netdp/graph/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = netdp::fuzz::bytes_of(data, size);
  netdp::fuzz::refuses_cleanly([&] { (void)netdp::graph::parse_graphml_graph(text, "fuzz"); });
  return 0;
}
