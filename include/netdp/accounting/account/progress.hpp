// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The progress callback every accountant takes.

#include <cstddef>
#include <functional>

namespace netdp::accounting {

/// Called after each observer (or unit of work) with (done, total).
using ProgressCallback = std::function<void(std::size_t done, std::size_t total)>;

}  // namespace netdp::accounting
