// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The process's thread counts (accounting/thread_policy.hpp) with the real binary: an OpenMP team
// larger than netdp runs is lowered with a warning instead of crashing, and the environment's thread
// variables do not change a result (the BLAS thread count is pinned).

#include "netdp/linalg/thread_policy.hpp"

#include <gtest/gtest.h>

#include <string>

#include "cli/cli_runner.hpp"

namespace netdp::cli {
namespace {

const std::string kBinary = std::string("'") + NETDP_BINARY + "'";

/// stdout only (stderr to /dev/null), with its exit status.
std::pair<int, std::string> stdout_of(const std::string& environment, const std::string& args) {
  return testing::shell_output("(env " + environment + " " + kBinary + " " + args + " 2>/dev/null)");
}

TEST(ThreadPolicy, AnOpenMpTeamAboveTheLimitIsLoweredWithAWarning) {
  // A small account: every parallel region still starts the whole (lowered) team.
  const std::string args = "account --graph path:n=3 --rounds 1 --json --summary-only";
  const auto huge = testing::shell_output("env OMP_NUM_THREADS=100000 " + kBinary + " " + args);
  ASSERT_EQ(huge.first, 0) << huge.second;
  EXPECT_NE(huge.second.find("netdp: warning: 100000 OpenMP threads were asked for (OMP_NUM_THREADS); netdp "
                             "runs at most " +
                             std::to_string(linalg::kMaxThreads)),
            std::string::npos)
      << huge.second;
  const auto quiet = stdout_of("OMP_NUM_THREADS=100000", args);
  EXPECT_EQ(quiet, stdout_of("OMP_NUM_THREADS=2", args));
}

TEST(ThreadPolicy, EnvironmentThreadVariablesDoNotChangeResults) {
  // The random walk's series comes from a dense eigendecomposition (LAPACK), whose sums a threaded
  // BLAS splits by its thread count; every digit of every pair is compared.
  const std::string args =
      "account --graph er:n=100,p=0.1,seed=3,connected=1 --method random-walk --rounds 500 "
      "--sigma 20 --json";
  const auto one = stdout_of("OMP_NUM_THREADS=1", args);
  ASSERT_EQ(one.first, 0) << one.second;
  EXPECT_NE(one.second.find("\"pairs\""), std::string::npos);
  EXPECT_EQ(one, stdout_of("OMP_NUM_THREADS=2", args));
  EXPECT_EQ(one, stdout_of("OMP_NUM_THREADS=3 OPENBLAS_NUM_THREADS=1", args));
  EXPECT_EQ(one, stdout_of("OPENBLAS_NUM_THREADS=2 OMP_NUM_THREADS=1", args));
  const auto flagged = stdout_of("OMP_NUM_THREADS=2", args + " --threads 1");
  EXPECT_EQ(flagged.first, 0);
  EXPECT_EQ(testing::without_command_line(one.second), testing::without_command_line(flagged.second));
}

}  // namespace
}  // namespace netdp::cli
