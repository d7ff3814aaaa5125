// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The Fedivertex CSV graph reader (Source,Target[,Weight]) on arbitrary bytes.
#include <sstream>

#include "fuzz_target.hpp"
#include "netdp/graph/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(netdp::fuzz::bytes_of(data, size));
  netdp::fuzz::refuses_cleanly([&] { (void)netdp::graph::parse_csv_graph(in, "fuzz"); });
  return 0;
}
