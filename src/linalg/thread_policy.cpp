// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The process's thread counts (thread_policy.hpp).

#include "netdp/linalg/thread_policy.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>

#if defined(NETDP_HAVE_LAPACKE)
#include <cblas.h>
// OpenBLAS-only entry points, weak so that another CBLAS still links (then nothing is pinned).
#pragma weak openblas_set_num_threads
#pragma weak openblas_get_num_threads
#endif

namespace netdp::linalg {

ThreadPolicy apply_thread_policy() {
  ThreadPolicy policy;
  const int requested = omp_get_max_threads();
  if (requested > kMaxThreads) {
    omp_set_num_threads(kMaxThreads);
    policy.note = fmt::format(
        "{} OpenMP threads were asked for (OMP_NUM_THREADS); netdp runs at most {} (--threads sets fewer)",
        requested, kMaxThreads);
  }
  policy.openmp_threads = omp_get_max_threads();
#if defined(NETDP_HAVE_LAPACKE)
  if (openblas_set_num_threads != nullptr && openblas_get_num_threads != nullptr) {
    const int cores = std::clamp(omp_get_num_procs(), 1, kMaxThreads);
    openblas_set_num_threads(cores);
    policy.blas_threads = openblas_get_num_threads();
  }
#endif
  return policy;
}

}  // namespace netdp::linalg
