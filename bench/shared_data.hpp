// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Benchmarks that use ../shared/datasets (never copied into the repository): the file's path,
// or a skipped benchmark that names the missing file. NETDP_SHARED_DIR is set by
// bench/CMakeLists.txt.

#include <benchmark/benchmark.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "netdp/graph/graph.hpp"
#include "netdp/graph/io.hpp"
#include "netdp/graph/metrics.hpp"

namespace netdp::bench {

/// NETDP_SHARED_DIR/datasets/<relative> when it exists; otherwise marks `state` skipped with
/// the missing path and returns nullopt (the caller returns at once).
inline std::optional<std::string> shared_dataset(benchmark::State& state, std::string_view relative) {
  std::string path = std::string(NETDP_SHARED_DIR) + "/datasets/" + std::string(relative);
  if (std::filesystem::exists(path)) return path;
  state.SkipWithError(("data set absent: " + path).c_str());
  return std::nullopt;
}

/// The Facebook ego graph 414's largest connected component (148 nodes), as in the MF paper.
inline std::optional<graph::Graph> ego414_largest_component(benchmark::State& state) {
  const auto path = shared_dataset(state, "graphs/facebook/414.edges");
  if (!path) return std::nullopt;
  return graph::largest_connected_component(graph::read_edge_list(*path));
}

}  // namespace netdp::bench
