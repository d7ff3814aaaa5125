// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// LIBSVM reader: 1-based indices, comments and blank lines, label mapping, errors with line numbers.
#include <gtest/gtest.h>

#include "dataset_test_files.hpp"
#include "netdp/learn/dataset.hpp"

namespace netdp::learn {
namespace {

using testing::error_of;
using testing::TempFile;

TEST(LibsvmReader, ReadsSparseRowsWithCommentsAndBlankLines) {
  TempFile f("t.svm", "# header comment\n+1 1:0.5 3:2\n\n-1 qid:4 2:-1 # trailing comment\n");
  const Dataset d = read_libsvm(f.path());
  EXPECT_EQ(d.features, (DenseMatrix{{0.5, 0, 2}, {0, -1, 0}}));
  EXPECT_EQ(d.targets, (Vector{{1, 0}}));
  EXPECT_EQ(d.task, Task::binary);
  EXPECT_EQ(d.num_classes, 2u);
  EXPECT_EQ(read_libsvm(f.path(), Task::binary, 5).dim(), 5u);
}

TEST(LibsvmReader, LabelMappings) {
  TempFile zero_one("z.svm", "0 1:1\n1 1:2\n");
  EXPECT_EQ(read_libsvm(zero_one.path()).targets, (Vector{{0, 1}}));
  TempFile classes("c.svm", "3 1:1\n1 1:2\n2 1:3\n3 1:4\n");
  const Dataset m = read_libsvm(classes.path(), Task::multiclass);
  EXPECT_EQ(m.targets, (Vector{{2, 0, 1, 2}}));
  EXPECT_EQ(m.num_classes, 3u);
  EXPECT_THROW(read_libsvm(classes.path(), Task::binary), std::invalid_argument);
  const Dataset r = read_libsvm(classes.path(), Task::regression);
  EXPECT_EQ(r.targets, (Vector{{3, 1, 2, 3}}));
}

TEST(LibsvmReader, ErrorsNameTheLine) {
  const auto message = [](const std::string& content, std::size_t num_features = 0) {
    TempFile f("bad.svm", content);
    return error_of([&] { read_libsvm(f.path(), Task::regression, num_features); });
  };
  EXPECT_NE(message("1 1:1\n1 0:1\n").find("line 2: index '0'"), std::string::npos);
  EXPECT_NE(message("1 1:1\nx 1:1\n").find("line 2: the label"), std::string::npos);
  EXPECT_NE(message("1 1:1 1:2\n").find("line 1: index 1 appears twice"), std::string::npos);
  EXPECT_NE(message("1 1:abc\n").find("line 1: value 'abc'"), std::string::npos);
  EXPECT_NE(message("1 4\n").find("line 1: '4' is not index:value"), std::string::npos);
  EXPECT_NE(message("1 4:1\n", 3).find("line 1: index 4 exceeds num_features = 3"), std::string::npos);
  EXPECT_NE(message("# only a comment\n").find("no examples"), std::string::npos);
  EXPECT_THROW(read_libsvm("/nonexistent.svm"), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::learn
