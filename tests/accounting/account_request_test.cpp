// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// AccountRequest: the options by name build the same account as the accountant's own factory,
// and an option that does not apply to the method is refused by name.
#include "netdp/accounting/account/account_request.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "netdp/accounting/linear_system/pairwise_linear_system.hpp"
#include "netdp/accounting/mf/pairwise_mf.hpp"
#include "netdp/accounting/muffliato/pairwise_muffliato.hpp"
#include "netdp/accounting/random_walk/pairwise_random_walk.hpp"
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
  request.bound = MuffliatoBound::paper;
  EXPECT_EQ(epsilons(*make_account(p, all, request)), epsilons(*muffliato_account(p, all, paper)));

  request = {};
  request.method = Method::random_walk;
  request.contributions = Contributions{ContributionCount::worst_case, 0};
  RandomWalkOptions walk;
  walk.count = ContributionCount::worst_case;
  EXPECT_EQ(epsilons(*make_account(p, all, request)), epsilons(*random_walk_account(p, all, walk)));

  request = {};
  request.method = Method::linear_system;
  request.view = LinearSystemView::plain;
  request.release_dimension = 1;
  request.sign_search = SignSearch::automatic;
  LinearSystemOptions plain;
  plain.view = LinearSystemView::plain;
  EXPECT_EQ(epsilons(*make_account(p, all, request)),
            epsilons(*linear_system_account(p, all, plain, {SignSearch::automatic, 1})));

  request = {};
  request.method = Method::mf;
  request.algorithm = MfAlgorithm::antipgd;
  request.trust = MfTrust::secldp;
  MfAlgorithmSpec antipgd;
  antipgd.algorithm = MfAlgorithm::antipgd;
  PairQuery one;
  one.observer = 0;
  EXPECT_EQ(epsilons(*make_account(p, one, request)),
            epsilons(*mf_account(p, one, antipgd, MfTrust::secldp, {})));
}

std::string refusal(const AccountRequest& request) {
  try {
    check_request(request);
  } catch (const std::invalid_argument& e) {
    return std::string(e.what());
  }
  return "accepted";
}

std::string parse_refusal(std::string_view name, std::string_view text) {
  AccountRequest request;
  try {
    set_account_option(request, name, text);
  } catch (const std::invalid_argument& e) {
    return std::string(e.what());
  }
  return "accepted";
}

TEST(AccountRequest, RefusesAnOptionOfAnotherMethodByName) {
  AccountRequest r;
  r.view = LinearSystemView::plain;
  EXPECT_EQ(refusal(r),
            "`view`, `first_power` and `keep_observer_noise` apply to `method` linear-system only");
  r = {};
  r.method = Method::linear_system;
  r.trust = MfTrust::ldp;
  EXPECT_EQ(
      refusal(r),
      "`trust`, `algorithm`, `participations`, `separation` and `correlation` apply to `method` mf only");
  r = {};
  r.exact_effort = -1.0;
  EXPECT_NE(refusal(r).find("`exact_effort` must be a finite number of entries >= 0"), std::string::npos);
  r = {};
  r.bound = MuffliatoBound::paper;
  r.exact_effort = 10.0;
  EXPECT_NE(refusal(r).find("`exact_effort` applies to the exact joint view"), std::string::npos);
  r = {};
  r.method = Method::mf;
  r.algorithm = MfAlgorithm::mf_d_sgd;
  EXPECT_EQ(refusal(r), "`algorithm` mf-d-sgd needs `correlation` C.mtx");
  r = {};
  r.gossip_steps = 3;
  EXPECT_EQ(refusal(r), "`gossip_steps` applies to `method` linear-system and mf only");
  r = {};
  r.method = Method::linear_system;
  r.gossip_steps = 0;
  EXPECT_EQ(refusal(r), "`gossip_steps` must be >= 1 (gossip steps per injection), got 0");
  r.gossip_steps = 1;
  r.first_power = 5;
  EXPECT_EQ(refusal(r), "`first_power` must be 0 or 1, got 5");
  EXPECT_EQ(refusal(AccountRequest{}), "accepted");
}

// An option set to its default value is still set: it is refused for a method it does not apply to
// (the request records what was asked, not what it equals).
TEST(AccountRequest, AnOptionSetToItsDefaultIsStillSet) {
  AccountRequest r;
  r.method = Method::random_walk;
  r.bound = MuffliatoBound::exact;
  EXPECT_NE(refusal(r).find("`bound` exact: only `method` muffliato"), std::string::npos);
  r = {};
  r.tail_share = 0.1;
  EXPECT_EQ(refusal(r),
            "`contributions`, `tail_share` and `sender_known` apply to `method` random-walk only");
}

TEST(AccountRequest, ParsesEachOptionFromTextByTheTable) {
  for (const AccountOption& option : account_options()) {
    if (option.type == OptionType::matrix) continue;
    AccountRequest r;
    const std::string_view text = option.type == OptionType::flag        ? "true"
                                  : option.type == OptionType::real      ? "0.5"
                                  : option.type == OptionType::count     ? "2"
                                  : option.type == OptionType::integer   ? "1"
                                  : option.type == OptionType::dimension ? "1"
                                  : option.name == "method"              ? "mf"
                                  : option.name == "contributions"
                                      ? "3"
                                      : option.values.substr(0, option.values.find(' '));
    set_account_option(r, option.name, text);
    EXPECT_TRUE(account_option_set(r, option.name)) << option.name;
    EXPECT_FALSE(account_option_set(AccountRequest{}, option.name)) << option.name;
    EXPECT_NE(find_account_option(option.name), nullptr);
    EXPECT_FALSE(option.help.empty()) << option.name;
  }
  AccountRequest r;
  set_account_option(r, "contributions", "expected");
  EXPECT_EQ(r.contributions->count, ContributionCount::expected);
  EXPECT_EQ(r.contributions->name(), "expected");
  set_account_option(r, "contributions", "12");
  EXPECT_EQ(r.contributions->cap, 12U);
  set_account_option(r, "release_dimension", "vector");
  EXPECT_EQ(*r.release_dimension, kAnyReleaseDimension);
  set_account_option(r, "method", "linear-system");
  EXPECT_EQ(r.method, Method::linear_system);
}

TEST(AccountRequest, RefusesTextThatIsNotTheOptionsType) {
  EXPECT_EQ(parse_refusal("method", "gossip"),
            "`method` 'gossip' is not one of: muffliato, random-walk, linear-system, mf");
  EXPECT_EQ(parse_refusal("contributions", "many"),
            "`contributions` 'many' is not one of tail, worst, expected, or a whole number >= 1 (a count of "
            "visits, in decimal digits)");
  EXPECT_EQ(parse_refusal("contributions", "0.5").substr(0, 32), "`contributions` '0.5' is not one");
  EXPECT_EQ(parse_refusal("tail_share", "half"), "`tail_share` must be a number, got 'half'");
  EXPECT_EQ(parse_refusal("gradient_steps", "-2"), "`gradient_steps` must be a whole number >= 0, got '-2'");
  EXPECT_EQ(parse_refusal("sender_known", "yes"), "`sender_known` is a flag: true or false, got 'yes'");
  EXPECT_EQ(parse_refusal("bound", "tight"), "unknown `bound` 'tight'; expected one of: exact, paper");
  EXPECT_EQ(parse_refusal("correlation", "C.mtx"),
            "`correlation` is a matrix, not text: read it from a file first");
  EXPECT_EQ(parse_refusal("colour", "red"), "unknown accountant option 'colour'");
}

/// Every value an account is built from, defaults resolved (the *_or_default accessors).
std::string effective(const AccountRequest& r) {
  return fmt::format(
      "{} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {}", util::name_of(kMethodNames, r.method),
      r.gradient_steps, r.authors_convention, r.count_observer_noise,
      util::name_of(kMuffliatoBoundNames, r.bound_or_default()), r.exact_effort_or_default(),
      r.contributions_or_default().name(), r.tail_share_or_default(), r.sender_known,
      linear_system_view_name(r.view_or_default()), r.first_power.value_or(-1), r.keep_observer_noise,
      r.gossip_steps_or_default(), r.release_dimension_or_default(),
      util::name_of(kSignSearchNames, r.sign_search_or_default()), to_string(r.trust_or_default()),
      to_string(r.algorithm_or_default()), r.participations, r.separation, r.pair_fields);
}

// The table's default text is the default the accessors state: setting an option to the text its
// help shows builds the same account as leaving it unset.
TEST(AccountRequest, EachDefaultTheTableShowsIsTheDefaultItApplies) {
  for (const AccountOption& option : account_options()) {
    if (option.default_value.empty()) continue;  // a default described in the help line
    AccountRequest unset;
    if (option.name != "method") {  // a method the option applies to
      for (const auto& [method, name] : kMethodNames)
        if (option.applies_to(method)) unset.method = method;
    }
    if (option.name == "release_dimension" && unset.method == Method::muffliato) unset.gradient_steps = 1;
    AccountRequest set = unset;
    set_account_option(set, option.name, option.default_value);
    EXPECT_EQ(effective(set), effective(unset)) << option.name << " = " << option.default_value;
  }
}

}  // namespace
}  // namespace netdp::accounting
