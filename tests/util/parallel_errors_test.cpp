// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// An exception inside an OpenMP loop reaches the caller as itself, the same one for any thread count.

#include "netdp/util/parallel_errors.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

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

TEST(ParallelErrors, HigherIterationsAreSkippedAfterAFailureLowerOnesStillRun) {
  ParallelErrors errors;
  std::vector<std::int64_t> ran;
  const auto step = [&](std::int64_t i, bool fails) {
    errors.run(i, [&] {
      ran.push_back(i);
      if (fails) throw std::invalid_argument("iteration " + std::to_string(i) + " failed");
    });
  };
  step(10, true);
  step(11, false);  // skipped: its result would be thrown away
  step(40, true);   // skipped too
  step(3, false);   // lower: still runs
  step(7, true);    // lower, and its error is the one to report
  step(8, false);   // now above the lowest failure: skipped
  EXPECT_EQ(ran, (std::vector<std::int64_t>{10, 3, 7}));
  try {
    errors.rethrow();
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "iteration 7 failed");
  }
}

}  // namespace
}  // namespace netdp::util
