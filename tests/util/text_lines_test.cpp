// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Reading text line by line never buffers more than a bounded line: a control byte stops the
// reading at once, and a line longer than the bound is refused naming the file and the line.
#include "netdp/util/text_lines.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>

#include "netdp/util/memory.hpp"

namespace netdp::util {
namespace {

std::string error_of(const std::string& text, const std::string& source) {
  std::istringstream in(text);
  TextLines lines(in, source);
  std::string line;
  try {
    while (lines.next(line)) {
    }
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(TextLines, ReadsLinesAndStripsCarriageReturns) {
  std::istringstream in("a b\r\n\nc\td");
  const std::string source = "x.txt";
  TextLines lines(in, source);
  std::string line;
  ASSERT_TRUE(lines.next(line));
  EXPECT_EQ(line, "a b");
  ASSERT_TRUE(lines.next(line));
  EXPECT_EQ(line, "");
  ASSERT_TRUE(lines.next(line));
  EXPECT_EQ(line, "c\td");
  EXPECT_EQ(lines.line_number(), 3u);
  EXPECT_FALSE(lines.next(line));
}

TEST(TextLines, AControlByteStopsTheReadingAtOnce) {
  const std::string message = error_of("0 1\n1 2\n2 3" + std::string(1, '\0') + "tail\n", "zero.txt");
  EXPECT_NE(message.find("zero.txt: line 3: byte 0x00 at column 4: not a text file"), std::string::npos)
      << message;
  EXPECT_NE(error_of("a\rb\n", "cr.txt").find("cr.txt: line 1: byte 0x0d at column 2"), std::string::npos);
}

TEST(TextLines, LongLineIsRefusedBeforeItIsHeld) {
  set_memory_limit(32e3);  // a sixteenth: 2,000 bytes
  EXPECT_EQ(TextLines::max_line_bytes(), 2000u);
  EXPECT_EQ(error_of("0 1\n" + std::string(1999, '7') + "\n", "ok.txt"), "");
  const std::string message = error_of("0 1\n" + std::string(5000, '7') + "\n", "long.txt");
  EXPECT_NE(message.find("long.txt: line 2: longer than 2000 bytes, the longest line read"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("memory limit of 32 kB"), std::string::npos) << message;
  set_memory_limit(0);
  EXPECT_EQ(TextLines::max_line_bytes(), std::size_t{64} * 1024 * 1024);
}

}  // namespace
}  // namespace netdp::util
