#pragma once
// Private to the learn module: pieces of run_training.

#include <cstdint>
#include <exception>
#include <limits>

#include "netdp/learn/dataset.hpp"
#include "netdp/learn/train.hpp"

namespace netdp::learn {

/// A seed for component `stream` of a run seeded with `seed` (splitmix64).
std::uint64_t sub_seed(std::uint64_t seed, std::uint64_t stream);
/// The train/test data of a run: read, truncated, split, (binarized), standardized, normalized.
TrainTest load_train_test(const DataConfig& config, std::uint64_t seed);

/// Exceptions thrown inside an OpenMP loop (where they must not escape): run(i, f) calls f and
/// keeps the exception of the lowest index i; rethrow() throws it after the loop, so the error
/// a caller sees does not depend on the thread count.
class ParallelErrors {
 public:
  template <class F>
  void run(std::int64_t index, F&& f) {
    try {
      f();
    } catch (...) {
#pragma omp critical(netdp_learn_parallel_errors)
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

}  // namespace netdp::learn
