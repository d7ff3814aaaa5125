// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/mf/correlation_io.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ostream>
#include <vector>

#include "netdp/mf/local_gram.hpp"
#include "netdp/util/atomic_file.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/matrix_market.hpp"
#include "netdp/util/memory.hpp"

namespace netdp::mf {
namespace {

using Index = Eigen::Index;

/// An entry (0-based row, col) of the file `path` may be stored only on or below the diagonal.
void require_on_or_below_diagonal(const std::string& path, std::uint64_t row, std::uint64_t col,
                                  double value) {
  require(col <= row || value == 0.0,
          "correlation file '{}': entry ({}, {}) = {} is above the diagonal: C must be lower triangular "
          "(tolerance 0; the noise C⁻¹ξ is streamed from the lower triangle only)",
          path, row + 1, col + 1, value);
}

/// The rules of the header on a whole matrix: square, finite, lower triangular, non-zero diagonal.
void check_correlation(const std::string& path, const DenseMatrix& c) {
  require(c.rows() == c.cols(), "correlation file '{}': C is {} x {}, it must be square", path, c.rows(),
          c.cols());
  require(c.rows() > 0, "correlation file '{}': C is empty (0 x 0)", path);
  for (Index j = 0; j < c.cols(); ++j) {
    for (Index i = 0; i < c.rows(); ++i) {
      require(std::isfinite(c(i, j)),
              "correlation file '{}': entry ({}, {}) = {} is not finite (entries repeated in the file are "
              "summed)",
              path, i + 1, j + 1, c(i, j));
      if (i < j) {
        require_on_or_below_diagonal(path, static_cast<std::uint64_t>(i), static_cast<std::uint64_t>(j),
                                     c(i, j));
      }
    }
  }
  for (Index t = 0; t < c.rows(); ++t) {
    require(c(t, t) != 0.0,
            "correlation file '{}': diagonal entry ({}, {}) = {}: C must have a non-zero diagonal "
            "(invertible)",
            path, t + 1, t + 1, c(t, t));
  }
}

}  // namespace

DenseMatrix read_correlation(const std::string& path) {
  // The dense C of the declared size, checked before any entry is stored (one larger than the MF
  // optimizers produce is refused once its entries are read, by the message that says so).
  const auto check_size = [&path](const util::MatrixMarketHeader& header) {
    if (std::max(header.rows, header.cols) > kLocalGramMaxRounds) return;  // refused below, by its size
    const double size = static_cast<double>(std::max(header.rows, header.cols));
    util::require_memory(
        8.0 * size * size, fmt::format("correlation file '{}': C of {} x {}", path, header.rows, header.cols),
        "8 bytes per entry of the dense C", "check the size line 'rows cols entries' of the file");
  };
  const util::MatrixMarketData data = util::read_matrix_market(path, check_size);
  require(data.header.rows == data.header.cols, "correlation file '{}': C is {} x {}, it must be square",
          path, data.header.rows, data.header.cols);
  require(data.header.rows <= kLocalGramMaxRounds,
          "correlation file '{}': C is {} x {}, larger than the {} x {} the MF optimizers produce (a dense C "
          "that size takes 2 GiB)",
          path, data.header.rows, data.header.cols, kLocalGramMaxRounds, kLocalGramMaxRounds);
  const auto size = static_cast<Index>(data.header.rows);
  DenseMatrix c = DenseMatrix::Zero(size, size);
  for (const util::MatrixMarketEntry& e : util::expand_symmetric(data)) {
    // Entry by entry, so that an upper entry is named even if a repeat would cancel it.
    require_on_or_below_diagonal(path, e.row, e.col, e.value);
    c(static_cast<Index>(e.row), static_cast<Index>(e.col)) += e.value;
  }
  check_correlation(path, c);
  return c;
}

void write_correlation(const std::string& path, const DenseMatrix& c) {
  check_correlation(path, c);
  util::MatrixMarketHeader header;
  header.rows = static_cast<std::uint64_t>(c.rows());
  header.cols = static_cast<std::uint64_t>(c.cols());
  std::vector<util::MatrixMarketEntry> entries;
  for (Index j = 0; j < c.cols(); ++j) {
    for (Index i = j; i < c.rows(); ++i) {
      if (c(i, j) != 0.0)
        entries.push_back({static_cast<std::uint64_t>(i), static_cast<std::uint64_t>(j), c(i, j)});
    }
  }
  util::write_file_atomically(path,
                              [&](std::ostream& out) { util::write_matrix_market(out, header, entries); });
}

}  // namespace netdp::mf
