// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Muffliato accountant, all n² pairs (speed targets of docs/reference/performance.md):
//   Theorem 1 (the paper's formula): hypercube d = 11 (n = 2048, T = 19) <= 2 s; d = 13
//   (n = 8192, T = 23) <= 60 s and <= 4 GB; SNAP facebook_combined (n = 4039, hamilton, T = 20) <= 30 s.
//   The exact joint view (the default): hypercube d = 11, T = 19 <= 10 s and <= 1 GB; facebook_combined,
//   T = 20, <= 300 s. Its flop count per observer is about (m² + m·r + 2r²)·n for m messages of rank r.
// The fast path (blocked sparse propagation) runs next to a dense implementation
// (dense W_{0:t} products, as the paper writes it) on the same graphs where the
// dense one is affordable; compare the two times for the ratio.
//
//   build/<dir>/bench/netdp_muffliato_bench --benchmark_filter='Hypercube'

#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <string>

#include "netdp/accounting/muffliato/muffliato.hpp"
#include "netdp/gossip/schedule.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/graph/io.hpp"
#include "shared_data.hpp"

namespace {

using netdp::DenseMatrix;
using netdp::SparseMatrix;

double peak_rss_megabytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

SparseMatrix hamilton(const netdp::graph::Graph& g) {
  return netdp::gossip::make_gossip_matrix(g, netdp::gossip::Weighting::hamilton).matrix();
}

/// Theorem 1 with dense W_{0:t} = W^t (observer noise known, messages t = 0..T-1).
DenseMatrix dense_theorem1(const SparseMatrix& w_sparse, std::size_t rounds) {
  const DenseMatrix w = DenseMatrix(w_sparse);
  const Eigen::Index n = w.rows();
  DenseMatrix m = DenseMatrix::Identity(n, n);
  DenseMatrix sums = DenseMatrix::Zero(n, n);
  for (std::size_t t = 0; t < rounds; ++t) {
    const DenseMatrix squares = m.array().square().matrix();
    const Eigen::VectorXd norms = squares.rowwise().sum();
    for (Eigen::Index v = 0; v < n; ++v) {
      for (SparseMatrix::InnerIterator it(w_sparse, static_cast<int>(v)); it; ++it) {
        const Eigen::Index x = it.col();
        if (x == v || it.value() == 0.0) continue;
        const double noise = norms(x) - squares(x, v);
        if (noise > 0.0) sums.row(v) += squares.row(x) / noise;
      }
    }
    m = w * m;
  }
  sums.diagonal().setZero();
  return sums;
}

void run_fast(benchmark::State& state, const SparseMatrix& w, std::size_t rounds,
              netdp::accounting::MuffliatoBound bound = netdp::accounting::MuffliatoBound::paper) {
  netdp::accounting::MuffliatoOptions options;
  options.bound = bound;
  options.sigma = 1.0;
  const auto schedule = netdp::gossip::Schedule::fixed(w, rounds);
  double checksum = 0.0;
  for (auto _ : state) {
    const auto losses = netdp::accounting::muffliato_all_pairs(schedule, options);
    checksum = losses.sums().sum();
    benchmark::DoNotOptimize(checksum);
  }
  state.counters["n"] = static_cast<double>(w.rows());
  state.counters["T"] = static_cast<double>(rounds);
  state.counters["mean_sum"] = checksum / static_cast<double>(w.rows() * w.rows());
  state.counters["peak_rss_MB"] = peak_rss_megabytes();
}

void BM_MuffliatoAllPairsHypercube(benchmark::State& state) {
  const auto d = static_cast<unsigned>(state.range(0));
  run_fast(state, hamilton(netdp::graph::hypercube(d)), static_cast<std::size_t>(state.range(1)));
}
BENCHMARK(BM_MuffliatoAllPairsHypercube)
    ->Args({9, 15})
    ->Args({10, 17})
    ->Args({11, 19})
    ->Args({13, 23})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

void BM_MuffliatoDenseHypercube(benchmark::State& state) {
  const SparseMatrix w = hamilton(netdp::graph::hypercube(static_cast<unsigned>(state.range(0))));
  const auto rounds = static_cast<std::size_t>(state.range(1));
  double checksum = 0.0;
  for (auto _ : state) {
    checksum = dense_theorem1(w, rounds).sum();
    benchmark::DoNotOptimize(checksum);
  }
  state.counters["n"] = static_cast<double>(w.rows());
  state.counters["mean_sum"] = checksum / static_cast<double>(w.rows() * w.rows());
}
BENCHMARK(BM_MuffliatoDenseHypercube)
    ->Args({9, 15})
    ->Args({10, 17})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

void BM_MuffliatoJointViewHypercube(benchmark::State& state) {
  const auto d = static_cast<unsigned>(state.range(0));
  run_fast(state, hamilton(netdp::graph::hypercube(d)), static_cast<std::size_t>(state.range(1)),
           netdp::accounting::MuffliatoBound::exact);
}
BENCHMARK(BM_MuffliatoJointViewHypercube)
    ->Args({9, 15})
    ->Args({10, 17})
    ->Args({11, 19})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

void BM_MuffliatoJointViewFacebook(benchmark::State& state) {
  const auto path = netdp::bench::shared_dataset(state, "graphs/facebook/facebook_combined.txt");
  if (!path) return;
  run_fast(state, hamilton(netdp::graph::read_edge_list(*path)), 20,
           netdp::accounting::MuffliatoBound::exact);
}
BENCHMARK(BM_MuffliatoJointViewFacebook)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

void BM_MuffliatoAllPairsFacebook(benchmark::State& state) {
  const auto path = netdp::bench::shared_dataset(state, "graphs/facebook/facebook_combined.txt");
  if (!path) return;
  run_fast(state, hamilton(netdp::graph::read_edge_list(*path)), 20);
}
BENCHMARK(BM_MuffliatoAllPairsFacebook)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
