// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Exceptions inside OpenMP regions. An exception must not leave a parallel region (the program
// would terminate); every region whose body can throw (a check, an allocation) runs it through
// ParallelErrors and rethrows on the calling thread after the region, so a failure is a clean
// error message and exit code, whatever the thread count.

#include <atomic>
#include <cstdint>
#include <exception>
#include <limits>

namespace netdp::util {

/// run(i, f) calls f and keeps the exception of the lowest index i; rethrow() throws it after the
/// loop, so the error a caller sees does not depend on the thread count. Once an index has failed,
/// run skips every higher one (their results would be thrown away), but still runs the lower ones,
/// which could hold the error to report.
class ParallelErrors {
 public:
  template <class F>
  void run(std::int64_t index, F&& f) {
    if (index > failed_.load(std::memory_order_relaxed)) return;
    try {
      f();
    } catch (...) {
#pragma omp critical(netdp_parallel_errors)
      {
        if (index < failed_.load(std::memory_order_relaxed)) {
          error_ = std::current_exception();
          failed_.store(index, std::memory_order_relaxed);
        }
      }
    }
  }
  void rethrow() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::exception_ptr error_;
  std::atomic<std::int64_t> failed_{std::numeric_limits<std::int64_t>::max()};
};

}  // namespace netdp::util
