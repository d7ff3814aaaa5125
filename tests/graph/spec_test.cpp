// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/graph/spec.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>

#include "netdp/graph/classic.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/graph/io.hpp"
#include "netdp/graph/metrics.hpp"
#include "util/temp_file.hpp"

namespace netdp::graph {
namespace {

using ::testing::HasSubstr;

std::string spec_error(const std::string& spec) {
  try {
    from_spec(spec);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error for " << spec;
  return "";
}

void expect_same(const Graph& a, const Graph& b, const std::string& spec) {
  EXPECT_EQ(a.num_nodes(), b.num_nodes()) << spec;
  EXPECT_EQ(a.edges(), b.edges()) << spec;
  EXPECT_EQ(a.labels(), b.labels()) << spec;
}

TEST(Spec, EveryGeneratorName) {
  expect_same(from_spec("er:n=100,p=0.2,seed=1"), erdos_renyi(100, 0.2, 1), "er");
  expect_same(from_spec("er:n=100,p=0.05,seed=1,connected=1"), erdos_renyi(100, 0.05, 1, {.connected = true}),
              "er connected");
  expect_same(from_spec("er:n=50,p=0.1"), erdos_renyi(50, 0.1, 1), "er default seed 1");
  expect_same(from_spec("hypercube:d=8"), hypercube(8), "hypercube");
  expect_same(from_spec("exponential:n=256"), exponential(256), "exponential");
  expect_same(from_spec("ring:n=10"), ring(10), "ring");
  expect_same(from_spec("complete:n=5"), complete(5), "complete");
  expect_same(from_spec("path:n=5"), path(5), "path");
  expect_same(from_spec("star:n=6"), star(6), "star");
  expect_same(from_spec("grid:rows=8,cols=8"), grid(8, 8), "grid");
  expect_same(from_spec("torus:cols=8,rows=4"), torus(4, 8), "torus");
  expect_same(from_spec("geometric:n=200,radius=0.15,seed=3"), random_geometric(200, 0.15, 3), "geometric");
  expect_same(from_spec("ba:n=200,m=3,seed=1"), barabasi_albert(200, 3, 1), "ba");
  expect_same(from_spec("ba:n=200,m=3,seed=1,m0=7"), barabasi_albert(200, 3, 1, 7), "ba m0");
  expect_same(from_spec("sbm:sizes=75/75/50,p=0.25/0.05/0.02/0.35/0.07/0.40,seed=2"),
              stochastic_block_model({75, 75, 50}, {0.25, 0.05, 0.02, 0.35, 0.07, 0.40}, 2), "sbm");
  expect_same(from_spec("regular:n=20,d=3,seed=1"), random_regular(20, 3, 1), "regular");
  expect_same(from_spec("florentine"), florentine_families(), "florentine");
  expect_same(from_spec("davis"), davis_southern_women(), "davis");
  expect_same(from_spec("karate"), karate_club(), "karate");
  expect_same(from_spec("lesmis"), les_miserables(), "lesmis");
}

TEST(Spec, FileReadersTakeEverythingAfterTheColonAsPath) {
  const netdp::testing::TempFile edges("3 1\n1 2\n", ".txt");
  expect_same(from_spec("edgelist:" + edges.path()), read_edge_list(edges.path()), "edgelist");
  const netdp::testing::TempFile mtx("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 1\n2 1\n",
                                     ".mtx");
  expect_same(from_spec("mtx:" + mtx.path()), read_matrix_market_graph(mtx.path()), "mtx");
  const netdp::testing::TempFile csv("Source,Target\nx,y\n", ".csv");
  expect_same(from_spec("csv:" + csv.path()), read_csv_graph(csv.path()), "csv");
  EXPECT_THAT(spec_error("edgelist"), HasSubstr("edgelist:PATH"));
  EXPECT_THAT(spec_error("edgelist:/nonexistent/x,y=1.txt"), HasSubstr("/nonexistent/x,y=1.txt"));
}

TEST(Spec, ErrorsNameTheProblemAndTheChoices) {
  EXPECT_THAT(spec_error("erdos:n=3"), HasSubstr("unknown graph name 'erdos'"));
  EXPECT_THAT(spec_error("erdos:n=3"), HasSubstr("valid names: complete, path, ring"));
  EXPECT_THAT(spec_error("er:n=10,q=0.1"), HasSubstr("unknown key 'q'"));
  EXPECT_THAT(spec_error("er:n=10,q=0.1"), HasSubstr("valid keys: n, p, seed, connected, max_attempts"));
  EXPECT_THAT(spec_error("er:n=10"), HasSubstr("missing required key 'p'"));
  EXPECT_THAT(spec_error("er:n=ten,p=0.1"), HasSubstr("n=ten is not a non-negative integer"));
  EXPECT_THAT(spec_error("er:n=-5,p=0.1"), HasSubstr("n=-5"));
  EXPECT_THAT(spec_error("er:n=10,p=0.1x"), HasSubstr("'0.1x' is not a finite number"));
  EXPECT_THAT(spec_error("er:n=10,p=inf"), HasSubstr("not a finite number"));
  EXPECT_THAT(spec_error("er:n=10,p=0.1,connected=2"), HasSubstr("0 or 1"));
  EXPECT_THAT(spec_error("er:n=10,n=11,p=0.1"), HasSubstr("key 'n' given twice"));
  EXPECT_THAT(spec_error("ring:n"), HasSubstr("not key=value"));
  EXPECT_THAT(spec_error("ring:"), HasSubstr("nothing after ':'"));
  EXPECT_THAT(spec_error(""), HasSubstr("empty name"));
  EXPECT_THAT(spec_error("karate:n=3"), HasSubstr("valid keys: none"));
  EXPECT_THAT(spec_error("sbm:sizes=5/x,p=0.1/0.1/0.1"), HasSubstr("item 'x' of sizes"));
  EXPECT_THAT(spec_error("sbm:sizes=5/5,p=0.1/0.1"), HasSubstr("need 3 probabilities"));
  EXPECT_THAT(spec_error("hypercube:d=99"), HasSubstr("d"));
  EXPECT_THAT(spec_error("ring:n=2"), HasSubstr("n >= 3"));  // generator's own validation
}

TEST(Spec, ParseSpecSplitsNameAndParams) {
  const ParsedSpec parsed = parse_spec("grid:rows=2,cols=3");
  EXPECT_EQ(parsed.name, "grid");
  ASSERT_EQ(parsed.params.size(), 2u);
  EXPECT_EQ(parsed.params[1].first, "cols");
  EXPECT_EQ(parsed.params[1].second, "3");
  EXPECT_EQ(parse_spec("csv:/a:b,c.csv").path, "/a:b,c.csv");
}

TEST(Spec, HelpListsEveryNameAndKey) {
  const std::string help = spec_help();
  for (const char* word :
       {"complete",    "path",         "ring",      "star",     "grid", "torus",   "hypercube",
        "exponential", "er",           "geometric", "ba",       "sbm",  "regular", "florentine",
        "davis",       "karate",       "lesmis",    "edgelist", "mtx",  "csv",     "radius",
        "m0",          "max_attempts", "sizes",     "connected"}) {
    EXPECT_THAT(help, HasSubstr(word));
  }
}

}  // namespace
}  // namespace netdp::graph
