// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the graph module: what the text readers and GraphML's share. The node ids a reader
// collects, relabelled 0..n-1 in increasing order (numeric for integer ids, as text for names), the
// check of an edge weight, and the notes on what a reader dropped or left unused.

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "netdp/graph/graph.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/text_lines.hpp"

namespace netdp::graph::detail {

/// A node id that is a non-negative integer below 2^64, or nothing (the id is a name).
inline std::optional<std::uint64_t> integer_id(std::string_view token) {
  std::uint64_t value = 0;
  const char* end = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), end, value);
  if (token.empty() || token[0] == '-' || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

/// Why the weights of `edges` cannot be kept, or nothing: a weight that is not positive, or an edge
/// given twice with two different weights (named by the labels of its ends).
inline std::optional<std::string> weight_problem(const std::vector<Edge>& edges,
                                                 const std::vector<double>& weights,
                                                 const std::vector<std::string>& labels) {
  std::vector<std::pair<Edge, double>> sorted;
  sorted.reserve(edges.size());
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const Edge e{std::min(edges[i].u, edges[i].v), std::max(edges[i].u, edges[i].v)};
    if (!(weights[i] > 0.0))
      return fmt::format("the edge {} -- {} has weight {}, and edge weights must be positive", labels[e.u],
                         labels[e.v], weights[i]);
    sorted.emplace_back(e, weights[i]);
  }
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return a.first.u != b.first.u ? a.first.u < b.first.u : a.first.v < b.first.v;
  });
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    if (sorted[i].first == sorted[i - 1].first && sorted[i].second != sorted[i - 1].second)
      return fmt::format("the edge {} -- {} is given twice, with weights {} and {}",
                         labels[sorted[i].first.u], labels[sorted[i].first.v], sorted[i - 1].second,
                         sorted[i].second);
  }
  return std::nullopt;
}

/// How a reader's lines give edges: as arcs u -> v (edge lists, CSV, a general Matrix Market), whose
/// directions are checked, or as undirected edges (adjacency lists, GraphML).
struct Arcs {
  bool checked = false;     ///< the lines are arcs
  bool symmetrize = false;  ///< --symmetrize: a directed file's arcs are read as edges
};

/// The arcs of a file: pairs given in both directions, in one only (the first of them), and arcs given
/// again in the same direction.
struct ArcCounts {
  std::size_t both_ways = 0;
  std::size_t one_way = 0;
  Edge first_one_way;
  std::size_t repeated = 0;
};

inline ArcCounts count_arcs(std::vector<Edge> arcs) {
  const auto less = [](const Edge& a, const Edge& b) { return a.u != b.u ? a.u < b.u : a.v < b.v; };
  std::sort(arcs.begin(), arcs.end(), less);
  ArcCounts out;
  const std::size_t given = arcs.size();
  arcs.erase(std::unique(arcs.begin(), arcs.end()), arcs.end());
  out.repeated = given - arcs.size();
  for (const Edge& a : arcs) {
    if (std::binary_search(arcs.begin(), arcs.end(), Edge{a.v, a.u}, less)) {
      ++out.both_ways;
    } else if (out.one_way++ == 0) {
      out.first_one_way = a;
    }
  }
  out.both_ways /= 2;
  return out;
}

/// Refuses a file whose arcs look directed (some pairs in both directions, others in one only) unless
/// symmetrizing, and notes what was merged.
inline void check_arcs(Graph& g, const std::vector<Edge>& arcs, const std::vector<std::string>& labels,
                       Arcs policy, const std::string& source) {
  if (!policy.checked) return;
  const ArcCounts c = count_arcs(arcs);
  if (c.both_ways > 0 && c.one_way > 0) {
    require(policy.symmetrize,
            "{}: the file looks directed: {} pair{} of nodes {} listed in both directions and {} in one only "
            "(the first: {} -> {}), and netdp's networks are undirected: pass --symmetrize to read every arc "
            "as an undirected edge, or list each edge once",
            source, c.both_ways, c.both_ways == 1 ? "" : "s", c.both_ways == 1 ? "is" : "are", c.one_way,
            labels[c.first_one_way.u], labels[c.first_one_way.v]);
    g.add_note(
        fmt::format("{}: symmetrized (--symmetrize): {} one-way arc{} read as edges, {} pair{} of "
                    "opposite arcs merged into one edge each",
                    source, c.one_way, c.one_way == 1 ? "" : "s", c.both_ways, c.both_ways == 1 ? "" : "s"));
  }
  if (c.repeated > 0) {
    g.add_note(
        fmt::format("{}: {} repeated edge{} merged (the same pair again in the same direction: a "
                    "multigraph's parallel edges; netdp's graphs are simple)",
                    source, c.repeated, c.repeated == 1 ? "" : "s"));
  }
}

// Relabels 0..n-1 in increasing order of the original ids, keeping them as labels. `weights`, parallel
// to `pairs` or empty, are kept when weight_problem finds none; else the graph is unweighted and a
// note from `source` says why. Arcs are checked as check_arcs says.
template <typename Id, typename Compare = std::less<Id>>
Graph relabel(std::vector<Id> ids, const std::vector<std::pair<Id, Id>>& pairs,
              const std::vector<double>& weights, const std::string& source, Arcs arcs = {}) {
  std::sort(ids.begin(), ids.end(), Compare{});
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  require(ids.size() <= std::numeric_limits<NodeId>::max(), "{} distinct node ids exceed the limit of {}",
          ids.size(), std::numeric_limits<NodeId>::max());
  auto index_of = [&ids](const Id& id) {
    return static_cast<NodeId>(std::lower_bound(ids.begin(), ids.end(), id, Compare{}) - ids.begin());
  };
  std::vector<Edge> edges;
  edges.reserve(pairs.size());
  for (const auto& [a, b] : pairs) edges.push_back({index_of(a), index_of(b)});  // readers drop self-loops
  std::vector<std::string> labels;
  labels.reserve(ids.size());
  for (const Id& id : ids) {
    if constexpr (std::is_same_v<Id, std::string>) {
      labels.push_back(id);
    } else {
      labels.push_back(std::to_string(id));
    }
  }
  const std::optional<std::string> problem =
      weights.empty() ? std::nullopt : weight_problem(edges, weights, labels);
  Graph g = Graph::from_edges(ids.size(), edges, problem ? std::vector<double>{} : weights);
  check_arcs(g, edges, labels, arcs, source);
  g.set_labels(std::move(labels));
  if (problem)
    g.add_note(
        fmt::format("{}: the edge weights are not kept, the graph is unweighted: {}", source, *problem));
  return g;
}

/// A file's node ids: integers while every id is one (ordered numerically, as SNAP files expect),
/// names from the first id that is not (every id kept as written, ordered as text). `unit` names
/// the positions the callers pass ("line", "edge") in the note of a file that mixes the two.
class NodeIds {
 public:
  explicit NodeIds(const char* unit, Arcs arcs = {}) : unit_(unit), arcs_(arcs) {}

  /// Adds an edge's endpoints and its weight, if it has one; false for a self-loop (its node is kept,
  /// the edge and its weight are not).
  bool add(std::string_view a, std::string_view b, std::size_t position,
           std::optional<double> weight = std::nullopt) {
    const bool edge = add_endpoints(a, b, position);
    if (edge) {
      weights_.push_back(weight.value_or(0.0));
      if (weight) {
        ++weighted_;
      } else if (first_unweighted_ == 0) {
        first_unweighted_ = position;
      }
    }
    return edge;
  }

  /// Adds a node that may have no edge.
  void add_node(std::string_view id, std::size_t position) {
    if (names_.ids.empty()) {
      if (const std::optional<std::uint64_t> u = integer_id(id)) {
        integers_.ids.push_back(*u);
        return;
      }
      switch_to_names(id, position);
    }
    integer_like_ += integer_id(id) ? 1 : 0;
    names_.ids.emplace_back(id);
  }

  bool empty() const { return integers_.ids.empty() && names_.ids.empty(); }

  /// The graph, weighted when every edge came with a weight (all of them positive, a repeated edge
  /// with the same one); a note says why weights some edges had were not kept.
  Graph build(const std::string& source) && {
    const std::size_t edges = weights_.size();
    if (weighted_ > 0 && weighted_ < edges) {
      notes_.push_back(
          fmt::format("{}: {} of the {} edges have a weight, the first without one at {} {}: the "
                      "weights are not kept, the graph is unweighted",
                      source, weighted_, edges, unit_, first_unweighted_));
    }
    if (weighted_ < edges || edges == 0) weights_.clear();
    const bool named = !names_.ids.empty();
    Graph g = named ? relabel(std::move(names_.ids), names_.pairs, weights_, source, arcs_)
                    : relabel(std::move(integers_.ids), integers_.pairs, weights_, source, arcs_);
    for (std::string& note : notes_) g.add_note(std::move(note));
    if (!named) return g;
    if (integer_like_ > 0) {
      g.add_note(
          fmt::format("{}: node ids are names, not all non-negative integers (the first name is {}; {} ids "
                      "are integers): "
                      "nodes are ordered as text",
                      source, first_name_, integer_like_));
    }
    return g;
  }

 private:
  bool add_endpoints(std::string_view a, std::string_view b, std::size_t position) {
    if (names_.ids.empty()) {
      const std::optional<std::uint64_t> u = integer_id(a);
      const std::optional<std::uint64_t> v = integer_id(b);
      if (u && v) return integers_.add(*u, *v);
      switch_to_names(u ? b : a, position);
    }
    integer_like_ += (integer_id(a) ? 1 : 0) + (integer_id(b) ? 1 : 0);
    return names_.add(std::string(a), std::string(b));
  }

  void switch_to_names(std::string_view first, std::size_t position) {
    first_name_ = fmt::format("'{}' at {} {}", util::TextLines::printable(first), unit_, position);
    for (const std::uint64_t id : integers_.ids) names_.ids.push_back(std::to_string(id));
    for (const auto& [x, y] : integers_.pairs)
      names_.pairs.emplace_back(std::to_string(x), std::to_string(y));
    integer_like_ = integers_.ids.size();
    integers_ = {};
  }

  template <typename Id>
  struct Endpoints {
    std::vector<Id> ids;                   // every node named, self-loops' included
    std::vector<std::pair<Id, Id>> pairs;  // the edges that are not self-loops
    bool add(Id u, Id v) {
      ids.push_back(u);
      ids.push_back(v);
      if (u == v) return false;
      pairs.emplace_back(std::move(u), std::move(v));
      return true;
    }
  };
  const char* unit_;
  Arcs arcs_;
  Endpoints<std::uint64_t> integers_;
  Endpoints<std::string> names_;
  std::string first_name_;
  std::size_t integer_like_ = 0;  // ids among the names that are integers
  std::vector<double> weights_;   // parallel to the active Endpoints' pairs
  std::size_t weighted_ = 0;      // edges that came with a weight
  std::size_t first_unweighted_ = 0;
  std::vector<std::string> notes_;
};

/// An edge weight's text (surrounding whitespace allowed) as a finite number, or nothing.
inline std::optional<double> finite_number(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return std::nullopt;
  text = text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
  double value = 0.0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

/// The note on `count` (> 0) self-loops a reader dropped; a text reader adds where the first was.
inline std::string self_loops_dropped(const std::string& source, std::size_t count) {
  return fmt::format("{}: {} self-loop{} dropped (a node linked to itself; netdp's graphs are simple)",
                     source, count, count == 1 ? "" : "s");
}

}  // namespace netdp::graph::detail
