// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// A graph SPEC: parsed, then built by graph::from_spec (generators and their keys). Skipped: SPECs
// naming a file reader (the readers have their own targets, and a path could name any file) and
// those setting max_attempts (the redraws a user allows take that many times as long, by design).
// Graphs are kept small (fuzz_target.hpp's memory limit) so each input runs in well under a second.
#include "fuzz_target.hpp"
#include "netdp/graph/spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string spec = netdp::fuzz::bytes_of(data, size);
  netdp::fuzz::refuses_cleanly([&] {
    const netdp::graph::ParsedSpec parsed = netdp::graph::parse_spec(spec);
    if (!parsed.path.empty()) return;
    for (const auto& [key, value] : parsed.params)
      if (key == "max_attempts") return;
    (void)netdp::graph::from_spec(spec, 7);
  });
  return 0;
}
