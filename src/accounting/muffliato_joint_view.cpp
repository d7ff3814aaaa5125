// The exact joint view of Muffliato gossip (see muffliato_joint_view.hpp and
// docs/accounting-muffliato.md): per observer set, the rows of W_{0:t} at its senders, the Gram
// of its messages, one eigendecomposition, every target's leverage. Observer sets run in
// parallel (OpenMP), BLAS single-threaded inside.

#include "netdp/accounting/muffliato_joint_view.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <functional>
#include <limits>
#include <optional>
#include <utility>

#include "dense_kernels.hpp"
#include "muffliato_propagation.hpp"
#include "netdp/accounting/sign_max.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::accounting {

namespace {

using graph::NodeId;
using Index = Eigen::Index;
using NodeSets = std::vector<std::vector<NodeId>>;
using Neighbours = std::vector<std::vector<NodeId>>;

/// The floating-point floor of a view's Gram, relative to ‖A′‖_F² = tr(G): rounding of the
/// propagated rows (about 2T ulps each), of the Gram itself (n) and of the eigensolver (m).
double floor_factor_of(Index n, Index m, std::size_t rounds) {
  return std::numeric_limits<double>::epsilon() *
         static_cast<double>(n + m + 2 * static_cast<Index>(rounds) + 2);
}

/// Deflation passes of a view's row space beyond the Gram's resolution (each adds the directions
/// the previous ones could not resolve; one is enough in every case measured).
constexpr int kMaxDeflations = 3;

/// Random probes of the residual before a deflation pass (see residual_is_below).
constexpr Index kProbes = 32;

/// Entries of a view A′ with more messages than nodes kept for its deflation pass: 64 MiB.
constexpr double kMaxViewEntries = 8.0 * 1024 * 1024;

/// Entries of the sender-power blocks kept per observer set (8 bytes each): 64 MiB.
constexpr double kMaxPowerEntries = 8.0 * 1024 * 1024;

/// The communication graphs of a schedule (one for a fixed schedule), and whether it is a fixed
/// symmetric W (then the Gram of a view comes from powers of W).
class ScheduleNeighbours {
 public:
  explicit ScheduleNeighbours(const gossip::Schedule& schedule) {
    const std::size_t distinct = schedule.is_fixed() ? 1 : schedule.rounds();
    for (std::size_t t = 0; t < distinct; ++t) steps_.push_back(detail::step_neighbours(schedule.at(t)));
    if (schedule.is_fixed()) {
      const SparseMatrix& w = schedule.at(0);
      const SparseMatrix transposed = w.transpose();
      symmetric_fixed_ = (w - transposed).cwiseAbs().sum() == 0.0;
    }
  }
  const Neighbours& at(std::size_t t) const { return steps_[steps_.size() == 1 ? 0 : t]; }
  bool symmetric_fixed() const { return symmetric_fixed_; }

 private:
  std::vector<Neighbours> steps_;
  bool symmetric_fixed_ = false;
};

/// A message of the view: sender w's state (W_{0:time} y)_w.
struct Message {
  std::size_t time = 0;
  NodeId sender = 0;
  bool operator<(const Message& o) const { return time != o.time ? time < o.time : sender < o.sender; }
  bool operator==(const Message& o) const { return time == o.time && sender == o.sender; }
};

/// The distinct messages received by the sorted set `observers`, sorted by (time, sender).
std::vector<Message> received_messages(const ScheduleNeighbours& graphs, std::size_t rounds,
                                       const std::vector<NodeId>& observers, MessageConvention convention) {
  const auto member = [&](NodeId w) { return std::binary_search(observers.begin(), observers.end(), w); };
  std::vector<Message> messages;
  const std::size_t shift = convention == MessageConvention::authors_code ? 1 : 0;
  for (std::size_t t = 0; t < rounds; ++t) {
    for (NodeId c : observers) {
      // A colluder's own messages are post-processing of the coalition's view.
      for (NodeId w : graphs.at(t)[c]) {
        if (!member(w)) messages.push_back({t + shift, w});
      }
    }
  }
  std::sort(messages.begin(), messages.end());
  messages.erase(std::unique(messages.begin(), messages.end()), messages.end());
  return messages;
}

/// Powers of a symmetric W between the senders: block k (|S| × |S|) holds (W^k)_{w, w'}.
struct SenderPowers {
  std::vector<NodeId> senders;
  std::vector<DenseMatrix> blocks;
};

using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// next = Wᵀ x for a row-major block x (n × B): row j of W scatters into the rows of its columns.
void propagate_transposed(const SparseMatrix& w, const RowMajorMatrix& x, RowMajorMatrix& next) {
  next.setZero(x.rows(), x.cols());
  const auto width = static_cast<std::size_t>(x.cols());
  for (int j = 0; j < w.outerSize(); ++j) {
    const double* from = x.data() + static_cast<std::size_t>(j) * width;
    for (SparseMatrix::InnerIterator it(w, j); it; ++it) {
      const double a = it.value();
      if (a == 0.0) continue;
      double* to = next.data() + static_cast<std::size_t>(it.col()) * width;
#pragma omp simd
      for (std::size_t c = 0; c < width; ++c) to[c] += a * from[c];
    }
  }
}

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
/// propagates all senders once, forward; with `powers`, it goes on to twice the last message time
/// and keeps the powers between the senders.
void for_each_message_rows(const gossip::Schedule& schedule, const std::vector<Message>& messages,
                           SenderPowers* powers, const RowsSink& sink) {
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
    const SparseMatrix& w = schedule.at(0);
    const std::size_t last = powers != nullptr ? 2 * messages.back().time : messages.back().time;
    for (std::size_t time = 0;; ++time) {
      const std::size_t first = k;
      std::vector<Index> columns;
      for (; k < messages.size() && messages[k].time == time; ++k) {
        columns.push_back(std::lower_bound(senders.begin(), senders.end(), messages[k].sender) -
                          senders.begin());
      }
      if (!columns.empty()) sink(static_cast<Index>(first), x, columns);
      if (powers != nullptr) {
        DenseMatrix block(static_cast<Index>(senders.size()), static_cast<Index>(senders.size()));
        for (std::size_t i = 0; i < senders.size(); ++i)
          block.row(static_cast<Index>(i)) = x.row(static_cast<Index>(senders[i]));
        powers->blocks.push_back(std::move(block));
      }
      if (time == last) break;
      propagate_transposed(w, x, next);
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
      propagate_transposed(schedule.at(step), x, next);
      x.swap(next);
    }
    sink(static_cast<Index>(k), x, columns);
    k = end;
  }
}

/// The view matrix A (m × n, one row per message).
DenseMatrix message_rows(const gossip::Schedule& schedule, const std::vector<Message>& messages,
                         SenderPowers* powers = nullptr) {
  DenseMatrix rows(static_cast<Index>(messages.size()), static_cast<Index>(schedule.num_nodes()));
  for_each_message_rows(schedule, messages, powers,
                        [&](Index first, const RowMajorMatrix& x, const std::vector<Index>& columns) {
                          copy_rows(x, columns, first, rows);
                        });
  return rows;
}

/// The lower triangle of A′ᵀA′ (n × n) accumulated round by round, never holding A′ (for views
/// with more messages than nodes).
DenseMatrix column_gram(const gossip::Schedule& schedule, const std::vector<Message>& messages,
                        const std::vector<NodeId>& observers) {
  const auto n = static_cast<Index>(schedule.num_nodes());
  DenseMatrix gram = DenseMatrix::Zero(n, n);
  DenseMatrix block;
  for_each_message_rows(schedule, messages, nullptr,
                        [&](Index /*first*/, const RowMajorMatrix& x, const std::vector<Index>& columns) {
                          block.resize(static_cast<Index>(columns.size()), n);
                          copy_rows(x, columns, 0, block);
                          for (NodeId c : observers) block.col(static_cast<Index>(c)).setZero();
                          detail::add_transposed_gram(gram, block);
                        });
  return gram;
}

/// The lower Gram A′A′ᵀ of a symmetric fixed W from its powers (no m² n product):
/// G[(τ,w),(σ,w′)] = (W^{τ+σ})_{w w′} − Σ_{c ∈ C} (W^τ)_{wc} (W^σ)_{w′c}, C the observers, whose columns
/// `rows` still holds.
DenseMatrix gram_from_powers(const std::vector<Message>& messages, const SenderPowers& powers,
                             const DenseMatrix& rows, const std::vector<NodeId>& observers) {
  const auto m = static_cast<Index>(messages.size());
  std::vector<Index> index(messages.size());
  for (std::size_t k = 0; k < messages.size(); ++k) {
    index[k] = std::lower_bound(powers.senders.begin(), powers.senders.end(), messages[k].sender) -
               powers.senders.begin();
  }
  DenseMatrix own(m, static_cast<Index>(observers.size()));
  for (std::size_t c = 0; c < observers.size(); ++c)
    own.col(static_cast<Index>(c)) = rows.col(static_cast<Index>(observers[c]));
  DenseMatrix gram = detail::lower_gram(own);
  for (Index j = 0; j < m; ++j) {
    for (Index i = j; i < m; ++i) {
      const DenseMatrix& block = powers.blocks[messages[static_cast<std::size_t>(i)].time +
                                               messages[static_cast<std::size_t>(j)].time];
      gram(i, j) = block(index[static_cast<std::size_t>(i)], index[static_cast<std::size_t>(j)]) - gram(i, j);
    }
  }
  return gram;
}

/// Whether R = A′ − A′ZᵀZ (Z with orthonormal rows) has no singular value above `threshold` / 0.1,
/// from kProbes random left probes h: ‖hᵀR‖ >= σ_1(R)·|⟨h, u_1⟩|, so a σ_1(R) ten times the threshold
/// escapes one probe only when |⟨h, u_1⟩| <= 0.1 ‖h‖ (probability <= 0.08), and all of them with
/// probability <= 0.08^32 < 1e-35. Each probe costs O((m + 2r) n) instead of the residual's 4mrn.
/// Fixed seed: the result is deterministic.
bool residual_is_below(const DenseMatrix& view, const DenseMatrix& z, double threshold) {
  util::Rng rng(0x5eedf00dULL);
  DenseMatrix probes(view.rows(), kProbes);
  for (Index j = 0; j < kProbes; ++j) {
    for (Index i = 0; i < view.rows(); ++i) probes(i, j) = rng.standard_normal();
    probes.col(j).normalize();
  }
  DenseMatrix rows = detail::transposed_product(probes, view);  // hᵀA′ (probes × n)
  detail::subtract_product(rows, detail::product_transposed(rows, z), z);
  return rows.rowwise().norm().maxCoeff() <= threshold;
}

/// The end of both paths: `z` (orthonormal rows) spans what the Gram resolved of row(A′), its
/// smallest singular value `smallest_singular`. The Gram resolves singular values only down to about
/// sqrt(floor): deflate. The residual R = A′ − A′ZᵀZ holds the directions it could not see, at their
/// own scale; its Gram resolves them down to the floating-point floor of A′ itself, ε_f ‖A′‖_F. Then
/// the margin, the leverages and the whitened rows.
void finish_leverage(const DenseMatrix& view, DenseMatrix z, double smallest_singular, Index structural_rank,
                     double floor_factor, double trace, ObserverLeverage& out, DenseMatrix* whitened) {
  const Index m = view.rows();
  const Index n = view.cols();
  Index rank = z.rows();
  const double residual_floor = floor_factor * std::sqrt(trace);
  for (int pass = 0; pass < kMaxDeflations && rank < structural_rank && out.margin < 1.0; ++pass) {
    if (pass == 0 && residual_is_below(view, z, 0.1 * residual_floor)) break;
    DenseMatrix residual = view;
    detail::subtract_product(residual, detail::product_transposed(view, z), z);
    if (residual.norm() <= residual_floor) break;  // nothing left above the floor
    DenseMatrix residual_gram = detail::lower_gram(residual);
    const double residual_trace = residual_gram.diagonal().sum();
    const double cut = std::max(floor_factor * residual_trace, residual_floor * residual_floor);
    const detail::SymmetricEigen more = detail::symmetric_eigen(std::move(residual_gram));
    Index added = 0;
    while (added < m && more.values[m - 1 - added] > cut) ++added;
    if (added == 0) {
      out.margin = 1.0;  // a residual above the floor that no direction explains: trust nothing
      break;
    }
    DenseMatrix more_basis = more.vectors.rightCols(added);
    for (Index i = 0; i < added; ++i) more_basis.col(i) /= std::sqrt(more.values[m - added + i]);
    DenseMatrix z_more = detail::transposed_product(more_basis, residual);
    // Orthogonal to the rows already kept, then orthonormal (twice, for the rounding).
    for (int twice = 0; twice < 2; ++twice) {
      detail::subtract_product(z_more, detail::product_transposed(z_more, z), z);
      if (!detail::orthonormalize_rows(z_more)) out.margin = 1.0;
    }
    DenseMatrix joined(rank + added, n);
    joined << z, z_more;
    z.swap(joined);
    rank += added;
    smallest_singular = std::min(smallest_singular, std::sqrt(more.values[m - added]));
  }
  out.rank = static_cast<std::size_t>(rank);
  // The leverages of an orthonormal basis are accurate to about κ(A′)·ε_f; a rank decision (directions
  // below the floor taken as 0) adds the perturbation of the kept subspace, sin θ <= floor / gap.
  out.rank_decided = rank < structural_rank;
  const double accuracy = residual_floor / smallest_singular;
  const double gap =
      out.rank_decided ? residual_floor / std::max(smallest_singular - residual_floor, 0.0) : 0.0;
  out.margin = std::min(1.0, std::max({out.margin, accuracy, gap}));
  out.leverage = z.colwise().squaredNorm().transpose();
  if (whitened != nullptr) *whitened = std::move(z);
}

/// ℓ for every node from the view A′ (observer columns already zero); also returns the whitened
/// target columns Z = Λ_r^{-1/2} U_rᵀ A′ (r × n) for group maxima.
ObserverLeverage leverage_of_view(const DenseMatrix& view, std::optional<DenseMatrix> known_gram,
                                  std::size_t rounds, DenseMatrix* whitened) {
  ObserverLeverage out;
  const Index m = view.rows();
  const Index n = view.cols();
  out.messages = static_cast<std::size_t>(m);
  out.leverage = Vector::Zero(n);
  if (whitened != nullptr) *whitened = DenseMatrix::Zero(0, n);
  if (m == 0) return out;
  // No view of a node whose column is zero: its leverage is exactly 0, and the rank of A′ is at
  // most the number of non-zero columns (a structural bound, exact arithmetic).
  Index nonzero_columns = 0;
  for (Index j = 0; j < n; ++j) nonzero_columns += view.col(j).cwiseAbs().maxCoeff() > 0.0 ? 1 : 0;
  const Index structural_rank = std::min(m, nonzero_columns);
  if (structural_rank == 0) return out;  // every message is a combination of the observers' own values
  DenseMatrix gram = known_gram ? std::move(*known_gram) : detail::lower_gram(view);
  const double trace = gram.diagonal().sum();
  const double floor_factor = floor_factor_of(n, m, rounds);
  const double floor = floor_factor * trace;
  const detail::SymmetricEigen eig = detail::symmetric_eigen(std::move(gram));  // ascending
  Index rank = 0;
  while (rank < m && eig.values[m - 1 - rank] > floor) ++rank;
  out.rank = static_cast<std::size_t>(rank);
  if (rank == 0) {
    out.rank_decided = true;
    out.margin = 1.0;  // nothing above the floor: no subspace can be trusted
    return out;
  }
  // Whitened rows Z = Λ_r^{-1/2} U_rᵀ A′ span the kept part of A′'s row space but are orthonormal
  // only to about κ(G)·ε: one re-orthonormalisation (Cholesky of Z Zᵀ, as in CholeskyQR2) fixes that
  // without changing the span.
  DenseMatrix basis = eig.vectors.rightCols(rank);
  for (Index i = 0; i < rank; ++i) basis.col(i) /= std::sqrt(eig.values[m - rank + i]);
  DenseMatrix z = detail::transposed_product(basis, view);
  if (!detail::orthonormalize_rows(z)) out.margin = 1.0;  // too far from orthonormal to trust
  finish_leverage(view, std::move(z), std::sqrt(eig.values[m - rank]), structural_rank, floor_factor, trace,
                  out, whitened);
  return out;
}

/// ℓ for every node from H = A′ᵀA′ (lower triangle, n × n): the projector on row(A′) is the one on
/// range(H). When H is positive definite on its non-zero columns with every eigenvalue above the
/// floor (a shifted Cholesky succeeds), A′ has full column rank there and every such ℓ is exactly
/// 1; otherwise an eigendecomposition of H, with the same floor and margin as the row path.
ObserverLeverage leverage_of_column_gram(DenseMatrix gram, std::size_t messages, std::size_t rounds,
                                         const DenseMatrix* view, DenseMatrix* whitened) {
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
  const double floor_factor = floor_factor_of(n, m, rounds);
  const double floor = floor_factor * trace;
  DenseMatrix reduced(columns, columns);
  for (Index j = 0; j < columns; ++j)
    for (Index i = j; i < columns; ++i)
      reduced(i, j) = gram(nonzero[static_cast<std::size_t>(i)], nonzero[static_cast<std::size_t>(j)]);
  gram.resize(0, 0);
  if (m >= columns) {
    DenseMatrix shifted = reduced;
    shifted.diagonal().array() -= 2.0 * floor;
    if (detail::cholesky_succeeds(shifted)) {
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
  const detail::SymmetricEigen eig = detail::symmetric_eigen(std::move(reduced));  // ascending
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
  if (view != nullptr) {
    // The eigenvectors of H span the row space only to about κ(H)·ε; rows built from A′ itself,
    // Λ_r^{-1} (A′V_r)ᵀ A′, span a subspace of it exactly (as in the row path), and deflation then
    // looks only for directions that are really missing.
    DenseMatrix y = detail::product_transposed(*view, z);  // A′V_r (m × r)
    for (Index i = 0; i < rank; ++i) y.col(i) /= eig.values[columns - rank + i];
    z = detail::transposed_product(y, *view);
    if (!detail::orthonormalize_rows(z)) out.margin = 1.0;
    finish_leverage(*view, std::move(z), std::sqrt(eig.values[columns - rank]), std::min(m, columns),
                    floor_factor, trace, out, whitened);
    return out;
  }
  // Without A′ the Gram's rank decision cannot be refined by deflation: a decided rank trusts nothing
  // (the local-DP cap), an undecided one is exact to the eigensolver's accuracy.
  out.margin =
      out.rank_decided ? 1.0 : floor_factor * std::sqrt(eig.values[columns - 1] / eig.values[columns - rank]);
  out.leverage = z.colwise().squaredNorm().transpose();
  if (whitened != nullptr) *whitened = std::move(z);
  return out;
}

/// Builds the view of `observers` and its leverages.
ObserverLeverage observer_view_leverage(const gossip::Schedule& schedule, const ScheduleNeighbours& graphs,
                                        const std::vector<NodeId>& observers, MessageConvention convention,
                                        DenseMatrix* whitened) {
  const std::vector<Message> messages = received_messages(graphs, schedule.rounds(), observers, convention);
  const std::size_t n = schedule.num_nodes();
  if (messages.size() > n) {
    // More messages than nodes: work with the n × n Gram of the columns. A′ is kept for the
    // deflation pass when it fits, else streamed round by round.
    ObserverLeverage out;
    if (static_cast<double>(messages.size()) * static_cast<double>(n) <= kMaxViewEntries) {
      DenseMatrix view = message_rows(schedule, messages);
      for (NodeId c : observers) view.col(static_cast<Index>(c)).setZero();
      DenseMatrix gram = DenseMatrix::Zero(static_cast<Index>(n), static_cast<Index>(n));
      detail::add_transposed_gram(gram, view);
      out = leverage_of_column_gram(std::move(gram), messages.size(), schedule.rounds(), &view, whitened);
    } else {
      out = leverage_of_column_gram(column_gram(schedule, messages, observers), messages.size(),
                                    schedule.rounds(), nullptr, whitened);
    }
    for (NodeId c : observers) out.leverage[static_cast<Index>(c)] = 0.0;
    return out;
  }
  // A symmetric fixed W gives the Gram from its powers between the senders, when they fit.
  std::vector<NodeId> senders;
  for (const Message& m : messages) senders.push_back(m.sender);
  std::sort(senders.begin(), senders.end());
  senders.erase(std::unique(senders.begin(), senders.end()), senders.end());
  const bool use_powers = graphs.symmetric_fixed() && !messages.empty() &&
                          static_cast<double>(senders.size()) * static_cast<double>(senders.size()) *
                                  static_cast<double>(2 * messages.back().time + 1) <=
                              kMaxPowerEntries;
  SenderPowers powers;
  DenseMatrix view = message_rows(schedule, messages, use_powers ? &powers : nullptr);
  std::optional<DenseMatrix> gram;
  if (use_powers) gram = gram_from_powers(messages, powers, view, observers);
  for (NodeId c : observers) view.col(static_cast<Index>(c)).setZero();  // y_c is known
  ObserverLeverage out = leverage_of_view(view, std::move(gram), schedule.rounds(), whitened);
  for (NodeId c : observers) out.leverage[static_cast<Index>(c)] = 0.0;
  return out;
}

/// (sqrt(value) + s·sqrt(size))²: the value of the computed subspace widened by its margin.
double widen(double value, double margin, std::size_t size) {
  const double root = std::sqrt(std::max(value, 0.0)) + margin * std::sqrt(static_cast<double>(size));
  return root * root;
}

void validate(const gossip::Schedule& schedule, const MuffliatoOptions& options) {
  require_positive(options.sigma, "sigma");
  require_positive(options.sensitivity, "sensitivity");
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

}  // namespace

ObserverLeverage observer_leverage(const gossip::Schedule& schedule, const std::vector<NodeId>& observers,
                                   MessageConvention messages) {
  const NodeSets sets = detail::validated_node_sets({observers}, schedule.num_nodes(), "observer");
  detail::require_finite_entries(schedule);
  const ScheduleNeighbours graphs(schedule);
  return observer_view_leverage(schedule, graphs, sets.front(), messages, nullptr);
}

MuffliatoLosses muffliato_joint_view_losses(const gossip::Schedule& schedule, const MuffliatoQuery& query,
                                            const MuffliatoOptions& options, JointViewReport* report) {
  validate(schedule, options);
  const std::size_t n = schedule.num_nodes();
  const NodeSets observers = detail::validated_node_sets(query.observers, n, "observer");
  const NodeSets targets = detail::validated_node_sets(query.targets, n, "target");
  const ScheduleNeighbours graphs(schedule);
  const bool singletons =
      std::all_of(targets.begin(), targets.end(), [](const auto& set) { return set.size() == 1; });

  DenseMatrix sums =
      DenseMatrix::Zero(static_cast<Index>(observers.size()), static_cast<Index>(targets.size()));
  JointViewReport totals;
  totals.observer_sets = observers.size();
  std::exception_ptr failure;
  std::size_t done = 0;
  const detail::SingleThreadedBlas single_threaded_blas;
#pragma omp parallel
  {
    JointViewReport local;
#pragma omp for schedule(dynamic, 1)
    for (std::size_t g = 0; g < observers.size(); ++g) {
      try {
        DenseMatrix whitened;
        const ObserverLeverage view = observer_view_leverage(schedule, graphs, observers[g], options.messages,
                                                             singletons ? nullptr : &whitened);
        local.max_messages = std::max(local.max_messages, view.messages);
        local.rank_decisions += view.rank_decided && view.rank > 0 ? 1 : 0;
        local.no_gap += view.margin >= 1.0 ? 1 : 0;
        local.max_margin = std::max(local.max_margin, view.margin);
        for (std::size_t j = 0; j < targets.size(); ++j) {
          const std::vector<NodeId>& set = targets[j];
          double value = 0.0;
          if (set.size() == 1) {
            value = view.leverage[static_cast<Index>(set.front())];
          } else if (whitened.rows() > 0) {
            // Group: max over d ∈ [−1,1]^U of dᵀ P_UU d, P_UU = Z_Uᵀ Z_U.
            DenseMatrix columns(whitened.rows(), static_cast<Index>(set.size()));
            for (std::size_t k = 0; k < set.size(); ++k)
              columns.col(static_cast<Index>(k)) = whitened.col(static_cast<Index>(set[k]));
            value = maximize_over_signs(columns.transpose() * columns).certified;
          }
          sums(static_cast<Index>(g), static_cast<Index>(j)) = widen(value, view.margin, set.size());
        }
      } catch (...) {
#pragma omp critical(netdp_joint_view_failure)
        if (!failure) failure = std::current_exception();
      }
      if (options.progress) {
#pragma omp critical(netdp_joint_view_progress)
        options.progress(++done, observers.size());
      }
    }
#pragma omp critical(netdp_joint_view_report)
    {
      totals.max_messages = std::max(totals.max_messages, local.max_messages);
      totals.rank_decisions += local.rank_decisions;
      totals.no_gap += local.no_gap;
      totals.max_margin = std::max(totals.max_margin, local.max_margin);
    }
  }
  if (failure) std::rethrow_exception(failure);
  if (report != nullptr) *report = totals;
  detail::zero_undefined(sums, observers, targets, n);  // the margin widened them too

  std::vector<double> caps;
  caps.reserve(targets.size());
  for (const auto& set : targets) caps.push_back(static_cast<double>(set.size()));
  MuffliatoLosses losses(std::move(sums), std::nullopt, std::move(caps), observers, targets,
                         options.sensitivity, options.sigma);
  losses.set_warnings(joint_view_warnings(totals));
  return losses;
}

std::vector<std::string> joint_view_warnings(const JointViewReport& report) {
  std::vector<std::string> out;
  if (report.rank_decisions > 0) {
    out.push_back(fmt::format(
        "exact joint view: the messages of {} of {} observer sets are linearly dependent in floating point; "
        "eigenvalues of their message Gram at or below eps*(n+m+2T+2)*tr(G) were taken as 0 and every "
        "leverage was widened by the perturbation margin of the kept subspace (largest {:.3g})",
        report.rank_decisions, report.observer_sets, report.max_margin));
  }
  if (report.no_gap > 0) {
    out.push_back(
        fmt::format("exact joint view: {} of {} observer sets have no eigenvalue gap above the "
                    "floating-point floor; their "
                    "pairs are reported at the local-DP cap",
                    report.no_gap, report.observer_sets));
  }
  return out;
}

}  // namespace netdp::accounting
