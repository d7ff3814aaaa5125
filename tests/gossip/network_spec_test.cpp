// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Schedule and network SPEC strings: the one grammar the command line and training share.

#include "netdp/gossip/network_spec.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>

#include "../util/temp_file.hpp"
#include "netdp/gossip/matrix_market_io.hpp"
#include "netdp/gossip/schedules.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/graph/spec.hpp"

namespace netdp::gossip {
namespace {

// The message of the std::invalid_argument that `call` throws, or "" when it throws none.
template <typename Call>
std::string error_of(Call call) {
  try {
    (void)call();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

std::string spec_error_of(std::string_view text) {
  return error_of([&] { return parse_schedule_spec(text); });
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
  NetworkSpec spec;
  spec.graph = "er:n=40,p=0.03,seed=3";
  spec.lcc = true;
  spec.weighting = Weighting::metropolis;
  const GossipMatrix w = load_network(spec);
  EXPECT_TRUE(graph::is_connected(w.graph()));
  EXPECT_EQ(w.num_nodes(), graph::largest_connected_component(graph::from_spec(spec.graph)).num_nodes());
  EXPECT_TRUE(w.matrix().isApprox(make_gossip_matrix(load_graph(spec), Weighting::metropolis).matrix(), 0.0));
}

NetworkSpec network(std::string graph, std::string matrix = "", Weighting weighting = Weighting::hamilton) {
  NetworkSpec spec;
  spec.graph = std::move(graph);
  spec.matrix = std::move(matrix);
  spec.weighting = weighting;
  return spec;
}

std::string matrix_text(const GossipMatrix& w) {
  std::ostringstream out;
  write_gossip_matrix_market(out, w);
  return out.str();
}

std::string load_error_of(const NetworkSpec& spec) {
  return error_of([&] { return load_network(spec); });
}

TEST(NetworkSpec, UsersMatrixOnItsGraphIsTheBuiltInOneBitForBit) {
  for (const Weighting weighting : kDegreeWeightings) {
    const GossipMatrix built_in = load_network(network("florentine", "", weighting));
    const netdp::testing::TempFile file(matrix_text(built_in), ".mtx");
    const NetworkSpec spec = network("florentine", file.path());
    const GossipMatrix user = load_network(spec);
    EXPECT_TRUE(user.matrix().isApprox(built_in.matrix(), 0.0)) << weighting_name(weighting);
    EXPECT_EQ(user.graph().labels(), built_in.graph().labels());
    EXPECT_FALSE(schedule_weighting(spec).has_value());
  }
}

TEST(NetworkSpec, UsersMatrixAloneIsOnItsSupportWithOneBasedLabels) {
  const GossipMatrix ring = load_network(network("ring:n=5"));
  const netdp::testing::TempFile file(matrix_text(ring), ".mtx");
  const GossipMatrix w = load_network(network("", file.path()));
  EXPECT_EQ(w.graph().num_edges(), 5u);
  EXPECT_EQ(w.graph().label(0), "1");
  EXPECT_EQ(w.graph().label(4), "5");
  NetworkSpec with_lcc = network("", file.path());
  with_lcc.lcc = true;
  EXPECT_NE(load_error_of(with_lcc).find("drop --lcc"), std::string::npos);
}

TEST(NetworkSpec, UsersMatrixThatIsNotTheGraphsIsRefusedByName) {
  const netdp::testing::TempFile ring(matrix_text(load_network(network("ring:n=5"))), ".mtx");
  // Another size.
  EXPECT_NE(load_error_of(network("ring:n=6", ring.path())).find("W is 5 x 5 but the graph"),
            std::string::npos);
  // An edge of the graph that W does not use.
  EXPECT_NE(load_error_of(network("complete:n=5", ring.path())).find("W_uv = W_vu = 0"), std::string::npos);
  // An entry of W on no edge of the graph.
  EXPECT_NE(load_error_of(network("path:n=5", ring.path())).find("is not an edge"), std::string::npos);
  // Not stochastic, negative, not a number.
  const netdp::testing::TempFile heavy(
      "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 1 0.5\n", ".mtx");
  EXPECT_NE(load_error_of(network("", heavy.path())).find("row 1 sums to"), std::string::npos);
  const netdp::testing::TempFile negative(
      "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n2 1 1.5\n2 2 -0.5\n", ".mtx");
  EXPECT_NE(load_error_of(network("", negative.path())).find("-0.5"), std::string::npos);
  const netdp::testing::TempFile not_a_number(
      "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 nan\n2 2 1\n", ".mtx");
  EXPECT_NE(load_error_of(network("", not_a_number.path())), "");
}

TEST(NetworkSpec, ReadOptionsReachTheGraphsReader) {
  const netdp::testing::TempFile file("who,whom\na,b\nb,a\nb,c\n", ".csv");
  NetworkSpec spec = network("csv:" + file.path());
  EXPECT_NE(load_error_of(spec).find("the header names no pair of columns"), std::string::npos);
  spec.read.source_column = "who";
  spec.read.target_column = "whom";
  EXPECT_NE(load_error_of(spec).find("--symmetrize"), std::string::npos);
  spec.read.symmetrize = true;
  EXPECT_EQ(load_network(spec).graph().num_edges(), 2u);
}

TEST(NetworkSpec, UsersMatrixRefusesTheSchedulesThatReweightAGraph) {
  const GossipMatrix w = load_network(network("ring:n=5"));
  EXPECT_NO_THROW(schedule_from_spec(parse_schedule_spec("pairwise"), w, std::nullopt, 3, 1));
  for (const char* spec : {"dropout:p=0.5", "er-per-round:p=0.5"}) {
    const std::string error =
        error_of([&] { return schedule_from_spec(parse_schedule_spec(spec), w, std::nullopt, 3, 1); });
    EXPECT_NE(error.find("--matrix"), std::string::npos) << spec << " without a weighting: '" << error << "'";
  }
}

}  // namespace
}  // namespace netdp::gossip
