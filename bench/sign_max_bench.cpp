// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Per-call cost of maximize_over_signs (accounting/sign_max.hpp) for m = 8, 20, 50 participation
// rounds, in the cheap mode (all pairs), with spectral bound + SDP but no search, and in the
// default mode (exact search when affordable). K = G Gᵀ with G m × (m/2) Gaussian: PSD with many
// negative entries, a hard case (gossip Gram matrices are usually easier).
//
// Run: build/<dir>/bench/netdp_sign_max_bench

#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>

#include "netdp/accounting/worst_case/sign_max.hpp"

namespace {

using netdp::DenseMatrix;
using netdp::accounting::maximize_over_signs;
using netdp::accounting::SignMaxOptions;

DenseMatrix gaussian_gram(Eigen::Index m, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  DenseMatrix g(m, std::max<Eigen::Index>(1, m / 2));
  for (Eigen::Index i = 0; i < g.size(); ++i) g.data()[i] = normal(rng);
  return g * g.transpose();
}

void run(benchmark::State& state, const SignMaxOptions& options) {
  const DenseMatrix k = gaussian_gram(state.range(0), 17);
  double certified = 0.0, lower = 0.0, exact = 0.0;
  for (auto _ : state) {
    const auto result = maximize_over_signs(k, options);
    certified = result.certified;
    lower = result.lower_bound;
    exact = result.is_exact ? 1.0 : 0.0;
    benchmark::DoNotOptimize(certified);
  }
  state.counters["certified_over_lower"] = certified / lower;
  state.counters["exact"] = exact;
}

void BM_SignMaxCheap(benchmark::State& state) { run(state, SignMaxOptions::cheap()); }

void BM_SignMaxBoundsOnly(benchmark::State& state) {
  SignMaxOptions options;
  options.exact_max_dim = 0;
  run(state, options);
}

void BM_SignMaxDefault(benchmark::State& state) { run(state, SignMaxOptions{}); }

BENCHMARK(BM_SignMaxCheap)->Arg(8)->Arg(20)->Arg(50)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SignMaxBoundsOnly)->Arg(8)->Arg(20)->Arg(50)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SignMaxDefault)->Arg(8)->Arg(20)->Arg(50)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
