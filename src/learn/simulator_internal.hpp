// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the learn module: pieces of run_training.

#include <cstdint>

#include "netdp/learn/dataset.hpp"
#include "netdp/learn/train.hpp"
#include "netdp/util/parallel_errors.hpp"

namespace netdp::learn {

using util::ParallelErrors;

using util::sub_seed;
/// The train/test data of a run: read, truncated, split, (binarized), standardized, normalized.
TrainTest load_train_test(const DataConfig& config, std::uint64_t seed);

}  // namespace netdp::learn
