// write_file_atomically: the target gets the whole content or keeps its old one, and no temporary
// file is left behind.
#include "netdp/util/atomic_file.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <ostream>
#include <stdexcept>

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
