// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The exact joint view of Muffliato gossip (see muffliato_joint_view.hpp and
// docs/reference/accounting-muffliato.md): per observer set, the rows of W_{0:t} at its senders, the Gram
// of its messages, one eigendecomposition, every target's leverage. Observer sets run in
// parallel (OpenMP), BLAS single-threaded inside.

#include "netdp/accounting/muffliato/muffliato_joint_view.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <random>
#include <utility>

#include "accounting/exact/joint_view_certificate.hpp"
#include "accounting/linear_system/row_space.hpp"
#include "accounting/muffliato/chebyshev_rows.hpp"
#include "accounting/muffliato/muffliato_propagation.hpp"
#include "accounting/muffliato/received_messages.hpp"
#include "netdp/accounting/worst_case/sign_max.hpp"
#include "netdp/gossip/symmetry.hpp"
#include "netdp/linalg/dense_kernels.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/memory.hpp"
#include "netdp/util/parallel_errors.hpp"

namespace netdp::accounting {

namespace {

using graph::NodeId;
using Index = Eigen::Index;
using NodeSets = std::vector<std::vector<NodeId>>;
using Neighbours = std::vector<std::vector<NodeId>>;

/// Entries of a view A′ with more messages than nodes kept for its completion: 64 MiB.
constexpr double kMaxViewEntries = 8.0 * 1024 * 1024;

/// A view whose power basis leaves a margin above this is redone in the Chebyshev basis.
constexpr double kChebyshevRetryMargin = 1e-6;

/// A view whose margin s is certain to reach this is reported at the local-DP cap without finishing
/// its row space: the widened values (√ℓ + s)² would be at least (√ℓ + 1/2)², most of the cap.
constexpr double kCapMargin = 0.5;

/// Views of at least this many messages start in the Chebyshev basis when the power basis failed on
/// the kProbes smallest of them (powers_resolve_on); smaller views always try the powers first.
constexpr std::size_t kProbeMessages = 256;
constexpr std::size_t kProbes = 2;

/// Entries of the sender-power blocks kept per observer set (8 bytes each): 64 MiB.
constexpr double kMaxPowerEntries = 8.0 * 1024 * 1024;

using detail::Message;
using detail::received_messages;
using detail::ScheduleNeighbours;

/// Whether the blocks of a polynomial in W between the senders, up to twice the last message time
/// (|S|² (2 t_last + 1) entries), fit in kMaxPowerEntries.
bool sender_blocks_fit(const std::vector<Message>& messages) {
  if (messages.empty()) return false;
  std::vector<NodeId> senders;
  for (const Message& m : messages) senders.push_back(m.sender);
  std::sort(senders.begin(), senders.end());
  const auto distinct = static_cast<double>(std::unique(senders.begin(), senders.end()) - senders.begin());
  return distinct * distinct * static_cast<double>(2 * messages.back().time + 1) <= kMaxPowerEntries;
}

/// Powers of a symmetric W between the senders: block k (|S| × |S|) holds (W^k)_{w, w'}.
struct SenderPowers {
  std::vector<NodeId> senders;
  std::vector<DenseMatrix> blocks;
};

using detail::multiply_rows;
using detail::RowMajorMatrix;

/// rows(first + k, ·) = x(·, columns[k])ᵀ for k < columns.size(), node by node (contiguous both ways).
void copy_rows(const RowMajorMatrix& x, const std::vector<Index>& columns, Index first, DenseMatrix& rows) {
  bool identity = columns.size() == static_cast<std::size_t>(x.cols());
  for (std::size_t k = 0; identity && k < columns.size(); ++k) identity = columns[k] == static_cast<Index>(k);
  for (Index i = 0; i < x.rows(); ++i) {
    const double* from = x.data() + i * x.cols();
    double* to = rows.data() + i * rows.rows() + first;
    if (identity) {
      std::copy(from, from + columns.size(), to);
    } else {
      for (std::size_t k = 0; k < columns.size(); ++k) to[k] = from[columns[k]];
    }
  }
}

/// Called with the rows of messages [first, first + columns.size()): row k is column columns[k] of
/// the propagated block x (n × B).
using RowsSink = std::function<void(Index first, const RowMajorMatrix& x, const std::vector<Index>& columns)>;

/// The rows (W_{0:time})_w of the messages, by sparse propagation of e_w with W_tᵀ:
/// (W_{0:τ})_wᵀ = W_0ᵀ ⋯ W_{τ−1}ᵀ e_w, handed to `sink` one round at a time. A fixed schedule
/// propagates all senders once, forward; with `powers` (symmetric W) it keeps the powers between
/// the senders up to twice the last message time, those beyond it as products of propagated rows.
void for_each_message_rows(const gossip::Schedule& schedule, const ScheduleNeighbours& graphs,
                           const std::vector<Message>& messages, SenderPowers* powers, const RowsSink& sink) {
  const auto n = static_cast<Index>(schedule.num_nodes());
  if (messages.empty()) return;
  RowMajorMatrix next;
  std::size_t k = 0;
  if (schedule.is_fixed()) {
    std::vector<NodeId> senders;
    for (const Message& m : messages) senders.push_back(m.sender);
    std::sort(senders.begin(), senders.end());
    senders.erase(std::unique(senders.begin(), senders.end()), senders.end());
    RowMajorMatrix x = RowMajorMatrix::Zero(n, static_cast<Index>(senders.size()));
    for (std::size_t j = 0; j < senders.size(); ++j)
      x(static_cast<Index>(senders[j]), static_cast<Index>(j)) = 1.0;
    const std::size_t last = messages.back().time;
    if (powers != nullptr) powers->blocks.resize(2 * last + 1);
    RowMajorMatrix previous;  // x_{t−1}, for the powers beyond the last message
    if (powers != nullptr) previous = RowMajorMatrix::Zero(n, static_cast<Index>(senders.size()));
    for (std::size_t time = 0;; ++time) {
      const std::size_t first = k;
      std::vector<Index> columns;
      for (; k < messages.size() && messages[k].time == time; ++k) {
        columns.push_back(std::lower_bound(senders.begin(), senders.end(), messages[k].sender) -
                          senders.begin());
      }
      if (!columns.empty()) sink(static_cast<Index>(first), x, columns);
      // Powers beyond the last message from the rows already propagated (W symmetric).
      if (powers != nullptr)
        detail::sender_blocks(x, previous, senders, time, last, detail::SenderBasis::powers, powers->blocks);
      if (time == last) break;
      multiply_rows(graphs.transposed(0), x, next);
      if (powers != nullptr) previous.swap(x);
      x.swap(next);
    }
    if (powers != nullptr) powers->senders = std::move(senders);
    return;
  }
  while (k < messages.size()) {
    const std::size_t time = messages[k].time;
    std::size_t end = k;
    while (end < messages.size() && messages[end].time == time) ++end;
    RowMajorMatrix x = RowMajorMatrix::Zero(n, static_cast<Index>(end - k));
    std::vector<Index> columns;
    for (std::size_t j = k; j < end; ++j) {
      x(static_cast<Index>(messages[j].sender), static_cast<Index>(j - k)) = 1.0;
      columns.push_back(static_cast<Index>(j - k));
    }
    for (std::size_t step = time; step-- > 0;) {
      multiply_rows(graphs.transposed(step), x, next);
      x.swap(next);
    }
    sink(static_cast<Index>(k), x, columns);
    k = end;
  }
}

/// The view matrix A (m × n, one row per message).
DenseMatrix message_rows(const gossip::Schedule& schedule, const ScheduleNeighbours& graphs,
                         const std::vector<Message>& messages, SenderPowers* powers = nullptr) {
  DenseMatrix rows(static_cast<Index>(messages.size()), static_cast<Index>(schedule.num_nodes()));
  for_each_message_rows(schedule, graphs, messages, powers,
                        [&](Index first, const RowMajorMatrix& x, const std::vector<Index>& columns) {
                          copy_rows(x, columns, first, rows);
                        });
  return rows;
}

/// A view with more messages than nodes that is too large to keep. Without A′ the column Gram can
/// only prove full column rank (then ℓ = 1 for every node the view reaches) or make a rank decision
/// it cannot refine (then the local-DP cap for every node): so every node the view can reach is
/// reported at ℓ = 1 directly, with no n × n Gram and no n³ eigensolver, and the others at 0. A node
/// is reached when it lies within τ hops of a sender heard at time τ in the union of the schedule's
/// communication graphs: a superset of A′'s non-zero columns that no cancellation or underflow of
/// the computed rows can shrink.
ObserverLeverage capped_view(const ScheduleNeighbours& graphs, std::size_t n,
                             const std::vector<Message>& messages, const std::vector<NodeId>& observers) {
  ObserverLeverage out;
  out.messages = messages.size();
  out.capped = true;
  // budget[u] = max over messages (τ, w) of τ − dist(w, u), filled in decreasing order of budget.
  std::vector<std::ptrdiff_t> budget(n, -1);
  std::vector<std::vector<NodeId>> by_budget(messages.empty() ? 0 : messages.back().time + 1);
  for (const Message& m : messages) {
    if (static_cast<std::ptrdiff_t>(m.time) > budget[m.sender]) {
      budget[m.sender] = static_cast<std::ptrdiff_t>(m.time);
      by_budget[m.time].push_back(m.sender);
    }
  }
  for (std::size_t b = by_budget.size(); b-- > 1;) {
    for (NodeId u : by_budget[b]) {
      if (budget[u] != static_cast<std::ptrdiff_t>(b)) continue;  // reached later with a larger budget
      for (std::size_t step = 0; step < graphs.distinct_steps(); ++step) {
        for (NodeId x : graphs.step(step)[u]) {
          if (budget[x] < static_cast<std::ptrdiff_t>(b) - 1) {
            budget[x] = static_cast<std::ptrdiff_t>(b) - 1;
            by_budget[b - 1].push_back(x);
          }
        }
      }
    }
  }
  out.leverage = Vector::Zero(static_cast<Index>(n));
  for (std::size_t u = 0; u < n; ++u) out.leverage[static_cast<Index>(u)] = budget[u] >= 0 ? 1.0 : 0.0;
  for (NodeId c : observers) out.leverage[static_cast<Index>(c)] = 0.0;
  out.rank = static_cast<std::size_t>((out.leverage.array() > 0.0).count());
  return out;
}

/// The messages as the (time, sender) pairs of chebyshev_rows.hpp.
std::vector<detail::TimedSender> timed_senders(const std::vector<Message>& messages) {
  std::vector<detail::TimedSender> timed;
  timed.reserve(messages.size());
  for (const Message& m : messages) timed.push_back({m.time, m.sender});
  return timed;
}

/// G′ = G − C_obs C_obsᵀ (lower triangles): the Gram of the full rows with the observers' columns,
/// whose values they know, taken off; `rows` still holds those columns.
void subtract_known_columns(DenseMatrix& gram, const DenseMatrix& rows,
                            const std::vector<NodeId>& observers) {
  DenseMatrix own(rows.rows(), static_cast<Index>(observers.size()));
  for (std::size_t c = 0; c < observers.size(); ++c)
    own.col(static_cast<Index>(c)) = rows.col(static_cast<Index>(observers[c]));
  gram.triangularView<Eigen::Lower>() -= linalg::lower_gram(own);
}

/// The leverages (and whitened rows) of a computed row space.
ObserverLeverage leverage_of_row_space(detail::RowSpace space, ObserverLeverage out, DenseMatrix* whitened) {
  out.rank = static_cast<std::size_t>(space.rank());
  out.rank_decided = space.rank_decided;
  out.margin = space.margin;
  out.dense_spectrum = space.dense_spectrum;
  if (space.rank() > 0) out.leverage = space.basis.colwise().squaredNorm().transpose();
  // Given up (no basis, nothing trusted): any node may be determined; the margin caps them all.
  if (space.rank() == 0 && space.margin >= 1.0) out.leverage.setOnes();
  if (whitened != nullptr) *whitened = std::move(space.basis);
  return out;
}

/// ℓ for every node from the view A′ (observer columns already zero); also returns the whitened
/// target columns Z (orthonormal rows spanning row(A′), r × n) for group maxima.
ObserverLeverage leverage_of_view(const DenseMatrix& view, std::optional<DenseMatrix> known_gram,
                                  std::size_t rounds, DenseMatrix* whitened, double abandon_margin) {
  ObserverLeverage out;
  const Index m = view.rows();
  const Index n = view.cols();
  out.messages = static_cast<std::size_t>(m);
  out.leverage = Vector::Zero(n);
  if (whitened != nullptr) *whitened = DenseMatrix::Zero(0, n);
  if (m == 0) return out;
  // No view of a node whose column is zero: its leverage is exactly 0, and the rank of A′ is at
  // most the number of non-zero columns (a structural bound, exact arithmetic).
  const Index structural_rank = detail::structural_rank(view);
  if (structural_rank == 0) return out;  // every message is a combination of the observers' own values
  return leverage_of_row_space(
      detail::row_space(view, std::move(known_gram), detail::rounding_floor_factor(n, m, rounds),
                        structural_rank, abandon_margin, true),
      std::move(out), whitened);
}

/// ℓ for every node from H = A′ᵀA′ (lower triangle, n × n): the projector on row(A′) is the one on
/// range(H). When H is positive definite on its non-zero columns with every eigenvalue above the
/// floor (a shifted Cholesky succeeds), A′ has full column rank there and every such ℓ is exactly
/// 1; otherwise an eigendecomposition of H, with the same floor and margin as the row path.
ObserverLeverage leverage_of_column_gram(DenseMatrix gram, std::size_t messages, std::size_t rounds,
                                         const DenseMatrix& view, DenseMatrix* whitened) {
  ObserverLeverage out;
  const Index n = gram.rows();
  const auto m = static_cast<Index>(messages);
  out.messages = messages;
  out.leverage = Vector::Zero(n);
  if (whitened != nullptr) *whitened = DenseMatrix::Zero(0, n);
  std::vector<Index> nonzero;
  for (Index j = 0; j < n; ++j)
    if (gram(j, j) > 0.0) nonzero.push_back(j);
  const auto columns = static_cast<Index>(nonzero.size());
  if (columns == 0) return out;
  const double trace = gram.diagonal().sum();
  const double floor_factor = detail::rounding_floor_factor(n, m, rounds);
  const double floor = floor_factor * trace;
  DenseMatrix reduced(columns, columns);
  for (Index j = 0; j < columns; ++j)
    for (Index i = j; i < columns; ++i)
      reduced(i, j) = gram(nonzero[static_cast<std::size_t>(i)], nonzero[static_cast<std::size_t>(j)]);
  gram.resize(0, 0);
  if (m >= columns) {
    DenseMatrix shifted = reduced;
    shifted.diagonal().array() -= 2.0 * floor;
    if (linalg::cholesky_succeeds(shifted)) {
      // λ_min(H) > floor (up to the Cholesky's own rounding, inside the factor 2): full column rank.
      out.rank = static_cast<std::size_t>(columns);
      for (Index j : nonzero) out.leverage[j] = 1.0;
      if (whitened != nullptr) {
        *whitened = DenseMatrix::Zero(columns, n);
        for (Index i = 0; i < columns; ++i) (*whitened)(i, nonzero[static_cast<std::size_t>(i)]) = 1.0;
      }
      return out;
    }
  }
  const linalg::SymmetricEigen eig = linalg::symmetric_eigen(std::move(reduced));  // ascending
  Index rank = 0;
  while (rank < columns && eig.values[columns - 1 - rank] > floor) ++rank;
  out.rank = static_cast<std::size_t>(rank);
  out.rank_decided = rank < std::min(m, columns);
  if (rank == 0) {
    out.rank_decided = true;
    out.margin = 1.0;
    return out;
  }
  const auto basis = eig.vectors.rightCols(rank);  // orthonormal to rounding
  DenseMatrix z = DenseMatrix::Zero(rank, n);
  for (Index i = 0; i < columns; ++i) z.col(nonzero[static_cast<std::size_t>(i)]) = basis.row(i).transpose();
  // The eigenvectors of H span the row space only to about κ(H)·ε; rows built from A′ itself,
  // Λ_r^{-1} (A′V_r)ᵀ A′, span a subspace of it exactly (as in the row path), and the completion then
  // looks only for directions that are really missing.
  DenseMatrix y = linalg::product_transposed(view, z);  // A′V_r (m × r)
  for (Index i = 0; i < rank; ++i) y.col(i) /= eig.values[columns - rank + i];
  z = linalg::transposed_product(y, view);
  const double margin = linalg::orthonormalize_rows(z) ? 0.0 : 1.0;
  return leverage_of_row_space(
      detail::complete_row_space(view, std::move(z), std::sqrt(eig.values[columns - rank]),
                                 std::min(m, columns), floor_factor, margin, kCapMargin),
      std::move(out), whitened);
}

/// The leverages from the Chebyshev basis of the same messages (chebyshev_rows.hpp). Its computed
/// rows Ĉ differ from the exact basis C by at most E = ‖Ĉ − C‖_F (certified), which plays the part
/// the depth term plays for the powers: the floor below which singular values are taken as 0, and
/// from which the margin of the kept subspace follows (s = floor / (σ_r − floor), row_space.hpp), is
/// ε (n + m + 2) ‖Ĉ‖_F + E.
ObserverLeverage chebyshev_view_leverage(const SparseMatrix& w, const ScheduleNeighbours& graphs,
                                         const std::vector<Message>& messages,
                                         const std::vector<NodeId>& observers, DenseMatrix* whitened) {
  detail::ChebyshevRows basis = detail::chebyshev_rows(
      w, graphs.interval(w), timed_senders(messages), sender_blocks_fit(messages), graphs.chebyshev_errors());
  std::optional<DenseMatrix> gram = std::move(basis.gram);
  if (gram) subtract_known_columns(*gram, basis.rows, observers);
  for (NodeId c : observers) basis.rows.col(static_cast<Index>(c)).setZero();
  ObserverLeverage out;
  const Index m = basis.rows.rows();
  const Index n = basis.rows.cols();
  out.messages = static_cast<std::size_t>(m);
  out.leverage = Vector::Zero(n);
  out.chebyshev = true;
  if (whitened != nullptr) *whitened = DenseMatrix::Zero(0, n);
  const Index structural_rank = detail::structural_rank(basis.rows);
  const double norm = basis.rows.norm();
  if (structural_rank == 0 || norm == 0.0) return out;
  const double floor_factor = detail::rounding_floor_factor(n, m, 0) + basis.forward_error / norm;
  return leverage_of_row_space(
      detail::row_space(basis.rows, std::move(gram), floor_factor, structural_rank, kCapMargin, true),
      std::move(out), whitened);
}

/// The leverages from the powers of a fixed W (or the products of a time-varying schedule), given up
/// as soon as the margin must exceed `abandon_margin`.
ObserverLeverage power_view_leverage(const gossip::Schedule& schedule, const ScheduleNeighbours& graphs,
                                     const std::vector<Message>& messages,
                                     const std::vector<NodeId>& observers, DenseMatrix* whitened,
                                     double abandon_margin) {
  // A symmetric fixed W gives the Gram from its powers between the senders, when they fit.
  const bool use_powers = graphs.symmetric_fixed() && sender_blocks_fit(messages);
  SenderPowers powers;
  DenseMatrix view = message_rows(schedule, graphs, messages, use_powers ? &powers : nullptr);
  std::optional<DenseMatrix> gram;
  if (use_powers) {
    gram = detail::gram_from_sender_blocks(timed_senders(messages), powers.senders, powers.blocks,
                                           detail::SenderBasis::powers);
    subtract_known_columns(*gram, view, observers);
  }
  for (NodeId c : observers) view.col(static_cast<Index>(c)).setZero();  // y_c is known
  return leverage_of_view(view, std::move(gram), schedule.rounds(), whitened, abandon_margin);
}

/// Whether a view of this many messages starts in the power basis. Under a fixed symmetric W the
/// Chebyshev basis spans the same space; `powers_for_large_views` (powers_resolve_on) says whether
/// the powers are worth trying first on views of kProbeMessages messages or more.
bool starts_with_powers(const ScheduleNeighbours& graphs, std::size_t messages, bool powers_for_large_views) {
  return !graphs.symmetric_fixed() || powers_for_large_views || messages < kProbeMessages;
}

/// Builds the view of `observers` from its `messages` (received_messages) and its leverages.
ObserverLeverage observer_view_leverage(const gossip::Schedule& schedule, const ScheduleNeighbours& graphs,
                                        const std::vector<NodeId>& observers,
                                        const std::vector<Message>& messages, DenseMatrix* whitened,
                                        bool powers_for_large_views = true) {
  const std::size_t n = schedule.num_nodes();
  if (messages.size() > n) {
    // More messages than nodes: work with the n × n Gram of the columns, with A′ kept for the
    // completion. A view too large to keep is reported at the cap where it reaches (capped_view).
    if (static_cast<double>(messages.size()) * static_cast<double>(n) > kMaxViewEntries) {
      ObserverLeverage out = capped_view(graphs, n, messages, observers);
      if (whitened != nullptr) {  // ℓ = 1 on the reached nodes: the coordinate vectors span them
        *whitened = DenseMatrix::Zero(static_cast<Index>(out.rank), static_cast<Index>(n));
        for (Index u = 0, i = 0; u < static_cast<Index>(n); ++u)
          if (out.leverage[u] > 0.0) (*whitened)(i++, u) = 1.0;
      }
      return out;
    }
    DenseMatrix view = message_rows(schedule, graphs, messages);
    for (NodeId c : observers) view.col(static_cast<Index>(c)).setZero();
    DenseMatrix gram = DenseMatrix::Zero(static_cast<Index>(n), static_cast<Index>(n));
    linalg::add_transposed_gram(gram, view);
    ObserverLeverage out =
        leverage_of_column_gram(std::move(gram), messages.size(), schedule.rounds(), view, whitened);
    for (NodeId c : observers) out.leverage[static_cast<Index>(c)] = 0.0;
    return out;
  }
  const bool chebyshev_possible = graphs.symmetric_fixed();
  const auto chebyshev = [&](DenseMatrix* chebyshev_whitened) {
    return chebyshev_view_leverage(schedule.at(0), graphs, messages, observers, chebyshev_whitened);
  };
  ObserverLeverage out;
  if (!starts_with_powers(graphs, messages.size(), powers_for_large_views)) {
    out = chebyshev(whitened);
  } else {
    // With a Chebyshev basis to try next, the powers are given up as soon as they cannot do better.
    out = power_view_leverage(schedule, graphs, messages, observers, whitened,
                              chebyshev_possible ? kChebyshevRetryMargin : kCapMargin);
    if (chebyshev_possible && out.margin > kChebyshevRetryMargin) {
      DenseMatrix chebyshev_whitened;
      ObserverLeverage retry = chebyshev(whitened != nullptr ? &chebyshev_whitened : nullptr);
      if (retry.margin < out.margin) {
        out = std::move(retry);
        if (whitened != nullptr) whitened->swap(chebyshev_whitened);
      }
    }
  }
  for (NodeId c : observers) out.leverage[static_cast<Index>(c)] = 0.0;
  return out;
}

/// Whether the power basis resolves a view on this schedule, judged on probes: the two observer sets
/// with the fewest messages at or above kProbeMessages that take the row path. Under a fixed
/// symmetric W the power basis of a generic graph is ill-conditioned beyond a few rounds (its
/// margin exceeds kChebyshevRetryMargin, and the view is redone in the Chebyshev basis); on graphs
/// with few distinct eigenvalues, such as hypercubes, the powers stay exact and cheaper. Larger
/// views only add rows of the same depth. True when there are no more large views than probes.
bool powers_resolve_on(const gossip::Schedule& schedule, const ScheduleNeighbours& graphs,
                       const NodeSets& observers, const std::vector<std::size_t>& heard,
                       MessageConvention convention) {
  if (!graphs.symmetric_fixed()) return true;
  std::vector<std::pair<std::size_t, std::size_t>> sizes;  // (messages, observer set)
  for (std::size_t g = 0; g < observers.size(); ++g) {
    const std::size_t m = heard[g];
    if (m >= kProbeMessages && m <= schedule.num_nodes()) sizes.emplace_back(m, g);
  }
  if (sizes.size() <= kProbes) return true;  // probing would cost what trying them all costs
  std::sort(sizes.begin(), sizes.end());
  for (std::size_t p = 0; p < kProbes; ++p) {
    const std::vector<NodeId>& probe = observers[sizes[p].second];
    const auto messages = received_messages(graphs, schedule.rounds(), probe, convention);
    if (power_view_leverage(schedule, graphs, messages, probe, nullptr, kChebyshevRetryMargin).margin <=
        kChebyshevRetryMargin)
      return true;
  }
  return false;
}

void validate(const gossip::Schedule& schedule, const MuffliatoOptions& options) {
  require_positive(options.sigma, "sigma");
  require_positive(options.sensitivity, "sensitivity");
  require(std::isfinite(options.exact_effort) && options.exact_effort >= 0.0,
          "exact_effort must be a finite number of entries >= 0, got {}", options.exact_effort);
  require(schedule.rounds() >= 1, "the number of rounds T must be >= 1, got {}", schedule.rounds());
  require(options.observer_noise == ObserverNoise::known,
          "the exact joint view always knows the observer's own release; --observer-noise counted "
          "applies to the paper's Theorem 1 only (--bound paper)");
  require(options.group_sensitivity == GroupSensitivity::sum_of_absolute,
          "the exact joint view lets every group member move by Δ; --group-sensitivity paper applies to "
          "the paper's Theorem 13 only (--bound paper)");
  detail::require_finite_entries(schedule);
  if (options.require_connected) detail::require_connected_support(schedule);
}

/// The orbits of the nodes under the symmetries of a fixed W (the hints that map W onto itself),
/// when every observer and every target is asked one node at a time; otherwise none.
std::optional<gossip::SymmetryOrbits> observer_orbits(const gossip::Schedule& schedule,
                                                      const NodeSets& observers, const NodeSets& targets,
                                                      const graph::SymmetryHints& hints) {
  const std::size_t n = schedule.num_nodes();
  const auto each_node_alone = [n](const NodeSets& sets) {
    if (sets.size() != n) return false;
    for (std::size_t v = 0; v < n; ++v)
      if (sets[v].size() != 1 || sets[v].front() != v) return false;
    return true;
  };
  if (!schedule.is_fixed() || hints.count == 0 || !each_node_alone(observers) || !each_node_alone(targets))
    return std::nullopt;
  gossip::SymmetryOrbits orbits = gossip::symmetry_orbits(schedule.at(0), hints);
  if (orbits.kept == 0) return std::nullopt;
  return orbits;
}

}  // namespace

ObserverLeverage observer_leverage(const gossip::Schedule& schedule, const std::vector<NodeId>& observers,
                                   MessageConvention messages) {
  const NodeSets sets = detail::validated_node_sets({observers}, schedule.num_nodes(), "observer");
  detail::require_finite_entries(schedule);
  const ScheduleNeighbours graphs(schedule);
  return observer_view_leverage(schedule, graphs, sets.front(),
                                received_messages(graphs, schedule.rounds(), sets.front(), messages),
                                nullptr);
}

MuffliatoLosses muffliato_joint_view_losses(const gossip::Schedule& schedule, const MuffliatoQuery& query,
                                            const MuffliatoOptions& options, JointViewReport* report) {
  validate(schedule, options);
  const std::size_t n = schedule.num_nodes();
  const NodeSets observers = detail::validated_node_sets(query.observers, n, "observer");
  const NodeSets targets = detail::validated_node_sets(query.targets, n, "target");
  ScheduleNeighbours graphs(schedule);
  const bool singletons =
      std::all_of(targets.begin(), targets.end(), [](const auto& set) { return set.size() == 1; });
  // The observers × targets sums and their capped copy; per thread a Gram of min(m, n)² (m × m for
  // a view of m <= n messages, the n × n Gram of its columns beyond), the messages of one observer set (at
  // most T times the neighbours its members have in any round, 16 bytes each, twice for the vector's growth)
  // and its dense rows or sender-power blocks (each at most 64 MiB); the Chebyshev error table of a fixed
  // symmetric W (n (T + 1) values).
  const auto nodes = static_cast<double>(n);
  const auto rounds = static_cast<double>(schedule.rounds());
  const auto threads = static_cast<double>(omp_get_max_threads());
  std::vector<double> most_neighbours(n, 0.0);
  for (std::size_t k = 0; k < graphs.distinct_steps(); ++k)
    for (std::size_t v = 0; v < n; ++v)
      most_neighbours[v] = std::max(most_neighbours[v], static_cast<double>(graphs.step(k)[v].size()));
  double heard_per_round = 0.0;
  for (const std::vector<NodeId>& set : observers) {
    double sum = 0.0;
    for (const NodeId c : set) sum += most_neighbours[c];
    heard_per_round = std::max(heard_per_round, std::min(sum, nodes));
  }
  const double messages = rounds * heard_per_round;
  // The exact certificate adds per thread A′ mod p twice (as built and reduced, 8 bytes per entry,
  // up to options.exact_effort), and the tables of rows modulo its two primes.
  const double gram_side = std::min(messages, nodes);
  const double per_thread = 8.0 * gram_side * gram_side + 32.0 * messages +
                            16.0 * std::min(messages * nodes, kMaxViewEntries) +
                            16.0 * std::min(messages * nodes, options.exact_effort);
  const double table = graphs.symmetric_fixed() ? 8.0 * nodes * (rounds + 1.0) : 0.0;
  // Per pair: the sums and their capped copy, the certificates and lower bounds (25 bytes), and the
  // account's grid made of them (17 more), 40 bytes in all at the peak (measured: 38 on a hypercube).
  const double estimate = 40.0 * static_cast<double>(observers.size()) * static_cast<double>(targets.size()) +
                          threads * per_thread + 32.0 * messages + table;
  util::require_memory(
      estimate, "the Muffliato joint-view accountant",
      fmt::format(
          "40 bytes per (observer, target) pair ({} x {}); per thread a Gram of min(messages, n)^2, the "
          "messages of one view, T = {} rounds x {:.0f} heard per round x 32 bytes, its rows and their exact "
          "copies "
          "modulo a prime (n = {}, {} threads); {}",
          observers.size(), targets.size(), schedule.rounds(), heard_per_round, n, omp_get_max_threads(),
          graphs.symmetric_fixed() ? "the Chebyshev error table, n (T + 1) x 8 bytes" : "no error table"),
      "lower the rounds (`rounds`), account fewer pairs (`observer`, `target`) or use fewer threads "
      "(`threads`)");

  DenseMatrix sums =
      DenseMatrix::Zero(static_cast<Index>(observers.size()), static_cast<Index>(targets.size()));
  // What each sum is: exact arithmetic modulo random primes decides every view's rank and which
  // targets it solves for (docs/explanation/certificates.md).
  MuffliatoLosses::CertificateMatrix kinds =
      MuffliatoLosses::CertificateMatrix::Constant(sums.rows(), sums.cols(), Certificate::exact);
  DenseMatrix lower = DenseMatrix::Zero(sums.rows(), sums.cols());
  detail::ViewCertifier certifier(
      schedule, options.certificate_seed.value_or(detail::fresh_certificate_seed()), options.exact_effort);
  detail::CertifierTotals certified;
  // The union bound's count per view, summed in view order at the end (the same bits every run).
  std::vector<double> bad_primes(observers.size(), 0.0);
  // A symmetry π of a fixed W maps observer p's messages onto π(p)'s, so ℓ_{π(u)}(π(p)) = ℓ_u(p):
  // only each orbit's representative is computed, and the other rows follow from their parents'.
  const std::optional<gossip::SymmetryOrbits> orbits =
      observer_orbits(schedule, observers, targets, options.symmetries);
  // The observer sets each computed one counts for: itself, or its whole orbit (0: not computed).
  std::vector<std::size_t> stands_for(observers.size(), orbits ? 0 : 1);
  if (orbits)
    for (const NodeId representative : orbits->representative) ++stands_for[representative];
  std::vector<std::size_t> computed;
  for (std::size_t g = 0; g < observers.size(); ++g)
    if (stands_for[g] > 0) computed.push_back(g);
  JointViewReport totals;
  totals.observer_sets = observers.size();
  util::ParallelErrors errors;
  std::size_t done = 0;
  const linalg::SingleThreadedBlas single_threaded_blas;
  // How many messages each observer set hears, and the latest message time of any.
  std::vector<std::size_t> heard(observers.size());
  std::size_t last_time = 0;
  for (std::size_t g = 0; g < observers.size(); ++g) {
    const std::vector<Message> messages =
        received_messages(graphs, schedule.rounds(), observers[g], options.messages);
    heard[g] = messages.size();
    if (!messages.empty()) last_time = std::max(last_time, messages.back().time);
  }
  {
    // Every sender's rows modulo the primes, kept once when the views would propagate more.
    double heard_by_computed = 0.0;
    for (const std::size_t g : computed) heard_by_computed += static_cast<double>(heard[g]);
    // The tables only save time: they are kept when they fit in what --max-memory leaves.
    const double kept = detail::ViewCertifier::kept_bytes(n, last_time + 1, schedule.is_fixed());
    const bool keep = heard_by_computed >= static_cast<double>(n) * static_cast<double>(last_time + 1) &&
                      estimate + kept <= util::memory_limit();
    if (keep) certifier.keep_rows(last_time + 1);
    // The ball arithmetic of the views that need it holds what --max-memory leaves, per thread.
    if (util::memory_limit() > 0.0)  // 0: no limit is known
      certifier.set_ball_budget(std::max(0.0, util::memory_limit() - estimate - (keep ? kept : 0.0)) /
                                threads);
  }
  // The basis of the large views is chosen on the whole account's observer sets when this is a
  // share of it (or a sample), so that every share computes each view as the whole account does.
  const NodeSets population =
      query.population.empty() ? NodeSets{} : detail::validated_node_sets(query.population, n, "observer");
  std::vector<std::size_t> population_heard;
  for (const std::vector<NodeId>& set : population)
    population_heard.push_back(received_messages(graphs, schedule.rounds(), set, options.messages).size());
  const NodeSets& deciding = population.empty() ? observers : population;
  const std::vector<std::size_t>& deciding_heard = population.empty() ? heard : population_heard;
  totals.powers_on_large_views =
      powers_resolve_on(schedule, graphs, deciding, deciding_heard, options.messages);
  if (!totals.powers_on_large_views) {
    // The large views go to the Chebyshev basis. Measuring every sender's error bounds once costs
    // n·T sparse steps; each view measuring its own costs its m messages' worth: the table pays
    // when the views hear more than n·T messages in all.
    // (A speed choice made on this account's own views: a sender's bounds are the same measured
    // alone or in the table, chebyshev_rows.hpp.)
    double heard_by_computed = 0.0;
    for (const std::size_t g : computed) heard_by_computed += static_cast<double>(heard[g]);
    if (heard_by_computed >= static_cast<double>(n) * static_cast<double>(schedule.rounds()))
      graphs.keep_chebyshev_errors(schedule.at(0), last_time);
  }
#pragma omp parallel
  {
    JointViewReport local;
    detail::CertifierTotals local_certified;
#pragma omp for schedule(dynamic, 1)
    for (std::size_t i = 0; i < computed.size(); ++i) {
      const std::size_t g = computed[i];
      errors.run(static_cast<std::int64_t>(g), [&] {
        DenseMatrix whitened;
        const std::vector<Message> messages =
            received_messages(graphs, schedule.rounds(), observers[g], options.messages);
        const ObserverLeverage view =
            observer_view_leverage(schedule, graphs, observers[g], messages, singletons ? nullptr : &whitened,
                                   totals.powers_on_large_views);
        const std::size_t count = stands_for[g];
        local.max_messages = std::max(local.max_messages, view.messages);
        local.rank_decisions += view.rank_decided && view.rank > 0 ? count : 0;
        local.no_gap += view.margin >= 1.0 ? count : 0;
        local.max_margin = std::max(local.max_margin, view.margin);
        local.chebyshev += view.chebyshev ? count : 0;
        local.capped_views += view.capped ? count : 0;
        local.dense_spectrum += view.dense_spectrum ? count : 0;
        std::vector<double> raw(targets.size(), 0.0);  // before the margin
        for (std::size_t j = 0; j < targets.size(); ++j) {
          const std::vector<NodeId>& set = targets[j];
          if (set.size() == 1) {
            raw[j] = view.leverage[static_cast<Index>(set.front())];
          } else if (whitened.rows() > 0) {
            // Group: max over d ∈ [−1,1]^U of dᵀ P_UU d, P_UU = Z_Uᵀ Z_U.
            DenseMatrix columns(whitened.rows(), static_cast<Index>(set.size()));
            for (std::size_t k = 0; k < set.size(); ++k)
              columns.col(static_cast<Index>(k)) = whitened.col(static_cast<Index>(set[k]));
            raw[j] = maximize_over_signs(columns.transpose() * columns).certified;
          }
        }
        detail::CertifierTotals view_totals;
        const std::vector<detail::CertifiedSum> values =
            certifier.certify(view, timed_senders(messages), observers[g], targets, raw, view_totals);
        bad_primes[g] = std::exchange(view_totals.bad_prime_count, 0.0);
        local_certified.merge(view_totals, count);
        for (std::size_t j = 0; j < targets.size(); ++j) {
          const auto [gi, ji] = std::pair(static_cast<Index>(g), static_cast<Index>(j));
          sums(gi, ji) = values[j].value;
          kinds(gi, ji) = values[j].kind;
          lower(gi, ji) = values[j].lower;
        }
      });
      if (options.progress) {
#pragma omp critical(netdp_joint_view_progress)
        options.progress(++done, computed.size());
      }
    }
#pragma omp critical(netdp_joint_view_report)
    {
      totals.max_messages = std::max(totals.max_messages, local.max_messages);
      totals.rank_decisions += local.rank_decisions;
      totals.no_gap += local.no_gap;
      totals.max_margin = std::max(totals.max_margin, local.max_margin);
      totals.chebyshev += local.chebyshev;
      totals.capped_views += local.capped_views;
      totals.dense_spectrum += local.dense_spectrum;
      certified.merge(local_certified);
    }
  }
  errors.rethrow();
  if (orbits) {
    // Row v = row p moved by the symmetry π with π(p) = v: S(v, π(x)) = S(p, x).
    for (const NodeId v : orbits->order) {
      const NodeId p = orbits->parent[v];
      if (p == v) continue;
      for (NodeId x = 0; x < n; ++x) {
        const auto to = static_cast<Index>(options.symmetries.image(orbits->via[v], x));
        const auto [vi, pi, xi] =
            std::tuple(static_cast<Index>(v), static_cast<Index>(p), static_cast<Index>(x));
        sums(vi, to) = sums(pi, xi);
        kinds(vi, to) = kinds(pi, xi);
        lower(vi, to) = lower(pi, xi);
      }
    }
  }
  detail::zero_undefined(sums, observers, targets, n);  // the margin widened them too

  std::vector<double> caps;
  caps.reserve(targets.size());
  for (const auto& set : targets) caps.push_back(static_cast<double>(set.size()));
  detail::zero_undefined(lower, observers, targets, n);
  for (const double count : bad_primes) certified.bad_prime_count += count;
  totals.failure_probability = detail::ViewCertifier::failure_probability(certified);
  totals.float_rank_short = certified.float_rank_short;
  totals.over_effort = certified.over_effort;
  totals.reconstructed = certified.reconstructed;
  MuffliatoLosses losses(std::move(sums), std::nullopt, std::move(caps), observers, targets,
                         options.sensitivity, options.sigma);
  losses.set_certificates(std::move(kinds), std::move(lower), totals.failure_probability);
  // The give-ups counted on the pairs themselves (symmetric copies included).
  std::size_t undetermined = 0;
  for (std::size_t i = 0; i < observers.size(); ++i)
    for (std::size_t j = 0; j < targets.size(); ++j)
      undetermined +=
          losses.defined(i, j) && (*losses.certificates())(static_cast<Index>(i), static_cast<Index>(j)) ==
                                      Certificate::cap_undetermined
              ? 1
              : 0;
  std::vector<Diagnostic> warnings = joint_view_warnings(totals);
  append_diagnostics(
      warnings, detail::certifier_warnings(certified, observers.size(), undetermined, options.exact_effort));
  if (certifier.binary_entries() > 0)
    warnings.push_back(
        {DiagnosticKind::binary_weights,
         fmt::format(
             "exact joint view: {} entries of W are no fraction with a denominator below 2^20 (nor 1 minus "
             "their row's other entries); exact arithmetic reads them at their binary value, exactly as "
             "stored",
             certifier.binary_entries()),
         certifier.binary_entries()});
  losses.set_warnings(std::move(warnings));
  if (report != nullptr) *report = totals;
  return losses;
}

std::vector<Diagnostic> joint_view_warnings(const JointViewReport& report) {
  // The floating-point rank decisions and gaps are settled per pair by the certificates
  // (certifier_warnings); what is left here are the views given up for effort.
  std::vector<Diagnostic> out;
  if (report.capped_views > 0) {
    out.push_back(tally_diagnostic(
        DiagnosticKind::effort_limit,
        fmt::format(
            "exact joint view: {{0}} of {{1}} observer sets hear more messages than there are nodes and "
            "their view (m x n above {:.0f} entries) is too large to resolve; every node they reach is "
            "reported at the local-DP cap",
            kMaxViewEntries),
        report.capped_views, report.observer_sets));
  }
  if (report.dense_spectrum > 0) {
    out.push_back(tally_diagnostic(
        DiagnosticKind::effort_limit,
        "exact joint view: {0} observer sets were given up in floating point before reaching the floor, "
        "their "
        "singular values still dense below the Gram's resolution (a limit of effort: such spectra run on "
        "down to the floor, with no gap)",
        report.dense_spectrum));
  }
  return out;
}

}  // namespace netdp::accounting
