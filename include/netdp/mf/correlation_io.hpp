// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The noise correlation C of the matrix-factorization mechanism as a file: the one reader and the
// one writer of `netdp factorize --out`, `algorithm.correlation` (training) and `netdp account
// --correlation`. Format: Matrix Market coordinate, `real general`, the lower triangle's non-zero
// entries, values with 17 significant digits (a double survives the round trip exactly).
//
// Rules, checked by both (std::invalid_argument naming the file and the rule):
//  * square (T × T; that T is the run's number of steps is checked by the caller, which knows T),
//    read only up to T = kLocalGramMaxRounds (a dense C of that size takes 2 GiB);
//  * finite entries;
//  * lower triangular, with tolerance 0: any non-zero entry above the diagonal is refused (naming
//    its row, column and value, 1-based). The consumers use only the lower triangle (the noise
//    (C⁻¹ξ)_t must need ξ_1..ξ_t only), so a small upper entry would be silently dropped there and
//    the C trained with would differ from the C accounted for;
//  * a non-zero diagonal (a lower-triangular C is then invertible).
// See docs/reference/mf.md, "The correlation file".

#include <string>

#include "netdp/util/types.hpp"

namespace netdp::mf {

/// Reads C from a Matrix Market file (coordinate; general, or symmetric when only the diagonal is
/// stored; entries repeated in a general file are summed) and checks the rules above.
DenseMatrix read_correlation(const std::string& path);

/// Checks the rules above and writes C atomically (a temporary file in the same directory,
/// renamed over `path`), so a failure never leaves a half-written file.
void write_correlation(const std::string& path, const DenseMatrix& c);

}  // namespace netdp::mf
