// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Temporary files for the data-reader tests (removed when the object goes out of scope).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "util/error_of.hpp"

namespace netdp::learn::testing {

class TempFile {
 public:
  /// A file under the system temp directory named after the running test and `suffix`, holding `content`.
  TempFile(const std::string& suffix, const std::string& content) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = (std::filesystem::temp_directory_path() /
             (std::string("netdp_") + info->test_suite_name() + "_" + info->name() + "_" + suffix))
                .string();
    std::ofstream(path_, std::ios::binary) << content;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

using netdp::testing::error_of;

}  // namespace netdp::learn::testing
