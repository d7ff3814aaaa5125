// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Gossip module speed: weightings, second eigenvalue (dense vs Lanczos), Chebyshev gossip.
// Run: build/<dir>/bench/netdp_gossip_bench
#include <benchmark/benchmark.h>

#include <cmath>

#include "netdp/gossip/spectral.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/generators.hpp"

namespace {

using namespace netdp;

/// Connected Erdős–Rényi graph with mean degree about 2 ln n (as in Muffliato Section 3.4, c = 2).
graph::Graph er_graph(std::size_t n) {
  graph::ErdosRenyiOptions options;
  options.connected = true;
  return graph::erdos_renyi(n, 2.0 * std::log(static_cast<double>(n)) / static_cast<double>(n), 1, options);
}

void BM_MetropolisWeights(benchmark::State& state) {
  const graph::Graph g = er_graph(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(gossip::make_gossip_matrix(g, gossip::Weighting::metropolis));
  state.counters["edges"] = static_cast<double>(g.num_edges());
}
BENCHMARK(BM_MetropolisWeights)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_SecondEigenvalue(benchmark::State& state, gossip::SpectralMethod method,
                         gossip::Weighting weighting) {
  const gossip::GossipMatrix w =
      gossip::make_gossip_matrix(er_graph(static_cast<std::size_t>(state.range(0))), weighting);
  double modulus = 0;
  for (auto _ : state) modulus = gossip::second_eigenvalue(w, method).modulus;
  state.counters["modulus"] = modulus;
}
BENCHMARK_CAPTURE(BM_SecondEigenvalue, dense_metropolis, gossip::SpectralMethod::dense,
                  gossip::Weighting::metropolis)
    ->Arg(500)
    ->Arg(2000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SecondEigenvalue, lanczos_metropolis, gossip::SpectralMethod::lanczos,
                  gossip::Weighting::metropolis)
    ->Arg(500)
    ->Arg(2000)
    ->Arg(20000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SecondEigenvalue, lanczos_closed_row, gossip::SpectralMethod::lanczos,
                  gossip::Weighting::closed_row)
    ->Arg(20000)
    ->Unit(benchmark::kMillisecond);

void BM_ChebyshevGossip(benchmark::State& state) {
  const gossip::GossipMatrix w = gossip::make_gossip_matrix(
      er_graph(static_cast<std::size_t>(state.range(0))), gossip::Weighting::metropolis);
  const DenseMatrix x0 = DenseMatrix::Random(static_cast<Eigen::Index>(w.num_nodes()), 1);
  for (auto _ : state) benchmark::DoNotOptimize(gossip::chebyshev_gossip(w.matrix(), x0, 50, 1.5));
}
BENCHMARK(BM_ChebyshevGossip)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
