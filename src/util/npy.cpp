// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// .npy writer (see npy.hpp).

#include "netdp/util/npy.hpp"

#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <ostream>
#include <string>

#include "netdp/util/check.hpp"

namespace netdp::util {

namespace {

/// The file for `count` doubles of shape `shape` ("(r, c)" or "(n,)").
void write_npy(std::ostream& out, const double* data, std::size_t count, const std::string& shape) {
  require(std::endian::native == std::endian::little, "write_npy: only little-endian machines");
  std::string header = fmt::format("{{'descr': '<f8', 'fortran_order': False, 'shape': {}, }}", shape);
  // magic (6) + version (2) + header length (2) + header, a multiple of 64, the header ending in '\n'.
  constexpr std::size_t kPreamble = 10;
  const std::size_t total = (kPreamble + header.size() + 1 + 63) / 64 * 64;
  header.append(total - kPreamble - header.size() - 1, ' ');
  header.push_back('\n');
  const auto length = static_cast<std::uint16_t>(header.size());
  out.write("\x93NUMPY\x01\x00", 8);
  const char length_bytes[2] = {static_cast<char>(length & 0xff), static_cast<char>(length >> 8)};
  out.write(length_bytes, 2);
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(count * sizeof(double)));
}

}  // namespace

void write_npy_matrix(std::ostream& out, const double* data, std::size_t rows, std::size_t cols) {
  write_npy(out, data, rows * cols, fmt::format("({}, {})", rows, cols));
}

void write_npy_vector(std::ostream& out, const double* data, std::size_t size) {
  write_npy(out, data, size, fmt::format("({},)", size));
}

}  // namespace netdp::util
