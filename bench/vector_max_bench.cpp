// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Vector releases (accounting/vector_max.hpp):
//  - per-call cost of maximize_over_vectors for m = 8, 20, 50, 100 rounds on a projector block with
//    negative entries (the interior point runs; counters: iterations, relative gap);
//  - all 9,900 secure-sum pairs of ER(100, 0.2), hamilton, T = 100: the vector worst case per pair
//    (default) against the scalar Σ|K| (release dimension 1), the same engine otherwise.
//  - the interior point's dense kernels at its orders: the Cholesky factorisation (netdp's small
//    kernel against LAPACK's xPOTRF) and the inverse from the factor, in double and single precision.
// Run: build/<dir>/bench/netdp_vector_max_bench
// Compare: /usr/bin/python3 bench/vector_max_numpy.py (the same SDP in numpy, per call).

#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <Eigen/QR>
#include <cstdint>
#include <random>

#if defined(NETDP_HAVE_LAPACKE)
#include <lapacke.h>
#endif

#include "netdp/accounting/linear_system/linear_system.hpp"
#include "netdp/accounting/worst_case/vector_max.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/linalg/dense_kernels.hpp"

namespace {

using netdp::DenseMatrix;

/// K = Zᵀ Z for Z the first m rows (transposed) of a random orthonormal n × r basis: a projector block.
DenseMatrix projector_block(Eigen::Index m, Eigen::Index r, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  const Eigen::Index n = 3 * m + r;
  DenseMatrix a(n, r);
  for (Eigen::Index i = 0; i < a.size(); ++i) a.data()[i] = normal(rng);
  const DenseMatrix q = Eigen::HouseholderQR<DenseMatrix>(a).householderQ() * DenseMatrix::Identity(n, r);
  const DenseMatrix z = q.topRows(m).transpose();
  return z.transpose() * z;
}

void BM_VectorMaxPerCall(benchmark::State& state) {
  const Eigen::Index m = state.range(0);
  const DenseMatrix k = projector_block(m, m / 2 + 1, 7);
  netdp::accounting::VectorMaxResult result;
  for (auto _ : state) {
    result = netdp::accounting::maximize_over_vectors(k);
    benchmark::DoNotOptimize(result.upper);
  }
  state.counters["iterations"] = result.iterations;
  state.counters["relative_gap"] = (result.upper - result.lower) / result.upper;
  state.counters["exact"] = result.exact ? 1.0 : 0.0;
}
BENCHMARK(BM_VectorMaxPerCall)->Arg(8)->Arg(20)->Arg(50)->Arg(100)->Unit(benchmark::kMillisecond);

/// A well-conditioned m × m symmetric positive definite matrix in precision Scalar.
template <class Scalar>
Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> spd_matrix(Eigen::Index m) {
  const DenseMatrix k = projector_block(m, m / 2 + 1, 11);
  return (k + DenseMatrix::Identity(m, m)).cast<Scalar>();
}

/// Cholesky factorisations of one m × m matrix (the copy included, as in the interior point's trials).
template <class Scalar, class Factor>
void time_cholesky(benchmark::State& state, const Factor& factor) {
  using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  const Matrix a = spd_matrix<Scalar>(state.range(0));
  Matrix work = a;
  for (auto _ : state) {
    work = a;
    if (!factor(work)) state.SkipWithError("not positive definite");
    benchmark::DoNotOptimize(work.data());
  }
}

template <class Scalar>
void BM_SmallCholesky(benchmark::State& state) {
  time_cholesky<Scalar>(state,
                        [](auto& work) { return linalg::small_cholesky_in_place(work.data(), work.rows()); });
}
BENCHMARK(BM_SmallCholesky<double>)->Arg(32)->Arg(100)->Arg(200)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SmallCholesky<float>)->Arg(32)->Arg(100)->Arg(200)->Unit(benchmark::kMicrosecond);

#if defined(NETDP_HAVE_LAPACKE)
void BM_LapackCholesky(benchmark::State& state) {
  const linalg::SingleThreadedBlas single;
  time_cholesky<double>(state, [](DenseMatrix& work) {
    const auto n = static_cast<lapack_int>(work.rows());
    return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, work.data(), n) == 0;
  });
}
BENCHMARK(BM_LapackCholesky)->Arg(32)->Arg(100)->Arg(200)->Unit(benchmark::kMicrosecond);

void BM_LapackCholeskyFloat(benchmark::State& state) {
  const linalg::SingleThreadedBlas single;
  time_cholesky<float>(state, [](linalg::FloatMatrix& work) {
    const auto n = static_cast<lapack_int>(work.rows());
    return LAPACKE_spotrf_work(LAPACK_COL_MAJOR, 'L', n, work.data(), n) == 0;
  });
}
BENCHMARK(BM_LapackCholeskyFloat)->Arg(32)->Arg(100)->Arg(200)->Unit(benchmark::kMicrosecond);
#endif

/// The SPD inverse from a Cholesky factor (copy included), as each interior-point iteration forms Z⁻¹.
template <class Scalar>
void BM_SpdInverseFromCholesky(benchmark::State& state) {
  using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  const linalg::SingleThreadedBlas single;
  Matrix factor = spd_matrix<Scalar>(state.range(0));
  if (!linalg::cholesky_in_place(factor)) state.SkipWithError("not positive definite");
  Matrix work = factor;
  for (auto _ : state) {
    work = factor;
    if (!linalg::spd_invert_from_cholesky(work)) state.SkipWithError("singular");
    benchmark::DoNotOptimize(work.data());
  }
}
BENCHMARK(BM_SpdInverseFromCholesky<double>)->Arg(32)->Arg(100)->Arg(200)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SpdInverseFromCholesky<float>)->Arg(32)->Arg(100)->Arg(200)->Unit(benchmark::kMicrosecond);

/// All 9,900 pairs of ER(100, 0.2), T = 100, under `view` and `weighting`; state.range(0): the
/// release dimension (0 = vector, 1 = scalar Σ|K|).
void er100_all_pairs(benchmark::State& state, netdp::accounting::LinearSystemView view,
                     netdp::gossip::Weighting weighting) {
  const std::size_t n = 100;
  const std::size_t t = 100;
  netdp::graph::ErdosRenyiOptions er;
  er.connected = true;
  const auto g = netdp::graph::erdos_renyi(n, 0.2, 1, er);
  const auto schedule = netdp::gossip::Schedule::fixed(netdp::gossip::weight_matrix(g, weighting), t);
  std::vector<netdp::graph::NodeId> nodes(n);
  for (std::size_t i = 0; i < n; ++i) nodes[i] = static_cast<netdp::graph::NodeId>(i);
  netdp::accounting::LinearSystemOptions options;
  options.rounds = t;
  options.view = view;
  netdp::accounting::PairwiseOptions pairwise;
  pairwise.release_dimension = static_cast<std::size_t>(state.range(0));
  pairwise.epsilon_mode = netdp::accounting::EpsilonMode::table;
  double sum = 0.0;
  std::size_t exact = 0;
  std::size_t pairs = 0;
  for (auto _ : state) {
    netdp::accounting::account_pairs(schedule, nodes, nodes, options, pairwise,
                                     [&](std::span<const netdp::accounting::PairResult> rows) {
                                       for (const auto& r : rows) {
                                         sum += r.pair.sensitivity_squared_certified;
                                         exact += r.pair.exact ? 1 : 0;
                                         ++pairs;
                                       }
                                     });
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  state.counters["pairs"] = static_cast<double>(pairs);
  state.counters["mean_sens2"] = sum / static_cast<double>(pairs);
  state.counters["exact_fraction"] = static_cast<double>(exact) / static_cast<double>(pairs);
  state.counters["peak_rss_mb"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
}

void BM_SecureSumEr100AllPairs(benchmark::State& state) {
  er100_all_pairs(state, netdp::accounting::LinearSystemView::secure_sum, netdp::gossip::Weighting::hamilton);
}
BENCHMARK(BM_SecureSumEr100AllPairs)->Arg(0)->Arg(1)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

/// The KK Fig. 3 training accountant: the plain view (Theorem 10), closed-row weights.
void BM_KkFig3PlainEr100AllPairs(benchmark::State& state) {
  er100_all_pairs(state, netdp::accounting::LinearSystemView::plain, netdp::gossip::Weighting::closed_row);
}
BENCHMARK(BM_KkFig3PlainEr100AllPairs)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
