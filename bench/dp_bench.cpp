// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Cost of the privacy-currency conversions accountants call per pair:
// δ(ε), ε(δ) (closed-form and quadrature regimes), μ calibration, RDP conversion.
#include <benchmark/benchmark.h>

#include "netdp/dp/gdp.hpp"
#include "netdp/dp/rdp.hpp"

namespace {

// state.range(0) = μ in thousandths: 1 = 0.001 and 10 = 0.01 (the cancelling regime, by series),
// 100 = 0.1, 1000 = 1, 10000 = 10.
double mu_of(const benchmark::State& state) { return static_cast<double>(state.range(0)) / 1000.0; }

void BM_GdpDelta(benchmark::State& state) {
  const double mu = mu_of(state);
  const double epsilon = netdp::dp::gdp_epsilon(mu, 1e-6);
  for (auto _ : state) benchmark::DoNotOptimize(netdp::dp::gdp_delta(mu, epsilon));
}
BENCHMARK(BM_GdpDelta)->Arg(100)->Arg(1000)->Arg(10000);

void BM_GdpEpsilon(benchmark::State& state) {
  const double mu = mu_of(state);
  for (auto _ : state) benchmark::DoNotOptimize(netdp::dp::gdp_epsilon(mu, 1e-6));
}
BENCHMARK(BM_GdpEpsilon)->Arg(1)->Arg(10)->Arg(100)->Arg(1000)->Arg(10000);

void BM_GdpMuFor(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(netdp::dp::gdp_mu_for(1.0, 1e-6));
}
BENCHMARK(BM_GdpMuFor);

void BM_RdpToDpGaussian(benchmark::State& state) {
  const netdp::dp::RdpCurve curve = netdp::dp::gaussian_rdp_curve(1.0);
  for (auto _ : state) benchmark::DoNotOptimize(netdp::dp::rdp_to_dp(curve, 1e-6).epsilon);
}
BENCHMARK(BM_RdpToDpGaussian);

}  // namespace

BENCHMARK_MAIN();
