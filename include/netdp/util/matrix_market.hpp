// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Low-level Matrix Market coordinate format (NIST, "The Matrix Market Exchange
// Formats", Boisvert, Pozo & Remington 1996): read and write triplets.
//
// Supported: `%%MatrixMarket matrix coordinate {real|integer|pattern}
// {general|symmetric}`. Indices are 1-based in the file and 0-based here.
// Errors (std::invalid_argument) name the file and, for a bad line, its line
// number and content.

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace netdp::util {

/// The value type of the entries (`pattern` entries have no value; read as 1.0).
enum class MatrixMarketField { real, integer, pattern };

/// `symmetric` files store only the lower triangle (row >= col).
enum class MatrixMarketSymmetry { general, symmetric };

/// The size line and the qualifiers of the banner.
struct MatrixMarketHeader {
  MatrixMarketField field = MatrixMarketField::real;
  MatrixMarketSymmetry symmetry = MatrixMarketSymmetry::general;
  std::uint64_t rows = 0;
  std::uint64_t cols = 0;
  std::uint64_t nnz = 0;  ///< number of entries stored in the file
};

/// One stored entry, 0-based.
struct MatrixMarketEntry {
  std::uint64_t row = 0;
  std::uint64_t col = 0;
  double value = 1.0;
  friend bool operator==(const MatrixMarketEntry&, const MatrixMarketEntry&) = default;
};

/// A matrix as stored in the file: header and entries in file order (for a
/// symmetric file only the stored triangle; see expand_symmetric).
struct MatrixMarketData {
  MatrixMarketHeader header;
  std::vector<MatrixMarketEntry> entries;
};

/// What a reader checks once the size line is read, before any entry is stored: the memory its
/// consumer will take for the declared rows, columns and entries (util::require_memory).
using MatrixMarketHeaderCheck = std::function<void(const MatrixMarketHeader&)>;

/// Parses a Matrix Market coordinate stream. `source` names the stream in
/// error messages. Checks: banner, size line, entry count (exactly nnz),
/// 1 <= index <= dimension, finite values, integer values for `integer`, row
/// >= col for `symmetric` and square shape for `symmetric`. The entries the size line declares
/// are checked against the memory limit (24 bytes each) before they are read, then `check_header`
/// (when given) is called with the header.
MatrixMarketData parse_matrix_market(std::istream& in, const std::string& source,
                                     const MatrixMarketHeaderCheck& check_header = {});

/// Reads a Matrix Market file; throws naming the path if it cannot be opened.
MatrixMarketData read_matrix_market(const std::string& path,
                                    const MatrixMarketHeaderCheck& check_header = {});

/// All entries of the full matrix: for a symmetric file each off-diagonal entry
/// (i, j, x) also yields (j, i, x); for a general file the entries unchanged.
std::vector<MatrixMarketEntry> expand_symmetric(const MatrixMarketData& data);

/// Writes `entries` (0-based) under `header` (header.nnz is ignored; the entry
/// count is written). Values are written with 17 significant digits (exact
/// round trip of doubles); `pattern` writes indices only. Throws on an index
/// outside the dimensions, or on an upper-triangle entry of a symmetric matrix.
void write_matrix_market(std::ostream& out, const MatrixMarketHeader& header,
                         const std::vector<MatrixMarketEntry>& entries);

/// Same, to a file, written by write_file_atomically (whole or not at all); throws naming the path if
/// it cannot be written.
void write_matrix_market(const std::string& path, const MatrixMarketHeader& header,
                         const std::vector<MatrixMarketEntry>& entries);

}  // namespace netdp::util
