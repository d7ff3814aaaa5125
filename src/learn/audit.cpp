#include "netdp/learn/audit.hpp"

#include <omp.h>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <vector>

#include "audit_detail.hpp"
#include "netdp/learn/algorithm.hpp"
#include "netdp/learn/secure_summation.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/parallel_errors.hpp"

namespace netdp::learn {
namespace {

using audit_detail::check_pair;
using audit_detail::kBatch;

/// A row of the protocol state (one entry per run in the batch).
using StateRow = Eigen::Ref<const Eigen::RowVectorXd, 0, Eigen::InnerStride<>>;
/// Receives the k-th message of the observer, for every run of the batch.
using Receive = std::function<void(std::size_t k, const StateRow& row)>;

/// A linear protocol as the audit runs it.
struct LinearProtocol {
  std::size_t inputs = 0;          ///< coordinates of y (per run)
  std::vector<std::size_t> known;  ///< the coordinates the observer knows
  /// Runs the protocol on the columns of y (inputs × B) and calls receive per message, in order.
  std::function<void(const DenseMatrix& y, const Receive& receive)> run;
};

/// The senders v hears under w: the nonzero off-diagonal entries of row v.
std::vector<graph::NodeId> neighbours_at(const SparseMatrix& w, graph::NodeId v) {
  std::vector<graph::NodeId> out;
  for (SparseMatrix::InnerIterator it(w, static_cast<Eigen::Index>(v)); it; ++it) {
    if (it.col() != static_cast<Eigen::Index>(v) && it.value() != 0.0)
      out.push_back(static_cast<graph::NodeId>(it.col()));
  }
  return out;
}

/// The senders the attackers hear under w: neighbours_at of each (a sender heard by two members
/// is listed twice; the repeated message adds nothing to the view).
std::vector<graph::NodeId> senders_at(const SparseMatrix& w, const Attackers& attackers) {
  std::vector<graph::NodeId> out;
  for (const graph::NodeId v : attackers.nodes) {
    const std::vector<graph::NodeId> heard = neighbours_at(w, v);
    out.insert(out.end(), heard.begin(), heard.end());
  }
  return out;
}

/// senders_at for each W_t.
std::vector<std::vector<graph::NodeId>> neighbours_per_round(const gossip::Schedule& schedule,
                                                             const Attackers& attackers) {
  std::vector<std::vector<graph::NodeId>> out(schedule.rounds());
  for (std::size_t t = 0; t < schedule.rounds(); ++t)
    out[t] = t > 0 && schedule.is_fixed() ? out[0] : senders_at(schedule.at(t), attackers);
  return out;
}

/// The observer's view A (messages × inputs) and, once for the test and the direction search,
/// the factorisation of A′ᵀ (A without the columns the observer knows).
struct IdentifiedView {
  DenseMatrix view;
  std::vector<Eigen::Index> unknown;                                      ///< the columns of A′ in A
  DenseMatrix others;                                                     ///< A′
  Eigen::CompleteOrthogonalDecomposition<DenseMatrix> others_transposed;  ///< of A′ᵀ (empty A′: unset)

  /// (A′ᵀ)⁺ b for b with one row per unknown column (zero when A′ is empty).
  DenseMatrix pseudo_solve(const DenseMatrix& b) const {
    if (others.rows() == 0 || others.cols() == 0) return DenseMatrix::Zero(others.rows(), b.cols());
    return others_transposed.solve(b);
  }
};

/// Identifies A by running the protocol on the unit inputs.
IdentifiedView identify_view(const LinearProtocol& protocol) {
  const auto inputs = static_cast<Eigen::Index>(protocol.inputs);
  std::vector<Eigen::RowVectorXd> rows;
  protocol.run(DenseMatrix::Identity(inputs, inputs),
               [&rows](std::size_t, const StateRow& row) { rows.push_back(row); });
  IdentifiedView out;
  out.view.resize(static_cast<Eigen::Index>(rows.size()), inputs);
  for (std::size_t k = 0; k < rows.size(); ++k) out.view.row(static_cast<Eigen::Index>(k)) = rows[k];
  std::vector<bool> known(protocol.inputs, false);
  for (const std::size_t k : protocol.known) known[k] = true;
  for (std::size_t k = 0; k < protocol.inputs; ++k)
    if (!known[k]) out.unknown.push_back(static_cast<Eigen::Index>(k));
  out.others.resize(out.view.rows(), static_cast<Eigen::Index>(out.unknown.size()));
  for (std::size_t j = 0; j < out.unknown.size(); ++j)
    out.others.col(static_cast<Eigen::Index>(j)) = out.view.col(out.unknown[j]);
  if (out.others.rows() > 0 && out.others.cols() > 0) out.others_transposed.compute(out.others.transpose());
  return out;
}

/// The Neyman–Pearson test of shift (inputs × r, one column per release coordinate) on the view,
/// run on trials of both inputs.
AuditResult attack(const LinearProtocol& protocol, const IdentifiedView& identified, const DenseMatrix& shift,
                   double sigma, const AuditOptions& options) {
  require(options.trials >= 1 && options.trials <= kMaxAuditTrials,
          "audit: the trials per input must be in 1..{}, got {}", kMaxAuditTrials, options.trials);
  const DenseMatrix& view = identified.view;
  DenseMatrix shift_others(static_cast<Eigen::Index>(identified.unknown.size()), shift.cols());
  for (std::size_t j = 0; j < identified.unknown.size(); ++j)
    shift_others.row(static_cast<Eigen::Index>(j)) = shift.row(identified.unknown[j]);
  // c_j = (A′ᵀ)⁺ δ′_j; g_j = A′ᵀ c_j = Π_{row(A′)} δ′_j. The known part of the view is subtracted.
  const DenseMatrix c = identified.pseudo_solve(shift_others);
  const DenseMatrix g = identified.others.transpose() * c;
  DenseMatrix known_weights = DenseMatrix::Zero(static_cast<Eigen::Index>(protocol.inputs), shift.cols());
  for (const std::size_t k : protocol.known)
    known_weights.row(static_cast<Eigen::Index>(k)) = c.transpose() * view.col(static_cast<Eigen::Index>(k));
  double separation = 0.0;  // Σ_j ⟨g_j, δ′_j⟩: the statistic's shift
  for (Eigen::Index j = 0; j < shift.cols(); ++j) separation += g.col(j).dot(shift_others.col(j));

  AuditResult result;
  result.trials = options.trials;
  result.messages = static_cast<std::size_t>(view.rows());
  result.dimension = static_cast<std::size_t>(shift.cols());
  result.threshold = separation / 2.0;
  result.attack_mu = g.norm() / sigma;

  // Batch b of input i (0: no shift, 1: shifted) draws its noise from (seed, i, b).
  const std::size_t batches = (options.trials + kBatch - 1) / kBatch;
  const Eigen::Index r = shift.cols();
  std::vector<std::size_t> errors(2 * batches, 0);
  std::atomic<std::size_t> done{0};
  util::ParallelErrors failures;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t job = 0; job < static_cast<std::int64_t>(2 * batches); ++job) {
    failures.run(job, [&] {
      const auto input = static_cast<std::size_t>(job) / batches;
      const auto batch = static_cast<std::size_t>(job) % batches;
      const auto size = static_cast<Eigen::Index>(std::min(kBatch, options.trials - batch * kBatch));
      Rng rng = audit_detail::batch_rng(options.seed, input, batch);
      // Column i·r + j is coordinate j of trial i.
      DenseMatrix y(static_cast<Eigen::Index>(protocol.inputs), size * r);
      fill_standard_normal(y.data(), static_cast<std::size_t>(y.size()), rng);
      y *= sigma;
      if (input == 1) {
        for (Eigen::Index i = 0; i < size; ++i) y.middleCols(i * r, r) += shift;
      }
      Eigen::RowVectorXd per_column = Eigen::RowVectorXd::Zero(size * r);
      for (Eigen::Index i = 0; i < size; ++i) {
        for (Eigen::Index j = 0; j < r; ++j)
          per_column(i * r + j) = -known_weights.col(j).dot(y.col(i * r + j));
      }
      protocol.run(y, [&](std::size_t k, const StateRow& row) {
        const auto m = static_cast<Eigen::Index>(k);
        for (Eigen::Index i = 0; i < size; ++i) {
          for (Eigen::Index j = 0; j < r; ++j) per_column(i * r + j) += c(m, j) * row(i * r + j);
        }
      });
      std::size_t wrong = 0;
      for (Eigen::Index i = 0; i < size; ++i) {
        const bool says_shifted = per_column.segment(i * r, r).sum() > result.threshold;
        wrong += (input == 0 ? says_shifted : !says_shifted) ? 1 : 0;
      }
      errors[static_cast<std::size_t>(job)] = wrong;
      const std::size_t now = done.fetch_add(static_cast<std::size_t>(size)) + static_cast<std::size_t>(size);
      if (options.progress && omp_get_thread_num() == 0) options.progress(now);
    });
  }
  failures.rethrow();
  audit_detail::tally(result, errors, options);
  return result;
}

/// K_u: the target's block of the projector on the row space of A′ (T × T), K_u(s, s′) =
/// e_(u,s)ᵀ Π e_(u,s′).
DenseMatrix target_gram(const IdentifiedView& identified, std::span<const std::size_t> target) {
  DenseMatrix units = DenseMatrix::Zero(static_cast<Eigen::Index>(identified.unknown.size()),
                                        static_cast<Eigen::Index>(target.size()));
  for (std::size_t j = 0; j < identified.unknown.size(); ++j) {
    for (std::size_t s = 0; s < target.size(); ++s)
      if (static_cast<std::size_t>(identified.unknown[j]) == target[s])
        units(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(s)) = 1.0;
  }
  const DenseMatrix projected = identified.others.transpose() * identified.pseudo_solve(units);  // Π e_(u,s)
  return units.transpose() * projected;
}

/// The attacker's direction D (T × r, rows of norm <= 1) maximising tr(Dᵀ K D).
DenseMatrix worst_direction(const DenseMatrix& k, std::size_t release_dimension) {
  const Eigen::Index t = k.rows();
  const Eigen::SelfAdjointEigenSolver<DenseMatrix> eig(k);
  const Eigen::VectorXd top = eig.eigenvectors().col(t - 1);
  if (release_dimension == 1) {
    Eigen::VectorXd best = top.unaryExpr([](double x) { return x >= 0.0 ? 1.0 : -1.0; });
    if (t <= 16) {
      double best_value = best.dot(k * best);
      for (std::uint32_t mask = 0; mask < (1U << (t - 1)); ++mask) {  // d and −d give the same value
        Eigen::VectorXd d(t);
        for (Eigen::Index s = 0; s < t; ++s) d(s) = (s + 1 < t && (mask >> s) & 1U) ? -1.0 : 1.0;
        const double value = d.dot(k * d);
        if (value > best_value) {
          best_value = value;
          best = d;
        }
      }
    } else {
      // Flip single signs while that increases dᵀKd.
      for (bool improved = true; improved;) {
        improved = false;
        for (Eigen::Index s = 0; s < t; ++s) {
          const double gain = -4.0 * best(s) * (k.row(s).dot(best) - k(s, s) * best(s));
          if (gain > 1e-15) {
            best(s) = -best(s);
            improved = true;
          }
        }
      }
    }
    return best;
  }
  // Unit rows of dimension T: V ← rows of K V normalised (ascent on tr(Vᵀ K V) for K ⪰ 0).
  DenseMatrix v = eig.eigenvectors().rowwise().reverse();
  for (Eigen::Index s = 0; s < t; ++s) v.row(s) /= std::max(v.row(s).norm(), 1e-300);
  for (int iteration = 0; iteration < 500; ++iteration) {
    DenseMatrix next = k * v;
    for (Eigen::Index s = 0; s < t; ++s) {
      const double norm = next.row(s).norm();
      if (norm > 0.0)
        next.row(s) /= norm;
      else
        next.row(s) = v.row(s);
    }
    v.swap(next);
  }
  return v;
}

}  // namespace

AuditResult audit_muffliato(const gossip::Schedule& schedule, const Attackers& observer, graph::NodeId target,
                            double sigma, double sensitivity, const AuditOptions& options) {
  const std::size_t n = schedule.num_nodes();
  check_pair(n, observer, target, sigma, sensitivity);
  LinearProtocol protocol;
  protocol.inputs = n;
  protocol.known.assign(observer.nodes.begin(), observer.nodes.end());
  const auto neighbours =
      std::make_shared<std::vector<std::vector<graph::NodeId>>>(neighbours_per_round(schedule, observer));
  protocol.run = [&schedule, neighbours](const DenseMatrix& y, const Receive& receive) {
    DenseMatrix x = y;
    DenseMatrix next(x.rows(), x.cols());
    std::size_t k = 0;
    for (std::size_t t = 0; t < schedule.rounds(); ++t) {
      for (const graph::NodeId w : (*neighbours)[t]) receive(k++, x.row(static_cast<Eigen::Index>(w)));
      if (t + 1 < schedule.rounds()) {
        next.noalias() = schedule.at(t) * x;
        x.swap(next);
      }
    }
  };
  DenseMatrix shift = DenseMatrix::Zero(static_cast<Eigen::Index>(n), 1);
  shift(static_cast<Eigen::Index>(target), 0) = sensitivity;
  return attack(protocol, identify_view(protocol), shift, sigma, options);
}

namespace {

/// Gossip with a noisy injection every round: ψ += y_s at the start of round s, then `steps`
/// gossip steps; the state rows `rows` are observed before (first power 0) or after (1) each
/// step. The observer knows its own injections. The attacker's shift is Δ·D on the target's
/// injections, D from worst_direction of its identified view.
AuditResult audit_injections(const gossip::Schedule& schedule, const Attackers& observer,
                             graph::NodeId target, double sigma, double sensitivity, std::size_t rounds,
                             std::size_t steps, int first_power, std::vector<graph::NodeId> rows,
                             std::size_t release_dimension, const AuditOptions& options) {
  const std::size_t n = schedule.num_nodes();
  require(rounds >= 1 && steps >= 1, "audit: rounds and gossip steps must be >= 1");
  require(first_power == 0 || first_power == 1, "audit: the first power must be 0 or 1, got {}", first_power);
  require(schedule.is_fixed() || schedule.rounds() >= rounds * steps,
          "audit: the schedule has {} matrices, fewer than T·K = {}", schedule.rounds(), rounds * steps);
  LinearProtocol protocol;
  protocol.inputs = n * rounds;  // coordinate s·n + i: node i's injection at round s
  for (std::size_t s = 0; s < rounds; ++s) {
    for (const graph::NodeId v : observer.nodes) protocol.known.push_back(s * n + v);
  }
  protocol.run = [&schedule, rows = std::move(rows), rounds, steps, first_power, n](const DenseMatrix& y,
                                                                                    const Receive& receive) {
    const auto nodes = static_cast<Eigen::Index>(n);
    DenseMatrix state = DenseMatrix::Zero(nodes, y.cols());
    DenseMatrix next(nodes, y.cols());
    std::size_t k = 0;
    const auto observe = [&] {
      for (const graph::NodeId i : rows) receive(k++, state.row(static_cast<Eigen::Index>(i)));
    };
    for (std::size_t s = 0; s < rounds; ++s) {
      state += y.middleRows(static_cast<Eigen::Index>(s) * nodes, nodes);
      for (std::size_t step = 0; step < steps; ++step) {
        if (first_power == 0) observe();
        next.noalias() = schedule.at(s * steps + step) * state;
        state.swap(next);
        if (first_power == 1) observe();
      }
    }
  };
  const IdentifiedView identified = identify_view(protocol);
  std::vector<std::size_t> target_inputs;
  for (std::size_t s = 0; s < rounds; ++s) target_inputs.push_back(s * n + target);
  const DenseMatrix direction = worst_direction(target_gram(identified, target_inputs), release_dimension);
  DenseMatrix shift = DenseMatrix::Zero(static_cast<Eigen::Index>(protocol.inputs), direction.cols());
  for (std::size_t s = 0; s < rounds; ++s) {
    shift.row(static_cast<Eigen::Index>(target_inputs[s])) =
        sensitivity * direction.row(static_cast<Eigen::Index>(s));
  }
  return attack(protocol, identified, shift, sigma, options);
}

/// The nodes whose state row v sees under any W_q (q < used): the support of row v and of column v.
std::vector<graph::NodeId> closed_neighbourhood(const gossip::Schedule& schedule, std::size_t used,
                                                graph::NodeId v) {
  std::vector<graph::NodeId> rows{v};
  for (std::size_t q = 0; q < used; ++q) {
    const SparseMatrix& w = schedule.at(q);
    for (Eigen::Index i = 0; i < w.outerSize(); ++i) {
      for (SparseMatrix::InnerIterator it(w, i); it; ++it) {
        if (it.value() == 0.0) continue;
        if (it.row() == v) rows.push_back(static_cast<graph::NodeId>(it.col()));
        if (it.col() == v) rows.push_back(static_cast<graph::NodeId>(it.row()));
      }
    }
  }
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

}  // namespace

AuditResult audit_linear_system(const gossip::Schedule& schedule, const Attackers& observer,
                                graph::NodeId target, double sigma, double sensitivity,
                                const accounting::LinearSystemOptions& system, std::size_t release_dimension,
                                const AuditOptions& options) {
  check_pair(schedule.num_nodes(), observer, target, sigma, sensitivity);
  require(!system.keep_observer_noise,
          "audit: the observer knows its own injections (keep_observer_noise = false)");
  const int first_power =
      system.first_power.value_or(system.view == accounting::LinearSystemView::plain ? 0 : 1);
  // The observed rows, as the accountant's threat models define them (linear_system.hpp).
  std::vector<graph::NodeId> rows;
  switch (system.view) {
    case accounting::LinearSystemView::secure_sum:
      rows = observer.nodes;
      break;
    case accounting::LinearSystemView::plain:
      rows = {target};
      break;
    case accounting::LinearSystemView::secure_sum_adaptive:
      rows = closed_neighbourhood(schedule, schedule.is_fixed() ? 1 : system.rounds * system.gossip_steps,
                                  target);
      break;
  }
  return audit_injections(schedule, observer, target, sigma, sensitivity, system.rounds, system.gossip_steps,
                          first_power, std::move(rows), release_dimension, options);
}

AuditResult audit_mf(const gossip::Schedule& schedule, const Attackers& observer, graph::NodeId target,
                     double sigma, double sensitivity, std::size_t rounds, std::size_t gossip_steps,
                     std::size_t release_dimension, const AuditOptions& options) {
  check_pair(schedule.num_nodes(), observer, target, sigma, sensitivity);
  require(schedule.is_fixed(), "audit: the MF views use a fixed schedule");
  // PNDP: the messages the observer receives, from each sender w != v with W_vw != 0, every
  // communication round; a message is the sender's state before averaging (powers from 0).
  return audit_injections(schedule, observer, target, sigma, sensitivity, rounds, gossip_steps, 0,
                          senders_at(schedule.at(0), observer), release_dimension, options);
}

}  // namespace netdp::learn
