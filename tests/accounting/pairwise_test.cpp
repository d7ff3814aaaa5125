// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The pairwise-account interface: every accountant's rows against the direct library calls it
// wraps, streaming, statistics, calibration (closed form against the bracketed search) and the
// query checks.

#include "netdp/accounting/account/pairwise.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>

#include "netdp/accounting/account/pairwise_summary.hpp"
#include "netdp/accounting/linear_system/pairwise_linear_system.hpp"
#include "netdp/accounting/mf/pairwise_mf.hpp"
#include "netdp/accounting/muffliato/muffliato_gd.hpp"
#include "netdp/accounting/muffliato/pairwise_muffliato.hpp"
#include "netdp/accounting/random_walk/pairwise_random_walk.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/dp/gdp_table.hpp"
#include "netdp/gossip/schedules.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/classic.hpp"
#include "netdp/graph/spec.hpp"
#include "util/error_of.hpp"

namespace netdp::accounting {
namespace {

Protocol protocol_on(const std::string& graph_spec, std::size_t rounds, double sensitivity = 1.0) {
  Protocol p(gossip::make_gossip_matrix(graph::from_spec(graph_spec), gossip::Weighting::hamilton));
  p.rounds = rounds;
  p.sensitivity = sensitivity;
  return p;
}

using netdp::testing::error_of;

// A non-Gaussian view of a Gaussian account: the calibrator must search instead of solving.
class OpaqueAccount final : public PairwiseAccount {
 public:
  explicit OpaqueAccount(const PairwiseAccount& inner) : inner_(inner) {}
  std::string_view method() const override { return inner_.method(); }
  bool gaussian() const override { return false; }
  void stream_rows(double sigma, double delta, const RowSink& sink) const override {
    inner_.stream_rows(sigma, delta, sink);
  }
  std::size_t pair_count() const override { return inner_.pair_count(); }
  double releases(double delta) const override { return inner_.releases(delta); }
  double sensitivity() const override { return inner_.sensitivity(); }
  dp::RdpCurve rdp_curve(graph::NodeId observer, graph::NodeId target, double sigma,
                         double delta) const override {
    return inner_.rdp_curve(observer, target, sigma, delta);
  }

 private:
  const PairwiseAccount& inner_;
};

TEST(PairwiseAccount, MuffliatoRowsEqualTheorem1AtAnySigma) {
  const Protocol protocol = protocol_on("karate", 6, 0.7);
  const auto account = muffliato_account(protocol, {}, MuffliatoOptions{});
  MuffliatoOptions direct_options;
  direct_options.sigma = 2.5;
  direct_options.sensitivity = 0.7;
  const MuffliatoLosses direct =
      muffliato_all_pairs(gossip::fixed_schedule(protocol.network, protocol.rounds), direct_options);
  const std::vector<PairRow> rows = account->rows(2.5, 1e-5);
  ASSERT_EQ(rows.size(), 34u * 33u);
  for (const PairRow& row : rows) {
    const PairLoss loss = direct.pair(row.observer, row.target, 2.0);
    ASSERT_TRUE(row.mu.has_value());
    EXPECT_NEAR(*row.mu, loss.mu, 1e-12 * loss.mu);
    EXPECT_NEAR(row.rdp_epsilon, loss.rdp_epsilon, 1e-12 * loss.rdp_epsilon);
    EXPECT_NEAR(row.epsilon, gdp_epsilon(loss, 1e-5), 1e-9 * row.epsilon);
    EXPECT_EQ(row.capped, loss.capped);
  }
  EXPECT_EQ(account->observer_details(2.5).size(), 34u);
}

TEST(PairwiseAccount, MuffliatoGdEqualsTheorem6) {
  const Protocol protocol = protocol_on("ring:n=8", 3);
  MuffliatoOptions paper;
  paper.bound = MuffliatoBound::paper;
  const auto account = muffliato_account(protocol, {}, paper, 5);
  EXPECT_FALSE(account->valid_bound());
  EXPECT_EQ(account->guarantee(), Guarantee::paper_formula);
  MuffliatoOptions unit;
  unit.sigma = 1.0;
  const MuffliatoLosses direct = muffliato_gd_all_pairs(protocol.network.matrix(), 5, 3, unit);
  for (const UnitPair& p : account->unit_pairs()) {
    EXPECT_NEAR(p.unit_mu, std::sqrt(direct.capped_sum(p.observer, p.target)), 1e-14);
  }
  EXPECT_EQ(account->releases(1e-5), 5.0);
}

TEST(PairwiseAccount, MuffliatoGdViewIsTheMuffliatoSgdLinearView) {
  // The default account of Muffliato-GD is the MF engine's Muffliato-SGD(K) view with Σ|K| certified.
  // The paper's per-step sums ignore the parameters carrying earlier releases forward (with K = 1,
  // Theorem 6 gives non-neighbours 0), and charge a neighbour the full local value per step although
  // the raw release arrives mixed with the sender's state.
  const Protocol protocol = protocol_on("ring:n=8", 1);
  const auto view = muffliato_account(protocol, {}, MuffliatoOptions{}, 4);
  EXPECT_TRUE(view->valid_bound());
  Protocol steps = protocol;
  steps.rounds = 4;
  MfAlgorithmSpec spec;
  spec.algorithm = MfAlgorithm::muffliato_sgd;
  spec.gossip_steps = 1;
  MfOptions mf;
  mf.assess.sign_search = SignSearch::none;
  const auto engine = mf_account(steps, {}, spec, MfTrust::pndp, mf);
  const std::vector<UnitPair> view_pairs = view->unit_pairs();
  const std::vector<UnitPair> engine_pairs = engine->unit_pairs();
  ASSERT_EQ(view_pairs.size(), engine_pairs.size());
  MuffliatoOptions paper;
  paper.bound = MuffliatoBound::paper;
  const auto theorem6 = muffliato_account(protocol, {}, paper, 4);
  for (std::size_t i = 0; i < view_pairs.size(); ++i) {
    EXPECT_EQ(view_pairs[i].unit_mu, engine_pairs[i].unit_mu);
    EXPECT_LE(view_pairs[i].unit_mu, 2.0 * (1 + 1e-12));  // the local cap of 4 releases: sqrt(4)
  }
  EXPECT_GT(view_pairs[2].unit_mu, 0.0);  // observer 0, target 3: three hops away
  EXPECT_EQ(view_pairs[2].target, 3u);
  EXPECT_EQ(theorem6->unit_pairs()[2].unit_mu, 0.0);
}

TEST(PairwiseAccount, LinearSystemRowsEqualTheEngine) {
  const Protocol protocol = protocol_on("er:n=12,p=0.4,seed=2,connected=1", 5);
  LinearSystemOptions options;
  options.view = LinearSystemView::secure_sum;
  const auto account = linear_system_account(protocol, {}, options);
  std::vector<graph::NodeId> nodes(12);
  std::iota(nodes.begin(), nodes.end(), graph::NodeId{0});
  options.rounds = 5;
  const auto direct =
      account_all_pairs(gossip::fixed_schedule(protocol.network, 5), nodes, nodes, options, {});
  const std::vector<PairRow> rows = account->rows(3.0, 1e-6);
  ASSERT_EQ(rows.size(), direct.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].observer, direct[i].pair.observers.front());
    EXPECT_EQ(rows[i].target, direct[i].pair.target);
    EXPECT_NEAR(*rows[i].mu, direct[i].pair.sensitivity / 3.0, 1e-12);
    EXPECT_EQ(rows[i].sensitivity->certified, direct[i].pair.sensitivity_squared_certified);
  }
  EXPECT_EQ(account->releases(1e-5), 5.0);
}

TEST(PairwiseAccount, MfRowsEqualTheMfAccountant) {
  const Protocol protocol = protocol_on("ring:n=6", 4);
  MfAlgorithmSpec spec;
  const auto account = mf_account(protocol, {}, spec, MfTrust::pndp, MfOptions{});
  MfOptions options;
  options.noise_std = 1.0;
  const MfAccounting direct = account_mf_all_pairs(protocol.network, 4, spec, MfTrust::pndp, options);
  const std::vector<UnitPair> pairs = account->unit_pairs();
  ASSERT_EQ(pairs.size(), direct.pairs.size());
  for (std::size_t i = 0; i < direct.pairs.size(); ++i) {
    EXPECT_EQ(pairs[i].unit_mu, direct.pairs[i].privacy.sensitivity);
  }
}

// Under local DP the observer sees the target's own noisy inputs: every certified sens² meets the
// cap T, and each row says it was capped and keeps the larger value before the cap.
TEST(PairwiseAccount, MfRowsAtTheLocalCapSayCapped) {
  const Protocol protocol = protocol_on("ring:n=8", 6);
  const auto account = mf_account(protocol, {}, MfAlgorithmSpec{}, MfTrust::ldp, MfOptions{});
  std::size_t capped = 0;
  account->stream_rows(1.0, 1e-5, [&](std::span<const PairRow> rows) {
    for (const PairRow& row : rows) {
      ASSERT_TRUE(row.sensitivity);
      if (row.sensitivity->certified < 6.0 * (1.0 - 1e-12)) continue;
      ++capped;
      EXPECT_TRUE(row.capped);
      EXPECT_GT(row.uncapped_rdp_epsilon, row.rdp_epsilon);
      EXPECT_FALSE(row.sensitivity->exact);
    }
  });
  EXPECT_GT(capped, 0u);
}

TEST(PairwiseAccount, RandomWalkRowsEqualTheorem3CappedByLocalGdp) {
  const Protocol protocol = protocol_on("complete:n=6", 60);
  RandomWalkOptions options;
  options.view = RandomWalkView::sender_known;
  options.contributions = 4.0;
  const auto account = random_walk_account(protocol, {}, options);
  RandomWalkOptions at;
  at.steps = 60;
  at.sigma = 3.0;
  at.view = RandomWalkView::sender_known;
  at.contributions = 4.0;
  const RandomWalkLosses losses(protocol.network, at);
  const double local = dp::gdp_epsilon(std::sqrt(4.0) / 3.0, 1e-5);
  for (const PairRow& row : account->rows(3.0, 1e-5)) {
    EXPECT_FALSE(row.mu.has_value());
    EXPECT_EQ(*row.contributions, 4.0);
    EXPECT_DOUBLE_EQ(row.epsilon, std::min(losses.to_dp(row.observer, row.target, 1e-5).epsilon, local));
  }
  EXPECT_FALSE(account->gaussian());
}

// The account converts every pair with the grid's shared parts computed once per (σ, δ); each row
// must be, bit for bit, the conversion of the pair's own curve (RandomWalkLosses::to_dp), at the
// default grid and at a query's single order.
TEST(PairwiseAccount, RandomWalkRowsAreTheirPairsConversionBitForBit) {
  const Protocol protocol = protocol_on("hypercube:d=6", 64);
  RandomWalkOptions options;
  options.contributions = 40.0;
  RandomWalkOptions at = options;
  at.steps = 64;
  at.sigma = 20.0;
  const RandomWalkLosses losses(protocol.network, at);
  const double local = dp::gdp_epsilon(std::sqrt(40.0) / 20.0, 1e-3);
  std::size_t amplified = 0;
  for (const PairRow& row : random_walk_account(protocol, {}, options)->rows(20.0, 1e-3)) {
    const dp::RdpConversion pair = losses.to_dp(row.observer, row.target, 1e-3);
    EXPECT_EQ(row.epsilon, std::min(pair.epsilon, local));
    EXPECT_EQ(row.alpha, pair.alpha);
    amplified += pair.epsilon < local ? 1 : 0;
  }
  EXPECT_GT(amplified, 0u);
  PairQuery at_order;
  at_order.alpha = 6.5;
  for (const PairRow& row : random_walk_account(protocol, at_order, options)->rows(20.0, 1e-3)) {
    const dp::RdpCurve curve = losses.rdp_curve(row.observer, row.target, {6.5});
    EXPECT_EQ(row.epsilon,
              std::min(dp::rdp_to_dp(dp::RdpCurve({6.5}, curve.epsilons()), 1e-3).epsilon, local));
  }
}

TEST(PairwiseAccount, GaussianStatisticEqualsTheStatisticOfItsRows) {
  // The Gaussian account's statistic skips the rows; it must equal, bit for bit, the statistic of
  // the rows it streams (calibration's σ is checked against it): karate in one chunk of rows,
  // ER(300) (89,700 pairs) in three.
  const auto karate = muffliato_account(protocol_on("karate", 4), {}, MuffliatoOptions{});
  const auto er =
      muffliato_account(protocol_on("er:n=300,p=0.03,seed=3,connected=1", 6), {}, MuffliatoOptions{});
  for (const auto* account : {karate.get(), er.get()}) {
    for (const double sigma : {0.3, 1.0, 7.0}) {
      const std::vector<PairRow> rows = account->rows(sigma, 1e-6);
      for (const Statistic statistic : {Statistic::mean, Statistic::max}) {
        EXPECT_EQ(account->epsilon_statistic(statistic, sigma, 1e-6), epsilon_statistic(rows, statistic));
      }
    }
  }
}

TEST(PairwiseAccount, StreamsWholeObserverBlocksInOrder) {
  const auto account = muffliato_account(protocol_on("karate", 4), {}, MuffliatoOptions{});
  std::vector<PairRow> streamed;
  std::vector<std::size_t> call_of_observer(34, 0);
  std::size_t calls = 0;
  account->stream_rows(1.0, 1e-5, [&](std::span<const PairRow> chunk) {
    ASSERT_FALSE(chunk.empty());
    ++calls;
    for (const PairRow& row : chunk) {
      if (!streamed.empty() && streamed.back().observer != row.observer) {
        EXPECT_GT(row.observer, streamed.back().observer);  // observer-major
      }
      // An observer's rows all arrive in one call.
      if (call_of_observer[row.observer] == 0) call_of_observer[row.observer] = calls;
      EXPECT_EQ(call_of_observer[row.observer], calls) << row.observer;
      streamed.push_back(row);
    }
  });
  const std::vector<PairRow> rows = account->rows(1.0, 1e-5);
  ASSERT_EQ(streamed.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(streamed[i].epsilon, rows[i].epsilon);
}

TEST(PairwiseAccount, MeanStatisticIsAnUpperBoundOnTheMean) {
  const auto account = muffliato_account(protocol_on("karate", 4), {}, MuffliatoOptions{});
  const std::vector<PairRow> rows = account->rows(2.0, 1e-5);
  long double sum = 0.0L;
  double worst = 0.0;
  for (const PairRow& row : rows) {
    sum += row.epsilon;
    worst = std::max(worst, row.epsilon);
  }
  const double mean = epsilon_statistic(*account, Statistic::mean, 2.0, 1e-5);
  EXPECT_GE(static_cast<long double>(mean), sum / static_cast<long double>(rows.size()));
  EXPECT_NEAR(mean, static_cast<double>(sum / static_cast<long double>(rows.size())), 1e-14 * mean);
  EXPECT_EQ(epsilon_statistic(*account, Statistic::max, 2.0, 1e-5), worst);
  EXPECT_NE(error_of([&] { (void)epsilon_statistic(rows, Statistic::pair); }).find("exactly one pair"),
            std::string::npos);
}

TEST(Calibration, ClosedFormAgreesWithTheSearchAndMeetsTheTarget) {
  const auto account = muffliato_account(protocol_on("karate", 8, 2.0), {}, MuffliatoOptions{});
  for (const Statistic statistic : {Statistic::max, Statistic::mean}) {
    const Calibration closed = calibrate_sigma(*account, statistic, 1.5, 1e-5);
    const Calibration searched = calibrate_sigma(OpaqueAccount(*account), statistic, 1.5, 1e-5);
    EXPECT_EQ(closed.closed_form, statistic == Statistic::max);
    EXPECT_FALSE(searched.closed_form);
    EXPECT_NEAR(closed.sigma, searched.sigma, 2e-9 * searched.sigma) << statistic_name(statistic);
    for (const Calibration& c : {closed, searched}) {
      EXPECT_LE(c.achieved_epsilon, 1.5);
      EXPECT_EQ(c.achieved_epsilon, epsilon_statistic(*account, statistic, c.sigma, 1e-5));
      // The smallest such σ: a hair lower misses the target.
      EXPECT_GT(epsilon_statistic(*account, statistic, c.sigma * (1.0 - 1e-7), 1e-5), 1.5);
    }
  }
  // Closed form: the worst pair's μ is μ(target), lowered by 2⁻³² relative (room for a conversion
  // up to 1e-10 above the root).
  const Calibration c = calibrate_sigma(*account, Statistic::max, 1.5, 1e-5);
  const double mu_target = dp::gdp_mu_for(1.5, 1e-5);
  EXPECT_LE(2.0 * account->max_unit_mu() / c.sigma, mu_target);
  EXPECT_NEAR(2.0 * account->max_unit_mu() / c.sigma, mu_target, 3e-10 * mu_target);
  EXPECT_EQ(c.evaluations, 2u);
}

TEST(Calibration, RandomWalkSearchMeetsTheTarget) {
  RandomWalkOptions options;
  options.contributions = 3.0;
  const auto account = random_walk_account(protocol_on("ring:n=8", 40), {}, options);
  const Calibration c =
      calibrate_sigma(*account, Statistic::max, 2.0, 1e-5, CalibrationOptions{0.3, 1e-9, 1e-12, 1e12, {}});
  EXPECT_FALSE(c.closed_form);
  EXPECT_LE(c.achieved_epsilon, 2.0);
  EXPECT_GT(epsilon_statistic(*account, Statistic::max, c.sigma * (1.0 - 1e-7), 1e-5), 2.0);
}

TEST(Calibration, RejectsWhatItCannotMeet) {
  const auto account = muffliato_account(protocol_on("karate", 4), {}, MuffliatoOptions{});
  EXPECT_NE(error_of([&] { calibrate_sigma(*account, Statistic::max, 0.0, 1e-5); }).find("target ε"),
            std::string::npos);
  EXPECT_NE(error_of([&] { calibrate_sigma(*account, Statistic::max, 1.0, 1.0); }).find("δ"),
            std::string::npos);
  EXPECT_NE(error_of([&] { calibrate_sigma(*account, Statistic::pair, 1.0, 1e-5); }).find("exactly one pair"),
            std::string::npos);
  CalibrationOptions negative_start;
  negative_start.sigma_start = -1.0;
  EXPECT_NE(error_of([&] {
              calibrate_sigma(*account, Statistic::max, 1.0, 1e-5, negative_start);
            }).find("starting σ"),
            std::string::npos);
  EXPECT_THROW(GaussianPairwiseAccount(std::vector<UnitPair>{{0, 1, 0.5, -0.5, {}}}, {}),
               std::invalid_argument);
  const GaussianPairwiseAccount silent(std::vector<UnitPair>{{0, 1, 0.0, 0.0, {}}}, {});
  EXPECT_NE(error_of([&] { calibrate_sigma(silent, Statistic::max, 1.0, 1e-5); }).find("no pair leaks"),
            std::string::npos);
}

TEST(PairwiseQuery, ChecksNameTheValueAndTheRule) {
  const Protocol protocol = protocol_on("karate", 3);
  const auto muffliato = [&](const PairQuery& q) {
    return muffliato_account(protocol, q, MuffliatoOptions{});
  };
  const auto query = [](std::optional<graph::NodeId> observer, std::optional<graph::NodeId> target,
                        std::vector<graph::NodeId> colluders = {}, std::vector<graph::NodeId> group = {}) {
    PairQuery q;
    q.observer = observer;
    q.target = target;
    q.colluders = std::move(colluders);
    q.group = std::move(group);
    return q;
  };
  EXPECT_NE(error_of([&] { muffliato(query(40, {})); }).find("observer 40 is out of range"),
            std::string::npos);
  EXPECT_NE(error_of([&] { muffliato(query({}, 34)); }).find("target 34 is out of range"), std::string::npos);
  EXPECT_NE(error_of([&] { muffliato(query(3, 3)); }).find("same node 3"), std::string::npos);
  EXPECT_NE(error_of([&] {
              muffliato(query({}, 2, {1, 2}));
            }).find("target 2 is one of the colluders"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              muffliato(query({}, {}, {1, 1}));
            }).find("node 1 is repeated"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              random_walk_account(protocol, query({}, {}, {}, {1, 2}), {});
            }).find("muffliato method only"),
            std::string::npos);
  // All pairs, with neither observer nor target given: no optional is read (checked under
  // _GLIBCXX_ASSERTIONS).
  EXPECT_EQ(muffliato({}).get()->pair_count(), 34u * 33u);
}

TEST(PairwiseSummary, GroupsByDistanceAndCountsTheCap) {
  const Protocol protocol = protocol_on("path:n=5", 4);
  const auto account = muffliato_account(protocol, {}, MuffliatoOptions{});
  std::vector<PairRow> rows = account->rows(1.0, 1e-5);
  fill_distances(rows, protocol.network.graph(), {});
  const PairwiseSummary s = summarize(rows, account->observer_details(1.0));
  EXPECT_EQ(s.pairs, 20u);
  std::size_t grouped = 0;
  for (const DistanceSummary& d : s.by_distance) {
    ASSERT_TRUE(d.distance.has_value());
    EXPECT_EQ(d.epsilon.count, 2u * (5u - *d.distance));
    grouped += d.epsilon.count;
  }
  EXPECT_EQ(grouped, 20u);
  std::size_t capped = 0;
  for (const PairRow& row : rows) capped += row.capped ? 1 : 0;
  EXPECT_EQ(s.capped_pairs, capped);
  EXPECT_LE(*s.epsilon_median, *s.epsilon_p90);
  EXPECT_LE(*s.epsilon_p90, s.epsilon->max);
  ASSERT_EQ(s.per_observer.size(), 5u);
  EXPECT_TRUE(s.per_observer[2].detail.has_value());
  const Baseline local = local_dp_baseline(*account, 1.0, 1e-5);
  EXPECT_EQ(local.mu, 1.0);
  EXPECT_NEAR(central_dp_baseline(*account, 5, 1.0, 1e-5).mu, 1.0 / std::sqrt(5.0), 1e-15);
}

TEST(PairwiseSummary, OnePassEqualsCopyingFillingDistancesAndAdding) {
  // add_with_distances on two chunks (split at an observer boundary) against the steps it fuses,
  // for every observer, for a coalition (distances from its nearest member), a group, and without
  // a graph (no distances).
  const Protocol protocol = protocol_on("er:n=24,p=0.2,seed=5,connected=1", 6);
  const graph::Graph& g = protocol.network.graph();
  PairQuery coalition;
  coalition.colluders = {1, 2};
  PairQuery group;
  group.group = {3, 7};
  for (const PairQuery& query : {PairQuery{}, coalition, group}) {
    const auto account = muffliato_account(protocol, query, MuffliatoOptions{});
    const std::vector<PairRow> rows = account->rows(1.5, 1e-5);
    std::size_t split = rows.size() / 2;
    while (split < rows.size() && split > 0 && rows[split].observer == rows[split - 1].observer) ++split;
    for (const graph::Graph* graph : {&g, static_cast<const graph::Graph*>(nullptr)}) {
      std::vector<PairRow> expected = rows;
      if (graph) fill_distances(expected, *graph, query);
      SummaryBuilder stepwise(rows.size());
      SummaryBuilder fused(rows.size());
      std::vector<PairRow> copy;
      std::vector<PairRow> copied;
      for (const auto& [begin, end] : {std::pair{std::size_t{0}, split}, std::pair{split, rows.size()}}) {
        stepwise.add(std::span<const PairRow>(expected).subspan(begin, end - begin));
        fused.add_with_distances(std::span<const PairRow>(rows).subspan(begin, end - begin), copy, graph,
                                 query);
        copied.insert(copied.end(), copy.begin(), copy.end());
      }
      ASSERT_EQ(copied.size(), expected.size());
      for (std::size_t i = 0; i < copied.size(); ++i) {
        EXPECT_EQ(copied[i].observer, expected[i].observer);
        EXPECT_EQ(copied[i].target, expected[i].target);
        EXPECT_EQ(copied[i].distance, expected[i].distance) << i;
        EXPECT_EQ(copied[i].epsilon, expected[i].epsilon);
      }
      const PairwiseSummary a = stepwise.finish();
      const PairwiseSummary b = fused.finish();
      EXPECT_EQ(a.pairs, b.pairs);
      EXPECT_EQ(a.epsilon->mean, b.epsilon->mean);
      EXPECT_EQ(a.epsilon_median, b.epsilon_median);
      EXPECT_EQ(a.epsilon_p99, b.epsilon_p99);
      ASSERT_EQ(a.by_distance.size(), b.by_distance.size());
      for (std::size_t d = 0; d < a.by_distance.size(); ++d) {
        EXPECT_EQ(a.by_distance[d].distance, b.by_distance[d].distance);
        EXPECT_EQ(a.by_distance[d].epsilon.count, b.by_distance[d].epsilon.count);
        EXPECT_EQ(a.by_distance[d].epsilon.mean, b.by_distance[d].epsilon.mean);
      }
      EXPECT_EQ(a.by_distance.size() > 1, graph != nullptr);  // distances group the pairs
      ASSERT_EQ(a.per_observer.size(), b.per_observer.size());
      for (std::size_t v = 0; v < a.per_observer.size(); ++v)
        EXPECT_EQ(a.per_observer[v].epsilon_mean, b.per_observer[v].epsilon_mean);
    }
  }
}

}  // namespace
}  // namespace netdp::accounting

namespace netdp::accounting {
namespace {

TEST(PairwiseAccount, SubsetsOfPairsAndRenyiCurves) {
  Protocol protocol(gossip::make_gossip_matrix(graph::from_spec("ring:n=8"), gossip::Weighting::hamilton));
  protocol.rounds = 30;
  const auto gaussian = muffliato_account(protocol, {}, MuffliatoOptions{});
  const std::vector<graph::NodeId> observers = {1, 5};
  const std::vector<graph::NodeId> targets = {0, 2, 5};
  const std::vector<PairRow> rows = gaussian->rows(2.0, 1e-5, observers, targets);
  ASSERT_EQ(rows.size(), 5u);  // (1,0) (1,2) (1,5) (5,0) (5,2)
  for (const PairRow& row : rows) {
    const dp::RdpCurve curve = gaussian->rdp_curve(row.observer, row.target, 2.0, 1e-5);
    EXPECT_NEAR(curve.epsilons()[0], dp::gaussian_rdp(curve.orders()[0], *row.mu), 1e-15);
  }
  RandomWalkOptions options;
  options.contributions = 2.0;
  const auto walk = random_walk_account(protocol, {}, options);
  for (const PairRow& row : walk->rows(3.0, 1e-5, observers, targets)) {
    // The row's ε is the curve's conversion (refined between orders), capped by local GDP.
    const dp::RdpConversion grid = dp::rdp_to_dp(walk->rdp_curve(row.observer, row.target, 3.0, 1e-5), 1e-5);
    EXPECT_LE(row.epsilon, grid.epsilon + 1e-12);
  }
  EXPECT_THROW((void)gaussian->rdp_curve(3, 3, 1.0, 1e-5), std::invalid_argument);
  const std::vector<graph::NodeId> absent = {8};
  EXPECT_NE(
      error_of([&] { (void)gaussian->rows(1.0, 1e-5, absent, {}); }).find("observer 8 is not an observer"),
      std::string::npos);
  EXPECT_NE(error_of([&] { (void)walk->rows(1.0, 1e-5, {}, absent); }).find("target 8 is not a target"),
            std::string::npos);
}

}  // namespace
}  // namespace netdp::accounting

namespace netdp::accounting {
namespace {

/// dp::GdpEpsilonTable's tolerance plus the root-finder's own ~1e-12.
constexpr double kTableTolerance = dp::GdpEpsilonTable::kTolerance + 2e-12;

TEST(PairwiseAccount, FewDistinctValuesGiveTheSameRoundedUpRoots) {
  // 12 values over 2·10⁴ pairs (a hypercube's distances: every chunk has at most 12 distinct μ,
  // found without sorting the pairs), and the same 12 among 3,000 others (through the conversion
  // table): both give each μ a valid ε within the table's tolerance (1e-10) of the root, and equal μ
  // equal ε within each account.
  const std::array<double, 12> values{0.0, 1e-4, 3e-3, 0.02, 0.1, 0.33, 0.7, 1.0, 2.5, 6.0, 14.0, 40.0};
  std::vector<UnitPair> few;
  std::vector<UnitPair> many;
  for (std::size_t i = 0; i < 20000; ++i) {
    const auto observer = static_cast<graph::NodeId>(i / 200);
    const auto target = static_cast<graph::NodeId>(200 + i % 200);
    const double mu = values[(i * 7) % values.size()];
    few.push_back({observer, target, mu, mu, {}});
    const double other = i % 2 == 0 ? mu : 1e-3 * std::pow(1e4, static_cast<double>(i % 3000) / 3000.0);
    many.push_back({observer, target, other, other, {}});
  }
  GaussianPairwiseAccount::Info info;
  info.method = "test";
  for (const std::vector<UnitPair>* pairs : {&few, &many}) {
    const GaussianPairwiseAccount account(*pairs, info);
    const std::vector<PairRow> rows = account.rows(1.0, 1e-6);
    ASSERT_EQ(rows.size(), pairs->size());
    std::map<double, double> epsilon_of;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const double mu = (*pairs)[i].unit_mu;
      const auto [it, inserted] = epsilon_of.emplace(mu, rows[i].epsilon);
      ASSERT_EQ(it->second, rows[i].epsilon) << mu;
      if (!inserted) continue;
      const double reference = mu > 0.0 ? dp::gdp_epsilon(mu, 1e-6) : 0.0;
      EXPECT_GE(rows[i].epsilon, reference * (1.0 - 1e-13)) << mu;
      EXPECT_LE(rows[i].epsilon, reference * (1.0 + kTableTolerance)) << mu;
    }
  }
}

TEST(PairwiseAccount, EqualMuGiveEqualEpsilonAcrossChunksWithFewAndManyDistinctValues) {
  // 400 observers × 200 targets, every μ in [0.5, 1): the table's 64 pages there cost fewer roots
  // than the 80,000 pairs, so the account reads them off the table. The first chunk (whole
  // observers, 2¹⁵ pairs or more) has 12 distinct μ, the later ones the same 12 among thousands of
  // others; every μ gets one ε, valid, and the chord shows (some ε above the root by more than the
  // root-finder's own 1e-12).
  std::array<double, 12> values{};
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = 0.5 + 0.04 * static_cast<double>(k);
  std::vector<UnitPair> pairs;
  for (std::size_t i = 0; i < 80000; ++i) {
    const auto observer = static_cast<graph::NodeId>(i / 200);
    const auto target = static_cast<graph::NodeId>(400 + i % 200);
    const double other = 0.5 * std::pow(2.0, static_cast<double>(i % 5000) / 5001.0);
    const double mu = observer < 200 || i % 2 == 0 ? values[(i * 7) % values.size()] : other;
    pairs.push_back({observer, target, mu, mu, {}});
  }
  GaussianPairwiseAccount::Info info;
  info.method = "test";
  const GaussianPairwiseAccount account(pairs, info);
  const std::vector<PairRow> rows = account.rows(1.0, 1e-6);
  ASSERT_EQ(rows.size(), pairs.size());
  std::map<double, double> epsilon_of;
  std::size_t above_root = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double mu = pairs[i].unit_mu;
    const auto [it, inserted] = epsilon_of.emplace(mu, rows[i].epsilon);
    ASSERT_EQ(it->second, rows[i].epsilon) << mu;
    if (!inserted) continue;
    const double root = dp::gdp_epsilon(mu, 1e-6);
    EXPECT_LE(dp::gdp_delta(mu, rows[i].epsilon), 1e-6 * (1.0 + 1e-9)) << mu;
    EXPECT_LE(rows[i].epsilon, root * (1.0 + kTableTolerance)) << mu;
    if (rows[i].epsilon > root * (1.0 + 2e-12)) ++above_root;
  }
  EXPECT_GT(above_root, 0u);
}

TEST(PairwiseAccount, GaussianEpsilonIsRoundedUpAndOneRootPerDistinctValue) {
  // All 2·10⁵ pairs of 448 nodes; μ log-uniform over [1e-3, 30], every value on two consecutive
  // pairs, and the last 1,000 pairs at one value (a symmetric graph's few distances): each ε is a
  // valid (ε, δ) for its μ (δ(ε) <= δ, checked by the independent formula gdp_delta), never below
  // the root of gdp_epsilon (which is the upper end of a 1e-13 bracket), and within the conversion
  // table's tolerance (1e-10) of it; equal μ give equal ε.
  constexpr std::size_t kNodes = 448;
  constexpr std::size_t kRepeated = 1000;
  constexpr std::size_t kPairs = kNodes * (kNodes - 1);
  constexpr std::size_t kValues = (kPairs - kRepeated) / 2;
  std::vector<UnitPair> pairs;
  std::uint64_t state = 12345;
  const auto uniform = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) * 0x1.0p-53;
  };
  double mu = 0.0;
  for (graph::NodeId observer = 0; observer < kNodes; ++observer) {
    for (graph::NodeId target = 0; target < kNodes; ++target) {
      if (target == observer) continue;
      const std::size_t k = pairs.size();
      if (k >= 2 * kValues) {
        mu = 0.7;
      } else if (k % 2 == 0) {
        mu = 1e-3 * std::pow(3e4, uniform());
      }
      pairs.push_back({observer, target, mu, mu, {}});
    }
  }
  GaussianPairwiseAccount::Info info;
  info.method = "test";
  const GaussianPairwiseAccount account(pairs, info);
  for (const double delta : {1e-5, 1e-9}) {
    const std::vector<PairRow> rows = account.rows(1.0, delta);
    ASSERT_EQ(rows.size(), pairs.size());
    for (std::size_t i = 0; i < rows.size(); i += 97) {
      const double mu = pairs[i].unit_mu;
      const double reference = dp::gdp_epsilon(mu, delta);
      EXPECT_GE(rows[i].epsilon, reference * (1.0 - 1e-13)) << mu;
      EXPECT_LE(rows[i].epsilon, reference * (1.0 + kTableTolerance) + 1e-300) << mu;
      if (rows[i].epsilon > 0.0) {
        EXPECT_LE(dp::gdp_delta(mu, rows[i].epsilon), delta * (1.0 + 1e-9)) << mu;
      }
    }
    for (std::size_t i = 0; i + 1 < 2 * kValues; i += 2) ASSERT_EQ(rows[i].epsilon, rows[i + 1].epsilon);
    for (std::size_t i = 2 * kValues; i < rows.size(); ++i) ASSERT_EQ(rows[i].epsilon, rows.back().epsilon);
    ASSERT_GE(rows.size() - 2 * kValues, kRepeated);
    // Each root starts from its neighbours' in runs fixed by the values, not by the threads.
    const int threads = omp_get_max_threads();
    omp_set_num_threads(threads == 1 ? 3 : 1);
    const std::vector<PairRow> other = account.rows(1.0, delta);
    omp_set_num_threads(threads);
    for (std::size_t i = 0; i < rows.size(); ++i) ASSERT_EQ(other[i].epsilon, rows[i].epsilon) << i;
  }
}

}  // namespace
}  // namespace netdp::accounting

namespace netdp::accounting {
namespace {

/// `count` pairs, `per_observer` to each observer, with unit μ spread geometrically from `smallest`
/// over `decades` in a scrambled order (`stride` coprime to count); every `zero_every`-th pair
/// leaks nothing (0: none).
GaussianPairwiseAccount spread_account(std::size_t count, std::size_t per_observer, double smallest,
                                       double decades, std::size_t stride, std::size_t zero_every,
                                       double sensitivity) {
  std::vector<UnitPair> pairs;
  for (std::size_t i = 0; i < count; ++i) {
    const double spread = static_cast<double>((i * stride) % count) / static_cast<double>(count - 1);
    const double mu =
        zero_every > 0 && i % zero_every == 0 ? 0.0 : smallest * std::pow(10.0, decades * spread);
    pairs.push_back({static_cast<graph::NodeId>(i / per_observer),
                     static_cast<graph::NodeId>(i % per_observer + 100),
                     mu,
                     mu,
                     {}});
  }
  GaussianPairwiseAccount::Info info;
  info.method = "test";
  info.sensitivity = sensitivity;
  return GaussianPairwiseAccount(pairs, info);
}

TEST(PairwiseAccount, MeanCalibrationIsTheSmallestSigmaFromAFewExactEvaluations) {
  // 3,000 pairs with unit μ spread over four decades: the binned bounds bracket σ* within 0.4 %,
  // their middle much closer; one Newton step on the exact mean lands within the tolerance, and two
  // exact evaluations prove it: the σ returned meets the target and σ·(1 − 2·10⁻⁹) does not, so it
  // is the smallest to the tolerance.
  const GaussianPairwiseAccount account = spread_account(3000, 50, 1e-3, 4.0, 7919, 0, 2.0);
  for (const double target : {0.3, 1.0, 8.0}) {
    const Calibration c = calibrate_sigma(account, Statistic::mean, target, 1e-6);
    EXPECT_LE(epsilon_statistic(account, Statistic::mean, c.sigma, 1e-6), target);
    EXPECT_GT(epsilon_statistic(account, Statistic::mean, c.sigma * (1.0 - 2e-9), 1e-6), target);
    EXPECT_EQ(c.achieved_epsilon, epsilon_statistic(account, Statistic::mean, c.sigma, 1e-6));
    EXPECT_LE(c.evaluations, 3u) << target;  // one Newton step, then the two sides of the bracket
  }
}

TEST(PairwiseAccount, MeanCalibrationBinsUnitMuOverThreeHundredDecades) {
  // The binned bracket counts its bins in place between the smallest and the largest unit μ: here
  // about 1.8·10⁵ bins from 10⁻³⁰⁰ to 50, most of them empty; the result is still the smallest σ.
  const std::vector<double> unit_mus = {1e-300, 3e-160, 1e-5, 0.3, 2.0, 50.0, 0.0};
  std::vector<UnitPair> pairs;
  for (std::size_t i = 0; i < unit_mus.size(); ++i)
    pairs.push_back({0, static_cast<graph::NodeId>(i + 1), unit_mus[i], unit_mus[i], {}});
  GaussianPairwiseAccount::Info info;
  info.method = "test";
  const GaussianPairwiseAccount account(pairs, info);
  for (const double target : {0.05, 0.5, 3.0}) {
    const Calibration c = calibrate_sigma(account, Statistic::mean, target, 1e-6);
    EXPECT_LE(c.achieved_epsilon, target);
    EXPECT_EQ(c.achieved_epsilon, epsilon_statistic(account, Statistic::mean, c.sigma, 1e-6));
    EXPECT_GT(epsilon_statistic(account, Statistic::mean, c.sigma * (1.0 - 2e-9), 1e-6), target) << target;
  }
}

TEST(PairwiseAccount, MeanAndSlopeAreTheMeanStatisticAndItsDerivative) {
  // The slope Σ −ε'(μ_i)·μ_i/σ / pairs against a central difference of the mean; the mean itself is
  // the statistic, to the bit. Some pairs leak nothing (μ = 0): ε = 0 and slope 0 there.
  const GaussianPairwiseAccount account = spread_account(400, 20, 1e-2, 3.0, 211, 9, 1.5);
  for (const double sigma : {0.7, 3.0, 40.0}) {
    const PairwiseAccount::MeanAndSlope m = account.epsilon_mean_and_slope(sigma, 1e-6);
    EXPECT_EQ(m.mean, epsilon_statistic(account, Statistic::mean, sigma, 1e-6)) << sigma;
    const double h = 1e-5 * sigma;
    const double difference = (epsilon_statistic(account, Statistic::mean, sigma + h, 1e-6) -
                               epsilon_statistic(account, Statistic::mean, sigma - h, 1e-6)) /
                              (2.0 * h);
    EXPECT_LT(m.slope, 0.0) << sigma;
    EXPECT_NEAR(m.slope, difference, 1e-5 * std::abs(difference)) << sigma;
  }
}

// A consumer that fails (a closed standard output, a full disk) throws from its sink: the stream
// stops there instead of computing the remaining chunks. 512 nodes are eight chunks of 2^15 pairs.
TEST(PairwiseAccount, AThrowingSinkStopsTheStreamAtItsChunk) {
  const Protocol protocol = protocol_on("hypercube:d=9", 12);
  RandomWalkOptions walk;
  walk.contributions = 2.0;
  const std::vector<std::unique_ptr<PairwiseAccount>> accounts = [&] {
    std::vector<std::unique_ptr<PairwiseAccount>> out;
    out.push_back(muffliato_account(protocol, {}, MuffliatoOptions{}));
    out.push_back(random_walk_account(protocol, {}, walk));
    return out;
  }();
  for (const auto& account : accounts) {
    std::size_t calls = 0;
    std::size_t rows = 0;
    EXPECT_THROW(account->stream_rows(2.0, 1e-5,
                                      [&](std::span<const PairRow> chunk) {
                                        ++calls;
                                        rows += chunk.size();
                                        throw std::runtime_error("cannot write");
                                      }),
                 std::runtime_error)
        << account->method();
    EXPECT_EQ(calls, 1u) << account->method();
    EXPECT_LT(rows * 4, account->pair_count())
        << account->method() << ": the first chunk was most of the pairs";
  }
}

// An account's warnings are its typed diagnostics' texts; the kinds carry what callers act on.
TEST(PairwiseAccount, DiagnosticsAreTypedAndTheirTextsAreTheWarnings) {
  const Protocol protocol = protocol_on("karate", 10);
  MuffliatoOptions options;
  options.exact_effort = 100.0;  // below every observer's view: each one is given up
  const auto account = muffliato_account(protocol, {}, options);
  const std::vector<Diagnostic> diagnostics = account->diagnostics();
  EXPECT_EQ(account->warnings(), diagnostic_texts(diagnostics));
  EXPECT_EQ(diagnostic_count(diagnostics, DiagnosticKind::effort_limit), 34u);           // observers
  EXPECT_EQ(diagnostic_count(diagnostics, DiagnosticKind::rank_unresolved), 34u * 33u);  // pairs
  for (const auto& [kind, name] : kDiagnosticKindNames)
    EXPECT_EQ(util::parse_enum(kDiagnosticKindNames, name, "diagnostic"), kind);
}

}  // namespace
}  // namespace netdp::accounting
