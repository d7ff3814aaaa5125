// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/gossip/matrix_market_io.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>

#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/classic.hpp"

namespace netdp::gossip {
namespace {

using ::testing::HasSubstr;

std::string read_error_of(const std::string& text) {
  std::istringstream in(text);
  try {
    parse_gossip_matrix_market(in, "W.mtx");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(GossipMatrixMarket, RoundTripIsExact) {
  for (const Weighting weighting : kDegreeWeightings) {
    const GossipMatrix w = make_gossip_matrix(graph::karate_club(), weighting);
    std::stringstream buffer;
    write_gossip_matrix_market(buffer, w);
    const GossipMatrix back = parse_gossip_matrix_market(buffer, "buffer");
    EXPECT_TRUE(DenseMatrix(back.matrix()).isApprox(DenseMatrix(w.matrix()), 0.0))
        << weighting_name(weighting);
    EXPECT_EQ(back.graph().edges(), w.graph().edges());
  }
}

TEST(GossipMatrixMarket, ReadsSymmetricFilesAndDerivesTheGraph) {
  // Path 1 - 2 - 3 (1-based), W = [[.5 .5 0] [.5 0 .5] [0 .5 .5]], lower triangle only.
  std::istringstream in(
      "%%MatrixMarket matrix coordinate real symmetric\n% a comment\n3 3 5\n1 1 0.5\n2 1 0.5\n3 2 0.5\n3 3 "
      "0.5\n2 2 0\n");
  const GossipMatrix w = parse_gossip_matrix_market(in, "path.mtx");
  EXPECT_EQ(w.graph().num_edges(), 2u);
  EXPECT_TRUE(w.graph().has_edge(0, 1));
  EXPECT_TRUE(w.graph().has_edge(1, 2));
  EXPECT_DOUBLE_EQ(w.matrix().coeff(1, 2), 0.5);
  EXPECT_TRUE(w.is_symmetric());
}

TEST(GossipMatrixMarket, ErrorsNameTheFileAndTheProblem) {
  const std::string banner = "%%MatrixMarket matrix coordinate real general\n";
  EXPECT_THAT(read_error_of(banner + "2 2 2\n1 1 0.5\n2 2 1\n"), HasSubstr("row 0 sums to 0.5"));
  EXPECT_THAT(read_error_of(banner + "2 2 2\n1 1 0.5\n2 2 1\n"), HasSubstr("W.mtx"));
  EXPECT_THAT(read_error_of(banner + "2 2 3\n1 1 0.5\n1 1 0.5\n2 2 1\n"),
              HasSubstr("entry (1, 1) (1-based) appears more"));
  EXPECT_THAT(read_error_of(banner + "2 2 3\n1 1 1.5\n1 2 -0.5\n2 2 1\n"), HasSubstr("W[0][1] = -0.5"));
  EXPECT_THAT(read_error_of(banner + "2 3 1\n1 1 1\n"), HasSubstr("square"));
  EXPECT_THAT(read_error_of(banner + "2 2 2\n1 1 1\nx 2 1\n"), HasSubstr("line 4"));  // from the util reader
  EXPECT_THAT(read_error_of(""), HasSubstr("empty"));
}

}  // namespace
}  // namespace netdp::gossip
