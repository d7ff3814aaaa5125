// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Test helper shared by the MF tests.

#include "netdp/util/types.hpp"

namespace netdp::mf::testing {

/// ‖got − want‖_F / ‖want‖_F.
inline double relative_error(const DenseMatrix& got, const DenseMatrix& want) {
  return (got - want).norm() / want.norm();
}

}  // namespace netdp::mf::testing
