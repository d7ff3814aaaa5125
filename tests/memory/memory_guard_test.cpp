// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// A std::bad_alloc that escapes every estimate is a clean error: the command exits with code 2 and
// says what ran out of memory, which estimate it had checked and how to set a limit, instead of
// "failure" (exit 1) or an abort. The binary runs under an address-space limit (RLIMIT_AS) below
// what the run takes, with no --max-memory, so the estimates (against the machine's memory) pass
// and an allocation fails.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "memory/binary_run.hpp"

namespace {

TEST(MemoryGuard, BadAllocIsAnErrorNamingTheEstimate) {
  // The audit's estimate (1.5 GB: the pseudo-inverse of B′ solves against an M x M identity, M = 9,600
  // messages) passes against the machine's memory; the 450 MB address space does not hold it. The
  // allocation that fails is Eigen's (BLAS would retry its own buffer instead of failing).
  const netdp::testing::BinaryRun run =
      netdp::testing::run_binary({"audit", "--graph", "karate", "--rounds", "600", "--observer", "0",
                                  "--target", "33", "--trials", "10"},
                                 450u << 20);
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("netdp: error: netdp audit ran out of memory"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("the largest memory estimate checked was 1.49 GB for the audit's simulated view"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("set --max-memory"), std::string::npos) << run.err;
  for (const char* crash : {"failure:", "terminate", "Aborted"})
    EXPECT_EQ(run.err.find(crash), std::string::npos) << run.err;
}

}  // namespace
