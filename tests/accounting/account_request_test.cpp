// AccountRequest: the options by name build the same account as the accountant's own factory,
// and an option that does not apply to the method is refused by name.
#include "netdp/accounting/account_request.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/spec.hpp"

namespace netdp::accounting {
namespace {

Protocol ring_protocol() {
  Protocol p(gossip::make_gossip_matrix(graph::from_spec("ring:n=7"), gossip::Weighting::hamilton));
  p.rounds = 4;
  return p;
}

std::vector<double> epsilons(const PairwiseAccount& account) {
  std::vector<double> out;
  for (const PairRow& row : account.rows(1.5, 1e-5)) out.push_back(row.epsilon);
  return out;
}

TEST(AccountRequest, BuildsWhatEachFactoryBuilds) {
  const Protocol p = ring_protocol();
  const PairQuery all;
  AccountRequest request;
  MuffliatoOptions paper;
  paper.bound = MuffliatoBound::paper;
  request.bound = "paper";
  EXPECT_EQ(epsilons(*make_account(p, all, request)), epsilons(*muffliato_account(p, all, paper)));

  request = {};
  request.method = "random-walk";
  request.contributions = "worst";
  RandomWalkOptions walk;
  walk.count = ContributionCount::worst_case;
  EXPECT_EQ(epsilons(*make_account(p, all, request)), epsilons(*random_walk_account(p, all, walk)));

  request = {};
  request.method = "linear-system";
  request.view = "plain";
  request.release_dimension = "1";
  request.sign_search = "auto";
  LinearSystemOptions plain;
  plain.view = LinearSystemView::plain;
  EXPECT_EQ(epsilons(*make_account(p, all, request)),
            epsilons(*linear_system_account(p, all, plain, {SignSearch::automatic, 1})));

  request = {};
  request.method = "mf";
  request.algorithm = "antipgd";
  request.trust = "secldp";
  MfAlgorithmSpec antipgd;
  antipgd.algorithm = MfAlgorithm::antipgd;
  PairQuery one;
  one.observer = 0;
  EXPECT_EQ(epsilons(*make_account(p, one, request)),
            epsilons(*mf_account(p, one, antipgd, MfTrust::secldp, {})));
}

TEST(AccountRequest, RefusesAnOptionOfAnotherMethodByName) {
  const auto message = [](AccountRequest request) {
    try {
      check_request(request);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  AccountRequest r;
  r.method = "gossip";
  EXPECT_NE(message(r).find("--method 'gossip' is not one of"), std::string::npos);
  r = {};
  r.view = "plain";
  EXPECT_NE(
      message(r).find("--view, --first-power and --keep-observer-noise apply to --method linear-system"),
      std::string::npos);
  r = {};
  r.method = "linear-system";
  r.trust = "ldp";
  EXPECT_NE(message(r).find("--trust, --algorithm"), std::string::npos);
  r = {};
  r.exact_effort = -1.0;
  EXPECT_NE(message(r).find("--exact-effort must be a finite number of entries >= 0"), std::string::npos);
  r = {};
  r.bound = "paper";
  r.exact_effort = 10.0;
  EXPECT_NE(message(r).find("--exact-effort applies to the exact joint view"), std::string::npos);
  r = {};
  r.method = "mf";
  r.algorithm = "mf-d-sgd";
  EXPECT_NE(message(r).find("--algorithm mf-d-sgd needs --correlation"), std::string::npos);
  r = {};
  r.method = "random-walk";
  r.contributions = "many";
  EXPECT_NE(message(r).find("--contributions 'many' is not one of tail, worst, expected"), std::string::npos);
  r = {};
  r.gossip_steps = 3;
  EXPECT_NE(message(r).find("--gossip-steps applies to --method linear-system and mf only"),
            std::string::npos);
  EXPECT_EQ(message(AccountRequest{}), "accepted");
}

}  // namespace
}  // namespace netdp::accounting
