// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The random walk's audit (audit.hpp, audit_random_walk): the walk of Algorithm 1 of Cyffers,
// Bellet & Upadhyay on a sum query, the likelihood ratio of the observer's view of eq. (7), and
// a threshold chosen on calibration runs (docs/reference/audit.md, "The random walk").

#include "audit_walk.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <vector>

#include "audit_detail.hpp"
#include "netdp/accounting/random_walk/random_walk_visits.hpp"
#include "netdp/audit/audit.hpp"
#include "netdp/gossip/walk_step.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/memory.hpp"
#include "netdp/util/parallel_errors.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::audit {
namespace detail {
namespace {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();
constexpr std::size_t kNone = static_cast<std::size_t>(-1);

/// The target's row of f moves up one count (a visit of u); the last count is dropped.
void shift_target_row(DenseMatrix& f, Eigen::Index u) {
  for (Eigen::Index c = f.cols() - 1; c > 0; --c) f(u, c) = f(u, c - 1);
  f(u, 0) = 0.0;
}

}  // namespace

SegmentLaws::SegmentLaws(const SparseMatrix& w, const std::vector<bool>& members, graph::NodeId target,
                         const std::vector<Eigen::VectorXd>& starts, const std::vector<Eigen::VectorXd>& ends,
                         std::size_t max_length, std::size_t counts)
    : ends_(ends.size()), max_length_(max_length), counts_(counts) {
  const auto n = static_cast<Eigen::Index>(w.rows());
  const auto k = static_cast<Eigen::Index>(counts);
  const auto u = static_cast<Eigen::Index>(target);
  const SparseMatrix transposed = w.transpose();
  const auto clear_members = [&members](DenseMatrix& f) {
    for (std::size_t x = 0; x < members.size(); ++x)
      if (members[x]) f.row(static_cast<Eigen::Index>(x)).setZero();
  };
  log_law_.assign(starts.size() * (max_length + 1) * ends_ * counts, kMinusInfinity);
  for (std::size_t s = 0; s < starts.size(); ++s) {
    // f(x, c): the (rescaled) probability that the segment's first L nodes avoid the observers,
    // end at x and hold c visits of u.
    DenseMatrix f = DenseMatrix::Zero(n, k);
    f.col(0) = starts[s];
    clear_members(f);
    shift_target_row(f, u);
    for (std::size_t length = 1; length <= max_length; ++length) {
      for (std::size_t e = 0; e < ends_; ++e) {
        const Eigen::RowVectorXd law = ends[e].transpose() * f;
        const double total = law.sum();
        if (!(total > 0.0)) continue;
        double* out = &log_law_[index(s, length, e)];
        for (Eigen::Index c = 0; c < k; ++c)
          out[c] = law(c) > 0.0 ? std::log(law(c) / total) : kMinusInfinity;
      }
      DenseMatrix next = transposed * f;
      clear_members(next);
      shift_target_row(next, u);
      const double mass = next.sum();
      if (!(mass > 0.0)) break;  // no longer segment avoids v
      f = next / mass;
    }
  }
}

WalkAudit::WalkAudit(const gossip::GossipMatrix& w, const Attackers& observers, graph::NodeId target,
                     double sigma, double sensitivity, std::size_t steps, std::optional<graph::NodeId> start,
                     accounting::RandomWalkView view)
    : w_(w.matrix()),
      member_(w.num_nodes(), false),
      member_index_(w.num_nodes(), kNone),
      target_(target),
      sigma_(sigma),
      sensitivity_(sensitivity),
      steps_(steps),
      start_(start),
      start_index_(w.num_nodes(), kNone) {
  const std::size_t n = w.num_nodes();
  for (std::size_t i = 0; i < observers.nodes.size(); ++i) {
    member_[observers.nodes[i]] = true;
    member_index_[observers.nodes[i]] = i;
  }
  members_ = observers.nodes.size();
  // Starts: the nodes outside the coalition it may send the token to, then the walk's start law.
  std::vector<Eigen::VectorXd> starts;
  for (const graph::NodeId m : observers.nodes) {
    for (SparseMatrix::InnerIterator it(w_, static_cast<Eigen::Index>(m)); it; ++it) {
      const auto y = static_cast<std::size_t>(it.col());
      if (it.value() <= 0.0 || member_[y] || start_index_[y] != kNone) continue;
      start_index_[y] = starts.size();
      starts.push_back(Eigen::VectorXd::Unit(static_cast<Eigen::Index>(n), it.col()));
    }
  }
  if (!start || !member_[*start]) {
    initial_ = starts.size();
    Eigen::VectorXd law = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(n));
    if (start) {
      law(static_cast<Eigen::Index>(*start)) = 1.0;
    } else {  // uniform, given that it is not an observer
      for (std::size_t x = 0; x < n; ++x)
        if (!member_[x]) law(static_cast<Eigen::Index>(x)) = 1.0 / static_cast<double>(n - members_);
    }
    starts.push_back(law);
  }
  // Ends: the step into the coalition, told apart by the member receiving the token and, when
  // the sender is known, by the sender: end_index_[x · members + i] for sender x and member i.
  end_index_.assign(n * members_, kNone);
  std::vector<Eigen::VectorXd> ends;
  for (std::size_t i = 0; i < members_; ++i) {
    const auto m = static_cast<Eigen::Index>(observers.nodes[i]);
    if (view == accounting::RandomWalkView::anonymous_sender)
      ends.push_back(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(n)));
    for (std::size_t x = 0; x < n; ++x) {
      const double p = w_.coeff(static_cast<Eigen::Index>(x), m);
      if (member_[x] || p <= 0.0) continue;
      if (view == accounting::RandomWalkView::sender_known)
        ends.push_back(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(n)));
      ends.back()(static_cast<Eigen::Index>(x)) = p;
      end_index_[x * members_ + i] = ends.size() - 1;
    }
  }
  // No segment holds more visits of u than a walk of `steps` steps from u, whose tail below
  // kVisitTailFloor is dropped (visit_tail: counts 0..K are tracked).
  const std::size_t counts = accounting::visit_tail(w, target, steps).size();
  const double doubles = static_cast<double>(starts.size()) * static_cast<double>(steps + 1) *
                         static_cast<double>(ends.size()) * static_cast<double>(counts);
  util::require_memory(8.0 * doubles, "the random-walk audit's segment laws",
                       "(starts) × (T + 1) × (ends told apart) × (visit counts) × 8 bytes",
                       "use fewer --rounds, fewer colluders, or the anonymous view");
  laws_.emplace(w_, member_, target, starts, ends, steps, counts);
}

double WalkAudit::run(util::Rng& rng, bool shifted, std::size_t& messages) const {
  const std::size_t n = static_cast<std::size_t>(w_.rows());
  std::size_t holder = start_ ? *start_ : static_cast<std::size_t>(rng.uniform_below(n));
  double token = 0.0;
  double after_visit = 0.0;     // the token as the observer sent it on
  std::size_t segment = kNone;  // the start of the segment now unseen
  std::size_t since = 0;        // its first step
  if (!member_[holder]) segment = initial_;
  std::size_t previous = kNone;
  double statistic = 0.0;
  messages = 0;
  for (std::size_t t = 0; t < steps_; ++t) {
    if (member_[holder]) {
      ++messages;
      if (segment != kNone && t > since)
        statistic += segment_ratio(
            segment, t - since, end_index_[previous * members_ + member_index_[holder]], token - after_visit);
      token += sigma_ * rng.standard_normal();  // the observer's own step, known to it
      after_visit = token;
      previous = holder;
      holder = gossip::draw_next_holder(w_, holder, rng);
      segment = member_[holder] ? kNone : start_index_[holder];
      since = t + 1;
      continue;
    }
    token += sigma_ * rng.standard_normal() + (shifted && holder == target_ ? sensitivity_ : 0.0);
    previous = holder;
    holder = gossip::draw_next_holder(w_, holder, rng);
  }
  return statistic;
}

double WalkAudit::segment_ratio(std::size_t start, std::size_t length, std::size_t end,
                                double increment) const {
  const double* law = laws_->log_law(start, length, end);
  const double variance = static_cast<double>(length) * sigma_ * sigma_;
  const auto term = [&](std::size_t c) {
    const double shift = static_cast<double>(c) * sensitivity_;
    return law[c] + (shift * increment - 0.5 * shift * shift) / variance;
  };
  double top = kMinusInfinity;
  for (std::size_t c = 0; c < laws_->counts(); ++c) top = std::max(top, term(c));
  if (top == kMinusInfinity) return 0.0;  // unreachable: the walk took this segment
  double sum = 0.0;
  for (std::size_t c = 0; c < laws_->counts(); ++c) sum += std::exp(term(c) - top);
  return top + std::log(sum);
}

}  // namespace detail

namespace {

using detail::kBatch;
using detail::WalkAudit;
constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

/// Runs `runs` walks of stream `stream` in parallel batches; consume(batch, statistics) is called
/// once per batch (from any thread). Returns the most visits the observer saw in one run.
template <class Consume>
std::size_t simulate(const WalkAudit& audit, std::size_t runs, std::uint64_t stream, bool shifted,
                     const AuditOptions& options, std::atomic<std::size_t>& done, const Consume& consume) {
  const std::size_t batches = (runs + kBatch - 1) / kBatch;
  std::vector<std::size_t> most(batches, 0);
  util::ParallelErrors failures;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t job = 0; job < static_cast<std::int64_t>(batches); ++job) {
    failures.run(job, [&] {
      const auto batch = static_cast<std::size_t>(job);
      const std::size_t size = std::min(kBatch, runs - batch * kBatch);
      util::Rng rng = detail::batch_rng(options.seed, stream, batch);
      std::vector<double> statistics(size);
      for (std::size_t i = 0; i < size; ++i) {
        std::size_t messages = 0;
        statistics[i] = audit.run(rng, shifted, messages);
        most[batch] = std::max(most[batch], messages);
      }
      consume(batch, statistics);
      const std::size_t now = done.fetch_add(size) + size;
      if (options.progress && omp_get_thread_num() == 0) options.progress(now);
    });
  }
  failures.rethrow();
  return most.empty() ? 0 : *std::max_element(most.begin(), most.end());
}

/// The threshold whose test ("shifted" when the statistic exceeds it) has the largest ε lower
/// bound on the calibration runs: candidates at ranks 0, 1, 2, … (growing by a quarter) from both
/// ends of both sorted samples.
double choose_threshold(std::vector<double> without, std::vector<double> with, const AuditOptions& options) {
  std::sort(without.begin(), without.end());
  std::sort(with.begin(), with.end());
  const std::size_t m = without.size();
  std::vector<std::size_t> ranks;
  for (std::size_t r = 0; r < m; r = std::max(r + 1, r + r / 4)) ranks.push_back(r);
  std::vector<double> candidates;
  for (const std::size_t r : ranks) {
    candidates.push_back(without[m - 1 - r]);
    candidates.push_back(without[r]);
    candidates.push_back(std::nextafter(with[r], kMinusInfinity));
    candidates.push_back(std::nextafter(with[m - 1 - r], kMinusInfinity));
  }
  double best = candidates.front();
  double best_epsilon = -1.0;
  for (const double t : candidates) {
    const auto fp =
        static_cast<std::size_t>(without.end() - std::upper_bound(without.begin(), without.end(), t));
    const auto fn = static_cast<std::size_t>(std::upper_bound(with.begin(), with.end(), t) - with.begin());
    const double epsilon = dp::privacy_lower_bound(fp, m, fn, m, options.confidence, options.delta).epsilon;
    if (epsilon > best_epsilon) {
      best_epsilon = epsilon;
      best = t;
    }
  }
  return best;
}

}  // namespace

AuditResult audit_random_walk(const gossip::GossipMatrix& w, const Attackers& observer, graph::NodeId target,
                              double sigma, double sensitivity, std::size_t steps,
                              std::optional<graph::NodeId> start, accounting::RandomWalkView view,
                              const AuditOptions& options) {
  detail::check_pair(w.num_nodes(), observer, target, sigma, sensitivity);
  require(steps >= 1, "audit: the walk needs at least one step, got {}", steps);
  require(!start || *start < w.num_nodes(), "audit: the walk's start {} is not a node 0..{}",
          start.value_or(0), w.num_nodes() - 1);
  require(options.trials >= 1 && options.trials <= kMaxAuditTrials,
          "audit: the trials per input must be in 1..{}, got {}", kMaxAuditTrials, options.trials);
  const WalkAudit audit(w, observer, target, sigma, sensitivity, steps, start, view);

  AuditResult result;
  result.trials = options.trials;
  result.calibration_trials = std::min(options.trials, kMaxWalkCalibrationTrials);
  std::atomic<std::size_t> done{0};
  std::vector<std::vector<double>> calibration(2, std::vector<double>(result.calibration_trials));
  for (std::size_t input = 0; input < 2; ++input) {
    result.messages = std::max(
        result.messages,
        simulate(audit, result.calibration_trials, 2 + input, input == 1, options, done,
                 [&](std::size_t batch, const std::vector<double>& statistics) {
                   std::copy(statistics.begin(), statistics.end(),
                             calibration[input].begin() + static_cast<std::ptrdiff_t>(batch * kBatch));
                 }));
  }
  result.threshold = choose_threshold(std::move(calibration[0]), std::move(calibration[1]), options);

  const std::size_t batches = (options.trials + kBatch - 1) / kBatch;
  std::vector<std::size_t> errors(2 * batches, 0);
  for (std::size_t input = 0; input < 2; ++input) {
    result.messages = std::max(
        result.messages, simulate(audit, options.trials, input, input == 1, options, done,
                                  [&](std::size_t batch, const std::vector<double>& statistics) {
                                    std::size_t wrong = 0;
                                    for (const double s : statistics)
                                      wrong +=
                                          (input == 0 ? s > result.threshold : s <= result.threshold) ? 1 : 0;
                                    errors[input * batches + batch] = wrong;
                                  }));
  }
  detail::tally(result, errors, options);
  return result;
}

}  // namespace netdp::audit
