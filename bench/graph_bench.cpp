// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Graph module throughput: generators at large n, the SNAP reader, BFS metrics.
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>

#include "netdp/graph/classic.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/graph/io.hpp"
#include "netdp/graph/metrics.hpp"
#include "shared_data.hpp"

namespace {

using namespace netdp::graph;

// Mean degree 10 at every n: the sparse regime of the geometric-skip sampler.
void BM_ErdosRenyi(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(erdos_renyi(n, 10.0 / static_cast<double>(n), 1));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_ErdosRenyi)->RangeMultiplier(10)->Range(10000, 1000000)->Unit(benchmark::kMillisecond);

// Radius for mean degree ~ 10: n pi r^2 = 10.
void BM_RandomGeometric(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const double radius = std::sqrt(10.0 / (3.14159265358979 * static_cast<double>(n)));
  for (auto _ : state) benchmark::DoNotOptimize(random_geometric(n, radius, 1));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_RandomGeometric)->RangeMultiplier(10)->Range(10000, 1000000)->Unit(benchmark::kMillisecond);

void BM_BarabasiAlbert(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(barabasi_albert(n, 3, 1));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_BarabasiAlbert)->RangeMultiplier(10)->Range(10000, 1000000)->Unit(benchmark::kMillisecond);

void BM_RandomRegular(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(random_regular(n, 4, 1));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_RandomRegular)->RangeMultiplier(10)->Range(10000, 1000000)->Unit(benchmark::kMillisecond);

void BM_ReadFacebookCombined(benchmark::State& state) {
  const auto path = netdp::bench::shared_dataset(state, "graphs/facebook/facebook_combined.txt");
  if (!path) return;
  for (auto _ : state) benchmark::DoNotOptimize(read_edge_list(*path));
}
BENCHMARK(BM_ReadFacebookCombined)->Unit(benchmark::kMillisecond);

void BM_ConnectedComponents(benchmark::State& state) {
  const Graph g =
      erdos_renyi(static_cast<std::size_t>(state.range(0)), 1.0 / static_cast<double>(state.range(0)), 1);
  for (auto _ : state) benchmark::DoNotOptimize(connected_components(g));
}
BENCHMARK(BM_ConnectedComponents)->Arg(1000000)->Unit(benchmark::kMillisecond);

void BM_DiameterLesMis(benchmark::State& state) {
  const Graph g = les_miserables();
  for (auto _ : state) benchmark::DoNotOptimize(diameter(g));
}
BENCHMARK(BM_DiameterLesMis);

}  // namespace

BENCHMARK_MAIN();
