// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/audit/audit.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <vector>

#include "audit_detail.hpp"
#include "audit_linear.hpp"
#include "netdp/gossip/walk_step.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/memory.hpp"
#include "netdp/util/parallel_errors.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::audit {
namespace detail {
namespace {

/// Relative size of A δ outside range(B′) above which the view is not private in direction δ.
constexpr double kRangeTolerance = 1e-9;

/// Runs the protocol on unit inputs with zero noise (noise = false: the columns of A) or on unit
/// noise with zero inputs (true: the columns of B).
DenseMatrix identify(const LinearProtocol& protocol, bool noise) {
  const auto count = static_cast<Eigen::Index>(noise ? protocol.noises : protocol.inputs);
  const auto other = static_cast<Eigen::Index>(noise ? protocol.inputs : protocol.noises);
  std::vector<Eigen::RowVectorXd> rows;
  const DenseMatrix units = DenseMatrix::Identity(count, count);
  const DenseMatrix zeros = DenseMatrix::Zero(other, count);
  protocol.run(noise ? zeros : units, noise ? units : zeros,
               [&rows](std::size_t, const StateRow& row) { rows.push_back(row); });
  DenseMatrix out(static_cast<Eigen::Index>(rows.size()), count);
  for (std::size_t k = 0; k < rows.size(); ++k) out.row(static_cast<Eigen::Index>(k)) = rows[k];
  return out;
}

template <class Index>
DenseMatrix columns_of(const DenseMatrix& m, const std::vector<Index>& columns) {
  DenseMatrix out(m.rows(), static_cast<Eigen::Index>(columns.size()));
  for (std::size_t j = 0; j < columns.size(); ++j)
    out.col(static_cast<Eigen::Index>(j)) = m.col(static_cast<Eigen::Index>(columns[j]));
  return out;
}

/// The senders v hears under w: the nonzero off-diagonal entries of row v.
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

IdentifiedView::Whitened IdentifiedView::whiten(const DenseMatrix& a) const {
  Whitened out;
  out.h = hidden_pinv * a;
  out.residual = a - hidden_map * out.h;
  out.exposed = out.residual.norm() > kRangeTolerance * std::max(a.norm(), 1e-300);
  return out;
}

void require_audit_memory(double inputs, double noises, double messages, std::size_t rounds) {
  const double threads = static_cast<double>(omp_get_max_threads());
  // The pseudo-inverse of B′ solves against an M x M identity: two M x M matrices at its peak.
  const double bytes = 16.0 * messages * messages + 8.0 * messages * (3.0 * inputs + 4.0 * noises) +
                       32.0 * messages + 8.0 * (inputs * inputs + noises * noises + inputs * noises) +
                       8.0 * threads * static_cast<double>(kBatch) * (inputs + noises);
  util::require_memory(
      bytes, "the audit's simulated view",
      fmt::format("8 bytes per entry of its dense maps: M = {:.3g} messages from T = {} rounds "
                  "(--rounds), M x M for the pseudo-inverse and M x ({:.3g} inputs + {:.3g} noise "
                  "coordinates), several copies",
                  messages, rounds, inputs, noises),
      "lower the rounds (--rounds) or the threads (--threads)");
}

IdentifiedView identify_view(const LinearProtocol& protocol) {
  require_audit_memory(static_cast<double>(protocol.inputs), static_cast<double>(protocol.noises),
                       protocol.messages, protocol.rounds);
  IdentifiedView out;
  out.inputs_map = identify(protocol, false);
  out.noise_map = identify(protocol, true);
  std::vector<bool> known(protocol.noises, false);
  for (const std::size_t k : protocol.known_noises) known[k] = true;
  for (std::size_t k = 0; k < protocol.noises; ++k)
    (known[k] ? out.known : out.hidden).push_back(static_cast<Eigen::Index>(k));
  out.hidden_map = columns_of(out.noise_map, out.hidden);
  out.hidden_pinv = out.hidden_map.size() == 0
                        ? DenseMatrix::Zero(out.hidden_map.cols(), out.hidden_map.rows())
                        : DenseMatrix(out.hidden_map.completeOrthogonalDecomposition().pseudoInverse());
  return out;
}

DenseMatrix worst_shift(const IdentifiedView& view, const std::vector<std::vector<std::size_t>>& classes,
                        double sensitivity, std::size_t release_dimension) {
  DenseMatrix best_direction;
  const std::vector<std::size_t>* best_class = nullptr;
  double best_value = -1.0;
  bool best_exposed = false;
  for (const std::vector<std::size_t>& columns : classes) {
    const IdentifiedView::Whitened w = view.whiten(columns_of(view.inputs_map, columns));
    // Where A_cols leaves range(B′) some change is seen without noise: aim at that part.
    const bool exposed = w.exposed;
    const DenseMatrix k =
        exposed ? DenseMatrix(w.residual.transpose() * w.residual) : DenseMatrix(w.h.transpose() * w.h);
    DenseMatrix direction = worst_direction(k, release_dimension);
    const double value = (direction.transpose() * k * direction).trace();
    if (best_class == nullptr || (exposed && !best_exposed) ||
        (exposed == best_exposed && value > best_value)) {
      best_direction = std::move(direction);
      best_class = &columns;
      best_value = value;
      best_exposed = exposed;
    }
  }
  DenseMatrix shift = DenseMatrix::Zero(view.inputs_map.cols(), best_direction.cols());
  for (std::size_t s = 0; s < best_class->size(); ++s) {
    shift.row(static_cast<Eigen::Index>((*best_class)[s])) =
        sensitivity * best_direction.row(static_cast<Eigen::Index>(s));
  }
  return shift;
}

AuditResult attack(const LinearProtocol& protocol, const IdentifiedView& view, const DenseMatrix& shift,
                   double sigma, const AuditOptions& options) {
  require(options.trials >= 1 && options.trials <= kMaxAuditTrials,
          "audit: the trials per input must be in 1..{}, got {}", kMaxAuditTrials, options.trials);
  const Eigen::Index r = shift.cols();
  // Per release coordinate j: a_j = A δ_j, h_j = B′⁺ a_j, and c_j = (B′ᵀ)⁺ h_j (then s_j = h_jᵀ z′
  // + ‖h_j‖² under the shift), or, when a_j leaves range(B′), c_j = the residual (s_j noiseless).
  const DenseMatrix a = view.inputs_map * shift;
  const IdentifiedView::Whitened w = view.whiten(a);
  const DenseMatrix c = w.exposed ? w.residual : DenseMatrix(view.hidden_pinv.transpose() * w.h);
  // The known noise's part of the statistic, subtracted from it.
  const DenseMatrix known_weights = columns_of(view.noise_map, view.known).transpose() * c;
  const double separation = (c.transpose() * a).trace();

  AuditResult result;
  result.trials = options.trials;
  result.messages = static_cast<std::size_t>(view.inputs_map.rows());
  result.dimension = static_cast<std::size_t>(r);
  result.threshold = separation / 2.0;
  result.attack_mu = w.exposed ? std::numeric_limits<double>::infinity() : w.h.norm() / sigma;

  // Batch b of input i (0: no shift, 1: shifted) draws its noise from (seed, i, b).
  // A batch holds kBatch protocol runs: kBatch / r trials of r release coordinates each.
  const std::size_t per_batch = std::max<std::size_t>(1, kBatch / static_cast<std::size_t>(r));
  const std::size_t batches = (options.trials + per_batch - 1) / per_batch;
  std::vector<std::size_t> errors(2 * batches, 0);
  std::atomic<std::size_t> done{0};
  util::ParallelErrors failures;
  // Each thread reuses its noise and input blocks (a fresh block per batch costs page faults).
  std::vector<DenseMatrix> noise_blocks(static_cast<std::size_t>(omp_get_max_threads()));
  std::vector<DenseMatrix> input_blocks(noise_blocks.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t job = 0; job < static_cast<std::int64_t>(2 * batches); ++job) {
    failures.run(job, [&] {
      const auto input = static_cast<std::size_t>(job) / batches;
      const auto batch = static_cast<std::size_t>(job) % batches;
      const auto size = static_cast<Eigen::Index>(std::min(per_batch, options.trials - batch * per_batch));
      util::Rng rng = batch_rng(options.seed, input, batch);
      // Column i·r + j is coordinate j of trial i.
      DenseMatrix& z = noise_blocks[static_cast<std::size_t>(omp_get_thread_num())];
      z.resize(static_cast<Eigen::Index>(protocol.noises), size * r);
      util::fill_standard_normal(z.data(), static_cast<std::size_t>(z.size()), rng);
      z *= sigma;
      DenseMatrix& g = input_blocks[static_cast<std::size_t>(omp_get_thread_num())];
      g.setZero(static_cast<Eigen::Index>(protocol.inputs), size * r);
      if (input == 1) {
        for (Eigen::Index i = 0; i < size; ++i) g.middleCols(i * r, r) = shift;
      }
      Eigen::RowVectorXd per_column = Eigen::RowVectorXd::Zero(size * r);
      for (Eigen::Index i = 0; i < size; ++i) {
        for (Eigen::Index j = 0; j < r; ++j) {
          for (std::size_t k = 0; k < view.known.size(); ++k)
            per_column(i * r + j) -=
                known_weights(static_cast<Eigen::Index>(k), j) * z(view.known[k], i * r + j);
        }
      }
      protocol.run(g, z, [&](std::size_t k, const StateRow& row) {
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
  tally(result, errors, options);
  return result;
}

LinearProtocol injection_protocol(const gossip::Schedule& schedule, const Injections& spec) {
  const std::size_t n = schedule.num_nodes();
  require(spec.rounds >= 1 && spec.steps >= 1, "audit: rounds and gossip steps must be >= 1");
  require(spec.first_power == 0 || spec.first_power == 1, "audit: the first power must be 0 or 1, got {}",
          spec.first_power);
  require(schedule.is_fixed() || schedule.rounds() >= spec.rounds * spec.steps,
          "audit: the schedule has {} matrices, fewer than T·K = {}", schedule.rounds(),
          spec.rounds * spec.steps);
  require(spec.rows.size() == 1 || spec.rows.size() >= spec.rounds * spec.steps,
          "audit: observed rows for {} of the T·K = {} gossip steps", spec.rows.size(),
          spec.rounds * spec.steps);
  LinearProtocol protocol;
  protocol.inputs = n * spec.rounds;
  protocol.noises = spec.noises;
  protocol.known_noises = spec.known_noises;
  protocol.rounds = spec.rounds;
  if (spec.rows.size() == 1) {
    protocol.messages = static_cast<double>(spec.rounds) * static_cast<double>(spec.steps) *
                        static_cast<double>(spec.rows.front().size());
  } else {
    for (std::size_t q = 0; q < spec.rounds * spec.steps; ++q)
      protocol.messages += static_cast<double>(spec.rows[q].size());
  }
  protocol.run = [&schedule, spec, n](const DenseMatrix& g, const DenseMatrix& z, const Receive& receive) {
    const auto nodes = static_cast<Eigen::Index>(n);
    DenseMatrix state = DenseMatrix::Zero(nodes, g.cols());
    DenseMatrix next(nodes, g.cols());
    std::size_t k = 0;
    const auto observe = [&](std::size_t q) {
      for (const graph::NodeId i : spec.rows[spec.rows.size() == 1 ? 0 : q])
        receive(k++, state.row(static_cast<Eigen::Index>(i)));
    };
    for (std::size_t s = 0; s < spec.rounds; ++s) {
      state += g.middleRows(static_cast<Eigen::Index>(s) * nodes, nodes);
      spec.add_noise(s, z, state);
      for (std::size_t step = 0; step < spec.steps; ++step) {
        const std::size_t q = s * spec.steps + step;
        if (spec.first_power == 0) observe(q);
        next.noalias() = schedule.at(q) * state;
        state.swap(next);
        if (spec.first_power == 1) observe(q);
      }
    }
  };
  return protocol;
}

void use_local_noise(Injections& spec, std::size_t n, std::size_t count, const Attackers& attackers) {
  spec.noises = count * n;
  spec.known_noises.clear();
  for (std::size_t j = 0; j < count; ++j) {
    for (const graph::NodeId v : attackers.nodes) spec.known_noises.push_back(j * n + v);
  }
  spec.add_noise = [n](std::size_t s, const DenseMatrix& z, DenseMatrix& state) {
    state += z.middleRows(static_cast<Eigen::Index>(s * n), static_cast<Eigen::Index>(n));
  };
}

AuditResult attack_worst_shift(const LinearProtocol& protocol,
                               const std::vector<std::vector<std::size_t>>& classes, double sensitivity,
                               std::size_t release_dimension, double sigma, const AuditOptions& options) {
  const IdentifiedView view = identify_view(protocol);
  const DenseMatrix shift = worst_shift(view, classes, sensitivity, release_dimension);
  return attack(protocol, view, shift, sigma, options);
}

std::vector<std::size_t> target_steps(std::size_t n, std::size_t rounds, graph::NodeId target) {
  std::vector<std::size_t> out;
  for (std::size_t s = 0; s < rounds; ++s) out.push_back(s * n + target);
  return out;
}

}  // namespace detail

namespace {

using detail::check_pair;
using detail::Injections;
using detail::LinearProtocol;
using detail::Receive;

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

AuditResult audit_muffliato(const gossip::Schedule& schedule, const Attackers& observer, graph::NodeId target,
                            double sigma, double sensitivity, const AuditOptions& options) {
  const std::size_t n = schedule.num_nodes();
  check_pair(n, observer, target, sigma, sensitivity);
  // Every node releases y = x + η once: inputs and noise share the n coordinates.
  LinearProtocol protocol;
  protocol.inputs = n;
  protocol.noises = n;
  protocol.known_noises.assign(observer.nodes.begin(), observer.nodes.end());
  protocol.rounds = schedule.rounds();
  // Each round the observers hear at most their senders under W_0 (fixed) or every node once per
  // member; checked before the per-round sender lists are built.
  const double heard = schedule.is_fixed()
                           ? static_cast<double>(senders_at(schedule.at(0), observer).size())
                           : static_cast<double>(n) * static_cast<double>(observer.nodes.size());
  protocol.messages = heard * static_cast<double>(schedule.rounds());
  detail::require_audit_memory(static_cast<double>(n), static_cast<double>(n), protocol.messages,
                               schedule.rounds());
  const auto neighbours =
      std::make_shared<std::vector<std::vector<graph::NodeId>>>(neighbours_per_round(schedule, observer));
  protocol.run = [&schedule, neighbours](const DenseMatrix& g, const DenseMatrix& z, const Receive& receive) {
    DenseMatrix x = g + z;
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
  return detail::attack(protocol, detail::identify_view(protocol), shift, sigma, options);
}

AuditResult audit_linear_system(const gossip::Schedule& schedule, const Attackers& observer,
                                graph::NodeId target, double sigma, double sensitivity,
                                const accounting::LinearSystemOptions& system, std::size_t release_dimension,
                                const AuditOptions& options) {
  const std::size_t n = schedule.num_nodes();
  check_pair(n, observer, target, sigma, sensitivity);
  require(!system.keep_observer_noise,
          "audit: the observer knows its own injections (keep_observer_noise = false)");
  Injections spec;
  spec.rounds = system.rounds;
  spec.steps = system.gossip_steps;
  spec.first_power = system.first_power.value_or(system.view == accounting::LinearSystemView::plain ? 0 : 1);
  // The observed rows, as the accountant's threat models define them (linear_system.hpp).
  switch (system.view) {
    case accounting::LinearSystemView::secure_sum:
      spec.rows = {observer.nodes};
      break;
    case accounting::LinearSystemView::plain:
      spec.rows = {std::vector<graph::NodeId>{target}};
      break;
    case accounting::LinearSystemView::secure_sum_adaptive:
      spec.rows = {closed_neighbourhood(
          schedule, schedule.is_fixed() ? 1 : system.rounds * system.gossip_steps, target)};
      break;
  }
  // The injection x_s + u_s: one noise coordinate s·n + i per node and round; the observers know
  // their own.
  detail::use_local_noise(spec, n, system.rounds, observer);
  return detail::attack_worst_shift(detail::injection_protocol(schedule, spec),
                                    {detail::target_steps(n, system.rounds, target)}, sensitivity,
                                    release_dimension, sigma, options);
}

AuditResult audit_muffliato_gd(const gossip::Schedule& schedule, const Attackers& observer,
                               graph::NodeId target, double sigma, double sensitivity,
                               std::size_t gradient_steps, std::size_t gossip_rounds,
                               std::size_t release_dimension, const AuditOptions& options) {
  const std::size_t n = schedule.num_nodes();
  check_pair(n, observer, target, sigma, sensitivity);
  // Step s releases x_s + η_s into the state and gossips K rounds; at round r the observers hear
  // the states of their neighbours under W_r (powers from 0) and know their own releases.
  Injections spec;
  spec.rounds = gradient_steps;
  spec.steps = gossip_rounds;
  spec.first_power = 0;
  spec.rows = neighbours_per_round(schedule, observer);
  if (schedule.is_fixed()) spec.rows.resize(1);
  detail::use_local_noise(spec, n, gradient_steps, observer);
  return detail::attack_worst_shift(detail::injection_protocol(schedule, spec),
                                    {detail::target_steps(n, gradient_steps, target)}, sensitivity,
                                    release_dimension, sigma, options);
}

}  // namespace netdp::audit
