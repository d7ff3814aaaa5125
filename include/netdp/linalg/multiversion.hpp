// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Function multiversioning for the accountants' hot loops (internal): NETDP_MULTIVERSION compiles a
// function for the x86-64-v4 / v3 feature levels and a baseline, dispatched at load time on the CPU
// (target_clones), so the portable build runs AVX2 / AVX-512 where the machine has them.
// NETDP_CONTRACT fuses multiply-adds where the instruction set has them: results are then
// reproducible on one machine (for any thread count) and agree across machines to rounding.

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define NETDP_MULTIVERSION __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define NETDP_MULTIVERSION
#endif
#if defined(__GNUC__) && !defined(__clang__)
#define NETDP_CONTRACT __attribute__((optimize("fp-contract=fast")))
#else
#define NETDP_CONTRACT
#endif
// NETDP_EXACT_ROUNDING keeps every operation rounded as written (no fused multiply-add the source
// did not ask for), which error-free transformations (TwoSum, FMA-split products) rely on. It is
// ISO C++'s default under -std=c++20; the attribute makes it independent of the flags.
#if defined(__GNUC__) && !defined(__clang__)
#define NETDP_EXACT_ROUNDING __attribute__((optimize("fp-contract=off")))
#else
#define NETDP_EXACT_ROUNDING
#endif

#include <cstddef>

namespace netdp::linalg {

/// Eight doubles as one GCC vector: an AVX-512 register in the x86-64-v4 clone, two AVX2 ones in
/// the v3 clone, four SSE2 ones in the baseline. Hot loops keep their sums in named Lanes so that
/// the compiler holds them in registers (nested std::arrays were spilled to memory on every step).
/// Loaded and stored with std::memcpy (no alignment assumed). Passed only inside one function:
/// returning it by value would depend on the clone's ABI.
inline constexpr std::size_t kLanes = 8;
using Lanes = double __attribute__((vector_size(kLanes * sizeof(double))));

}  // namespace netdp::linalg
