// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Secure summation over each node's neighbourhood (Koskela & Kulkarni, "gossip averaging with
// secure summation", Sections 3.2–3.3): node v learns only Σ_u W_vu x_u, never a single x_u.
//
// Protocol simulated here (pairwise additive masking, Bonawitz et al. 2017, restricted to one
// receiver's neighbourhood; docs/reference/learn-protocols.md):
//  * Fixed-point encoding: a real z becomes the 64-bit word round(z · 2^f) (two's complement),
//    so sums of words modulo 2^64 are exact integer sums.
//  * Every unordered pair {a, b} of nodes shares a key k_ab (simulated key agreement: derived
//    from the protocol seed; in a deployment this is a Diffie–Hellman key). The mask that a and b
//    use when both send to receiver v in round t is m_ab(v, t) = PRF(k_ab, v, t, coordinate),
//    fresh for every (v, t) so that masks are never reused.
//  * Sender a's message to v: enc(W_va x_a) + Σ_{b ∈ S_v, b ≠ a} s_ab m_ab(v, t)  (mod 2^64),
//    with s_ab = +1 if a < b and −1 otherwise; S_v = {u ≠ v : W_vu ≠ 0} are v's senders.
//    Summing over a ∈ S_v every mask appears once with each sign: the masks cancel exactly.
//  * v adds its messages modulo 2^64, decodes, and adds its own term W_vv x_v in the clear.
// With |S_v| ≥ 2 every single message is uniform on Z_{2^64}^d whatever x_a is (one-time pad).
// With |S_v| = 1 there is nothing to mask against, and the message reveals W_va x_a — which the
// weighted sum reveals anyway since v knows its own x_v.
//
// The PRF is a keyed splitmix64 mix: statistically uniform, NOT cryptographically secure. It is
// a simulation of the protocol's arithmetic and message flow, not a secure implementation.
//
// Exactness: Σ_a enc(W_va x_a) is exact as long as the true integer sum stays in
// (−2^63, 2^63); the simulator checks |z| · 2^f < 2^62 per term and Σ_a |W_va x_a| · 2^f < 2^62
// per receiver and coordinate and throws otherwise. The decoded sum differs from the real
// Σ_{a∈S_v} W_va x_a by at most |S_v| · 2^−(f+1) (rounding of each term), and equals the sum of
// the individually encoded terms bit for bit.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "netdp/util/rng.hpp"
#include "netdp/util/types.hpp"

namespace netdp::learn {

/// round(value · 2^fractional_bits) as a two's-complement 64-bit word. Throws
/// std::invalid_argument for a non-finite value, |value| · 2^f ≥ 2^62, or f outside [0, 52].
std::uint64_t encode_fixed(double value, int fractional_bits);
/// The inverse of encode_fixed: the word read as a signed integer, times 2^−f.
double decode_fixed(std::uint64_t word, int fractional_bits);

using util::prf_word;

class SecureSummation {
 public:
  /// `W` square n × n with finite entries (its pattern defines who sends to whom: u sends to v when
  /// W(v, u) ≠ 0, u ≠ v); `seed` derives the pairwise keys; `fractional_bits` f in [0, 52].
  SecureSummation(const SparseMatrix& W, std::uint64_t seed, int fractional_bits = 32);

  std::size_t num_nodes() const { return senders_.size(); }
  int fractional_bits() const { return fractional_bits_; }
  /// S_v: the nodes u ≠ v with W(v, u) ≠ 0, increasing.
  std::span<const int> senders(int receiver) const;

  /// k_ab = k_ba: the key shared by nodes a ≠ b (simulated key agreement).
  std::uint64_t pair_key(int a, int b) const;
  /// Σ_{b ∈ S_v, b ≠ a} s_ab m_ab(v, t) (mod 2^64), d words: the mask sender a adds to its message
  /// to v in round t. Depends on keys, v, t and d only — never on any input value.
  std::vector<std::uint64_t> mask_sum(int sender, int receiver, std::uint64_t round, std::size_t dim) const;
  /// Sender a's message to v in round t: enc(W_va x_a) + mask_sum (mod 2^64), one word per
  /// coordinate. Throws unless a ∈ S_v.
  std::vector<std::uint64_t> message(int sender, int receiver, std::uint64_t round,
                                     const Eigen::Ref<const Vector>& x_sender) const;
  /// v's aggregation: decode(Σ messages mod 2^64) + W_vv x_v. `messages` are in the order of
  /// senders(v), each with x_receiver.size() words.
  Vector aggregate(int receiver, std::span<const std::vector<std::uint64_t>> messages,
                   const Eigen::Ref<const Vector>& x_receiver) const;

  /// One protocol round for every receiver: row v of the result is what v learns,
  /// Σ_u W_vu x_u (the senders' terms through the fixed-point encoding), computed by generating
  /// every message and aggregating. Rows of X are the nodes' vectors. Throws when a sum would
  /// leave the exact range (see above), naming node and coordinate.
  DenseMatrix run_round(const DenseMatrix& X, std::uint64_t round) const;

 private:
  void check_node(int node, const char* what) const;
  double weight(int receiver, int sender) const;

  SparseMatrix W_;
  std::uint64_t seed_;
  int fractional_bits_;
  std::vector<std::vector<int>> senders_;
};

}  // namespace netdp::learn
