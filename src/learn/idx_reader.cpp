// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// IDX files (LeCun's MNIST format, also Fashion-MNIST): a 4-byte magic 0x00 0x00 <type> <dims>,
// <dims> big-endian uint32 sizes, then the data. Only unsigned bytes (type 0x08) are used by these
// data sets. The file may be gzip-compressed: zlib's gzread detects that from the magic bytes
// (1f 8b) and reads plain files unchanged.
#include <zlib.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

#include "netdp/learn/dataset.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/memory.hpp"

namespace netdp::learn {
namespace {

std::vector<unsigned char> read_all(const std::string& path) {
  require(std::filesystem::is_regular_file(path), "{}: no such file", path);
  const std::unique_ptr<gzFile_s, int (*)(gzFile)> file(gzopen(path.c_str(), "rb"), &gzclose);
  require_readable(file != nullptr, "{}: cannot open (missing or unreadable)", path);
  std::vector<unsigned char> bytes;
  std::array<unsigned char, 1 << 16> buffer{};
  int got = 0;
  while ((got = gzread(file.get(), buffer.data(), static_cast<unsigned>(buffer.size()))) > 0) {
    // A compressed file can expand a thousandfold: what it holds is checked as it is read, before
    // it is stored (the vector may double its capacity, hence twice the bytes).
    const std::size_t read = bytes.size() + static_cast<std::size_t>(got);
    util::require_memory(
        2.0 * static_cast<double>(read), fmt::format("reading {}", path),
        fmt::format("{} bytes read so far, decompressed, twice for the growing buffer", read),
        "check that the file is an IDX file of the data set");
    bytes.insert(bytes.end(), buffer.begin(), buffer.begin() + got);
  }
  int error = Z_OK;
  const std::string message = gzerror(file.get(), &error);
  require(got == 0 && error == Z_OK, "{}: truncated or corrupt gzip stream ({})", path, message);
  return bytes;
}

struct IdxArray {
  std::vector<std::uint32_t> dims;
  std::vector<unsigned char> bytes;  ///< everything (header included)
  std::size_t data_offset = 0;
};

IdxArray read_idx_array(const std::string& path, std::size_t expected_dims, const char* what) {
  IdxArray array;
  array.bytes = read_all(path);
  const auto& b = array.bytes;
  require(b.size() >= 4, "{}: truncated: {} bytes, the IDX magic number needs 4", path, b.size());
  require(b[0] == 0 && b[1] == 0, "{}: not an IDX file (magic starts {:02x} {:02x}, expected 00 00)", path,
          b[0], b[1]);
  require(b[2] == 0x08, "{}: IDX element type 0x{:02x} is not supported (only 0x08, unsigned byte)", path,
          b[2]);
  require(b[3] == expected_dims, "{}: {} must have {} dimensions, the IDX header says {}", path, what,
          expected_dims, b[3]);
  const std::size_t header = 4 + 4 * expected_dims;
  require(b.size() >= header, "{}: truncated: the header needs {} bytes, the file has {}", path, header,
          b.size());
  std::uint64_t count = 1;
  for (std::size_t d = 0; d < expected_dims; ++d) {
    const std::size_t o = 4 + 4 * d;
    const std::uint32_t size = (std::uint32_t{b[o]} << 24) | (std::uint32_t{b[o + 1]} << 16) |
                               (std::uint32_t{b[o + 2]} << 8) | std::uint32_t{b[o + 3]};
    require(size > 0, "{}: dimension {} of the IDX header is 0", path, d);
    array.dims.push_back(size);
    // Checked before multiplying, so the product never overflows.
    require(size <= (b.size() - header) / count,
            "{}: truncated: dimension {} of the header is {}, more than the {} bytes of {} in the file", path,
            d, size, b.size() - header, what);
    count *= size;
  }
  require(b.size() - header == count, "{}: {}: the header announces {} bytes of {}, the file has {}", path,
          b.size() - header < count ? "truncated" : "trailing bytes", count, what, b.size() - header);
  array.data_offset = header;
  return array;
}

}  // namespace

Dataset read_idx(const std::string& images_path, const std::string& labels_path) {
  const IdxArray images = read_idx_array(images_path, 3, "images");
  const IdxArray labels = read_idx_array(labels_path, 1, "labels");
  const std::size_t n = images.dims[0];
  require(labels.dims[0] == n, "{} has {} images but {} has {} labels (they must match)", images_path, n,
          labels_path, labels.dims[0]);
  const std::size_t rows = images.dims[1], cols = images.dims[2], pixels = rows * cols;
  Dataset data;
  data.task = Task::multiclass;
  data.features.resize(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(pixels));
  data.targets.resize(static_cast<Eigen::Index>(n));
  std::size_t max_label = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char* row = images.bytes.data() + images.data_offset + i * pixels;
    for (std::size_t p = 0; p < pixels; ++p)
      data.features(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(p)) = row[p] / 255.0;
    const std::size_t label = labels.bytes[labels.data_offset + i];
    max_label = std::max(max_label, label);
    data.targets(static_cast<Eigen::Index>(i)) = static_cast<double>(label);
  }
  data.num_classes = std::max<std::size_t>(10, max_label + 1);
  data.feature_names.reserve(pixels);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) data.feature_names.push_back(fmt::format("pixel_{}_{}", r, c));
  for (std::size_t c = 0; c < data.num_classes; ++c) data.class_names.push_back(std::to_string(c));
  return data;
}

}  // namespace netdp::learn
