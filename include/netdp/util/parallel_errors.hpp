#pragma once
// Exceptions inside OpenMP regions. An exception must not leave a parallel region (the program
// would terminate); every region whose body can throw (a check, an allocation) runs it through
// ParallelErrors and rethrows on the calling thread after the region, so a failure is a clean
// error message and exit code, whatever the thread count.

#include <cstdint>
#include <exception>
#include <limits>

namespace netdp::util {

/// run(i, f) calls f and keeps the exception of the lowest index i; rethrow() throws it after the
/// loop, so the error a caller sees does not depend on the thread count.
class ParallelErrors {
 public:
  template <class F>
  void run(std::int64_t index, F&& f) {
    try {
      f();
    } catch (...) {
#pragma omp critical(netdp_parallel_errors)
      {
        if (index < index_) {
          index_ = index;
          error_ = std::current_exception();
        }
      }
    }
  }
  void rethrow() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::int64_t index_ = std::numeric_limits<std::int64_t>::max();
  std::exception_ptr error_;
};

}  // namespace netdp::util
