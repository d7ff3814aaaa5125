// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The report's inputs: the bytes as a file given to `netdp report` (read_input), and the page's data
// computed from it (page_data), as the command does before it writes anything.
#include "fuzz_target.hpp"
#include "netdp/report/report.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = netdp::fuzz::temporary_file("report.json", netdp::fuzz::bytes_of(data, size));
  netdp::fuzz::refuses_cleanly([&] {
    netdp::report::ReportOptions options;
    options.max_drawing_nodes = 200;  // a layout is O(n²) per step: kept small, as the heatmap
    options.max_heatmap_nodes = 200;
    (void)netdp::report::page_data({netdp::report::read_input(path)}, options);
  });
  return 0;
}
