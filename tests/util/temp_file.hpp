// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Test helper: a uniquely named file in the system temp directory, removed on
// destruction.

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

namespace netdp::testing {

class TempFile {
 public:
  /// Creates the file with `content`; `suffix` is appended to the name (e.g. ".mtx").
  explicit TempFile(const std::string& content, const std::string& suffix = ".txt") {
    static std::atomic<int> counter{0};
    path_ = (std::filesystem::temp_directory_path() /
             ("netdp_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + suffix))
                .string();
    std::ofstream(path_, std::ios::binary) << content;
  }
  /// Reserves a name without creating the file (for writers).
  static TempFile empty_name(const std::string& suffix = ".txt") {
    TempFile file("", suffix);
    std::filesystem::remove(file.path_);
    return file;
  }
  TempFile(TempFile&& other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  TempFile& operator=(TempFile&&) = delete;
  ~TempFile() {
    if (!path_.empty()) {
      std::error_code ignored;
      std::filesystem::remove(path_, ignored);
    }
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// The whole content of a file.
inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace netdp::testing
