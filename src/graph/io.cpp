// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/graph/io.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <optional>
#include <ostream>
#include <string_view>
#include <unordered_map>

#include "netdp/util/check.hpp"
#include "netdp/util/csv_fields.hpp"
#include "netdp/util/matrix_market.hpp"
#include "netdp/util/memory.hpp"
#include "netdp/util/text_lines.hpp"
#include "node_ids.hpp"

namespace netdp::graph {
namespace {

using detail::integer_id;
using detail::NodeIds;
using detail::relabel;
using util::split_csv;
using util::TextLines;

/// The self-loops a reader dropped (netdp's graphs are simple): how many, and the first one.
struct DroppedSelfLoops {
  std::size_t count = 0;
  std::size_t first_line = 0;
  std::string first_content;

  void add(const TextLines& lines, std::string_view line) {
    if (count++ == 0) {
      first_line = lines.line_number();
      first_content = TextLines::printable(line);
    }
  }
  void note_on(Graph& g, const std::string& source) const {
    if (count == 0) return;
    g.add_note(fmt::format("{}, the first at line {}: '{}'", detail::self_loops_dropped(source, count),
                           first_line, first_content));
  }
};

std::ifstream open_input(const std::string& path, const char* what) {
  std::ifstream in(path);
  require_readable(static_cast<bool>(in), "cannot open {} file '{}' (missing or unreadable)", what, path);
  return in;
}

bool is_comment(std::string_view line) {
  const std::size_t first = line.find_first_not_of(" \t");
  return first != std::string_view::npos && (line[first] == '#' || line[first] == '%');
}

/// Labels are written as JSON strings and CSV cells: a line that holds them must be UTF-8 text.
void require_utf8(const TextLines& lines, const std::string& line) {
  if (const std::size_t at = util::invalid_utf8_offset(line); at != std::string::npos) {
    lines.fail(line, fmt::format("byte 0x{:02x} at column {} is not valid UTF-8; node labels must be UTF-8 "
                                 "text (convert the file, e.g. iconv -f latin1 -t utf-8)",
                                 static_cast<unsigned char>(line[at]), at + 1));
  }
}

std::string lowercase_trimmed(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t");
  const std::size_t last = text.find_last_not_of(" \t");
  std::string out(first == std::string_view::npos ? std::string_view{}
                                                  : text.substr(first, last - first + 1));
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

// A comment that says the graph is directed ("# Directed graph", not "undirected").
bool declares_directed(std::string_view comment) {
  const std::string text = lowercase_trimmed(comment);
  for (std::size_t at = text.find("directed"); at != std::string::npos; at = text.find("directed", at + 1)) {
    if (at < 2 || text.compare(at - 2, 2, "un") != 0) return true;
  }
  return false;
}

}  // namespace

Graph parse_edge_list(std::istream& in, const std::string& source, const ReadOptions& options) {
  TextLines lines(in, source);
  DroppedSelfLoops self_loops;
  NodeIds ids("line", {true, options.symmetrize});
  // Lines with columns past the ends (weights, times, networkx's attribute dicts), and past a weight.
  std::array<std::size_t, 2> extra{};
  std::array<std::size_t, 2> first_extra{};
  std::string line;
  while (lines.next(line)) {
    if (util::is_blank(line)) continue;
    if (is_comment(line)) {
      // SNAP's header: "# Directed graph (each unordered pair of nodes is saved once): ..."
      if (declares_directed(line) && !options.symmetrize) {
        lines.fail(line,
                   "the file says the graph is directed, and netdp's networks are undirected: pass "
                   "--symmetrize to read every arc as an undirected edge");
      }
      continue;
    }
    const std::vector<std::string_view> tokens = util::split_whitespace(line);
    if (tokens.size() < 2) lines.fail(line, "expected two node ids 'u v'");
    for (std::size_t k = 0; k < 2; ++k) {
      if (tokens.size() > 2 + k && extra[k]++ == 0) first_extra[k] = lines.line_number();
    }
    if (!integer_id(tokens[0]) || !integer_id(tokens[1])) require_utf8(lines, line);
    // A third column that is a number is the edge's weight (networkx's write_weighted_edgelist).
    const std::optional<double> weight = tokens.size() > 2 ? detail::finite_number(tokens[2]) : std::nullopt;
    if (!ids.add(tokens[0], tokens[1], lines.line_number(), weight)) self_loops.add(lines, line);
  }
  require(!ids.empty(), "{}: no edges found (empty file or only comments)", source);
  Graph g = std::move(ids).build(source);
  self_loops.note_on(g, source);
  const std::size_t unused = g.weighted() ? 1 : 0;  // the first unused column: the third, or the fourth
  if (extra[unused] > 0) {
    g.add_note(
        fmt::format("{}: the columns after the first {} ({}) are not used: {} line{}, the first at line {}",
                    source, unused == 0 ? "two" : "three (the ends and the weight)",
                    unused == 0 ? "weights, times" : "times, attributes", extra[unused],
                    extra[unused] == 1 ? " has them" : "s have them", first_extra[unused]));
  }
  return g;
}

Graph read_edge_list(const std::string& path, const ReadOptions& options) {
  std::ifstream in = open_input(path, "edge list");
  return parse_edge_list(in, path, options);
}

Graph parse_adjacency_list(std::istream& in, const std::string& source) {
  TextLines lines(in, source);
  DroppedSelfLoops self_loops;
  NodeIds ids("line");
  std::string line;
  while (lines.next(line)) {
    if (util::is_blank(line) || is_comment(line)) continue;
    const std::vector<std::string_view> tokens = util::split_whitespace(line);
    if (std::any_of(tokens.begin(), tokens.end(), [](std::string_view t) { return !integer_id(t); }))
      require_utf8(lines, line);
    ids.add_node(tokens[0], lines.line_number());
    bool looped = false;
    for (std::size_t k = 1; k < tokens.size(); ++k)
      looped = !ids.add(tokens[0], tokens[k], lines.line_number()) || looped;
    if (looped) self_loops.add(lines, line);
  }
  require(!ids.empty(), "{}: no nodes found (empty file or only comments)", source);
  Graph g = std::move(ids).build(source);
  self_loops.note_on(g, source);
  return g;
}

Graph read_adjacency_list(const std::string& path) {
  std::ifstream in = open_input(path, "adjacency list");
  return parse_adjacency_list(in, path);
}

Graph read_matrix_market_graph(const std::string& path, const ReadOptions& options) {
  // The declared size is checked before the graph is built: per node its adjacency offset and
  // degree (16 bytes) and its label (32), per entry the entry read (24), its edge (8) and both
  // directions of the adjacency (16).
  const auto check_size = [&path](const util::MatrixMarketHeader& header) {
    const double nodes = static_cast<double>(std::max(header.rows, header.cols));
    const double entries = static_cast<double>(header.nnz);
    util::require_memory(48.0 * nodes + 48.0 * entries,
                         fmt::format("{}: the graph of its size line, {} x {} with {} entries", path,
                                     header.rows, header.cols, header.nnz),
                         "48 bytes per node and per entry",
                         "check the size line 'rows cols entries' of the file");
  };
  const util::MatrixMarketData data = util::read_matrix_market(path, check_size);
  require(data.header.rows == data.header.cols, "{}: an adjacency matrix must be square, got {} x {}", path,
          data.header.rows, data.header.cols);
  require(data.header.rows >= 1, "{}: the matrix has no rows (empty graph)", path);
  require(data.header.rows <= std::numeric_limits<NodeId>::max(), "{}: {} nodes exceed the limit of {}", path,
          data.header.rows, std::numeric_limits<NodeId>::max());
  // Node i is matrix index i + 1; a real or integer matrix's values are the edge weights.
  // A general matrix's entries are arcs: a directed graph's adjacency is not symmetric.
  NodeIds ids("entry", {data.header.symmetry == util::MatrixMarketSymmetry::general, options.symmetrize});
  for (std::size_t i = 1; i <= data.header.rows; ++i) ids.add_node(std::to_string(i), 0);
  const bool weighted = data.header.field != util::MatrixMarketField::pattern;
  std::size_t diagonal = 0;
  std::size_t first_diagonal = 0;
  std::size_t position = 0;
  for (const util::MatrixMarketEntry& e : data.entries) {
    ++position;
    if (e.value == 0.0) continue;
    if (e.row == e.col) {
      if (diagonal++ == 0) first_diagonal = e.row + 1;
      continue;
    }
    ids.add(std::to_string(e.row + 1), std::to_string(e.col + 1), position,
            weighted ? std::optional<double>(e.value) : std::nullopt);
  }
  Graph g = std::move(ids).build(path);
  if (diagonal > 0) {
    g.add_note(
        fmt::format("{}: {} nonzero diagonal entr{} dropped (self-loops; netdp's graphs are simple), "
                    "the first at ({}, {})",
                    path, diagonal, diagonal == 1 ? "y" : "ies", first_diagonal, first_diagonal));
  }
  return g;
}

namespace {

/// The columns of a table that hold an edge's two ends, and its weight if one is named "weight".
struct EdgeColumns {
  std::size_t source = 0;
  std::size_t target = 1;
  std::optional<std::size_t> weight;
};

/// The names of an edge's two ends that a header may use, as pairs (compared without case).
constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kEndpointNames{
    {{"Source", "Target"},
     {"from", "to"},
     {"src", "dst"},
     {"u", "v"},
     {"node1", "node2"},
     {"Source", "Destination"}}};

// The two ends from the header's names: the first pair of kEndpointNames it holds; fails listing them.
template <typename Column>
void guess_endpoints(const TextLines& lines, const std::string& line, const Column& column, char delimiter,
                     EdgeColumns& out) {
  bool found = false;
  for (const auto& [a, b] : kEndpointNames) {
    const std::optional<std::size_t> u = column(lowercase_trimmed(a));
    const std::optional<std::size_t> v = column(lowercase_trimmed(b));
    if (u && v) {
      out.source = *u;
      out.target = *v;
      found = true;
      break;
    }
  }
  if (!found) {
    std::string known;
    for (const auto& [a, b] : kEndpointNames)
      known += fmt::format("{}{}{}{}", known.empty() ? "" : ", ", a, delimiter == '\t' ? "<tab>" : ",", b);
    lines.fail(line,
               fmt::format("the header names no pair of columns for an edge's two ends; expected one of {} "
                           "(any case), or name them with --source-column and --target-column (a file "
                           "without a header is an edge list: edgelist:PATH)",
                           known));
  }
}

EdgeColumns edge_columns(const TextLines& lines, const std::string& line,
                         const std::vector<std::string>& header, char delimiter, const ReadOptions& options) {
  std::vector<std::string> names;
  for (const std::string& name : header) names.push_back(lowercase_trimmed(name));
  const auto column = [&](std::string_view name) -> std::optional<std::size_t> {
    const auto at = std::find(names.begin(), names.end(), name);
    if (at == names.end()) return std::nullopt;
    return static_cast<std::size_t>(at - names.begin());
  };
  // A column the user named must be in the header.
  const auto named = [&](const std::string& name, const char* option) {
    const std::optional<std::size_t> at = column(lowercase_trimmed(name));
    if (!at) {
      std::string all;
      for (const std::string& h : header) all += (all.empty() ? "'" : ", '") + h + "'";
      lines.fail(line,
                 fmt::format("the header has no column '{}' ({}); its columns are {}", name, option, all));
    }
    return *at;
  };
  EdgeColumns out;
  if (!options.weight_column.empty()) out.weight = named(options.weight_column, "--weight-column");
  if (!options.source_column.empty() || !options.target_column.empty()) {
    require(!options.source_column.empty() && !options.target_column.empty(),
            "--source-column and --target-column name the two ends of an edge: give both");
    out.source = named(options.source_column, "--source-column");
    out.target = named(options.target_column, "--target-column");
    require(out.source != out.target, "--source-column and --target-column name the same column '{}'",
            options.source_column);
  } else {
    guess_endpoints(lines, line, column, delimiter, out);
  }
  if (out.weight) return out;
  if (const std::optional<std::size_t> w = column("weight"); w && *w != out.source && *w != out.target)
    out.weight = w;
  return out;
}

}  // namespace

Graph parse_csv_graph(std::istream& in, const std::string& source, char delimiter,
                      const ReadOptions& options) {
  TextLines lines(in, source);
  DroppedSelfLoops self_loops;
  std::string line;
  bool have_header = false;
  while (!have_header && lines.next(line)) have_header = !util::is_blank(line);
  require(have_header, "{}: empty file (expected a header such as 'Source{}Target[{}Weight]')", source,
          delimiter, delimiter);
  const std::vector<std::string> header = split_csv(lines, line, delimiter);
  const EdgeColumns columns = edge_columns(lines, line, header, delimiter, options);
  const char* separated = delimiter == '\t' ? "tab-separated" : "comma-separated";

  NodeIds ids("line", {true, options.symmetrize});
  while (lines.next(line)) {
    if (util::is_blank(line)) continue;
    require_utf8(lines, line);
    std::vector<std::string> fields = split_csv(lines, line, delimiter);
    if (fields.size() != header.size())
      lines.fail(line, fmt::format("expected {} {} fields", header.size(), separated));
    const std::string& u = fields[columns.source];
    const std::string& v = fields[columns.target];
    if (u.empty() || v.empty()) lines.fail(line, "empty node id");
    std::optional<double> weight;
    if (columns.weight && !fields[*columns.weight].empty()) {
      weight = detail::finite_number(fields[*columns.weight]);
      if (!weight) lines.fail(line, "weight is not a finite number");
    }
    if (!ids.add(u, v, lines.line_number(), weight)) self_loops.add(lines, line);  // the node is kept
  }
  require(!ids.empty(), "{}: no edges found after the header", source);
  Graph g = std::move(ids).build(source);
  self_loops.note_on(g, source);
  return g;
}

Graph read_csv_graph(const std::string& path, const ReadOptions& options) {
  std::ifstream in = open_input(path, "CSV");
  return parse_csv_graph(in, path, ',', options);
}

Graph read_tsv_graph(const std::string& path, const ReadOptions& options) {
  std::ifstream in = open_input(path, "TSV");
  return parse_csv_graph(in, path, '\t', options);
}

void write_edge_list(const Graph& g, std::ostream& out, NodeNaming naming) {
  out << "# nodes " << g.num_nodes() << " edges " << g.num_edges() << '\n';
  for (const Edge& e : g.edges()) {
    if (naming == NodeNaming::labels) {
      out << g.label(e.u) << ' ' << g.label(e.v) << '\n';
    } else {
      out << e.u << ' ' << e.v << '\n';
    }
  }
}

void write_edge_list(const Graph& g, const std::string& path, NodeNaming naming) {
  std::ofstream out(path);
  require(static_cast<bool>(out), "cannot open '{}' for writing", path);
  write_edge_list(g, out, naming);
  out.close();
  require(static_cast<bool>(out), "failed to write '{}'", path);
}

void write_matrix_market_graph(const Graph& g, const std::string& path) {
  util::MatrixMarketHeader header;
  header.field = util::MatrixMarketField::pattern;
  header.symmetry = util::MatrixMarketSymmetry::symmetric;
  header.rows = header.cols = g.num_nodes();
  std::vector<util::MatrixMarketEntry> entries;
  entries.reserve(g.num_edges());
  for (const Edge& e : g.edges()) entries.push_back({e.v, e.u, 1.0});  // u < v: lower triangle is (v, u)
  util::write_matrix_market(path, header, entries);
}

}  // namespace netdp::graph
