// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal: a sparse matrix in CSR form times a node-major dense block, the propagation step of
// the Muffliato accountants and of the Koskela–Kulkarni rows.

#include <cstddef>

namespace netdp::linalg {

/// Row r of `out` (r < rows) = Σ_{k in [start[r], start[r+1])} values[k] · row cols[k] of `in`, where
/// a row of either block is `width` consecutive doubles and `in` and `out` do not overlap. Each
/// output entry sums over k in increasing order with fused multiply-adds, so column j of the result
/// does not depend on the other columns (the product is the same for any block width), and tiles of
/// up to 32 columns keep their sums in registers across the sparse row.
void csr_times_block(const int* start, const int* cols, const double* values, std::size_t rows,
                     const double* in, std::size_t width, double* out);

}  // namespace netdp::linalg
