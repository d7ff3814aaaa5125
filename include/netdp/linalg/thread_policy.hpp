// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// How many threads netdp runs, set once per process by the command line and the Python module
// (a C++ program that links netdp calls apply_thread_policy() itself, before its first account).
//
// - OpenMP: the team size comes from --threads, else OMP_NUM_THREADS, else every core. A value above
//   kMaxThreads (as OMP_NUM_THREADS=100000) is lowered to it: the threads' stacks alone would not fit
//   the address space, and the runtime fails while creating them.
// - BLAS/LAPACK (OpenBLAS): pinned to the cores the process may run on, whatever OMP_NUM_THREADS or
//   OPENBLAS_NUM_THREADS say. A threaded factorisation splits its sums by its thread count, so the
//   last digits of a result would otherwise depend on those environment variables; netdp's own
//   OpenMP loops are written so that --threads does not change a result, and this keeps it so.

#include <optional>
#include <string>

namespace netdp::linalg {

/// The largest OpenMP team netdp starts (also the bound of --threads).
inline constexpr int kMaxThreads = 1024;

struct ThreadPolicy {
  int openmp_threads = 1;           ///< omp_get_max_threads() after the policy
  int blas_threads = 0;             ///< the BLAS thread count set; 0 when the BLAS is not OpenBLAS
  std::optional<std::string> note;  ///< what was changed, for a warning (e.g. a lowered team size)
};

/// Applies the policy above to this process and says what it set. Idempotent; call it before any
/// parallel region.
ThreadPolicy apply_thread_policy();

}  // namespace netdp::linalg
