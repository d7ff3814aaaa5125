// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// NumPy's .npy format (version 1.0) for a float64 matrix or vector: the magic string, a header dictionary
// ('descr': '<f8', C order, the shape) padded so that the data starts on a 64-byte boundary, then
// the values little-endian, row after row. numpy.load reads it without copies.

#include <cstddef>
#include <iosfwd>

namespace netdp::util {

/// Writes rows × cols doubles (row-major) as a .npy file to `out`. Throws std::invalid_argument on
/// a machine that is not little-endian (no byte swapping is done).
void write_npy_matrix(std::ostream& out, const double* data, std::size_t rows, std::size_t cols);
/// Writes `size` doubles as a one-dimensional .npy array (shape (size,)).
void write_npy_vector(std::ostream& out, const double* data, std::size_t size);

}  // namespace netdp::util
