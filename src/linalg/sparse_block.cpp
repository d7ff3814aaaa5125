// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/linalg/sparse_block.hpp"

#include <cstring>

#include "netdp/linalg/multiversion.hpp"

namespace netdp::linalg {

namespace {

/// Columns [j, j + Tiles·kLanes) of one output row, the sums held in Tiles vector registers.
template <std::size_t Tiles>
[[gnu::always_inline]] inline void tile_of_row(const int* cols, const double* values, int begin, int end,
                                               const double* in, std::size_t width, std::size_t j,
                                               double* out_row) {
  Lanes sum[Tiles] = {};
  for (int k = begin; k < end; ++k) {
    const double* x = in + static_cast<std::size_t>(cols[k]) * width + j;
    for (std::size_t q = 0; q < Tiles; ++q) {
      Lanes lane;
      std::memcpy(&lane, x + q * kLanes, sizeof(Lanes));
      sum[q] += values[k] * lane;
    }
  }
  for (std::size_t q = 0; q < Tiles; ++q) std::memcpy(out_row + j + q * kLanes, &sum[q], sizeof(Lanes));
}

}  // namespace

NETDP_MULTIVERSION NETDP_CONTRACT void csr_times_block(const int* start, const int* cols,
                                                       const double* values, std::size_t rows,
                                                       const double* in, std::size_t width, double* out) {
  for (std::size_t r = 0; r < rows; ++r) {
    const int begin = start[r];
    const int end = start[r + 1];
    double* out_row = out + r * width;
    std::size_t j = 0;
    for (; j + 4 * kLanes <= width; j += 4 * kLanes)
      tile_of_row<4>(cols, values, begin, end, in, width, j, out_row);
    if (j + 2 * kLanes <= width) {
      tile_of_row<2>(cols, values, begin, end, in, width, j, out_row);
      j += 2 * kLanes;
    }
    if (j + kLanes <= width) {
      tile_of_row<1>(cols, values, begin, end, in, width, j, out_row);
      j += kLanes;
    }
    for (; j < width; ++j) {
      double sum = 0.0;
      for (int k = begin; k < end; ++k) sum += values[k] * in[static_cast<std::size_t>(cols[k]) * width + j];
      out_row[j] = sum;
    }
  }
}

}  // namespace netdp::linalg
