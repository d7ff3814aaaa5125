// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/graph/spec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <optional>
#include <string_view>

#include "netdp/graph/classic.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/graph/io.hpp"
#include "netdp/util/check.hpp"

namespace netdp::graph {
namespace {

struct KeyInfo {
  const char* name;
  const char* default_value;  // nullptr: required
  const char* meaning;
};

class Params;

struct SpecKind {
  const char* name;
  const char* summary;
  std::vector<KeyInfo> keys;
  std::function<Graph(const Params&)> build;
  bool takes_path = false;
  bool reads_columns = false;  // --source-column, --target-column, --weight-column apply
  bool reads_arcs = false;     // --symmetrize applies
};

// The key=value parameters of one SPEC, checked against its kind's keys.
class Params {
 public:
  Params(const SpecKind& kind, const ParsedSpec& spec, std::uint64_t default_seed, const ReadOptions& read)
      : kind_(kind), spec_(spec), default_seed_(std::to_string(default_seed)), read_(read) {}

  const std::string& path() const { return spec_.path; }
  const ReadOptions& read() const { return read_; }

  std::uint64_t integer(const char* key) const {
    const std::string text = raw(key);
    std::uint64_t value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    require(ec == std::errc() && ptr == text.data() + text.size(),
            "graph spec '{}': {}={} is not a non-negative integer", kind_.name, key, text);
    return value;
  }

  double real(const char* key) const { return parse_real(key, raw(key)); }

  bool flag(const char* key) const {
    const std::uint64_t value = integer(key);
    require(value <= 1, "graph spec '{}': {}={} must be 0 or 1", kind_.name, key, value);
    return value == 1;
  }

  std::vector<std::size_t> integer_list(const char* key) const {
    std::vector<std::size_t> out;
    for (const std::string& item : split_list(key)) {
      std::size_t value = 0;
      const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
      require(ec == std::errc() && ptr == item.data() + item.size(),
              "graph spec '{}': item '{}' of {} is not a non-negative integer", kind_.name, item, key);
      out.push_back(value);
    }
    return out;
  }

  std::vector<double> real_list(const char* key) const {
    std::vector<double> out;
    for (const std::string& item : split_list(key)) out.push_back(parse_real(key, item));
    return out;
  }

 private:
  std::string raw(const char* key) const {
    for (const auto& [k, v] : spec_.params) {
      if (k == key) return v;
    }
    if (std::string_view(key) == "seed") return default_seed_;
    for (const KeyInfo& info : kind_.keys) {
      if (std::string_view(info.name) == key && info.default_value != nullptr) return info.default_value;
    }
    throw std::invalid_argument(fmt::format("graph spec '{}': missing required key '{}'", kind_.name, key));
  }

  double parse_real(const char* key, const std::string& text) const {
    double value = 0.0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    require(ec == std::errc() && ptr == text.data() + text.size() && std::isfinite(value),
            "graph spec '{}': {}: '{}' is not a finite number", kind_.name, key, text);
    return value;
  }

  std::vector<std::string> split_list(const char* key) const {
    const std::string text = raw(key);
    std::vector<std::string> items;
    std::size_t start = 0;
    for (;;) {
      const std::size_t slash = text.find('/', start);
      items.push_back(text.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
      if (slash == std::string::npos) break;
      start = slash + 1;
    }
    return items;
  }

  const SpecKind& kind_;
  const ParsedSpec& spec_;
  std::string default_seed_;
  const ReadOptions& read_;
};

unsigned small_uint(const Params& p, const char* key) {
  const std::uint64_t value = p.integer(key);
  require(value <= 64, "{}={} is too large", key, value);
  return static_cast<unsigned>(value);
}

const std::vector<SpecKind>& kinds() {
  static const std::vector<SpecKind> table = {
      {"complete",
       "complete graph K_n",
       {{"n", nullptr, "nodes"}},
       [](const Params& p) { return complete(p.integer("n")); }},
      {"path", "path P_n", {{"n", nullptr, "nodes"}}, [](const Params& p) { return path(p.integer("n")); }},
      {"ring", "cycle C_n", {{"n", nullptr, "nodes"}}, [](const Params& p) { return ring(p.integer("n")); }},
      {"star",
       "star, node 0 the centre",
       {{"n", nullptr, "nodes"}},
       [](const Params& p) { return star(p.integer("n")); }},
      {"grid",
       "rows x cols grid",
       {{"rows", nullptr, "rows"}, {"cols", nullptr, "columns"}},
       [](const Params& p) { return grid(p.integer("rows"), p.integer("cols")); }},
      {"torus",
       "rows x cols torus (grid with wrap-around)",
       {{"rows", nullptr, "rows"}, {"cols", nullptr, "columns"}},
       [](const Params& p) { return torus(p.integer("rows"), p.integer("cols")); }},
      {"hypercube",
       "d-dimensional hypercube (2^d nodes)",
       {{"d", nullptr, "dimension"}},
       [](const Params& p) { return hypercube(small_uint(p, "d")); }},
      {"exponential",
       "exponential graph i ~ i +- 2^k mod n",
       {{"n", nullptr, "nodes"}},
       [](const Params& p) { return exponential(p.integer("n")); }},
      {"er",
       "Erdos-Renyi G(n, p)",
       {{"n", nullptr, "nodes"},
        {"p", nullptr, "edge probability"},
        {"seed", "--seed", "random seed"},
        {"connected", "0", "1: redraw until connected"},
        {"max_attempts", "1000", "redraws allowed with connected=1"}},
       [](const Params& p) {
         return erdos_renyi(p.integer("n"), p.real("p"), p.integer("seed"),
                            {p.flag("connected"), p.integer("max_attempts")});
       }},
      {"geometric",
       "random geometric graph in the unit square",
       {{"n", nullptr, "nodes"}, {"radius", nullptr, "connection radius"}, {"seed", "--seed", "random seed"}},
       [](const Params& p) { return random_geometric(p.integer("n"), p.real("radius"), p.integer("seed")); }},
      {"ba",
       "Barabasi-Albert preferential attachment",
       {{"n", nullptr, "nodes"},
        {"m", nullptr, "links per new node"},
        {"m0", "0", "complete seed core size (0: m+1)"},
        {"seed", "--seed", "random seed"}},
       [](const Params& p) {
         return barabasi_albert(p.integer("n"), p.integer("m"), p.integer("seed"), p.integer("m0"));
       }},
      {"sbm",
       "stochastic block model",
       {{"sizes", nullptr, "block sizes a/b/c"},
        {"p", nullptr, "upper triangle of the probability matrix, row by row, p11/p12/.../pkk"},
        {"seed", "--seed", "random seed"}},
       [](const Params& p) {
         return stochastic_block_model(p.integer_list("sizes"), p.real_list("p"), p.integer("seed"));
       }},
      {"regular",
       "random d-regular graph",
       {{"n", nullptr, "nodes"},
        {"d", nullptr, "degree"},
        {"seed", "--seed", "random seed"},
        {"max_attempts", "1000", "restarts allowed"}},
       [](const Params& p) {
         return random_regular(p.integer("n"), p.integer("d"), p.integer("seed"), p.integer("max_attempts"));
       }},
      {"florentine",
       "Padgett's Florentine families (15 nodes, 20 edges)",
       {},
       [](const Params&) { return florentine_families(); }},
      {"davis",
       "Davis' Southern women (32 nodes, 89 edges)",
       {},
       [](const Params&) { return davis_southern_women(); }},
      {"karate",
       "Zachary's karate club (34 nodes, 78 edges)",
       {},
       [](const Params&) { return karate_club(); }},
      {"lesmis",
       "Les Miserables co-appearances (77 nodes, 254 edges)",
       {},
       [](const Params&) { return les_miserables(); }},
      {"edgelist",
       "SNAP-style edge list file",
       {},
       [](const Params& p) { return read_edge_list(p.path(), p.read()); },
       true,
       false,
       true},
      {"mtx",
       "Matrix Market adjacency file",
       {},
       [](const Params& p) { return read_matrix_market_graph(p.path(), p.read()); },
       true,
       false,
       true},
      {"adjlist",
       "adjacency list file (networkx write_adjlist): u and its neighbours per line",
       {},
       [](const Params& p) { return read_adjacency_list(p.path()); },
       true},
      {"graphml",
       "GraphML file (networkx, Gephi, igraph), undirected",
       {},
       [](const Params& p) { return read_graphml_graph(p.path(), p.read()); },
       true,
       false,
       true},
      {"csv",
       "CSV file with a header naming the two ends (Source,Target / from,to / ...), optional Weight",
       {},
       [](const Params& p) { return read_csv_graph(p.path(), p.read()); },
       true,
       true,
       true},
      {"tsv",
       "tab-separated file, as csv",
       {},
       [](const Params& p) { return read_tsv_graph(p.path(), p.read()); },
       true,
       true,
       true},
  };
  return table;
}

std::string list_names() {
  std::string out;
  for (const SpecKind& kind : kinds()) out += (out.empty() ? "" : ", ") + std::string(kind.name);
  return out;
}

std::string list_keys(const SpecKind& kind) {
  std::string out;
  for (const KeyInfo& key : kind.keys) out += (out.empty() ? "" : ", ") + std::string(key.name);
  return out.empty() ? "none" : out;
}

bool takes_path(std::string_view name) {
  return std::any_of(kinds().begin(), kinds().end(),
                     [&](const SpecKind& k) { return k.takes_path && name == k.name; });
}

}  // namespace

ParsedSpec parse_spec(const std::string& spec) {
  ParsedSpec out;
  const std::size_t colon = spec.find(':');
  out.name = spec.substr(0, colon);
  require(!out.name.empty(), "graph spec '{}': empty name; expected NAME[:key=value,...]", spec);
  if (colon == std::string::npos) return out;
  const std::string rest = spec.substr(colon + 1);
  if (takes_path(out.name)) {
    out.path = rest;
    return out;
  }
  require(!rest.empty(), "graph spec '{}': nothing after ':'", spec);
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = rest.find(',', start);
    const std::string item =
        rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const std::size_t eq = item.find('=');
    require(eq != std::string::npos && eq > 0, "graph spec '{}': parameter '{}' is not key=value", spec,
            item);
    std::string key = item.substr(0, eq);
    require(
        std::none_of(out.params.begin(), out.params.end(), [&](const auto& kv) { return kv.first == key; }),
        "graph spec '{}': key '{}' given twice", spec, key);
    out.params.emplace_back(std::move(key), item.substr(eq + 1));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

Graph from_spec(const std::string& spec, std::uint64_t default_seed, const ReadOptions& read) {
  const ParsedSpec parsed = parse_spec(spec);
  const auto& table = kinds();
  const auto kind =
      std::find_if(table.begin(), table.end(), [&](const SpecKind& k) { return parsed.name == k.name; });
  require(kind != table.end(), "graph spec '{}': unknown graph name '{}'; valid names: {}", spec, parsed.name,
          list_names());
  if (kind->takes_path) {
    require(!parsed.path.empty(), "graph spec '{}': '{}' needs a file, as {}:PATH", spec, kind->name,
            kind->name);
  }
  for (const auto& entry : parsed.params) {
    const std::string& key = entry.first;
    const bool known = std::any_of(kind->keys.begin(), kind->keys.end(),
                                   [&key](const KeyInfo& info) { return key == info.name; });
    require(known, "graph spec '{}': unknown key '{}' for '{}'; valid keys: {}", spec, key, kind->name,
            list_keys(*kind));
  }
  const bool columns =
      !read.source_column.empty() || !read.target_column.empty() || !read.weight_column.empty();
  require(
      !columns || kind->reads_columns,
      "graph spec '{}': --source-column, --target-column and --weight-column name the columns of a csv: or "
      "tsv: file, not of '{}'",
      spec, kind->name);
  require(
      !read.symmetrize || kind->reads_arcs,
      "graph spec '{}': --symmetrize reads the arcs of a directed file (edgelist, csv, tsv, mtx, graphml), "
      "and '{}' is not one",
      spec, kind->name);
  return kind->build(Params(*kind, parsed, default_seed, read));
}

std::string spec_help() {
  std::string out = "Graph SPEC: NAME[:key=value,...] or READER:PATH. Names:\n";
  for (const SpecKind& kind : kinds()) {
    out += fmt::format("  {:<12}{}{}\n", kind.name, kind.summary,
                       kind.takes_path ? " (" + std::string(kind.name) + ":PATH)" : "");
    for (const KeyInfo& key : kind.keys) {
      out += fmt::format("      {:<13}{}{}\n", key.name, key.meaning,
                         key.default_value ? fmt::format(" (default {})", key.default_value) : " (required)");
    }
  }
  out +=
      "Examples: er:n=100,p=0.05,seed=1,connected=1  "
      "sbm:sizes=75/75/50,p=0.25/0.05/0.02/0.35/0.07/0.40,seed=2\n";
  return out;
}

}  // namespace netdp::graph
