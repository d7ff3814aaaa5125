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

// Relabels 0..n-1 in increasing order of the original ids, keeping them as labels.
template <typename Id, typename Compare = std::less<Id>>
Graph relabel(std::vector<Id> ids, const std::vector<std::pair<Id, Id>>& pairs) {
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
  Graph g = Graph::from_edges(ids.size(), edges);
  std::vector<std::string> labels;
  labels.reserve(ids.size());
  for (const Id& id : ids) {
    if constexpr (std::is_same_v<Id, std::string>) {
      labels.push_back(id);
    } else {
      labels.push_back(std::to_string(id));
    }
  }
  g.set_labels(std::move(labels));
  return g;
}

/// A file's node ids: integers while every id is one (ordered numerically, as SNAP files expect),
/// names from the first id that is not (every id kept as written, ordered as text). `unit` names
/// the positions the callers pass ("line", "edge") in the note of a file that mixes the two.
class NodeIds {
 public:
  explicit NodeIds(const char* unit) : unit_(unit) {}

  /// Adds an edge's endpoints; false for a self-loop (its node is kept, the edge is not).
  bool add(std::string_view a, std::string_view b, std::size_t position) {
    if (names_.ids.empty()) {
      const std::optional<std::uint64_t> u = integer_id(a);
      const std::optional<std::uint64_t> v = integer_id(b);
      if (u && v) return integers_.add(*u, *v);
      switch_to_names(u ? b : a, position);
    }
    integer_like_ += (integer_id(a) ? 1 : 0) + (integer_id(b) ? 1 : 0);
    return names_.add(std::string(a), std::string(b));
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

  Graph build(const std::string& source) && {
    if (names_.ids.empty()) return relabel(std::move(integers_.ids), integers_.pairs);
    Graph g = relabel(std::move(names_.ids), names_.pairs);
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
  Endpoints<std::uint64_t> integers_;
  Endpoints<std::string> names_;
  std::string first_name_;
  std::size_t integer_like_ = 0;  // ids among the names that are integers
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

/// Notes the weights of `count` edges as not used (nothing when there are none).
inline void note_unused_weights(Graph& g, const std::string& source, std::size_t count) {
  if (count == 0) return;
  g.add_note(fmt::format("{}: the weights of {} edge{} are not used (the gossip matrix comes from --weights)",
                         source, count, count == 1 ? "" : "s"));
}

}  // namespace netdp::graph::detail
