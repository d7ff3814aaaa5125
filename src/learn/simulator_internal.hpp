#pragma once
// Private to the learn module: pieces of run_training.

#include <cstdint>

#include "netdp/learn/dataset.hpp"
#include "netdp/learn/train.hpp"
#include "netdp/util/parallel_errors.hpp"

namespace netdp::learn {

using util::ParallelErrors;

/// A seed for component `stream` of a run seeded with `seed` (splitmix64).
std::uint64_t sub_seed(std::uint64_t seed, std::uint64_t stream);
/// The train/test data of a run: read, truncated, split, (binarized), standardized, normalized.
TrainTest load_train_test(const DataConfig& config, std::uint64_t seed);

}  // namespace netdp::learn
