// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// MF optimizer benchmarks (docs/reference/mf.md, docs/reference/performance.md "MF optimizers"):
//  - the speed target: prefix sums, T = 320, k = 20 participations every b = 16 steps (L-BFGS to a
//    relative duality gap ≤ 1e-10), for the default constraint set (class_trace, arg 0) and the
//    equal-norm set (unit_diagonal, arg 1); T = 64, k = 4 for both;
//  - single participation (Denisov fixed point) at T = 64, 256.
// Run: OMP_NUM_THREADS=1 build/<dir>/bench/netdp_mf_optimize_bench --benchmark_counters_tabular=true

#include <benchmark/benchmark.h>

#include "netdp/mf/factorize.hpp"

namespace {

using namespace netdp;

void report(benchmark::State& state, const mf::Factorization& f) {
  state.counters["loss"] = f.loss;
  state.counters["gap"] = f.certificate;
  state.counters["iterations"] = static_cast<double>(f.iterations);
  state.counters["converged"] = f.converged ? 1.0 : 0.0;
}

void BM_MfOptimalCyclic(benchmark::State& state) {
  const auto rounds = static_cast<std::size_t>(state.range(0));
  const auto k = static_cast<std::size_t>(state.range(1));
  const auto b = static_cast<std::size_t>(state.range(2));
  mf::OptimizeOptions options;
  options.constraints =
      state.range(3) == 0 ? mf::MultiEpochConstraints::class_trace : mf::MultiEpochConstraints::unit_diagonal;
  state.SetLabel(mf::to_string(options.constraints));
  const DenseMatrix h = mf::prefix_sum_gram(rounds);
  const mf::Participation p = mf::make_participation(rounds, k, b);
  for (auto _ : state) {
    const mf::Factorization f = mf::optimal_factorization(h, p, options);
    benchmark::DoNotOptimize(f.loss);
    report(state, f);
  }
}
BENCHMARK(BM_MfOptimalCyclic)
    ->Args({320, 20, 16, 0})
    ->Args({320, 20, 16, 1})
    ->Args({64, 4, 16, 0})
    ->Args({64, 4, 16, 1})
    ->Unit(benchmark::kSecond)
    ->Iterations(1);

void BM_MfOptimalSingle(benchmark::State& state) {
  const auto rounds = static_cast<std::size_t>(state.range(0));
  const DenseMatrix h = mf::prefix_sum_gram(rounds);
  const mf::Participation p = mf::make_participation(rounds);
  for (auto _ : state) {
    const mf::Factorization f = mf::optimal_factorization(h, p);
    benchmark::DoNotOptimize(f.loss);
    report(state, f);
  }
}
BENCHMARK(BM_MfOptimalSingle)->Arg(64)->Arg(256)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
