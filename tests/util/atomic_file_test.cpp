// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// write_file_atomically: the target gets the whole content or keeps its old one, and no temporary
// file is left behind.
#include "netdp/util/atomic_file.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <iostream>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "util/temp_file.hpp"

namespace netdp::util {
namespace {

using netdp::testing::read_text;
using netdp::testing::TempFile;
using ::testing::HasSubstr;

/// The names of the files in the directory of `path` that start with its file name.
std::vector<std::string> files_like(const std::string& path) {
  const std::filesystem::path p(path);
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(p.parent_path())) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(p.filename().string(), 0) == 0) out.push_back(name);
  }
  return out;
}

TEST(AtomicFile, WritesAndReplaces) {
  const TempFile file = TempFile::empty_name(".txt");
  write_file_atomically(file.path(), [](std::ostream& out) { out << "first\n"; });
  EXPECT_EQ(read_text(file.path()), "first\n");
  write_file_atomically(file.path(), [](std::ostream& out) { out << "second\n"; });
  EXPECT_EQ(read_text(file.path()), "second\n");
  EXPECT_EQ(files_like(file.path()).size(), 1u);
}

TEST(AtomicFile, AFailedWriteKeepsTheOldContentAndLeavesNoTemporary) {
  const TempFile file("old content\n", ".txt");
  EXPECT_THROW(write_file_atomically(file.path(),
                                     [](std::ostream& out) {
                                       out << "half";
                                       throw std::runtime_error("disk full");
                                     }),
               std::runtime_error);
  EXPECT_EQ(read_text(file.path()), "old content\n");
  EXPECT_EQ(files_like(file.path()).size(), 1u);

  const TempFile absent = TempFile::empty_name(".txt");
  EXPECT_THROW(write_file_atomically(absent.path(), [](std::ostream&) { throw std::runtime_error("no"); }),
               std::runtime_error);
  EXPECT_FALSE(std::filesystem::exists(absent.path()));
  EXPECT_TRUE(files_like(absent.path()).empty());
}

TEST(AtomicFile, FollowsASymbolicLink) {
  const TempFile target("old\n", ".txt");
  const TempFile link = TempFile::empty_name(".lnk");
  std::filesystem::create_symlink(target.path(), link.path());
  write_file_atomically(link.path(), [](std::ostream& out) { out << "new\n"; });
  EXPECT_TRUE(std::filesystem::is_symlink(link.path()));
  EXPECT_EQ(read_text(target.path()), "new\n");
}

TEST(AtomicFile, WritesASpecialFileInPlace) {
  EXPECT_NO_THROW(write_file_atomically("/dev/null", [](std::ostream& out) { out << "discarded\n"; }));
}

TEST(AtomicFile, ADashIsStandardOutputWrittenInPlace) {
  EXPECT_TRUE(is_standard_output("-"));
  EXPECT_FALSE(is_standard_output("/dev/null"));
  std::ostringstream captured;
  std::streambuf* old = std::cout.rdbuf(captured.rdbuf());
  write_file_atomically("-", [](std::ostream& out) { out << "to stdout\n"; });
  std::cout.rdbuf(old);
  EXPECT_EQ(captured.str(), "to stdout\n");
}

TEST(AtomicFile, AFifoIsWrittenInPlace) {
  const TempFile fifo = TempFile::empty_name(".fifo");
  ASSERT_EQ(::mkfifo(fifo.path().c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = read_text(fifo.path()); });
  write_file_atomically(fifo.path(), [](std::ostream& out) { out << "through the pipe\n"; });
  reader.join();
  EXPECT_EQ(received, "through the pipe\n");
  EXPECT_EQ(files_like(fifo.path()).size(), 1u) << "no temporary file beside the FIFO";
}

TEST(AtomicFile, AFailedStreamIsAnErrorNamingWhatWasWritten) {
  std::ostringstream out;
  EXPECT_NO_THROW(check_written(out, "standard output"));
  out.setstate(std::ios::badbit);
  try {
    check_written(out, "standard output");
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("cannot write to standard output: "));
  }
}

TEST(AtomicFile, AMissingDirectoryIsAnErrorNamingThePath) {
  const std::string path = "/nonexistent-netdp-dir/out.txt";
  try {
    write_file_atomically(path, [](std::ostream& out) { out << "x"; });
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("cannot open '" + path + "' for writing"));
  }
}

}  // namespace
}  // namespace netdp::util
