// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The machine-memory check: refuses before allocating, naming the figure and the machine's.
#include "netdp/util/memory.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace netdp::util {
namespace {

TEST(Memory, PhysicalMemoryIsRead) { EXPECT_GT(physical_memory_bytes(), 1u << 20); }

TEST(Memory, FormatsBytesForMessages) {
  EXPECT_EQ(format_bytes(2.4e12), "2.4 TB");
  EXPECT_EQ(format_bytes(1.5e9), "1.5 GB");
  EXPECT_EQ(format_bytes(3.2e8), "320 MB");
  EXPECT_EQ(format_bytes(2048), "2.05 kB");
}

TEST(Memory, RefusesMoreThanTheMachineHasNamingBothFigures) {
  EXPECT_NO_THROW(require_memory(1e6, "a small thing", "1 MB", "nothing to do"));
  try {
    require_memory(1e30, "the accountant", "8 n² bytes, n = 10^15", "use fewer nodes");
    FAIL() << "expected a refusal";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("the accountant needs about 1e+18 TB (8 n² bytes, n = 10^15)"), std::string::npos)
        << message;
    EXPECT_NE(message.find("of this machine; use fewer nodes"), std::string::npos) << message;
  }
}

TEST(Memory, ParsesSizesWithUnits) {
  EXPECT_EQ(parse_memory_size("512M"), 512e6);
  EXPECT_EQ(parse_memory_size("2.5G"), 2.5e9);
  EXPECT_EQ(parse_memory_size("4gb"), 4e9);
  EXPECT_EQ(parse_memory_size("1e9"), 1e9);
  EXPECT_EQ(parse_memory_size("3k"), 3e3);
  for (const char* bad : {"", "G", "12Q", "-1G", "0", "inf", "1e400", "5 G", "1GG"}) {
    EXPECT_THROW(parse_memory_size(bad), std::invalid_argument) << bad;
  }
}

TEST(Memory, ASetLimitReplacesTheMachineAndIsNamedInTheRefusal) {
  set_memory_limit(2e6);
  EXPECT_EQ(memory_limit(), 2e6);
  EXPECT_NO_THROW(require_memory(1e6, "a small thing", "1 MB", "nothing to do"));
  try {
    require_memory(3e6, "the accountant", "3 MB", "use fewer nodes");
    ADD_FAILURE() << "expected a refusal";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(
        message.find("needs about 3 MB (3 MB), more than the --max-memory limit of 2 MB; use fewer nodes, "
                     "or raise --max-memory"),
        std::string::npos)
        << message;
  }
  set_memory_limit(0);
  EXPECT_EQ(memory_limit(), static_cast<double>(physical_memory_bytes()));
  EXPECT_THROW(set_memory_limit(-1), std::invalid_argument);
}

TEST(Memory, OutOfMemoryNamesTheLargestEstimateThatPassed) {
  set_memory_limit(5e8);
  require_memory(4e8, "the big step", "4 x 10^8 bytes", "nothing");
  require_memory(1e6, "a small step", "10^6 bytes", "nothing");
  const std::string message = out_of_memory_message("netdp account", "--max-memory");
  EXPECT_NE(message.find("netdp account ran out of memory"), std::string::npos) << message;
  EXPECT_NE(message.find("std::bad_alloc"), std::string::npos) << message;
  EXPECT_NE(message.find("400 MB for the big step (4 x 10^8 bytes)"), std::string::npos) << message;
  EXPECT_NE(message.find("the limit is 500 MB (set by --max-memory)"), std::string::npos) << message;
  set_memory_limit(0);
}

}  // namespace
}  // namespace netdp::util
