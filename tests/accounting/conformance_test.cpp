// The conformance suite every registered accountant family passes, through the registry and the
// typed request that every front end builds: ε never rises with σ, a vanishing sensitivity leaks
// nothing, the calibrated σ meets its target and is the smallest that does, no value is below a
// loss known exactly, and a family refuses exactly the combinations its build rejects.
#include <gtest/gtest.h>

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

INSTANTIATE_TEST_SUITE_P(EveryFamily, Conformance, ::testing::ValuesIn(variants()),
                         [](const ::testing::TestParamInfo<Variant>& info) { return info.param.name; });

}  // namespace
}  // namespace netdp::accounting
