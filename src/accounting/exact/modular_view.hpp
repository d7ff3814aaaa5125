// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Exact arithmetic for the joint view (docs/explanation/certificates.md): the view's rank and the coordinate
// vectors its row space holds, computed modulo a random prime p, and leverages modulo p with their
// rational reconstruction. The matrices W_t are read as exact rationals (RationalSchedule).
//
// Over the field F_p, rank_p(A′) <= rank_ℚ(A′) always: a set of rows independent mod p is
// independent over ℚ. Equality fails only when p divides a non-zero minor of the integerised
// view, an integer of at most H bits (Hadamard's bound), which has at most H / (b − 1) prime
// factors of b bits; for p drawn uniformly among the primes of b bits the chance is at most
// (H / (b − 1)) / #primes. Every statement made from p (the rank, and whether e_u is in the row
// space) is one such event, and the account sums them (a union bound).
// Derivation from the paper to this code: src/accounting/exact/derivation.md.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <vector>

#include "accounting/muffliato/chebyshev_rows.hpp"
#include "netdp/gossip/schedule.hpp"

namespace netdp::accounting::detail {

/// A prime drawn uniformly from those in [2^(bits−1), 2^bits) (rejection sampling of odd integers,
/// each tested by a deterministic primality test), 20 <= bits <= 63.
std::uint64_t random_prime(unsigned bits, std::mt19937_64& rng);

/// A lower bound on the number of primes in [2^(bits−1), 2^bits) (Rosser & Schoenfeld 1962:
/// x / ln x < π(x) < 1.25506 x / ln x for x >= 17).
double primes_in_range(unsigned bits);

/// The largest table of message rows ModularSchedule::keep_rows keeps: 256 MiB.
inline constexpr double kMaxRowTableBytes = 256.0 * 1024 * 1024;

/// The bits of the primes the certificates draw.
inline constexpr unsigned kPrimeBits = 62;

/// The matrices of a schedule as exact rationals. An off-diagonal entry is the simplest fraction
/// with a denominator below 2^20 that rounds to it (1/3 for the double nearest 1/3); a diagonal
/// entry is 1 minus the row's other entries when it is within rounding of that (every weighting
/// defines it so); an entry with neither reading is its own binary value, exactly.
class RationalSchedule {
 public:
  explicit RationalSchedule(const gossip::Schedule& schedule);
  ~RationalSchedule();
  RationalSchedule(RationalSchedule&&) noexcept;
  RationalSchedule& operator=(RationalSchedule&&) noexcept;

  std::size_t num_nodes() const { return nodes_; }
  /// log2 of a bound on the growth of an integerised message row per round: log2 of the lcm L of
  /// the denominators plus log2 of the largest absolute row or column sum of W.
  double bits_per_round() const { return bits_per_round_; }
  /// Entries read as their binary value (no small fraction rounds to them).
  std::size_t binary_entries() const { return binary_entries_; }
  /// A fixed W equal to its transpose as rationals.
  bool symmetric() const { return symmetric_; }

  struct Impl;
  const Impl& impl() const { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
  std::size_t nodes_ = 0;
  double bits_per_round_ = 0.0;
  std::size_t binary_entries_ = 0;
  bool symmetric_ = false;
};

/// The schedule reduced modulo a prime p (which must divide no denominator: throws otherwise).
class ModularSchedule {
 public:
  ModularSchedule(const RationalSchedule& rational, const gossip::Schedule& schedule, std::uint64_t prime);
  ~ModularSchedule();
  ModularSchedule(ModularSchedule&&) noexcept;

  std::uint64_t prime() const { return prime_; }
  std::size_t num_nodes() const { return nodes_; }
  double bits_per_round() const { return bits_per_round_; }
  /// Under a fixed W, keeps e_wᵀ W^t mod p for every node w and t < rounds (n·T·n words, built in
  /// parallel) and the hop distances of W's graph, for the views to copy instead of propagating
  /// (a view of |S| senders saves |S|·T sparse products). Not kept above kMaxRowTableBytes.
  /// Call before the views run in parallel.
  void keep_rows(std::size_t rounds);
  /// Bytes keep_rows(rounds) would keep on a schedule of n nodes (0 when it would keep nothing).
  static double row_table_bytes(std::size_t nodes, std::size_t rounds, bool fixed);

  struct Impl;
  const Impl& impl() const { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
  std::uint64_t prime_ = 0;
  std::size_t nodes_ = 0;
  double bits_per_round_ = 0.0;
};

/// One observer set's view A′ (the rows e_wᵀ W_{0:t} of its messages, the observers' columns zero)
/// modulo p: its rank, its reduced row echelon form and what follows from it.
class ModularView {
 public:
  /// With `exact` false only the structural support is computed (no rows, no rank: an effort limit).
  ModularView(const ModularSchedule& schedule, std::span<const TimedSender> messages,
              std::span<const graph::NodeId> observers, bool exact = true);
  ~ModularView();
  ModularView(ModularView&&) noexcept;

  /// Whether the rows were reduced (otherwise only reached() is known).
  bool exact() const { return exact_; }
  std::size_t rank() const { return rank_; }
  /// Whether e_u lies in the row space of A′ mod p.
  bool in_span(graph::NodeId u) const { return in_span_[u] != 0; }
  /// Whether column u of A′ is structurally non-zero (some message depends on y_u through a
  /// non-zero path of the schedule): otherwise ℓ_u = 0 exactly, whatever the arithmetic.
  bool reached(graph::NodeId u) const { return reached_[u] != 0; }
  /// log2 of Hadamard's bound on every minor of the integerised view, with or without one
  /// coordinate row e_u: the bits of the integers whose divisibility by p the statements rest on.
  double height_bits() const { return height_bits_; }
  /// ℓ_u mod p for each target (e_uᵀ A′ᵀ (A′A′ᵀ)⁺ A′ e_u reduced mod p), or nullopt when the Gram
  /// of the basis is singular mod p (p divides its determinant: try another prime).
  std::optional<std::vector<std::uint64_t>> leverages(std::span<const graph::NodeId> targets) const;
  /// Messages whose rows, restricted to the columns with keep[j] != 0, are independent mod p (hence
  /// over ℚ) and as many as the rank of that restriction: with the columns of the targets in the
  /// span dropped, the rest of the row space (V = span{e_u : u in span} ⊕ V′, V′ the restriction).
  std::vector<std::size_t> independent_rows(std::span<const std::uint8_t> keep) const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
  bool exact_ = true;
  std::size_t rank_ = 0;
  std::vector<std::uint8_t> in_span_;
  std::vector<std::uint8_t> reached_;
  double height_bits_ = 0.0;
};

/// Primes of kPrimeBits bits that divide a non-zero integer of `bits` bits: at most this many.
inline double misleading_primes(double bits) { return bits / static_cast<double>(kPrimeBits - 1); }

/// A seed for the certificates' primes drawn from the system's entropy: a new pair of primes every
/// run, so that no input can be built against them.
std::uint64_t fresh_certificate_seed();

/// A schedule reduced modulo a prime drawn uniformly with `rng`, other than `avoid` (redrawn in the
/// unlikely case it divides a denominator of W).
ModularSchedule draw_modular_schedule(const RationalSchedule& rational, const gossip::Schedule& schedule,
                                      std::mt19937_64& rng, std::uint64_t avoid = 0);

/// A row of a swept view: e_nodeᵀ W_{end−1} ⋯ W_{sK} at column block s, for s = 0..last_block
/// (sK <= end, K gossip steps per block). The whole views of Muffliato-GD, of the Koskela–Kulkarni
/// linear systems and of PNDP under DP-D-SGD / Muffliato-SGD(K) (MF paper A.2, A.4) are made of
/// such rows.
struct SweptRow {
  graph::NodeId node = 0;
  std::size_t end = 0;
  std::size_t last_block = 0;
};

/// What one exact rank says: rank_p, which is at most rank_ℚ, and the chance that it is below it.
struct RankStatement {
  std::size_t rank = 0;
  double failure_probability = 0.0;
};

/// The exact ranks of swept views: W read as rationals and reduced modulo a random prime, drawn once.
/// A floating-point rank cut below this rank dropped a real direction of the view.
class SweptRankCertifier {
 public:
  SweptRankCertifier(const gossip::Schedule& schedule, std::uint64_t seed);
  /// The rank mod p of the view of `rows` over `blocks` column blocks of n columns (K = block_steps),
  /// the columns of the `known` nodes zero in every block.
  RankStatement rank(std::span<const SweptRow> rows, std::size_t block_steps, std::size_t blocks,
                     std::span<const graph::NodeId> known) const;

 private:
  RationalSchedule rational_;
  ModularSchedule modular_;
};

/// A certified interval for a leverage.
struct LeverageBounds {
  double lower = 0.0;
  double upper = 1.0;
};

/// The leverages of `targets` in the row space of the messages `rows` of `messages` (independent
/// over ℚ, e.g. from ModularView::independent_rows), restricted to the columns with keep[j] != 0, in
/// Arb's ball arithmetic: the rows are propagated from W's rationals (under a symmetric fixed W their
/// Gram comes from each sender's powers, (W^(s+t))_{vw}), and the Gram's Cholesky factor is computed at
/// 256 bits, then 1.5 times as many, until Arb proves it (a ball that excludes 0 on every pivot) and every
/// leverage's ball is narrower than 10⁻⁹, at most `max_bits`. nullopt when that precision does not
/// resolve it, or when the next precision would hold more than `max_bytes`.
std::optional<std::vector<LeverageBounds>> ball_leverages(const RationalSchedule& schedule, bool fixed,
                                                          std::span<const TimedSender> messages,
                                                          std::span<const std::size_t> rows,
                                                          std::span<const std::uint8_t> keep,
                                                          std::span<const graph::NodeId> targets,
                                                          double max_bytes, long max_bits = 4096);

/// Bytes of `balls` Arb balls at `bits` of precision.
double ball_bytes(double balls, long bits);
/// Bytes ball_leverages holds for its rows (r × k kept columns), Gram, Cholesky factor and the w
/// targets' solves at `bits` (without a symmetric W's sender powers).
double ball_leverage_bytes(double rows, double columns, double targets, long bits);

/// A rational a/b, b > 0.
struct SmallRational {
  std::int64_t num = 0;
  std::int64_t den = 1;
};

/// The rational a/b with |a|, b <= sqrt(p / 2) congruent to `value` mod p, when there is one
/// (rational reconstruction, Wang's algorithm, FLINT's fmpq_reconstruct_fmpz).
std::optional<SmallRational> reconstruct_rational(std::uint64_t value, std::uint64_t prime);

/// a/b rounded up to a double.
double round_up(const SmallRational& r);

/// a/b reduced mod p (b not divisible by p).
std::uint64_t reduce_rational(const SmallRational& r, std::uint64_t prime);

}  // namespace netdp::accounting::detail
