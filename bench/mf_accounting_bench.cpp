// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// MF accountant benchmarks (docs/reference/accounting-mf.md, docs/reference/performance.md):
//  - the speed target: PNDP for DP-D-SGD, every attacker against every target of the
//    Facebook ego graph 414 (largest component, 148 nodes, closed-row), T = 50, participation
//    every round, structured path;
//  - structured vs literal on inputs the literal path fits (same run: the ratio).
// Run: build/<dir>/bench/netdp_mf_accounting_bench --benchmark_counters_tabular=true

#include <benchmark/benchmark.h>

#include <string>

#include "netdp/accounting/mf/mf_accountant.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/graph/io.hpp"
#include "netdp/graph/metrics.hpp"
#include "shared_data.hpp"

namespace {

using namespace netdp;

accounting::MfOptions fast_options(accounting::MfOptions::Path path) {
  accounting::MfOptions options;
  options.assess.sign_search = accounting::SignSearch::none;  // ones, Σ|K| (certified), per pair
  options.path = path;
  return options;
}

void BM_MfPndpDpDsgdEgo414AllPairs(benchmark::State& state) {
  const auto ego = bench::ego414_largest_component(state);
  if (!ego) return;
  const graph::Graph& g = *ego;
  const auto w = gossip::make_gossip_matrix(g, gossip::Weighting::closed_row);
  const auto rounds = static_cast<std::size_t>(state.range(0));
  const auto options = fast_options(accounting::MfOptions::Path::structured);
  std::size_t pairs = 0;
  for (auto _ : state) {
    const auto result = accounting::account_mf_all_pairs(w, rounds, {}, accounting::MfTrust::pndp, options);
    pairs = result.pairs.size();
    benchmark::DoNotOptimize(result.pairs.data());
  }
  state.counters["nodes"] = static_cast<double>(g.num_nodes());
  state.counters["pairs"] = static_cast<double>(pairs);
}
BENCHMARK(BM_MfPndpDpDsgdEgo414AllPairs)->Arg(50)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

/// One attacker against all targets, literal (dense view + engine) vs structured, on an
/// Erdős–Rényi graph small enough for the literal path.
void BM_MfPndpOneAttacker(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto rounds = static_cast<std::size_t>(state.range(1));
  const bool structured = state.range(2) != 0;
  graph::ErdosRenyiOptions er;
  const auto g = graph::largest_connected_component(graph::erdos_renyi(n, 0.2, 7, er));
  const auto w = gossip::make_gossip_matrix(g, gossip::Weighting::closed_row);
  const auto options = fast_options(structured ? accounting::MfOptions::Path::structured
                                               : accounting::MfOptions::Path::literal);
  for (auto _ : state) {
    const auto result = accounting::account_mf(w, rounds, {}, {accounting::MfTrust::pndp, {0}}, {}, options);
    benchmark::DoNotOptimize(result.pairs.data());
  }
  state.SetLabel(structured ? "structured" : "literal");
  state.counters["nodes"] = static_cast<double>(g.num_nodes());
}
BENCHMARK(BM_MfPndpOneAttacker)
    ->Args({40, 10, 0})
    ->Args({40, 10, 1})
    ->Args({60, 15, 0})
    ->Args({60, 15, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
