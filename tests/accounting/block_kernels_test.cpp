// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The propagation kernels of the block accountants against plain loops, at every block width from
// 0 to 70 (vector tiles of 32, 16 and 8 columns, then single columns).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "../../src/accounting/muffliato/muffliato_propagation.hpp"
#include "netdp/linalg/sparse_block.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::accounting::detail {
namespace {

std::vector<double> normals(util::Rng& rng, std::size_t count) {
  std::vector<double> x(count);
  for (double& v : x) v = rng.standard_normal();
  return x;
}

TEST(CsrTimesBlock, EqualsTheSparseProductAndEachColumnAloneAtEveryWidth) {
  // Five rows of a 6-node sparse matrix (row 2 empty).
  const std::vector<int> start = {0, 3, 4, 4, 7, 9};
  const std::vector<int> cols = {0, 2, 5, 1, 3, 4, 5, 0, 5};
  util::Rng rng(7);
  const std::vector<double> values = normals(rng, cols.size());
  for (std::size_t width = 0; width <= 70; ++width) {
    const std::vector<double> in = normals(rng, 6 * width);
    std::vector<double> out(5 * width, 99.0);
    linalg::csr_times_block(start.data(), cols.data(), values.data(), 5, in.data(), width, out.data());
    for (std::size_t j = 0; j < width; ++j) {
      // Column j on its own (a block of width 1): the same bits, whatever the tile it fell in.
      std::vector<double> column(6);
      for (std::size_t i = 0; i < 6; ++i) column[i] = in[i * width + j];
      std::vector<double> alone(5);
      linalg::csr_times_block(start.data(), cols.data(), values.data(), 5, column.data(), 1, alone.data());
      for (std::size_t r = 0; r < 5; ++r) {
        double expected = 0.0;
        double magnitude = 0.0;
        for (int k = start[r]; k < start[r + 1]; ++k) {
          expected += values[k] * column[static_cast<std::size_t>(cols[k])];
          magnitude += std::abs(values[k] * column[static_cast<std::size_t>(cols[k])]);
        }
        ASSERT_EQ(out[r * width + j], alone[r]) << "width " << width << ", row " << r << ", column " << j;
        ASSERT_LE(std::abs(out[r * width + j] - expected), 1e-15 * magnitude)
            << "width " << width << ", row " << r << ", column " << j;
      }
    }
  }
}

TEST(AccumulateCappedRatios, AddsEachMessagesCappedRatioInOrderAtEveryWidth) {
  // Four senders' rows; five messages, one with scale 0 (skipped) and one large enough to cap.
  const std::vector<graph::NodeId> senders = {3, 0, 2, 1, 2};
  const std::vector<double> scales = {0.5, 0.0, 2.0, 40.0, 1.5};
  const std::vector<std::uint32_t> messages = {4, 0, 1, 3, 2};
  util::Rng rng(11);
  for (std::size_t width = 0; width <= 70; ++width) {
    const std::vector<double> block = normals(rng, 4 * width);
    std::vector<double> out = normals(rng, width);
    std::vector<double> expected = out;
    for (std::uint32_t m : messages) {
      if (scales[m] == 0.0) continue;
      const double* x = block.data() + static_cast<std::size_t>(senders[m]) * width;
      for (std::size_t j = 0; j < width; ++j) expected[j] += std::min(1.0, scales[m] * (x[j] * x[j]));
    }
    accumulate_capped_ratios(block.data(), width, messages.data(), messages.size(), senders.data(),
                             scales.data(), out.data());
    for (std::size_t j = 0; j < width; ++j)
      ASSERT_EQ(out[j], expected[j]) << "width " << width << ", column " << j;
  }
}

}  // namespace
}  // namespace netdp::accounting::detail
