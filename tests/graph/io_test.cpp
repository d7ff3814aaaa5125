// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/graph/io.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "netdp/graph/generators.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/util/text_lines.hpp"
#include "util/temp_file.hpp"

namespace netdp::graph {
namespace {

using netdp::testing::TempFile;
using ::testing::HasSubstr;

std::string error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "no std::invalid_argument thrown";
  return "";
}

TEST(EdgeList, RelabelsByIncreasingNumericIdAndMergesDuplicates) {
  // Ids out of order, up to 2^64-1, reverse duplicates, repeats, a self-loop,
  // comments, tabs, blank lines, CRLF endings and an ignored weight column.
  const TempFile file(
      "# SNAP style\n% also a comment\n100 7\n7\t100\r\n\n  100   7  \n"
      "18446744073709551615 7 0.5\n42 42\n9 10\n");
  const Graph g = read_edge_list(file.path(), {.symmetrize = true});  // 100 -- 7 both ways, the others one
  const std::vector<std::string> labels{"7", "9", "10", "42", "100", "18446744073709551615"};
  EXPECT_EQ(g.labels(), labels);  // numeric, not lexicographic, order
  const std::vector<Edge> edges{{0, 4}, {0, 5}, {1, 2}};
  EXPECT_EQ(g.edges(), edges);
  EXPECT_EQ(g.degree(3), 0u);       // node 42 had only a self-loop: kept, isolated
  EXPECT_FALSE(g.weighted());       // one line of four has a weight
  ASSERT_EQ(g.notes().size(), 5u);  // and the user is told
  EXPECT_THAT(g.notes()[0], HasSubstr("symmetrized (--symmetrize): 2 one-way arcs read as edges, 1 pair"));
  EXPECT_THAT(g.notes()[1], HasSubstr("1 repeated edge merged"));
  EXPECT_THAT(g.notes()[2], HasSubstr("1 of the 5 edges have a weight, the first without one at line 3: the "
                                      "weights are not kept"));
  EXPECT_THAT(g.notes()[3], HasSubstr("1 self-loop dropped"));
  EXPECT_THAT(g.notes()[3], HasSubstr("line 8: '42 42'"));
  EXPECT_THAT(g.notes()[4],
              HasSubstr("the columns after the first two (weights, times) are not used: 1 line has "
                        "them, the first at line 7"));
}

// A file whose pairs are listed both ways for some and one way for others looks directed: refused,
// or symmetrized when asked, with the count of what was merged; every edge both ways is undirected.
TEST(EdgeList, DirectedFilesAreRefusedOrSymmetrizedWhenAsked) {
  const TempFile mixed("a b\nb a\nb c\nb c\n");
  EXPECT_THAT(error_of([&] { read_edge_list(mixed.path()); }),
              HasSubstr("the file looks directed: 1 pair of nodes is listed in both directions and 1 in one "
                        "only (the first: b -> c)"));
  const Graph g = read_edge_list(mixed.path(), {.symmetrize = true});
  EXPECT_EQ(g.num_edges(), 2u);
  ASSERT_EQ(g.notes().size(), 2u);
  EXPECT_THAT(g.notes()[0], HasSubstr("symmetrized (--symmetrize): 1 one-way arc read as edges, 1 pair"));
  EXPECT_THAT(g.notes()[1], HasSubstr("1 repeated edge merged"));
  const TempFile both_ways("1 2\n2 1\n2 3\n3 2\n");
  EXPECT_TRUE(read_edge_list(both_ways.path()).notes().empty());
  const TempFile snap("# Directed graph (each unordered pair of nodes is saved once)\n1 2\n");
  EXPECT_THAT(error_of([&] { read_edge_list(snap.path()); }),
              HasSubstr("line 1: the file says the graph is directed"));
  EXPECT_EQ(read_edge_list(snap.path(), {.symmetrize = true}).num_edges(), 1u);
  const TempFile undirected("# Undirected graph\n1 2\n");
  EXPECT_EQ(read_edge_list(undirected.path()).num_edges(), 1u);
  // A general Matrix Market adjacency that is not symmetric is a directed graph's.
  const TempFile arcs("%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n2 1\n2 3\n", ".mtx");
  EXPECT_THAT(error_of([&] { read_matrix_market_graph(arcs.path()); }), HasSubstr("looks directed"));
  EXPECT_EQ(read_matrix_market_graph(arcs.path(), {.symmetrize = true}).num_edges(), 2u);
}

// --source-column / --target-column / --weight-column name the columns the header does not.
TEST(Csv, ColumnsNamedByTheUser) {
  const TempFile file("who,whom,strength\nx,y,2\ny,z,3\n", ".csv");
  const Graph g = read_csv_graph(
      file.path(), {.source_column = "WHO", .target_column = "whom", .weight_column = "strength"});
  EXPECT_EQ(g.labels(), (std::vector<std::string>{"x", "y", "z"}));
  ASSERT_TRUE(g.weighted());
  EXPECT_EQ(g.neighbor_weights(1)[1], 3.0);
  EXPECT_THAT(
      error_of([&] { read_csv_graph(file.path(), {.source_column = "who", .target_column = "to"}); }),
      HasSubstr("line 1: the header has no column 'to' (--target-column); its columns are 'who', 'whom', "
                "'strength'"));
  EXPECT_THAT(error_of([&] { read_csv_graph(file.path(), {.source_column = "who"}); }),
              HasSubstr("give both"));
}

// networkx's write_weighted_edgelist: the third column is the weight, kept on both directions.
TEST(EdgeList, ThirdColumnOfNumbersIsTheWeight) {
  const TempFile file("a b 2\nb c 0.5 1999\nc a 1\n");
  const Graph g = read_edge_list(file.path());
  ASSERT_TRUE(g.weighted());
  EXPECT_EQ(std::vector<double>(g.neighbor_weights(0).begin(), g.neighbor_weights(0).end()),
            (std::vector<double>{2.0, 1.0}));  // a: b, c
  EXPECT_EQ(g.neighbor_weights(1)[1], 0.5);    // b: a, c
  ASSERT_EQ(g.notes().size(), 1u);
  EXPECT_THAT(g.notes()[0], HasSubstr("the columns after the first three (the ends and the weight)"));
  const TempFile negative("a b 2\nb c -1\n");
  const Graph n = read_edge_list(negative.path());
  EXPECT_FALSE(n.weighted());
  EXPECT_THAT(n.notes().at(0), HasSubstr("the edge b -- c has weight -1, and edge weights must be positive"));
  const TempFile twice("a b 2\nb a 3\n");
  EXPECT_THAT(read_edge_list(twice.path()).notes().at(0),
              HasSubstr("the edge a -- b is given twice, with weights 2 and 3"));
  const TempFile same("a b 2\nb a 2\n");
  EXPECT_TRUE(read_edge_list(same.path()).weighted());
}

TEST(EdgeList, MalformedLinesNameFileLineAndContent) {
  const TempFile one_token("1 2\n# c\n3\n");
  const std::string message = error_of([&] { read_edge_list(one_token.path()); });
  EXPECT_THAT(message, HasSubstr(one_token.path()));
  EXPECT_THAT(message, HasSubstr("line 3"));
  EXPECT_THAT(message, HasSubstr("'3'"));
  const TempFile latin1("a b\nb caf\xe9\n");
  EXPECT_THAT(error_of([&] { read_edge_list(latin1.path()); }), HasSubstr("line 2: byte 0xe9 at column 6"));
}

// Names, as networkx writes them for string nodes (Les Misérables: "Napoleon Myriel"), are kept as
// labels and ordered as text; integer ids keep their numeric order.
TEST(EdgeList, NamesAreLabelsOrderedAsText) {
  const TempFile names("# characters\nNapoleon Myriel\nMyriel Baptistine\n");
  const Graph g = read_edge_list(names.path());
  EXPECT_EQ(g.labels(), (std::vector<std::string>{"Baptistine", "Myriel", "Napoleon"}));
  EXPECT_EQ(g.edges(), (std::vector<Edge>{{0, 1}, {1, 2}}));
  EXPECT_TRUE(g.notes().empty());
  const TempFile numbers("10 9\n9 100\n");
  EXPECT_EQ(read_edge_list(numbers.path()).labels(), (std::vector<std::string>{"9", "10", "100"}));
}

// A file that mixes integers with other ids (a typo, a negative number, 2^64, a fraction) is read
// with every id a name, and the note names the first that is not an integer.
TEST(EdgeList, IntegersMixedWithNamesAreNamesWithANote) {
  for (const auto& [text, first] :
       {std::pair{"1 2\n3 x\n", "'x' at line 2"}, std::pair{"1 2\n-4 5\n", "'-4' at line 2"},
        std::pair{"18446744073709551616 1\n", "'18446744073709551616' at line 1"},
        std::pair{"2 1.5\n1.5 2\n", "'1.5' at line 1"}}) {
    const TempFile file(text);
    const Graph g = read_edge_list(file.path());
    ASSERT_EQ(g.notes().size(), 1u) << text;
    EXPECT_THAT(g.notes()[0],
                HasSubstr("node ids are names, not all non-negative integers (the first name is " +
                          std::string(first)));
  }
  const TempFile mixed("10 9\n9 x\n");
  EXPECT_EQ(read_edge_list(mixed.path()).labels(), (std::vector<std::string>{"10", "9", "x"}));
  const TempFile loop("a a\na b\n");
  EXPECT_THAT(read_edge_list(loop.path()).notes().at(0), HasSubstr("1 self-loop dropped"));
}

TEST(EdgeList, EmptyAndMissingFiles) {
  const TempFile empty("");
  EXPECT_THAT(error_of([&] { read_edge_list(empty.path()); }), HasSubstr("no edges"));
  const TempFile comments("# nothing\n\n");
  EXPECT_THAT(error_of([&] { read_edge_list(comments.path()); }), HasSubstr("no edges"));
  EXPECT_THAT(error_of([] { read_edge_list("/nonexistent/g.txt"); }), HasSubstr("/nonexistent/g.txt"));
}

TEST(EdgeList, WriteThenReadRoundTrips) {
  const Graph g = erdos_renyi(60, 0.1, 3, {.connected = true});
  const TempFile file = TempFile::empty_name();
  write_edge_list(g, file.path());
  const Graph back = read_edge_list(file.path());
  EXPECT_EQ(back.edges(), g.edges());  // ids 0..n-1 map to themselves
  // Labels are written when asked: the LCC of a graph keeps its original ids.
  const Graph lcc = largest_connected_component(Graph::from_edges(6, {{1, 3}, {3, 5}, {0, 2}}));
  std::ostringstream text;
  write_edge_list(lcc, text, NodeNaming::labels);
  EXPECT_EQ(text.str(), "# nodes 3 edges 2\n1 3\n3 5\n");
  std::ostringstream indices;
  write_edge_list(lcc, indices, NodeNaming::indices);
  EXPECT_EQ(indices.str(), "# nodes 3 edges 2\n0 1\n1 2\n");
}

TEST(MatrixMarketGraph, ReadsAdjacencyAndRoundTrips) {
  // General real matrix: both directions, a diagonal entry and an explicit zero are ignored.
  const TempFile file(
      "%%MatrixMarket matrix coordinate real general\n4 4 6\n1 2 1.0\n2 1 1.0\n3 3 2.0\n4 1 0.5\n1 4 0.5\n2 "
      "4 0\n",
      ".mtx");
  const Graph g = read_matrix_market_graph(file.path());
  EXPECT_EQ(g.num_nodes(), 4u);
  const std::vector<Edge> edges{{0, 1}, {0, 3}};
  EXPECT_EQ(g.edges(), edges);
  EXPECT_EQ(g.label(2), "3");  // 1-based ids kept as labels; isolated node 3 kept
  ASSERT_EQ(g.notes().size(), 1u);
  EXPECT_THAT(g.notes()[0], HasSubstr("1 nonzero diagonal entry dropped"));

  const Graph cube = hypercube(5);
  const TempFile out = TempFile::empty_name(".mtx");
  write_matrix_market_graph(cube, out.path());
  EXPECT_EQ(read_matrix_market_graph(out.path()).edges(), cube.edges());
}

TEST(MatrixMarketGraph, RejectsNonSquareAndReportsBadLines) {
  const TempFile rectangular("%%MatrixMarket matrix coordinate pattern general\n2 3 1\n1 2\n", ".mtx");
  EXPECT_THAT(error_of([&] { read_matrix_market_graph(rectangular.path()); }), HasSubstr("square"));
  const TempFile bad("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2 1\n", ".mtx");
  EXPECT_THAT(error_of([&] { read_matrix_market_graph(bad.path()); }), HasSubstr("line 4"));
  EXPECT_THAT(error_of([] { read_matrix_market_graph("/nonexistent/a.mtx"); }),
              HasSubstr("/nonexistent/a.mtx"));
}

TEST(Csv, StringIdsInLexicographicOrder) {
  // Fedivertex style: header, string ids, weights; duplicates, reverse and self-loops.
  const TempFile file(
      "Source,Target,Weight\nmastodon.social,b.org,3\nb.org,mastodon.social,1\n\"a,quoted.net\", b.org ,0.5\n"
      "b.org,b.org,1\n\nZed.io,b.org,2\n",
      ".csv");
  const Graph g = read_csv_graph(file.path(), {.symmetrize = true});
  const std::vector<std::string> labels{"Zed.io", "a,quoted.net", "b.org", "mastodon.social"};  // byte order
  EXPECT_EQ(g.labels(), labels);
  const std::vector<Edge> edges{{0, 2}, {1, 2}, {2, 3}};
  EXPECT_EQ(g.edges(), edges);
  const TempFile integers("source,TARGET\n10,9\n", ".csv");  // integer ids: numeric order, as edge lists
  EXPECT_EQ(read_csv_graph(integers.path()).labels(), (std::vector<std::string>{"9", "10"}));
  EXPECT_FALSE(g.weighted());
  ASSERT_EQ(g.notes().size(), 3u);
  EXPECT_THAT(g.notes()[0], HasSubstr("symmetrized (--symmetrize)"));
  EXPECT_THAT(g.notes()[1], HasSubstr("the edge b.org -- mastodon.social is given twice, with weights"));
  EXPECT_THAT(g.notes()[2], HasSubstr("1 self-loop dropped"));
}

// pandas' to_csv (an index column first), other names for the two ends, extra columns, and TSV.
TEST(Csv, AnyHeaderNamingTheEndsAndTsv) {
  const TempFile pandas(",from,to,time\n0,b,a,1999\n1,a,c,2001\n", ".csv");
  const Graph g = read_csv_graph(pandas.path());
  EXPECT_EQ(g.labels(), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(g.edges(), (std::vector<Edge>{{0, 1}, {0, 2}}));
  EXPECT_TRUE(g.notes().empty());
  const TempFile tsv("node1\tnode2\tweight\nb\ta\t0.5\na\tc\t2\n", ".tsv");
  const Graph t = read_tsv_graph(tsv.path());
  EXPECT_EQ(t.labels(), g.labels());
  EXPECT_EQ(t.edges(), g.edges());
  EXPECT_TRUE(t.notes().empty());
  ASSERT_TRUE(t.weighted());
  EXPECT_EQ(t.neighbor_weights(0)[0], 0.5);  // a -- b
  EXPECT_EQ(t.neighbor_weights(0)[1], 2.0);  // a -- c
  const TempFile unnamed("a,b,c\n1,2,3\n", ".csv");
  EXPECT_THAT(error_of([&] { read_csv_graph(unnamed.path()); }),
              HasSubstr("line 1: the header names no pair of columns for an edge's two ends"));
  const TempFile comma_in_tsv("source\ttarget\nx,y\tz\n", ".tsv");
  EXPECT_EQ(read_tsv_graph(comma_in_tsv.path()).labels(), (std::vector<std::string>{"x,y", "z"}));
}

TEST(Csv, HeaderRequiredAndBadLinesReported) {
  const TempFile no_header("a,b\nc,d\n", ".csv");
  EXPECT_THAT(error_of([&] { read_csv_graph(no_header.path()); }), HasSubstr("line 1"));
  const TempFile empty("", ".csv");
  EXPECT_THAT(error_of([&] { read_csv_graph(empty.path()); }), HasSubstr("empty file"));
  const TempFile only_header("Source,Target\n", ".csv");
  EXPECT_THAT(error_of([&] { read_csv_graph(only_header.path()); }), HasSubstr("no edges"));
  const TempFile fields("Source,Target,Weight\na,b,1\na,b\n", ".csv");
  EXPECT_THAT(error_of([&] { read_csv_graph(fields.path()); }), HasSubstr("line 3: expected 3"));
  const TempFile weight("Source,Target,Weight\na,b,heavy\n", ".csv");
  EXPECT_THAT(error_of([&] { read_csv_graph(weight.path()); }), HasSubstr("line 2: weight"));
  const TempFile empty_id("Source,Target\na,\n", ".csv");
  EXPECT_THAT(error_of([&] { read_csv_graph(empty_id.path()); }), HasSubstr("line 2: empty node id"));
  const TempFile quote("Source,Target\n\"a,b\n", ".csv");
  EXPECT_THAT(error_of([&] { read_csv_graph(quote.path()); }), HasSubstr("unterminated"));
  EXPECT_THAT(error_of([] { read_csv_graph("/nonexistent/f.csv"); }), HasSubstr("/nonexistent/f.csv"));
}

TEST(Csv, LabelsMustBeUtf8) {
  // Latin-1 "é" (0xe9) in a label is refused with the line and the column of the byte.
  const TempFile latin1("Source,Target\na,b\nb,caf\xe9\n", ".csv");
  const std::string error = error_of([&] { read_csv_graph(latin1.path()); });
  EXPECT_THAT(error, HasSubstr(latin1.path() + ": line 3: byte 0xe9 at column 6 is not valid UTF-8"));
  EXPECT_THAT(error, HasSubstr("iconv -f latin1 -t utf-8"));
  const TempFile ff("Source,Target\n\xff,b\n", ".csv");
  EXPECT_THAT(error_of([&] { read_csv_graph(ff.path()); }), HasSubstr("line 2: byte 0xff at column 1"));
  // The same label in UTF-8 is read as it is.
  const TempFile utf8("Source,Target\na,b\nb,caf\xc3\xa9\n", ".csv");
  EXPECT_EQ(read_csv_graph(utf8.path()).label(2), "caf\xc3\xa9");
}

TEST(Utf8, InvalidSequencesAreFoundAtTheirFirstByte) {
  EXPECT_EQ(util::invalid_utf8_offset("plain ascii"), std::string_view::npos);
  EXPECT_EQ(util::invalid_utf8_offset("z\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"), std::string_view::npos);
  EXPECT_EQ(util::invalid_utf8_offset("ab\xff"), 2u);            // never in UTF-8
  EXPECT_EQ(util::invalid_utf8_offset("a\x80"), 1u);             // a stray continuation byte
  EXPECT_EQ(util::invalid_utf8_offset("a\xc3"), 1u);             // truncated
  EXPECT_EQ(util::invalid_utf8_offset("\xc0\xaf"), 0u);          // overlong '/'
  EXPECT_EQ(util::invalid_utf8_offset("\xed\xa0\x80"), 0u);      // a surrogate
  EXPECT_EQ(util::invalid_utf8_offset("\xf4\x90\x80\x80"), 0u);  // past U+10FFFF
}

}  // namespace
}  // namespace netdp::graph

namespace netdp::graph {
namespace {

constexpr const char* kGraphmlHead =
    "<?xml version='1.0' encoding='utf-8'?>\n"
    "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">"
    "<key id=\"d0\" for=\"edge\" attr.name=\"weight\" attr.type=\"double\"/>\n";

// As networkx 2.8's write_graphml writes a weighted nx.Graph with string nodes and an isolated one.
TEST(Graphml, NetworkxFileGivesLabelsIsolatedNodesAndWeights) {
  const TempFile file(
      std::string(kGraphmlHead) +
      "<graph edgedefault=\"undirected\"><node id=\"Napoleon\"/>\n<node id=\"Myriel\"/>\n"
      "<node id=\"Baptistine\"/>\n<node id=\"Alone\"/>\n"
      "<edge source=\"Napoleon\" target=\"Myriel\">\n  <data key=\"d0\">2.0</data>\n</edge>\n"
      "<edge source=\"Myriel\" target=\"Baptistine\">\n  <data key=\"d0\">1.0</data>\n</edge>\n"
      "</graph></graphml>");
  const Graph g = read_graphml_graph(file.path());
  EXPECT_EQ(g.labels(), (std::vector<std::string>{"Alone", "Baptistine", "Myriel", "Napoleon"}));
  EXPECT_EQ(g.edges(), (std::vector<Edge>{{1, 2}, {2, 3}}));
  EXPECT_TRUE(g.notes().empty());
  ASSERT_TRUE(g.weighted());
  EXPECT_EQ(g.neighbor_weights(2)[0], 1.0);  // Myriel -- Baptistine
  EXPECT_EQ(g.neighbor_weights(2)[1], 2.0);  // Myriel -- Napoleon
}

// networkx's DiGraph: refused, or its arcs read as edges with --symmetrize.
TEST(Graphml, DirectedGraphIsSymmetrizedWhenAsked) {
  const std::string text = std::string(kGraphmlHead) +
                           "<graph edgedefault=\"directed\"><node id=\"a\"/><node id=\"b\"/><node id=\"c\"/>"
                           "<edge source=\"a\" target=\"b\"/><edge source=\"b\" target=\"a\"/>"
                           "<edge source=\"b\" target=\"c\"/></graph></graphml>";
  EXPECT_THAT(error_of([&] { parse_graphml_graph(text, "g.graphml"); }), HasSubstr("--symmetrize"));
  const Graph g = parse_graphml_graph(text, "g.graphml", {.symmetrize = true});
  EXPECT_EQ(g.num_edges(), 2u);
  ASSERT_EQ(g.notes().size(), 1u);
  EXPECT_THAT(g.notes()[0], HasSubstr("symmetrized (--symmetrize): 1 one-way arc read as edges, 1 pair"));
}

// Integer ids are ordered numerically, as an edge list's, so both give the same graph.
TEST(Graphml, IntegerIdsGiveTheEdgeListsGraph) {
  const TempFile graphml(
      std::string(kGraphmlHead) +
      "<graph edgedefault=\"undirected\"><node id=\"10\"/><node id=\"9\"/><node id=\"100\"/>"
      "<edge source=\"10\" target=\"9\"/><edge source=\"9\" target=\"100\"/>"
      "<edge source=\"100\" target=\"9\"/><edge source=\"9\" target=\"9\"/></graph></graphml>");
  const TempFile edges("10 9\n9 100\n");
  const Graph a = read_graphml_graph(graphml.path());
  const Graph b = read_edge_list(edges.path());
  EXPECT_EQ(a.labels(), b.labels());
  EXPECT_EQ(a.edges(), b.edges());
  ASSERT_EQ(a.notes().size(), 2u) << ::testing::PrintToString(a.notes());
  EXPECT_THAT(a.notes()[0], HasSubstr("1 self-loop dropped"));
  EXPECT_THAT(a.notes()[1], HasSubstr("1 repeated edge merged"));
}

TEST(Graphml, BadFilesNameTheFileLineAndRule) {
  const auto error_for = [](const std::string& body) {
    const TempFile file(body);
    return error_of([&] { read_graphml_graph(file.path()); });
  };
  const std::string head = kGraphmlHead;
  EXPECT_THAT(error_for(head + "<graph edgedefault=\"directed\">\n<node id=\"1\"/><node id=\"2\"/>"
                               "<edge source=\"1\" target=\"2\"/></graph></graphml>"),
              HasSubstr("line 3, column 1: the graph is directed"));
  EXPECT_THAT(error_for(head + "<graph><node id=\"1\"/><node id=\"2\"/></graph></graphml>"),
              HasSubstr("the graph has no edges (2 nodes"));
  EXPECT_THAT(
      error_for(head + "<graph><node id=\"1\"/>\n<edge source=\"1\" target=\"7\"/></graph></graphml>"),
      HasSubstr("line 4, column 1: the edge's endpoint '7' is not a declared <node>"));
  EXPECT_THAT(error_for(head + "<graph><node id=\"1\"/><node id=\"1\"/></graph></graphml>"),
              HasSubstr("node id '1' is declared twice"));
  EXPECT_THAT(error_for(head + "<graph><node id=\"1\"/><node id=\"2\"/>"
                               "<edge source=\"1\" target=\"2\" directed=\"true\"/></graph></graphml>"),
              HasSubstr("the edge 1 -> 2 is directed"));
  EXPECT_THAT(error_for(head + "<graph></graph><graph></graph></graphml>"), HasSubstr("holds 2"));
  EXPECT_THAT(error_for(head + "<graph><node id=\"1\"/><node id=\"2\"/>\n<edge source=\"1\" target=\"2\">"
                               "<data key=\"d0\">heavy</data></edge></graph></graphml>"),
              HasSubstr("line 4, column 29: the weight 'heavy' of the edge 1 -- 2 is not a finite number"));
  EXPECT_THAT(error_for("<gexf><graph/></gexf>"), HasSubstr("the root element is <gexf>"));
  EXPECT_THAT(error_for(head + "<graph>\n<node id=\"1\">\n</graph>"), HasSubstr("line 5, column 3"));
  EXPECT_THAT(error_for(head + "<graph>\n<node id=\"1\">\n</graph>"), HasSubstr("not well-formed XML"));
  EXPECT_THAT(error_of([] { read_graphml_graph("/nonexistent/g.graphml"); }),
              HasSubstr("cannot open GraphML file '/nonexistent/g.graphml'"));
}

}  // namespace
}  // namespace netdp::graph

namespace netdp::graph {
namespace {

// As networkx 2.8's write_adjlist writes a triangle of names and an isolated node: each edge once,
// from its first end; the same graph as the edge list of both directions.
TEST(AdjacencyList, NetworkxFileGivesTheEdgeListsGraph) {
  const TempFile file("#-c\n# GMT Sun Nov 29 17:23:58 2026\n# \na b c\nb c\nc\nz\n");
  const Graph g = read_adjacency_list(file.path());
  EXPECT_EQ(g.labels(), (std::vector<std::string>{"a", "b", "c", "z"}));
  EXPECT_EQ(g.edges(), (std::vector<Edge>{{0, 1}, {0, 2}, {1, 2}}));
  EXPECT_EQ(g.degree(3), 0u);
  EXPECT_TRUE(g.notes().empty());
  const TempFile both("10 9 100\n9 10 100\n100 9 10\n");
  const TempFile edges("10 9\n9 100\n100 10\n");
  EXPECT_EQ(read_adjacency_list(both.path()).edges(), read_edge_list(edges.path()).edges());
  EXPECT_EQ(read_adjacency_list(both.path()).labels(), read_edge_list(edges.path()).labels());
  const TempFile loop("a a b\nb\n");
  EXPECT_THAT(read_adjacency_list(loop.path()).notes().at(0), HasSubstr("the first at line 1: 'a a b'"));
  const TempFile empty("# nothing\n");
  EXPECT_THAT(error_of([&] { read_adjacency_list(empty.path()); }), HasSubstr("no nodes found"));
}

}  // namespace
}  // namespace netdp::graph
