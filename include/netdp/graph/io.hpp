// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Graph readers and writers: whitespace edge lists, Matrix Market adjacency,
// Fedivertex-style CSV. Readers relabel nodes 0..n-1 in increasing order of
// original id (numeric order for integer ids, lexicographic for names) and
// keep the original ids as Graph::labels(). Self-loops are dropped, repeated
// and reversed edges merged. Edge weights are kept when every edge has one, all
// positive, a repeated edge with the same weight; else a note says why not. Errors throw
// std::invalid_argument naming the file and, for a bad line, its number and content.

#include <iosfwd>
#include <string>

#include "netdp/graph/graph.hpp"

namespace netdp::graph {

/// What a reader may be told. The columns of a CSV/TSV that hold an edge's two ends and its weight
/// (header names, compared without case; empty: the header's guess, and a column named Weight), and
/// whether the arcs of a directed file (an edge list or CSV whose pairs are listed in both directions
/// for some and in one for others, one that says "# Directed graph", a directed GraphML, a general
/// Matrix Market that is not symmetric) are read as undirected edges; without it such a file is
/// refused.
struct ReadOptions {
  std::string source_column = {};
  std::string target_column = {};
  std::string weight_column = {};
  bool symmetrize = false;
};

/// Whitespace edge list (SNAP's, networkx's write_edgelist): one `u v` per line
/// separated by any whitespace; a third column of numbers is the weight, further columns are not used;
/// blank lines and lines starting with '#' or '%' are skipped. A node appears
/// iff it occurs in some line (also a self-loop line). Ids that are all
/// non-negative integers < 2^64 are ordered numerically; otherwise every id is a
/// name (UTF-8 text without whitespace), ordered as text, and a file that mixes
/// integers and names gets a note naming the first name.
Graph read_edge_list(const std::string& path, const ReadOptions& options = {});
Graph parse_edge_list(std::istream& in, const std::string& source, const ReadOptions& options = {});

/// Adjacency list (networkx's write_adjlist): `u v w ...` per line, u followed by neighbours
/// (each edge may be listed once or from both ends); a line of one id is a node, maybe isolated.
/// Comments, ids and names as in an edge list.
Graph read_adjacency_list(const std::string& path);
Graph parse_adjacency_list(std::istream& in, const std::string& source);

/// Matrix Market adjacency (coordinate; real, integer or pattern; general or
/// symmetric; square). Node i is matrix index i+1 (labels "1".."n"); every
/// non-zero off-diagonal entry (i, j) is the edge {i, j}, its value the weight; diagonal and explicit
/// zero entries are ignored.
Graph read_matrix_market_graph(const std::string& path, const ReadOptions& options = {});

/// CSV with a header line naming its columns (Fedivertex's `Source,Target,Weight`, pandas'
/// `to_csv`). The endpoint columns are the first pair the header names among Source/Target,
/// from/to, src/dst, u/v, node1/node2, Source/Destination (any case); other columns are not used, and a
/// column named Weight holds the weights (finite numbers; an empty cell: no weight). Ids are strings
/// (surrounding whitespace trimmed, optional double quotes), ordered as an edge list's.
Graph read_csv_graph(const std::string& path, const ReadOptions& options = {});
/// The same with tabs between the fields (TSV).
Graph read_tsv_graph(const std::string& path, const ReadOptions& options = {});
Graph parse_csv_graph(std::istream& in, const std::string& source, char delimiter = ',',
                      const ReadOptions& options = {});

/// GraphML (networkx's write_graphml, Gephi, igraph): one undirected <graph> of <node id=...> and
/// <edge source=... target=...>; node ids are labels, ordered as an edge list's. Refused, naming
/// the file, line and column: XML that is not well-formed, another root than <graphml>, several
/// graphs, a directed graph or edge, hyperedges and nested graphs, an edge whose endpoint is not a
/// declared node, a node declared twice, no edges. Self-loops dropped and parallel edges merged are
/// each counted in a note; edge weights are the data of a key named "weight" (finite numbers).
Graph read_graphml_graph(const std::string& path, const ReadOptions& options = {});
/// The same from the file's text; `source` names it in messages.
Graph parse_graphml_graph(const std::string& text, const std::string& source,
                          const ReadOptions& options = {});

/// How a writer names nodes: by their labels (original ids) or by index 0..n-1.
enum class NodeNaming { labels, indices };

/// Edge list: a `# nodes N edges M` comment, then `u v` per edge with u < v
/// (index order). Isolated nodes are not representable in an edge list.
void write_edge_list(const Graph& g, std::ostream& out, NodeNaming naming = NodeNaming::indices);
void write_edge_list(const Graph& g, const std::string& path, NodeNaming naming = NodeNaming::indices);

/// Matrix Market `pattern symmetric` adjacency (lower triangle, 1-based).
void write_matrix_market_graph(const Graph& g, const std::string& path);

}  // namespace netdp::graph
