// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// MAFALDA local Gram benchmarks (docs/reference/mf-mafalda.md, docs/reference/performance.md):
//  - the speed target: H of Lemma 10 for the Facebook ego graph 414 (largest component, 148
//    nodes, closed-row W, reversible → spectral path) at T = 320, and the dense-powers path;
//  - the literal path (dense nT × nT workload, as the authors' code) at the largest T it fits
//    here (T = 64: 718 MB for A), with the structured path at the same T for the ratio.
// Run: build/<dir>/bench/netdp_mf_gram_bench --benchmark_counters_tabular=true

#include <benchmark/benchmark.h>

#include <string>

#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/io.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/mf/local_gram.hpp"
#include "shared_data.hpp"

namespace {

using namespace netdp;

/// range(0) = T; range(1) = 0 automatic (spectral here), 1 dense powers, 2 literal workload.
void BM_LocalGramEgo414(benchmark::State& state) {
  const auto ego = bench::ego414_largest_component(state);
  if (!ego) return;
  const graph::Graph& g = *ego;
  const auto w = gossip::make_gossip_matrix(g, gossip::Weighting::closed_row);
  const auto rounds = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    DenseMatrix h;
    switch (state.range(1)) {
      case 0:
        h = mf::local_gram(w, rounds, 1);
        break;
      case 1:
        h = mf::local_gram(w, rounds, 1, mf::LocalGramMethod::dense_powers);
        break;
      default:
        h = mf::local_gram_literal(w, rounds, 1);
        break;
    }
    benchmark::DoNotOptimize(h.data());
  }
  state.counters["nodes"] = static_cast<double>(g.num_nodes());
  state.counters["T"] = static_cast<double>(rounds);
}
BENCHMARK(BM_LocalGramEgo414)
    ->Args({320, 0})
    ->Args({320, 1})
    ->Args({64, 0})
    ->Args({64, 1})
    ->Args({64, 2})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
