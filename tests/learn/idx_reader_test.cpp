// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// IDX reader on small files written here (plain and gzip), and on the MNIST test set when present.
#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>

#include "dataset_test_files.hpp"
#include "netdp/learn/dataset.hpp"
#include "netdp/util/memory.hpp"

namespace netdp::learn {
namespace {

using testing::error_of;
using testing::TempFile;

std::string be32(std::uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
          static_cast<char>(v)};
}

// 3 images of 2×2 pixels, pixel (i, p) = 60·i + 10·p; labels 7, 0, 3.
std::string images_bytes() {
  std::string s = std::string("\0\0\x08\x03", 4) + be32(3) + be32(2) + be32(2);
  for (int i = 0; i < 3; ++i)
    for (int p = 0; p < 4; ++p) s += static_cast<char>(60 * i + 10 * p);
  return s;
}
std::string labels_bytes() {
  return std::string("\0\0\x08\x01", 4) + be32(3) + std::string("\x07\x00\x03", 3);
}

std::string gzip(const std::string& plain) {
  const std::string path = (std::filesystem::temp_directory_path() / "netdp_idx_gzip_helper.gz").string();
  gzFile f = gzopen(path.c_str(), "wb");
  gzwrite(f, plain.data(), static_cast<unsigned>(plain.size()));
  gzclose(f);
  std::ifstream in(path, std::ios::binary);
  std::string out((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(path);
  return out;
}

void expect_small(const Dataset& d) {
  ASSERT_EQ(d.size(), 3u);
  ASSERT_EQ(d.dim(), 4u);
  for (int i = 0; i < 3; ++i)
    for (int p = 0; p < 4; ++p) EXPECT_DOUBLE_EQ(d.features(i, p), (60 * i + 10 * p) / 255.0);
  EXPECT_EQ(d.targets, (Vector{{7, 0, 3}}));
  EXPECT_EQ(d.task, Task::multiclass);
  EXPECT_EQ(d.num_classes, 10u);
  EXPECT_EQ(d.feature_names[3], "pixel_1_1");
}

TEST(IdxReader, ReadsPlainFiles) {
  TempFile images("images", images_bytes()), labels("labels", labels_bytes());
  expect_small(read_idx(images.path(), labels.path()));
}

TEST(IdxReader, ReadsGzipFilesWhateverTheirName) {
  TempFile images("images", gzip(images_bytes())), labels("labels.gz", gzip(labels_bytes()));
  expect_small(read_idx(images.path(), labels.path()));
}

TEST(IdxReader, RejectsBadMagicTypeAndDims) {
  TempFile labels("labels", labels_bytes());
  std::string bad = images_bytes();
  bad[0] = 1;
  TempFile magic("magic", bad);
  EXPECT_NE(error_of([&] { read_idx(magic.path(), labels.path()); }).find("not an IDX file"),
            std::string::npos);
  bad = images_bytes();
  bad[2] = 0x0D;
  TempFile type("type", bad);
  EXPECT_NE(error_of([&] { read_idx(type.path(), labels.path()); }).find("element type"), std::string::npos);
  // Labels file given as images: 1 dimension where 3 are needed.
  EXPECT_NE(error_of([&] { read_idx(labels.path(), labels.path()); }).find("3 dimensions"),
            std::string::npos);
}

TEST(IdxReader, TruncatedFilesNameTheFileAndWhatIsMissing) {
  TempFile labels("labels", labels_bytes());
  const std::string full = images_bytes();
  TempFile cut("cut", full.substr(0, full.size() - 1));
  const std::string message = error_of([&] { read_idx(cut.path(), labels.path()); });
  EXPECT_NE(message.find(cut.path()), std::string::npos) << message;
  EXPECT_NE(message.find("truncated"), std::string::npos) << message;
  TempFile header("header", full.substr(0, 10));
  EXPECT_NE(error_of([&] { read_idx(header.path(), labels.path()); }).find("header"), std::string::npos);
  const std::string gz = gzip(full);
  TempFile cut_gz("cut_gz", gz.substr(0, gz.size() / 2));
  EXPECT_NE(error_of([&] { read_idx(cut_gz.path(), labels.path()); }).find(cut_gz.path()), std::string::npos);
  TempFile trailing("trailing", full + "x");
  EXPECT_NE(error_of([&] { read_idx(trailing.path(), labels.path()); }).find("trailing"), std::string::npos);
  EXPECT_NE(error_of([&] { read_idx("/nonexistent/images", labels.path()); }).find("/nonexistent/images"),
            std::string::npos);
}

TEST(IdxReader, ACompressedFileIsCheckedAgainstTheMemoryLimitAsItExpands) {
  // 40 MB of zeros after a header declaring them compress to about 40 kB: the reader is refused
  // under a 20 MB limit while it reads, before it holds the 40 MB.
  std::string plain("\x00\x00\x08\x03\x00\x00\x9c\x40\x00\x00\x00\x20\x00\x00\x00\x20", 16);
  plain.append(std::size_t{40000} * 32 * 32, '\0');
  TempFile bomb("bomb.gz", gzip(plain)), labels("labels", labels_bytes());
  util::set_memory_limit(20e6);
  const std::string message = error_of([&] { read_idx(bomb.path(), labels.path()); });
  util::set_memory_limit(0.0);
  EXPECT_NE(message.find("reading " + bomb.path() + " needs about"), std::string::npos) << message;
  EXPECT_NE(message.find("bytes read so far, decompressed"), std::string::npos) << message;
}

TEST(IdxReader, ImageAndLabelCountsMustMatch) {
  TempFile images("images", images_bytes());
  TempFile labels("labels", std::string("\0\0\x08\x01", 4) + be32(2) + std::string("\x07\x00", 2));
  EXPECT_NE(error_of([&] { read_idx(images.path(), labels.path()); }).find("must match"), std::string::npos);
}

// Needs ../shared/datasets/mnist (the 10,000-digit MNIST test set); skipped when absent.
TEST(IdxReader, MnistTestSetWhenPresent) {
  const std::string dir = std::string(NETDP_SHARED_DIR) + "/datasets/mnist/";
  const std::string images = dir + "t10k-images-idx3-ubyte.gz", labels = dir + "t10k-labels-idx1-ubyte.gz";
  if (!std::filesystem::exists(images) || !std::filesystem::exists(labels))
    GTEST_SKIP() << "needs ../shared/datasets/mnist/t10k-*-ubyte.gz";
  const Dataset d = read_idx(images, labels);
  ASSERT_EQ(d.size(), 10000u);
  ASSERT_EQ(d.dim(), 784u);
  EXPECT_EQ(d.num_classes, 10u);
  std::vector<std::size_t> histogram(10, 0);
  for (Eigen::Index i = 0; i < d.targets.size(); ++i) ++histogram.at(static_cast<std::size_t>(d.targets(i)));
  // Published class counts of the MNIST test set (digits 0..9).
  EXPECT_EQ(histogram, (std::vector<std::size_t>{980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009}));
  EXPECT_GE(d.features.minCoeff(), 0.0);
  EXPECT_LE(d.features.maxCoeff(), 1.0);
  EXPECT_EQ(d.features.maxCoeff(), 1.0);  // some pixel is 255
}

}  // namespace
}  // namespace netdp::learn
