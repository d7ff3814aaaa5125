// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Koskela–Kulkarni accountant (secure summation, Theorem 8, observer noise removed):
//  - structured vs literal path on the same pairs (ratio reported as a counter);
//  - all n² pairs of SNAP facebook_combined (n = 4039, hamilton weights), T = 50.
// Run: build/<dir>/bench/netdp_linear_system_bench --benchmark_filter=Facebook
// Peak memory is reported as the counter peak_rss_mb (getrusage, whole process).

#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <chrono>
#include <string>

#include "netdp/accounting/linear_system/linear_system.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/graph/io.hpp"
#include "shared_data.hpp"

namespace {

using netdp::accounting::LinearSystemOptions;
using netdp::accounting::PairResult;
using netdp::accounting::PairwiseOptions;
using netdp::graph::NodeId;

double peak_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

std::vector<NodeId> first_nodes(std::size_t count) {
  std::vector<NodeId> v(count);
  for (std::size_t i = 0; i < count; ++i) v[i] = static_cast<NodeId>(i);
  return v;
}

netdp::gossip::Schedule er_schedule(std::size_t n, std::size_t rounds) {
  netdp::graph::ErdosRenyiOptions options;
  options.connected = true;
  const auto g = netdp::graph::erdos_renyi(n, 0.1, 42, options);
  return netdp::gossip::Schedule::fixed(netdp::gossip::weight_matrix(g, netdp::gossip::Weighting::hamilton),
                                        rounds);
}

/// Literal path: dense H_T and pseudo-inverse per pair.
double literal_pairs(const netdp::gossip::Schedule& schedule, const std::vector<NodeId>& observers,
                     std::size_t n, const LinearSystemOptions& options) {
  double total = 0.0;
  for (const NodeId i : observers) {
    const NodeId obs[] = {i};
    for (NodeId j = 0; j < n; ++j) {
      if (j == i) continue;
      const auto view = netdp::accounting::linear_system_view_literal(schedule, obs, j, options);
      total += netdp::accounting::target_gram_literal(view, j).K.cwiseAbs().sum();
    }
  }
  return total;
}

double structured_pairs(const netdp::gossip::Schedule& schedule, const std::vector<NodeId>& observers,
                        std::size_t n, const LinearSystemOptions& options) {
  double total = 0.0;
  const auto targets = first_nodes(n);
  PairwiseOptions scalar;
  scalar.release_dimension = 1;  // Σ|K|, as the literal path sums
  netdp::accounting::account_pairs(schedule, observers, targets, options, scalar,
                                   [&](std::span<const PairResult> rows) {
                                     for (const auto& r : rows) total += r.pair.sensitivity_squared_sum_abs;
                                   });
  return total;
}

/// Both paths on the same pairs (ER n = 100, T = 20, 8 observers x 99 targets).
void BM_StructuredVsLiteral(benchmark::State& state) {
  const std::size_t n = 100;
  LinearSystemOptions options;
  options.rounds = 20;
  const auto schedule = er_schedule(n, options.rounds);
  const auto observers = first_nodes(8);
  double literal_seconds = 0.0;
  double structured_seconds = 0.0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(literal_pairs(schedule, observers, n, options));
    const auto t1 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(structured_pairs(schedule, observers, n, options));
    const auto t2 = std::chrono::steady_clock::now();
    literal_seconds += std::chrono::duration<double>(t1 - t0).count();
    structured_seconds += std::chrono::duration<double>(t2 - t1).count();
  }
  state.counters["literal_s"] = literal_seconds / static_cast<double>(state.iterations());
  state.counters["structured_s"] = structured_seconds / static_cast<double>(state.iterations());
  state.counters["speedup"] = literal_seconds / structured_seconds;
}
BENCHMARK(BM_StructuredVsLiteral)->Unit(benchmark::kMillisecond)->Iterations(3);

/// All pairs of facebook_combined for the first state.range(0) observers (4039 = all n² pairs).
void BM_FacebookSecureSum(benchmark::State& state) {
  const auto path = netdp::bench::shared_dataset(state, "graphs/facebook/facebook_combined.txt");
  if (!path) return;
  const auto g = netdp::graph::read_edge_list(*path);
  LinearSystemOptions options;
  options.rounds = 50;
  const auto schedule = netdp::gossip::Schedule::fixed(
      netdp::gossip::weight_matrix(g, netdp::gossip::Weighting::hamilton), options.rounds);
  const std::size_t n = g.num_nodes();
  const auto observers = first_nodes(std::min<std::size_t>(n, static_cast<std::size_t>(state.range(0))));
  const auto targets = first_nodes(n);
  std::size_t pairs = 0;
  std::size_t exact = 0;
  double max_certified = 0.0;
  PairwiseOptions pairwise;
  pairwise.epsilon_mode = netdp::accounting::EpsilonMode::table;
  pairwise.release_dimension = 1;  // scalar Σ|K|: the engine alone (vector_max_bench adds the SDP)
  for (auto _ : state) {
    netdp::accounting::account_pairs(
        schedule, observers, targets, options, pairwise, [&](std::span<const PairResult> rows) {
          for (const auto& r : rows) {
            ++pairs;
            exact += r.pair.exact ? 1 : 0;
            max_certified = std::max(max_certified, r.pair.sensitivity_squared_certified);
          }
        });
  }
  state.counters["pairs"] = static_cast<double>(pairs);
  state.counters["exact_fraction"] =
      static_cast<double>(exact) / static_cast<double>(std::max<std::size_t>(pairs, 1));
  state.counters["max_sens2"] = max_certified;
  state.counters["peak_rss_mb"] = peak_rss_mb();
}
BENCHMARK(BM_FacebookSecureSum)->Arg(64)->Arg(4039)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
