// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Random-walk accountant, all pairs, hypercube with Hamilton weights (the paper's
// setting, T = 1150): the fast path (eigendecomposition + one spectral
// reconstruction) against the literal dense implementation (explicit dense
// powers W^i, summed) in the same run. The literal path is O(T n³), so it runs at
// d <= 9; the ratio is read at equal d. The d = 13 (n = 8192) case is registered
// only when NETDP_BENCH_LARGE=1 (about two minutes on 2 cores).
//
//   build/<dir>/bench/netdp_random_walk_bench --benchmark_filter=RandomWalk
//
// See docs/reference/accounting-random-walk.md ("Performance") for recorded figures.

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "netdp/accounting/random_walk/random_walk.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/generators.hpp"

namespace {

constexpr std::size_t kSteps = 1150;

netdp::gossip::GossipMatrix hypercube_hamilton(unsigned d) {
  return netdp::gossip::make_gossip_matrix(netdp::graph::hypercube(d), netdp::gossip::Weighting::hamilton);
}

/// Fast path: S_T(W) for all pairs, then ε for all n² pairs at one α.
void BM_RandomWalkAllPairsFast(benchmark::State& state) {
  const auto d = static_cast<unsigned>(state.range(0));
  const netdp::gossip::GossipMatrix w = hypercube_hamilton(d);
  netdp::accounting::RandomWalkOptions options;
  options.steps = kSteps;
  options.sigma = 10.0;
  for (auto _ : state) {
    const netdp::accounting::RandomWalkLosses losses(w, options);
    netdp::DenseMatrix eps = losses.rdp_epsilon(4.0);
    benchmark::DoNotOptimize(eps.data());
  }
  state.counters["n"] = static_cast<double>(w.num_nodes());
}

/// Fast path on a W with self-loops (Metropolis weights): the general n × n eigendecomposition.
void BM_RandomWalkAllPairsFastMetropolis(benchmark::State& state) {
  const auto d = static_cast<unsigned>(state.range(0));
  const netdp::gossip::GossipMatrix w =
      netdp::gossip::make_gossip_matrix(netdp::graph::hypercube(d), netdp::gossip::Weighting::metropolis);
  netdp::accounting::RandomWalkOptions options;
  options.steps = kSteps;
  options.sigma = 10.0;
  for (auto _ : state) {
    const netdp::accounting::RandomWalkLosses losses(w, options);
    netdp::DenseMatrix eps = losses.rdp_epsilon(4.0);
    benchmark::DoNotOptimize(eps.data());
  }
  state.counters["n"] = static_cast<double>(w.num_nodes());
}

/// Literal: Σ_{i=1}^{T} W^i / i with dense powers, exactly as Lemma 2 is written.
void BM_RandomWalkAllPairsLiteral(benchmark::State& state) {
  const auto d = static_cast<unsigned>(state.range(0));
  const netdp::DenseMatrix w(hypercube_hamilton(d).matrix());
  for (auto _ : state) {
    netdp::DenseMatrix power = netdp::DenseMatrix::Identity(w.rows(), w.cols());
    netdp::DenseMatrix sum = netdp::DenseMatrix::Zero(w.rows(), w.cols());
    for (std::size_t i = 1; i <= kSteps; ++i) {
      power = power * w;
      sum += power / static_cast<double>(i);
    }
    benchmark::DoNotOptimize(sum.data());
  }
  state.counters["n"] = static_cast<double>(w.rows());
}

/// One target's row by sparse propagation, O(T nnz(W)).
void BM_RandomWalkOneTargetRow(benchmark::State& state) {
  const auto d = static_cast<unsigned>(state.range(0));
  const netdp::gossip::GossipMatrix w = hypercube_hamilton(d);
  for (auto _ : state) {
    netdp::Vector row = netdp::accounting::random_walk_series_row(w, 0, kSteps);
    benchmark::DoNotOptimize(row.data());
  }
}

BENCHMARK(BM_RandomWalkAllPairsFast)->DenseRange(7, 11)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_RandomWalkAllPairsFastMetropolis)->Arg(9)->Arg(11)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_RandomWalkAllPairsLiteral)
    ->DenseRange(7, 9)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);
BENCHMARK(BM_RandomWalkOneTargetRow)->Arg(11)->Arg(13)->Unit(benchmark::kMillisecond)->UseRealTime();

[[maybe_unused]] const bool kLarge = [] {
  const char* flag = std::getenv("NETDP_BENCH_LARGE");
  if (flag != nullptr && std::string(flag) == "1") {
    benchmark::RegisterBenchmark("BM_RandomWalkAllPairsFastLarge", BM_RandomWalkAllPairsFast)
        ->Arg(13)
        ->Unit(benchmark::kSecond)
        ->UseRealTime()
        ->Iterations(1);
    benchmark::RegisterBenchmark("BM_RandomWalkAllPairsFastMetropolisLarge",
                                 BM_RandomWalkAllPairsFastMetropolis)
        ->Arg(13)
        ->Unit(benchmark::kSecond)
        ->UseRealTime()
        ->Iterations(1);
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
