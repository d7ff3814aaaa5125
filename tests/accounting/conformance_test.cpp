// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The conformance suite every registered accountant family passes, through the registry and the
// typed request that every front end builds: ε never rises with σ, a vanishing sensitivity leaks
// nothing, the calibrated σ meets its target and is the smallest that does, no value is below a
// loss known exactly, and a family refuses exactly the combinations its build rejects.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "netdp/accounting/account/account_request.hpp"
#include "netdp/accounting/account/registry.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/gossip/network_spec.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/spec.hpp"

namespace netdp::accounting {
namespace {

struct Variant {
  std::string name;
  AccountRequest request;
};

void PrintTo(const Variant& v, std::ostream* out) { *out << v.name; }

/// At least one request per family, and the options that change what a family computes.
std::vector<Variant> variants() {
  std::vector<Variant> out;
  const auto add = [&out](std::string name, const std::vector<std::pair<std::string, std::string>>& options) {
    AccountRequest r;
    for (const auto& [option, text] : options) set_account_option(r, option, text);
    out.push_back({std::move(name), std::move(r)});
  };
  add("muffliato", {});
  add("muffliato_gd", {{"gradient_steps", "3"}});
  add("random_walk", {{"method", "random-walk"}, {"contributions", "2"}});
  add("random_walk_tail", {{"method", "random-walk"}});
  add("linear_system_secure_sum", {{"method", "linear-system"}});
  add("linear_system_plain",
      {{"method", "linear-system"}, {"view", "plain"}, {"release_dimension", "1"}, {"sign_search", "auto"}});
  add("mf_pndp", {{"method", "mf"}});
  add("mf_ldp", {{"method", "mf"}, {"trust", "ldp"}});
  add("mf_muffliato_sgd", {{"method", "mf"}, {"algorithm", "muffliato-sgd"}, {"gossip_steps", "2"}});
  return out;
}

Protocol small_protocol(const std::string& graph, std::size_t rounds) {
  Protocol p(gossip::make_gossip_matrix(graph::from_spec(graph), gossip::Weighting::hamilton));
  p.rounds = rounds;
  return p;
}

class Conformance : public ::testing::TestWithParam<Variant> {};

TEST_P(Conformance, EveryFamilyIsRegistered) {
  EXPECT_EQ(accountant_family(GetParam().request.method).method, GetParam().request.method);
  EXPECT_EQ(accountant_families().size(), kMethodNames.size());
}

TEST_P(Conformance, EpsilonFallsWithSigmaAndCalibrationMeetsTheTarget) {
  const Protocol protocol = small_protocol("er:n=10,p=0.4,seed=4,connected=1", 5);
  const auto account = make_account(protocol, {}, GetParam().request);
  double previous_max = std::numeric_limits<double>::infinity();
  for (const double sigma : {0.5, 1.0, 2.0, 4.0, 8.0}) {
    double max = 0.0;
    for (const PairRow& row : account->rows(sigma, 1e-5)) {
      ASSERT_TRUE(std::isfinite(row.epsilon) && row.epsilon >= 0.0) << row.observer << "," << row.target;
      max = std::max(max, row.epsilon);
    }
    EXPECT_LE(max, previous_max) << "σ = " << sigma;
    previous_max = max;
  }
  for (const Statistic statistic : {Statistic::mean, Statistic::max}) {
    const Calibration c = calibrate_sigma(*account, statistic, 0.8, 1e-5);
    EXPECT_LE(epsilon_statistic(*account, statistic, c.sigma, 1e-5), 0.8);
    EXPECT_GT(epsilon_statistic(*account, statistic, c.sigma * (1.0 - 1e-7), 1e-5), 0.8);
  }
}

TEST_P(Conformance, AVanishingSensitivityLeaksNothing) {
  Protocol protocol = small_protocol("ring:n=6", 4);
  protocol.sensitivity = 1e-12;
  const auto account = make_account(protocol, {}, GetParam().request);
  for (const PairRow& row : account->rows(1.0, 1e-5)) {
    EXPECT_LE(row.epsilon, 1e-9) << row.observer << "," << row.target;
    if (row.mu) {
      EXPECT_LE(*row.mu, 1e-11) << row.observer << "," << row.target;
    }
  }
}

// On two nodes every protocol hands the target's noisy value (or its noisy gradient) to the other
// node at least once, and the observer knows its own inputs: its loss is at least that of one
// Gaussian release, μ = Δ/σ.
TEST_P(Conformance, NoValueIsBelowOneDirectRelease) {
  const Protocol protocol = small_protocol("path:n=2", 3);
  const double sigma = 1.3;
  const double delta = 1e-5;
  const double one_release = dp::gdp_epsilon(1.0 / sigma, delta);
  const auto account = make_account(protocol, {}, GetParam().request);
  std::size_t rows = 0;
  for (const PairRow& row : account->rows(sigma, delta)) {
    ++rows;
    EXPECT_GE(row.epsilon, one_release * (1.0 - 1e-12)) << row.observer << "," << row.target;
    if (row.mu) {
      EXPECT_GE(*row.mu, (1.0 / sigma) * (1.0 - 1e-12)) << row.observer << "," << row.target;
    }
  }
  EXPECT_EQ(rows, 2U);
}

// refusal() names exactly the combinations of schedule and query that the build rejects: the
// build is called directly, past the refusal, on every combination.
TEST_P(Conformance, RefusesExactlyWhatItsBuildRejects) {
  const AccountantFamily& family = accountant_family(GetParam().request.method);
  for (const char* schedule : {"fixed", "er-per-round:p=0.9"}) {
    Protocol protocol = small_protocol("complete:n=6", 3);
    protocol.schedule = gossip::parse_schedule_spec(schedule);
    std::vector<std::pair<std::string, PairQuery>> queries(6);
    queries[0].first = "all pairs";
    queries[1].first = "one observer";
    queries[1].second.observer = 0;
    queries[2].first = "one pair";
    queries[2].second.observer = 0;
    queries[2].second.target = 1;
    queries[3].first = "colluders";
    queries[3].second.colluders = {0, 1};
    queries[4].first = "a group";
    queries[4].second.group = {2, 3};
    queries[5].first = "a group and a target";
    queries[5].second.group = {2, 3};
    queries[5].second.target = 4;
    for (const auto& [what, query] : queries) {
      SCOPED_TRACE(std::string(schedule) + ", " + what);
      const std::optional<std::string> refusal = family.refusal(protocol, query, GetParam().request);
      std::string rejected;
      try {
        (void)family.build(protocol, query, GetParam().request, {});
      } catch (const std::invalid_argument& e) {
        rejected = e.what();
      }
      EXPECT_EQ(refusal.has_value(), !rejected.empty())
          << "refusal: " << refusal.value_or("none") << "; build: " << rejected;
    }
  }
}

/// The rows of `share` in `full`, in order.
std::vector<PairRow> rows_of_share(const std::vector<PairRow>& full,
                                   const std::vector<graph::NodeId>& share) {
  std::vector<PairRow> out;
  for (const PairRow& row : full)
    if (std::find(share.begin(), share.end(), row.observer) != share.end()) out.push_back(row);
  return out;
}

/// A share's account holds the same rows as the account of every observer, bit for bit but for a
/// Gaussian account's ε: the shares of a run split across processes (docs/reference/mpi.md) put together give
/// the single-process account.
void expect_share_rows_equal(const Protocol& protocol, const AccountRequest& request) {
  const std::vector<graph::NodeId> share{0, 3, 4, 8};
  const auto full = make_account(protocol, {}, request);
  PairQuery query;
  query.observers = share;
  const auto part = make_account(protocol, query, request);
  for (const double sigma : {0.7, 3.0}) {
    const std::vector<PairRow> expected = rows_of_share(full->rows(sigma, 1e-5), share);
    const std::vector<PairRow> got = part->rows(sigma, 1e-5);
    ASSERT_EQ(got.size(), expected.size());
    EXPECT_EQ(part->pair_count(), expected.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
      SCOPED_TRACE(::testing::Message() << "pair " << got[k].observer << "," << got[k].target);
      EXPECT_EQ(got[k].observer, expected[k].observer);
      EXPECT_EQ(got[k].target, expected[k].target);
      if (full->gaussian()) {
        // μ → ε may be read off a table whose use depends on the whole account's values (both
        // ways are upper bounds); a run split across processes converts at one place.
        EXPECT_NEAR(got[k].epsilon, expected[k].epsilon, 1e-9 * expected[k].epsilon);
      } else {
        EXPECT_EQ(got[k].epsilon, expected[k].epsilon);
      }
      EXPECT_EQ(got[k].rdp_epsilon, expected[k].rdp_epsilon);
      EXPECT_EQ(got[k].alpha, expected[k].alpha);
      EXPECT_EQ(got[k].mu, expected[k].mu);
      EXPECT_EQ(got[k].mu_lower, expected[k].mu_lower);
      EXPECT_EQ(got[k].certificate, expected[k].certificate);
      EXPECT_EQ(got[k].capped, expected[k].capped);
      EXPECT_EQ(got[k].contributions, expected[k].contributions);
    }
    EXPECT_EQ(part->releases(1e-5), full->releases(1e-5));
  }
  EXPECT_EQ(part->guarantee(), full->guarantee());
}

TEST_P(Conformance, AShareOfObserversHoldsTheirRowsOfTheWholeAccount) {
  expect_share_rows_equal(small_protocol("er:n=10,p=0.4,seed=4,connected=1", 5), GetParam().request);
}

/// The Gaussian families (the random walk's rows are computed per (σ, δ): there is no grid to join).
class GaussianJoin : public ::testing::TestWithParam<Variant> {};

std::vector<Variant> gaussian_variants() {
  std::vector<Variant> out = variants();
  std::erase_if(out, [](const Variant& v) { return v.request.method == Method::random_walk; });
  return out;
}

TEST_P(GaussianJoin, SharesJoinIntoTheWholeAccount) {
  const Protocol protocol = small_protocol("er:n=10,p=0.4,seed=4,connected=1", 5);
  const auto full = make_account(protocol, {}, GetParam().request);
  ASSERT_TRUE(full->gaussian());
  std::vector<UnitMuGrid> grids;
  std::vector<GaussianPairwiseAccount::Info> infos;
  for (const std::vector<graph::NodeId>& share :
       {std::vector<graph::NodeId>{1, 4, 7}, {0, 2, 5, 8}, {3, 6, 9}}) {
    PairQuery query;
    query.observers = share;
    const auto part = make_account(protocol, query, GetParam().request);
    const auto& gaussian = dynamic_cast<const GaussianPairwiseAccount&>(*part);
    grids.push_back(gaussian.grid());
    infos.push_back(gaussian.info());
  }
  const auto joined = join_gaussian_accounts(std::move(grids), std::move(infos));
  ASSERT_EQ(joined->pair_count(), full->pair_count());
  const std::vector<PairRow> expected = full->rows(0.8, 1e-6);
  const std::vector<PairRow> got = joined->rows(0.8, 1e-6);
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t k = 0; k < got.size(); ++k) {
    SCOPED_TRACE(::testing::Message() << "pair " << expected[k].observer << "," << expected[k].target);
    EXPECT_EQ(got[k].observer, expected[k].observer);
    EXPECT_EQ(got[k].target, expected[k].target);
    EXPECT_EQ(got[k].epsilon, expected[k].epsilon);  // converted on the same grid: bit for bit
    EXPECT_EQ(got[k].mu, expected[k].mu);
    EXPECT_EQ(got[k].mu_lower, expected[k].mu_lower);
    EXPECT_EQ(got[k].certificate, expected[k].certificate);
    EXPECT_EQ(got[k].capped, expected[k].capped);
    EXPECT_EQ(got[k].sensitivity != nullptr, expected[k].sensitivity != nullptr);
    if (got[k].sensitivity && expected[k].sensitivity) {
      EXPECT_EQ(got[k].sensitivity->certified, expected[k].sensitivity->certified);
    }
  }
  for (const Statistic statistic : {Statistic::mean, Statistic::max})
    EXPECT_EQ(joined->epsilon_statistic(statistic, 0.8, 1e-6), full->epsilon_statistic(statistic, 0.8, 1e-6));
  EXPECT_EQ(joined->releases(1e-6), full->releases(1e-6));
  EXPECT_EQ(joined->guarantee(), full->guarantee());
  EXPECT_EQ(joined->warnings(), full->warnings());
}

TEST(Diagnostics, TalliesOfSharesAddUp) {
  std::vector<Diagnostic> whole{
      tally_diagnostic(DiagnosticKind::rank_unresolved, "in {0} of {1} observer sets", 1, 4),
      {DiagnosticKind::binary_weights, "2 entries of W", 2}};
  merge_diagnostics(whole,
                    {tally_diagnostic(DiagnosticKind::rank_unresolved, "in {0} of {1} observer sets", 2, 6),
                     {DiagnosticKind::binary_weights, "2 entries of W", 2},
                     {DiagnosticKind::ill_conditioned, "pair (3, 4): cond 1e13", 1}});
  ASSERT_EQ(whole.size(), 3U);
  EXPECT_EQ(whole[0].text, "in 3 of 10 observer sets");
  EXPECT_EQ(whole[0].count, 3U);
  EXPECT_EQ(whole[1].text, "2 entries of W");
  EXPECT_EQ(whole[2].text, "pair (3, 4): cond 1e13");
}

TEST(Diagnostics, AJoinedTallyCountsEveryShareObservers) {
  // Two shares of 2 and 3 observers; only the first found the tallied event.
  std::vector<UnitMuGrid> grids(2);
  std::vector<GaussianPairwiseAccount::Info> infos(2);
  for (std::size_t k = 0; k < 2; ++k) {
    grids[k].observers = k == 0 ? std::vector<graph::NodeId>{0, 1} : std::vector<graph::NodeId>{2, 3, 4};
    grids[k].targets = {0, 1, 2, 3, 4};
    grids[k].uncapped = DenseMatrix::Constant(5, static_cast<Eigen::Index>(grids[k].observers.size()), 0.5);
    grids[k].caps.assign(5, 1.0);
    infos[k].method = "muffliato";
  }
  infos[0].diagnostics.push_back(
      tally_diagnostic(DiagnosticKind::rank_unresolved, "in {0} of {1} observer sets", 1, 2));
  const auto joined = join_gaussian_accounts(std::move(grids), std::move(infos));
  ASSERT_EQ(joined->warnings().size(), 1U);
  EXPECT_EQ(joined->warnings().front(), "in 1 of 5 observer sets");
}

TEST(ObserverShare, MuffliatoPaperBoundsToo) {
  const Protocol protocol = small_protocol("er:n=10,p=0.4,seed=4,connected=1", 5);
  for (const std::string steps : {"0", "3"}) {
    AccountRequest request;
    set_account_option(request, "bound", "paper");
    set_account_option(request, "gradient_steps", steps);
    expect_share_rows_equal(protocol, request);
  }
}

TEST(ObserverShare, RefusesAShareOutOfOrderOrWithAnObserver) {
  const Protocol protocol = small_protocol("er:n=10,p=0.4,seed=4,connected=1", 5);
  PairQuery query;
  query.observers = {3, 1};
  EXPECT_THROW(
      {
        try {
          make_account(protocol, query, {});
        } catch (const std::invalid_argument& e) {
          EXPECT_NE(std::string(e.what()).find("strictly increasing"), std::string::npos) << e.what();
          throw;
        }
      },
      std::invalid_argument);
  query.observers = {1, 3};
  query.observer = 2;
  EXPECT_THROW(make_account(protocol, query, {}), std::invalid_argument);
  query.observer.reset();
  query.observers = {1, 12};
  EXPECT_THROW(make_account(protocol, query, {}), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(EveryGaussianFamily, GaussianJoin, ::testing::ValuesIn(gaussian_variants()),
                         [](const auto& info) { return info.param.name; });
INSTANTIATE_TEST_SUITE_P(EveryFamily, Conformance, ::testing::ValuesIn(variants()),
                         [](const ::testing::TestParamInfo<Variant>& info) { return info.param.name; });

}  // namespace
}  // namespace netdp::accounting
