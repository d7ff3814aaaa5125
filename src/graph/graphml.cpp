// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// GraphML (io.hpp): the XML that networkx's write_graphml, Gephi, igraph and yEd write, parsed by
// pugixml. Node ids become labels; an undirected graph's edges are read by their endpoints' ids.

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <pugixml.hpp>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "netdp/graph/io.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/memory.hpp"
#include "node_ids.hpp"

namespace netdp::graph {
namespace {

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  require_readable(static_cast<bool>(in), "cannot open GraphML file '{}' (missing or unreadable)", path);
  const std::streamoff size = in.tellg();
  require_readable(size >= 0, "cannot read GraphML file '{}'", path);
  // pugixml's tree takes about three times the text it parses.
  util::require_memory(4.0 * static_cast<double>(size), fmt::format("{}: reading its XML", path),
                       "the file's text and pugixml's tree, about four bytes per byte of the file",
                       "convert it to an edge list (networkx: write_edgelist)");
  std::string text(static_cast<std::size_t>(size), '\0');
  in.seekg(0);
  in.read(text.data(), size);
  require_readable(static_cast<bool>(in), "cannot read GraphML file '{}'", path);
  return text;
}

/// "line L, column C" of a byte offset into the file's text (1-based).
std::string position_of(const std::string& text, std::ptrdiff_t offset) {
  const auto end =
      text.begin() + std::clamp<std::ptrdiff_t>(offset, 0, static_cast<std::ptrdiff_t>(text.size()));
  const std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), end, '\n'));
  const auto line_start = std::find(std::make_reverse_iterator(end), text.rend(), '\n').base();
  return fmt::format("line {}, column {}", line, (end - line_start) + 1);
}

/// The position of an element's '<' in the file (pugixml keeps the offset of its name).
std::string position_of(const std::string& text, const pugi::xml_node& node) {
  return position_of(text, node.offset_debug() - 1);
}

}  // namespace

Graph read_graphml_graph(const std::string& path, const ReadOptions& options) {
  return parse_graphml_graph(read_whole_file(path), path, options);
}

Graph parse_graphml_graph(const std::string& text, const std::string& path, const ReadOptions& options) {
  pugi::xml_document document;
  const pugi::xml_parse_result parsed =
      document.load_buffer(text.data(), text.size(), pugi::parse_default, pugi::encoding_utf8);
  require(static_cast<bool>(parsed), "{}: {}: not well-formed XML: {}", path,
          position_of(text, parsed.offset), parsed.description());
  const pugi::xml_node root = document.document_element();
  require(std::strcmp(root.name(), "graphml") == 0,
          "{}: not a GraphML file: the root element is <{}>, not <graphml>", path, root.name());
  const auto graphs = root.children("graph");
  const std::size_t count = static_cast<std::size_t>(std::distance(graphs.begin(), graphs.end()));
  require(count == 1, "{}: a GraphML file for netdp holds one <graph>, this one holds {}", path, count);
  const pugi::xml_node graph = root.child("graph");
  const bool directed = std::strcmp(graph.attribute("edgedefault").as_string("undirected"), "directed") == 0;
  require(
      !directed || options.symmetrize,
      "{}: {}: the graph is directed (edgedefault=\"directed\"); netdp's networks are undirected: write it "
      "undirected (networkx: G.to_undirected()), or pass --symmetrize to read every arc as an edge",
      path, position_of(text, graph));
  // The keys that hold an edge's weight, if any.
  std::set<std::string> weight_keys;
  for (const pugi::xml_node key : root.children("key")) {
    const std::string_view domain = key.attribute("for").as_string("all");
    if ((domain == "edge" || domain == "all") &&
        std::string_view(key.attribute("attr.name").as_string()) == "weight")
      weight_keys.insert(key.attribute("id").as_string());
  }

  detail::NodeIds ids("node", {directed, options.symmetrize});
  std::set<std::string, std::less<>> declared;
  std::size_t position = 0;
  for (const pugi::xml_node node : graph.children()) {
    const std::string_view kind = node.name();
    require(kind != "hyperedge" && kind != "graph",
            "{}: {}: <{}> is not supported: netdp reads simple undirected graphs", path,
            position_of(text, node), kind);
    if (kind != "node") continue;
    const char* id = node.attribute("id").as_string(nullptr);
    require(id != nullptr && *id != '\0', "{}: {}: a <node> without an id", path, position_of(text, node));
    require(declared.insert(id).second, "{}: {}: node id '{}' is declared twice", path,
            position_of(text, node), id);
    ids.add_node(id, ++position);
  }
  std::size_t edges = 0;
  std::size_t self_loops = 0;
  std::set<std::pair<std::string, std::string>> seen;
  std::size_t repeated = 0;
  for (const pugi::xml_node edge : graph.children("edge")) {
    const char* source = edge.attribute("source").as_string(nullptr);
    const char* target = edge.attribute("target").as_string(nullptr);
    require(source != nullptr && target != nullptr, "{}: {}: an <edge> needs a source and a target", path,
            position_of(text, edge));
    for (const char* end : {source, target}) {
      require(declared.contains(std::string_view(end)),
              "{}: {}: the edge's endpoint '{}' is not a declared <node>", path, position_of(text, edge),
              end);
    }
    require(!edge.attribute("directed").as_bool(false) || options.symmetrize,
            "{}: {}: the edge {} -> {} is directed (directed=\"true\"); netdp's networks are undirected: "
            "pass --symmetrize to read every arc as an edge",
            path, position_of(text, edge), source, target);
    ++edges;
    std::optional<double> weight;
    for (const pugi::xml_node data : edge.children("data")) {
      if (!weight_keys.contains(data.attribute("key").as_string())) continue;
      weight = detail::finite_number(data.child_value());
      require(weight.has_value(), "{}: {}: the weight '{}' of the edge {} -- {} is not a finite number", path,
              position_of(text, data), data.child_value(), source, target);
    }
    if (!ids.add(source, target, ++position, weight)) {
      ++self_loops;
      continue;
    }
    std::pair<std::string, std::string> key{source, target};
    if (key.second < key.first) std::swap(key.first, key.second);
    if (!seen.insert(std::move(key)).second) ++repeated;
  }
  require(edges > 0, "{}: the graph has no edges ({} node{} and no <edge>)", path, declared.size(),
          declared.size() == 1 ? "" : "s");
  Graph g = std::move(ids).build(path);
  if (self_loops > 0) g.add_note(detail::self_loops_dropped(path, self_loops));
  if (repeated > 0 && !directed)  // a directed file's repeats are counted with its arcs
    g.add_note(fmt::format(
        "{}: {} repeated edge{} merged (a multigraph's parallel edges; netdp's graphs are simple)", path,
        repeated, repeated == 1 ? "" : "s"));
  return g;
}

}  // namespace netdp::graph
