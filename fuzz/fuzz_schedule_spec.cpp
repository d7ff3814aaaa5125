// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// A gossip schedule SPEC (`fixed`, `pairwise`, `er-per-round:p=P`, `dropout:p=P`): parsed, then
// W_0..W_{T-1} built on a 6-node ring under the weighting and with the rounds the first byte picks.
#include "fuzz_target.hpp"
#include "netdp/gossip/network_spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const netdp::gossip::GossipMatrix ring = netdp::gossip::load_network({"ring:n=6"});
  const netdp::gossip::Weighting weighting = netdp::gossip::kAllWeightings[data[0] % 4];
  const std::size_t rounds = 1 + data[0] / 4 % 16;
  netdp::fuzz::refuses_cleanly([&] {
    const netdp::gossip::ScheduleSpec spec =
        netdp::gossip::parse_schedule_spec(netdp::fuzz::bytes_of(data + 1, size - 1));
    (void)netdp::gossip::schedule_from_spec(spec, ring, weighting, rounds, 3);
  });
  return 0;
}
