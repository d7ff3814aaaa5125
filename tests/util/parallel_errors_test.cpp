// An exception inside an OpenMP loop reaches the caller as itself, the same one for any thread count.

#include "netdp/util/parallel_errors.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace netdp::util {
namespace {

/// A parallel loop of 64 iterations in which 41 and 17 throw; returns the message that came out.
std::string message_of_failing_loop(int threads) {
  ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (std::int64_t i = 63; i >= 0; --i) {
    errors.run(i, [&] {
      if (i == 41 || i == 17) throw std::invalid_argument("iteration " + std::to_string(i) + " failed");
    });
  }
  try {
    errors.rethrow();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no exception";
}

TEST(ParallelErrors, TheLowestFailingIterationIsRethrownOnTheCaller) {
  for (const int threads : {1, 2, 4})
    EXPECT_EQ(message_of_failing_loop(threads), "iteration 17 failed") << threads;
}

TEST(ParallelErrors, NothingToRethrowWhenEveryIterationSucceeds) {
  ParallelErrors errors;
  int sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < 10; ++i) errors.run(i, [&] { sum += i; });
  EXPECT_NO_THROW(errors.rethrow());
  EXPECT_EQ(sum, 45);
}

}  // namespace
}  // namespace netdp::util
