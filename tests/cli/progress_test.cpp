// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The progress reporter: silent when disabled or for short phases, a bar with an ETA for a known
// total, a count for an unknown one, each shown phase closed with its time.
#include "../../src/cli/progress.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <string>

namespace netdp::cli {
namespace {

using std::chrono::milliseconds;

TEST(ProgressReporter, ShowsABarWithAnEtaAndClosesThePhaseWithItsTime) {
  std::ostringstream out;
  {
    ProgressReporter progress(out, true, "netdp account", milliseconds(0));
    progress.phase("pairs", 4);
    progress.update(2);
    EXPECT_NE(out.str().find("netdp account: pairs  [############............]  50%"), std::string::npos)
        << out.str();
    EXPECT_NE(out.str().find("s left"), std::string::npos) << out.str();
    progress.phase("calibration");  // ends "pairs": its line gets a newline
    EXPECT_EQ(out.str().back(), '\n');
    progress.update(3);
    EXPECT_NE(out.str().find("netdp account: calibration  3 done"), std::string::npos) << out.str();
  }  // the destructor closes the last phase
  EXPECT_EQ(out.str().back(), '\n');
}

TEST(ProgressReporter, SilentWhenDisabledOrForAShortPhase) {
  std::ostringstream disabled_out;
  {
    ProgressReporter disabled(disabled_out, false, "netdp account", milliseconds(0));
    disabled.phase("pairs", 4);
    disabled.update(2);
  }
  EXPECT_EQ(disabled_out.str(), "");
  std::ostringstream short_out;
  {
    ProgressReporter slow_to_show(short_out, true, "netdp account", std::chrono::hours(1));
    slow_to_show.phase("pairs", 4);
    slow_to_show.update(4);
  }
  EXPECT_EQ(short_out.str(), "");
}

}  // namespace
}  // namespace netdp::cli
