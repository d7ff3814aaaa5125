// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/gossip/gossip_matrix.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "netdp/graph/generators.hpp"

namespace netdp::gossip {
namespace {

using ::testing::HasSubstr;

SparseMatrix sparse(const DenseMatrix& m) { return m.sparseView(); }

/// The ring C_4 averaged with its neighbours: W = ½ A (hamilton), doubly stochastic.
DenseMatrix ring4_half() {
  DenseMatrix w = DenseMatrix::Zero(4, 4);
  for (int u = 0; u < 4; ++u) w(u, (u + 1) % 4) = w(u, (u + 3) % 4) = 0.5;
  return w;
}

std::string error_of(const DenseMatrix& w, const graph::Graph& g) {
  try {
    GossipMatrix m(sparse(w), g);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(GossipMatrix, AcceptsAValidMatrixAndKeepsItsGraph) {
  const GossipMatrix w(sparse(ring4_half()), graph::ring(4));
  EXPECT_EQ(w.num_nodes(), 4u);
  EXPECT_EQ(w.graph().num_edges(), 4u);
  EXPECT_DOUBLE_EQ(w.matrix().coeff(0, 1), 0.5);
  EXPECT_TRUE(w.is_symmetric());
  EXPECT_TRUE(w.is_doubly_stochastic());
}

TEST(GossipMatrix, RowThatDoesNotSumToOneIsNamedWithItsSum) {
  DenseMatrix w = ring4_half();
  w(2, 1) = 0.25;
  const std::string message = error_of(w, graph::ring(4));
  EXPECT_THAT(message, HasSubstr("row 2"));
  EXPECT_THAT(message, HasSubstr("0.75"));
}

TEST(GossipMatrix, RowSumToleranceIsOneInATrillion) {
  DenseMatrix w = ring4_half();
  w(1, 1) = 5e-13;  // row 1 sums to 1 + 5e-13: accepted
  EXPECT_NO_THROW(GossipMatrix(sparse(w), graph::ring(4)));
  w(1, 1) = 5e-12;  // 1 + 5e-12: rejected
  EXPECT_THAT(error_of(w, graph::ring(4)), HasSubstr("row 1"));
}

TEST(GossipMatrix, NegativeEntryIsNamed) {
  DenseMatrix w = ring4_half();
  w(3, 0) = 0.75;
  w(3, 2) = 0.5;
  w(3, 3) = -0.25;
  EXPECT_THAT(error_of(w, graph::ring(4)), HasSubstr("W[3][3] = -0.25"));
}

TEST(GossipMatrix, NonFiniteEntryIsRejected) {
  DenseMatrix w = ring4_half();
  w(0, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THAT(error_of(w, graph::ring(4)), HasSubstr("W[0][1]"));
  w(0, 1) = std::numeric_limits<double>::infinity();
  EXPECT_THAT(error_of(w, graph::ring(4)), HasSubstr("finite"));
}

TEST(GossipMatrix, EntryOutsideTheGraphIsNamed) {
  DenseMatrix w = ring4_half();
  w(0, 1) = 0.25;
  w(0, 2) = 0.25;  // {0, 2} is not an edge of C_4
  const std::string message = error_of(w, graph::ring(4));
  EXPECT_THAT(message, HasSubstr("W[0][2]"));
  EXPECT_THAT(message, HasSubstr("not an edge"));
}

TEST(GossipMatrix, ShapeMustMatchTheGraph) {
  EXPECT_THAT(error_of(DenseMatrix::Identity(3, 3), graph::ring(4)), HasSubstr("4 nodes"));
  EXPECT_THAT(error_of(DenseMatrix::Zero(4, 3), graph::ring(4)), HasSubstr("square"));
  EXPECT_THAT(error_of(DenseMatrix::Zero(0, 0), graph::Graph()), HasSubstr("at least 1 node"));
}

TEST(GossipMatrix, ExplicitZerosArePrunedAndAllowedOffTheGraph) {
  SparseMatrix w = sparse(ring4_half());
  w.coeffRef(0, 2) = 0.0;  // stored zero outside the graph: not a violation
  const GossipMatrix m(w, graph::ring(4));
  EXPECT_EQ(m.matrix().nonZeros(), 8);
}

TEST(GossipMatrix, FromSupportBuildsTheGraphOfThePositiveEntries) {
  // Row-stochastic, not symmetric: 0 -> 1 only (W_10 = 0), 1 <-> 2.
  DenseMatrix w(3, 3);
  w << 0.5, 0.5, 0.0,  //
      0.0, 0.5, 0.5,   //
      0.0, 0.25, 0.75;
  const GossipMatrix m = GossipMatrix::from_support(sparse(w));
  EXPECT_EQ(m.graph().num_edges(), 2u);
  EXPECT_TRUE(m.graph().has_edge(0, 1));
  EXPECT_TRUE(m.graph().has_edge(1, 2));
  EXPECT_FALSE(m.graph().has_edge(0, 2));
  EXPECT_FALSE(m.is_symmetric());
  EXPECT_FALSE(m.is_doubly_stochastic());
  const Vector columns = m.column_sums();
  EXPECT_DOUBLE_EQ(columns[0], 0.5);
  EXPECT_DOUBLE_EQ(columns[1], 1.25);
  EXPECT_DOUBLE_EQ(columns[2], 1.25);
}

TEST(GossipMatrix, SymmetryToleranceIsHonoured) {
  DenseMatrix w = ring4_half();
  w(0, 1) = 0.5 + 1e-9;
  w(0, 3) = 0.5 - 1e-9;
  const GossipMatrix m(sparse(w), graph::ring(4));
  EXPECT_FALSE(m.is_symmetric());
  EXPECT_TRUE(m.is_symmetric(1e-8));
  EXPECT_TRUE(m.is_doubly_stochastic(1e-8));
  EXPECT_FALSE(m.is_doubly_stochastic(1e-12));
}

}  // namespace
}  // namespace netdp::gossip
