// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The random walk's audit: the segment laws equal the enumeration of the hidden paths, the
// statistic is the exact log-likelihood ratio of the view (it integrates to one, and in a Gaussian
// case it has the Gaussian's law), the paper's expected count T/n is refuted where it
// under-reports, and the valid counts never are.
#include "../../src/audit/audit_walk.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/accounting/random_walk/pairwise_random_walk.hpp"
#include "netdp/audit/audit.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/spec.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::audit {
namespace {

using accounting::RandomWalkView;

gossip::GossipMatrix walk_matrix(const std::string& spec,
                                 gossip::Weighting weighting = gossip::Weighting::hamilton) {
  return gossip::make_gossip_matrix(graph::from_spec(spec), weighting);
}

/// The random-walk accountant's row for one observer or coalition (ε at δ = 1e-5).
accounting::PairRow walk_claim(const gossip::GossipMatrix& w, std::size_t steps, const Attackers& observers,
                               graph::NodeId target, double sigma, accounting::ContributionCount count,
                               RandomWalkView view) {
  accounting::Protocol p(w);
  p.rounds = steps;
  accounting::PairQuery q;
  if (observers.nodes.size() == 1) {
    q.observer = observers.nodes.front();
  } else {
    q.colluders = observers.nodes;
  }
  q.target = target;
  accounting::RandomWalkOptions options;
  options.count = count;
  options.view = view;
  accounting::PairRow row;
  accounting::random_walk_account(p, q, options)->stream_rows(sigma, 1e-5, [&row](auto rows) {
    row = rows.front();
  });
  return row;
}

TEST(WalkAudit, SegmentLawsMatchTheEnumerationOfPaths) {
  // A lazy irregular graph: self-loops, and the target may be visited several times per segment.
  // One observer, and a coalition whose members are told apart as the token reaches them.
  const gossip::GossipMatrix w =
      walk_matrix("er:n=6,p=0.6,seed=4,connected=1", gossip::Weighting::metropolis);
  const SparseMatrix& m = w.matrix();
  const std::size_t n = w.num_nodes();
  const graph::NodeId u = 1;
  const std::size_t max_length = 5;
  const std::size_t counts = max_length + 1;
  std::size_t checked = 0;
  for (const std::vector<graph::NodeId>& coalition :
       {std::vector<graph::NodeId>{0}, std::vector<graph::NodeId>{0, 3}}) {
    std::vector<bool> members(n, false);
    for (const graph::NodeId v : coalition) members[v] = true;
    std::vector<Eigen::VectorXd> starts;
    Eigen::VectorXd spread = Eigen::VectorXd::LinSpaced(static_cast<Eigen::Index>(n), 0.0, 1.0);
    for (std::size_t x = 0; x < n; ++x) {
      if (members[x]) {
        spread(static_cast<Eigen::Index>(x)) = 0.0;
      } else {
        starts.push_back(Eigen::VectorXd::Unit(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(x)));
      }
    }
    starts.push_back(spread / spread.sum());
    // Ends: per member (anonymous), and per (sender, member) when the sender is known.
    std::vector<Eigen::VectorXd> anonymous_ends;
    std::vector<Eigen::VectorXd> known_ends;
    std::vector<std::pair<std::size_t, std::size_t>> known_pairs;  // (sender, member index)
    for (std::size_t i = 0; i < coalition.size(); ++i) {
      anonymous_ends.push_back(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(n)));
      for (std::size_t x = 0; x < n; ++x) {
        const double p = m.coeff(static_cast<Eigen::Index>(x), static_cast<Eigen::Index>(coalition[i]));
        if (members[x] || p <= 0.0) continue;
        anonymous_ends.back()(static_cast<Eigen::Index>(x)) = p;
        known_ends.push_back(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(n)));
        known_ends.back()(static_cast<Eigen::Index>(x)) = p;
        known_pairs.emplace_back(x, i);
      }
    }
    ASSERT_GE(known_pairs.size(), 2u);
    const detail::SegmentLaws anonymous(m, members, u, starts, anonymous_ends, max_length, counts);
    const detail::SegmentLaws known(m, members, u, starts, known_ends, max_length, counts);

    for (std::size_t s = 0; s < starts.size(); ++s) {
      for (std::size_t length = 1; length <= max_length; ++length) {
        // P(path, then the step into member i) by (last node, member, count), over every path of
        // `length` nodes outside the coalition.
        std::vector<std::vector<std::vector<double>>> mass(
            n, std::vector<std::vector<double>>(coalition.size(), std::vector<double>(counts, 0.0)));
        std::vector<std::size_t> path(length);
        const std::function<void(std::size_t, double, std::size_t)> extend = [&](std::size_t i, double p,
                                                                                 std::size_t c) {
          if (i == length) {
            const std::size_t last = path[length - 1];
            for (std::size_t k = 0; k < coalition.size(); ++k)
              mass[last][k][c] +=
                  p * m.coeff(static_cast<Eigen::Index>(last), static_cast<Eigen::Index>(coalition[k]));
            return;
          }
          for (std::size_t x = 0; x < n; ++x) {
            if (members[x]) continue;
            const double step =
                i == 0 ? starts[s](static_cast<Eigen::Index>(x))
                       : m.coeff(static_cast<Eigen::Index>(path[i - 1]), static_cast<Eigen::Index>(x));
            if (step <= 0.0) continue;
            path[i] = x;
            extend(i + 1, p * step, c + (x == u ? 1 : 0));
          }
        };
        extend(0, 1.0, 0);
        const auto check = [&](const double* log_law, const std::vector<double>& expected,
                               const std::string& what) {
          double sum = 0.0;
          for (const double p : expected) sum += p;
          for (std::size_t c = 0; c < counts; ++c) {
            EXPECT_NEAR(std::exp(log_law[c]), sum > 0.0 ? expected[c] / sum : 0.0, 1e-12)
                << what << " coalition size " << coalition.size() << " start " << s << " length " << length
                << " count " << c;
            ++checked;
          }
        };
        for (std::size_t i = 0; i < coalition.size(); ++i) {
          std::vector<double> total(counts, 0.0);
          for (std::size_t x = 0; x < n; ++x)
            for (std::size_t c = 0; c < counts; ++c) total[c] += mass[x][i][c];
          check(anonymous.log_law(s, length, i), total, "anonymous");
        }
        for (std::size_t e = 0; e < known_pairs.size(); ++e)
          check(known.log_law(s, length, e), mass[known_pairs[e].first][known_pairs[e].second],
                "sender known");
      }
    }
  }
  EXPECT_GT(checked, 1000u);
}

/// Mean and standard error of f over `runs` runs of the audited walk.
std::pair<double, double> mean_of(const detail::WalkAudit& audit, bool shifted, std::size_t runs,
                                  const std::function<double(double)>& f) {
  util::Rng rng(7);
  double sum = 0.0;
  double squares = 0.0;
  for (std::size_t i = 0; i < runs; ++i) {
    std::size_t messages = 0;
    const double x = f(audit.run(rng, shifted, messages));
    sum += x;
    squares += x * x;
  }
  const double mean = sum / static_cast<double>(runs);
  const double variance = squares / static_cast<double>(runs) - mean * mean;
  return {mean, std::sqrt(std::max(variance, 0.0) / static_cast<double>(runs))};
}

TEST(WalkAudit, TheStatisticIsTheLikelihoodRatioOfTheView) {
  // For the exact log-likelihood ratio Λ of the view, E_0[e^Λ] = 1 and E_1[e^−Λ] = 1 whatever the
  // mixture; a wrong segment law would tilt one of them.
  const gossip::GossipMatrix w = walk_matrix("karate");
  for (const RandomWalkView view : {RandomWalkView::anonymous_sender, RandomWalkView::sender_known}) {
    for (const std::optional<graph::NodeId> start :
         {std::optional<graph::NodeId>{}, std::optional<graph::NodeId>{5}}) {
      // One observer, and the coalition {0, 33} with the same start.
      const detail::WalkAudit audit(w, start ? Attackers(0) : Attackers(std::vector<graph::NodeId>{0, 33}), 5,
                                    2.0, 1.0, 40, start, view);
      const auto [up, up_error] = mean_of(audit, false, 50000, [](double s) { return std::exp(s); });
      const auto [down, down_error] = mean_of(audit, true, 50000, [](double s) { return std::exp(-s); });
      EXPECT_NEAR(up, 1.0, 5.0 * up_error + 1e-3);
      EXPECT_NEAR(down, 1.0, 5.0 * down_error + 1e-3);
      EXPECT_LT(up_error, 0.05);  // the check above has power
      EXPECT_LT(mean_of(audit, false, 20000, [](double s) { return s; }).first, 0.0);  // −KL(P_0‖P_1)
      EXPECT_GT(mean_of(audit, true, 20000, [](double s) { return s; }).first, 0.0);   // KL(P_1‖P_0)
    }
  }
}

TEST(WalkAudit, AGaussianViewGivesTheGaussianStatistic) {
  // Two nodes passing the token back and forth from the target: the observer sees each of the
  // target's 5 contributions alone, so Λ ~ N(∓μ²/2, μ²) with μ² = 5Δ²/σ² (the optimal test of
  // 5 Gaussian contributions), and the audit's μ estimate meets μ.
  SparseMatrix swap(2, 2);
  swap.insert(0, 1) = 1.0;
  swap.insert(1, 0) = 1.0;
  const gossip::GossipMatrix w(swap, graph::from_spec("path:n=2"));
  const double sigma = 2.0;
  const double mu2 = 5.0 / (sigma * sigma);
  const detail::WalkAudit audit(w, 1, 0, sigma, 1.0, 10, 0, RandomWalkView::anonymous_sender);
  for (const bool shifted : {false, true}) {
    const auto [mean, error] = mean_of(audit, shifted, 200000, [](double s) { return s; });
    EXPECT_NEAR(mean, (shifted ? 0.5 : -0.5) * mu2, 5.0 * error);
    const double m = mean;
    const auto [second, second_error] =
        mean_of(audit, shifted, 200000, [m](double s) { return (s - m) * (s - m); });
    EXPECT_NEAR(second, mu2, 5.0 * second_error);
  }
  AuditOptions options;
  options.trials = 1000000;
  const AuditResult r =
      audit_random_walk(w, 1, 0, sigma, 1.0, 10, 0, RandomWalkView::anonymous_sender, options);
  EXPECT_EQ(r.messages, 5u);
  EXPECT_NEAR(r.bound.mu_estimate, std::sqrt(mu2), 0.05 * std::sqrt(mu2));
  EXPECT_LE(r.bound.mu, std::sqrt(mu2));
}

TEST(WalkAudit, ThePapersExpectedCountIsRefuted) {
  // T = 10 < n: the paper composes N_u = T/n < 1 contributions, but a walk started at a leaf target
  // hands the token to its only neighbour, which sees the target's contribution alone.
  struct Refuted {
    std::string graph;
    graph::NodeId observer;
    graph::NodeId target;
    double sigma;
  };
  for (const Refuted& c : {Refuted{"karate", 0, 11, 3.0}, Refuted{"path:n=20", 1, 0, 1.0}}) {
    const gossip::GossipMatrix w = walk_matrix(c.graph);
    const accounting::PairRow paper =
        walk_claim(w, 10, c.observer, c.target, c.sigma, accounting::ContributionCount::expected,
                   RandomWalkView::anonymous_sender);
    EXPECT_LT(*paper.contributions, 1.0) << c.graph;
    const AuditResult r = audit_random_walk(w, c.observer, c.target, c.sigma, 1.0, 10, c.target,
                                            RandomWalkView::anonymous_sender, AuditOptions{});
    EXPECT_GT(r.bound.epsilon, paper.epsilon) << c.graph;
    EXPECT_FALSE(r.attack_mu.has_value());
    EXPECT_EQ(r.calibration_trials, kMaxWalkCalibrationTrials);  // min(trials, the cap)
  }
}

TEST(WalkAudit, ValidCountsAreNeverRefuted) {
  const std::vector<std::string> graphs = {
      "karate", "ring:n=8", "star:n=7", "er:n=12,p=0.3,seed=5,connected=1", "path:n=6", "florentine"};
  const std::size_t cases = 24;
  util::Rng pick(11);
  for (std::size_t i = 0; i < cases; ++i) {
    const gossip::GossipMatrix w = walk_matrix(graphs[i % graphs.size()]);
    const std::size_t n = w.num_nodes();
    const auto observer = static_cast<graph::NodeId>(pick.uniform_below(n));
    auto target = static_cast<graph::NodeId>(pick.uniform_below(n - 1));
    if (target >= observer) ++target;
    // Every fifth case a coalition: the observer and another node (eq. 17's claim).
    std::vector<graph::NodeId> observers{observer};
    if (i % 5 == 4) {
      for (graph::NodeId v = 0; v < n && observers.size() < 2; ++v)
        if (v != observer && v != target) observers.push_back(v);
    }
    const double sigma = std::vector<double>{0.5, 1.0, 2.0, 4.0}[i % 4];
    const std::size_t steps = 5 + pick.uniform_below(36);
    const RandomWalkView view = i % 3 == 0 ? RandomWalkView::sender_known : RandomWalkView::anonymous_sender;
    const std::optional<graph::NodeId> start =
        i % 2 == 0 ? std::optional<graph::NodeId>{} : std::optional<graph::NodeId>(target);
    const accounting::ContributionCount count =
        i % 4 == 1 ? accounting::ContributionCount::worst_case : accounting::ContributionCount::tail;
    const accounting::PairRow claim = walk_claim(w, steps, observers, target, sigma, count, view);
    AuditOptions options;
    options.trials = 20000;
    options.confidence = 1.0 - 0.05 / static_cast<double>(cases);  // Bonferroni over the cases
    const AuditResult r = audit_random_walk(w, observers, target, sigma, 1.0, steps, start, view, options);
    EXPECT_LE(r.bound.epsilon, claim.epsilon)
        << graphs[i % graphs.size()] << " observers " << observers.size() << " first " << observer
        << " target " << target << " sigma " << sigma << " T " << steps;
  }
}

TEST(WalkAudit, TheThreadCountDoesNotChangeTheResult) {
  const gossip::GossipMatrix w = walk_matrix("karate");
  AuditOptions options;
  options.trials = 5000;
  std::vector<AuditResult> results;
  for (const int threads : {1, 3}) {
    omp_set_num_threads(threads);
    results.push_back(
        audit_random_walk(w, 2, 7, 1.0, 1.0, 30, std::nullopt, RandomWalkView::anonymous_sender, options));
  }
  omp_set_num_threads(omp_get_num_procs());
  EXPECT_EQ(results[0].threshold, results[1].threshold);
  EXPECT_EQ(results[0].false_positives, results[1].false_positives);
  EXPECT_EQ(results[0].false_negatives, results[1].false_negatives);
  EXPECT_EQ(results[0].messages, results[1].messages);
}

TEST(WalkAudit, BadInputIsRefused) {
  const gossip::GossipMatrix w = walk_matrix("ring:n=5");
  const auto message = [&](std::size_t steps, std::optional<graph::NodeId> start) {
    try {
      audit_random_walk(w, 0, 1, 1.0, 1.0, steps, start, RandomWalkView::anonymous_sender, AuditOptions{});
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(0, std::nullopt).find("the walk needs at least one step, got 0"), std::string::npos);
  EXPECT_NE(message(3, 5).find("the walk's start 5 is not a node 0..4"), std::string::npos);
}

}  // namespace
}  // namespace netdp::audit
