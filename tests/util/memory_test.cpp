// The machine-memory check: refuses before allocating, naming the figure and the machine's.
#include "netdp/util/memory.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace netdp::util {
namespace {

TEST(Memory, PhysicalMemoryIsRead) { EXPECT_GT(physical_memory_bytes(), 1u << 20); }

TEST(Memory, FormatsBytesForMessages) {
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
    EXPECT_NE(message.find("the accountant needs about 1e+21 GB (8 n² bytes, n = 10^15)"), std::string::npos)
        << message;
    EXPECT_NE(message.find("of this machine; use fewer nodes"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace netdp::util
