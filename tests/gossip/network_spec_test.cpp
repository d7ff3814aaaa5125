// Schedule and network SPEC strings: the one grammar the command line and training share.

#include "netdp/gossip/network_spec.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "netdp/gossip/schedules.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/graph/spec.hpp"

namespace netdp::gossip {
namespace {

std::string spec_error_of(std::string_view text) {
  try {
    (void)parse_schedule_spec(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(ScheduleSpec, ParsesEveryFormAndRoundTrips) {
  using Kind = ScheduleSpec::Kind;
  EXPECT_EQ(parse_schedule_spec("fixed"), (ScheduleSpec{Kind::fixed, 1.0}));
  EXPECT_EQ(parse_schedule_spec("pairwise"), (ScheduleSpec{Kind::pairwise, 1.0}));
  EXPECT_EQ(parse_schedule_spec("er-per-round:p=0.25"), (ScheduleSpec{Kind::er_per_round, 0.25}));
  EXPECT_EQ(parse_schedule_spec("dropout:p=1"), (ScheduleSpec{Kind::dropout, 1.0}));
  for (const std::string text : {"fixed", "pairwise", "er-per-round:p=0.25", "dropout:p=0.5"}) {
    EXPECT_EQ(schedule_spec_string(parse_schedule_spec(text)), text);
  }
  EXPECT_FALSE(uses_base_graph(parse_schedule_spec("er-per-round:p=0.5")));
  EXPECT_TRUE(uses_base_graph(parse_schedule_spec("dropout:p=0.5")));
}

TEST(ScheduleSpec, BadSpecsNameTheSpecAndTheRule) {
  EXPECT_NE(spec_error_of("ring").find("unknown schedule 'ring'"), std::string::npos);
  EXPECT_NE(spec_error_of("ring").find("er-per-round:p=P"), std::string::npos);
  EXPECT_NE(spec_error_of("dropout:p=2").find("p must be in (0, 1]"), std::string::npos);
  EXPECT_NE(spec_error_of("er-per-round:p=0").find("p must be in (0, 1]"), std::string::npos);
  EXPECT_NE(spec_error_of("er-per-round:p=x").find("'x' is not a number"), std::string::npos);
  EXPECT_NE(spec_error_of("dropout").find("needs a probability"), std::string::npos);
}

TEST(ScheduleSpec, BuildsTheSameScheduleAsTheGenerators) {
  const GossipMatrix w = make_gossip_matrix(graph::from_spec("karate"), Weighting::hamilton);
  const Schedule fixed = schedule_from_spec(parse_schedule_spec("fixed"), w, Weighting::hamilton, 4, 9);
  EXPECT_TRUE(fixed.is_fixed());
  EXPECT_EQ(fixed.rounds(), 4u);
  const Schedule er =
      schedule_from_spec(parse_schedule_spec("er-per-round:p=0.2"), w, Weighting::metropolis, 3, 9);
  const Schedule direct = erdos_renyi_schedule(34, 0.2, Weighting::metropolis, 3, 9);
  for (std::size_t t = 0; t < 3; ++t) EXPECT_TRUE(er.at(t).isApprox(direct.at(t), 0.0));
  const Schedule pairwise = schedule_from_spec(parse_schedule_spec("pairwise"), w, Weighting::hamilton, 5, 3);
  const Schedule pairwise_direct = randomized_pairwise_schedule(w, 5, 3);
  for (std::size_t t = 0; t < 5; ++t) EXPECT_TRUE(pairwise.at(t).isApprox(pairwise_direct.at(t), 0.0));
  EXPECT_THROW(schedule_from_spec(ScheduleSpec{}, w, Weighting::hamilton, 0, 1), std::invalid_argument);
}

TEST(NetworkSpec, LoadsTheLargestComponentWithItsWeighting) {
  const NetworkSpec spec{"er:n=40,p=0.03,seed=3", true, Weighting::metropolis};
  const GossipMatrix w = load_network(spec);
  EXPECT_TRUE(graph::is_connected(w.graph()));
  EXPECT_EQ(w.num_nodes(), graph::largest_connected_component(graph::from_spec(spec.graph)).num_nodes());
  EXPECT_TRUE(w.matrix().isApprox(make_gossip_matrix(load_graph(spec), Weighting::metropolis).matrix(), 0.0));
}

}  // namespace
}  // namespace netdp::gossip
