// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The "accounts" part of a report page: the statistics of one `netdp account --json` output.

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "netdp/accounting/account/certificate.hpp"
#include "page_parts.hpp"

namespace netdp::report::detail {
namespace {

constexpr std::size_t kCdfPoints = 512;
constexpr std::size_t kMaxDrawnObservers = 100;  // rows for the drawing when n > max_heatmap_nodes
constexpr std::size_t kKinds = 5;                // accounting::Certificate's kinds

/// One pair of the input, by node indices.
struct Pair {
  std::size_t observer = 0;
  std::size_t target = 0;
  std::optional<std::uint32_t> distance;
  double epsilon = 0;
  std::uint8_t kind = 0;
};

std::uint8_t kind_code(const Input& input, const nlohmann::json& value) {
  const std::string name = value.is_string() ? value.get<std::string>() : std::string();
  for (std::uint8_t code = 0; code < kKinds; ++code)
    if (accounting::certificate_name(static_cast<accounting::Certificate>(code)) == name) return code;
  throw std::invalid_argument("report input '" + input.file + "': a pair has the unknown certificate " +
                              value.dump());
}

std::size_t node_index(const Input& input, const nlohmann::json& row, const char* name, std::size_t nodes) {
  const std::string index_name = std::string(name) + "_index";
  const nlohmann::json& value =
      row.contains(index_name) ? row[index_name] : row.value(name, nlohmann::json());
  if (!value.is_number_integer() || value.get<std::int64_t>() < 0 || value.get<std::size_t>() >= nodes)
    throw std::invalid_argument("report input '" + input.file + "': a pair's " + name + " " + value.dump() +
                                " is not a node index below " + std::to_string(nodes));
  return value.get<std::size_t>();
}

std::vector<Pair> read_pairs(const Input& input, std::size_t nodes) {
  std::vector<Pair> pairs;
  if (!input.document.contains("pairs")) return pairs;
  const nlohmann::json& rows = input.document["pairs"];
  if (!rows.is_array())
    throw std::invalid_argument("report input '" + input.file + "': \"pairs\" is not an array");
  pairs.reserve(rows.size());
  for (const nlohmann::json& row : rows) {
    Pair p;
    p.observer = node_index(input, row, "observer", nodes);
    p.target = node_index(input, row, "target", nodes);
    if (row.contains("distance") && row["distance"].is_number_integer() &&
        row["distance"].get<std::int64_t>() >= 0)
      p.distance = row["distance"].get<std::uint32_t>();
    p.epsilon = number_field(input, row, "epsilon");
    p.kind = kind_code(input, row.value("certificate", nlohmann::json()));
    pairs.push_back(p);
  }
  return pairs;
}

/// The value at quantile q of sorted values (linear between order statistics, Hyndman–Fan type 7).
double quantile(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (position - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

nlohmann::json box_rows(const Input& input, const std::vector<Pair>& pairs) {
  nlohmann::json rows = nlohmann::json::array();
  if (pairs.empty()) {  // --summary-only: the summary's minimum, mean and maximum per distance
    for (const nlohmann::json& d : input.document["summary"]["by_distance"])
      rows.push_back({{"distance", d.value("distance", nlohmann::json())},
                      {"pairs", d.value("pairs", nlohmann::json())},
                      {"min", rounded_up(number_field(input, d, "epsilon_min"))},
                      {"q1", nullptr},
                      {"median", nullptr},
                      {"q3", nullptr},
                      {"max", rounded_up(number_field(input, d, "epsilon_max"))},
                      {"mean", rounded_up(number_field(input, d, "epsilon_mean"))}});
    return rows;
  }
  std::map<std::uint32_t, std::vector<double>> by_distance;
  for (const Pair& p : pairs)
    if (p.distance) by_distance[*p.distance].push_back(p.epsilon);
  for (auto& [distance, values] : by_distance) {
    std::sort(values.begin(), values.end());
    const double mean =
        std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
    rows.push_back({{"distance", distance},
                    {"pairs", values.size()},
                    {"min", rounded_up(values.front())},
                    {"q1", rounded_up(quantile(values, 0.25))},
                    {"median", rounded_up(quantile(values, 0.5))},
                    {"q3", rounded_up(quantile(values, 0.75))},
                    {"max", rounded_up(values.back())},
                    {"mean", rounded_up(mean)}});
  }
  return rows;
}

/// Points of the empirical CDF: every pair when there are at most kCdfPoints, else kCdfPoints
/// order statistics, each at its exact fraction.
nlohmann::json cdf(const std::vector<Pair>& pairs) {
  if (pairs.empty()) return nullptr;
  std::vector<double> values;
  values.reserve(pairs.size());
  for (const Pair& p : pairs) values.push_back(p.epsilon);
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size(), points = std::min(n, kCdfPoints);
  nlohmann::json epsilon = nlohmann::json::array(), fraction = nlohmann::json::array();
  for (std::size_t k = 1; k <= points; ++k) {
    const std::size_t rank = (k * n + points - 1) / points;  // ceil(k n / points), 1-based
    epsilon.push_back(rounded_up(values[rank - 1]));
    fraction.push_back(static_cast<double>(rank) / static_cast<double>(n));
  }
  return {{"epsilon", std::move(epsilon)}, {"fraction", std::move(fraction)}};
}

nlohmann::json heatmap(const std::vector<Pair>& pairs, const LoadedGraph* graph, std::size_t nodes,
                       const std::vector<std::string>& labels, const ReportOptions& options) {
  std::vector<bool> observer_seen(nodes, false);
  std::size_t observers = 0;
  for (const Pair& p : pairs)
    if (!observer_seen[p.observer]) observer_seen[p.observer] = true, ++observers;
  if (nodes > options.max_heatmap_nodes || observers < 2) return nullptr;
  std::vector<std::size_t> position(nodes);
  std::vector<std::size_t> order(nodes);
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (graph != nullptr) std::copy(graph->order.begin(), graph->order.end(), order.begin());
  for (std::size_t i = 0; i < nodes; ++i) position[order[i]] = i;
  const std::size_t block = (nodes + options.max_heatmap_cells - 1) / options.max_heatmap_cells;
  const std::size_t size = (nodes + block - 1) / block;
  struct Cell {
    double max = -1, sum = 0;
    std::size_t count = 0;
    std::uint8_t kind_of_max = 0;
    std::array<std::size_t, kKinds> kinds{};
  };
  std::vector<Cell> cells(size * size);
  for (const Pair& p : pairs) {
    Cell& c = cells[position[p.observer] / block * size + position[p.target] / block];
    if (p.epsilon > c.max) c.max = p.epsilon, c.kind_of_max = p.kind;
    c.sum += p.epsilon;
    ++c.count;
    ++c.kinds[p.kind];
  }
  nlohmann::json row = nlohmann::json::array(), col = nlohmann::json::array(), max = nlohmann::json::array(),
                 mean = nlohmann::json::array(), certificate = nlohmann::json::array(),
                 kinds = nlohmann::json::array();
  for (std::size_t i = 0; i < size; ++i)
    for (std::size_t j = 0; j < size; ++j) {
      const Cell& c = cells[i * size + j];
      if (c.count == 0) continue;
      row.push_back(i);
      col.push_back(j);
      max.push_back(rounded_up(c.max));
      mean.push_back(rounded_up(c.sum / static_cast<double>(c.count)));
      certificate.push_back(
          accounting::certificate_name(static_cast<accounting::Certificate>(c.kind_of_max)));
      std::string text;
      for (std::uint8_t k = 0; k < kKinds; ++k)
        if (c.kinds[k] > 0)
          text += (text.empty() ? "" : ", ") +
                  std::string(accounting::certificate_name(static_cast<accounting::Certificate>(k))) + " " +
                  std::to_string(c.kinds[k]);
      kinds.push_back(block == 1 ? certificate.back().get<std::string>() : text);
    }
  nlohmann::json cell_labels = nlohmann::json::array();
  for (std::size_t i = 0; i < size; ++i) {
    const std::size_t first = i * block, last = std::min(nodes, first + block) - 1;
    cell_labels.push_back(first == last ? labels[order[first]]
                                        : labels[order[first]] + "–" + labels[order[last]]);
  }
  return {{"order", graph != nullptr ? "reverse Cuthill-McKee (neighbours close)" : "node index"},
          {"block", block},
          {"size", size},
          {"labels", std::move(cell_labels)},
          {"cells",
           {{"row", std::move(row)},
            {"col", std::move(col)},
            {"epsilon_max", std::move(max)},
            {"epsilon_mean", std::move(mean)},
            {"certificate", std::move(certificate)},
            {"kinds", std::move(kinds)}}}};
}

/// ε from each drawn observer to every node, for the graph drawing.
nlohmann::json observer_rows(const std::vector<Pair>& pairs, const LoadedGraph& graph, std::size_t nodes,
                             const ReportOptions& options) {
  if (pairs.empty()) return nullptr;
  std::vector<std::size_t> observers;
  std::vector<bool> has_row(nodes, false);
  for (const Pair& p : pairs) has_row[p.observer] = true;
  for (std::size_t v = 0; v < nodes; ++v)
    if (has_row[v]) observers.push_back(v);
  if (nodes > options.max_heatmap_nodes && observers.size() > kMaxDrawnObservers) {
    // The hubs: the observers of largest degree, in index order.
    std::stable_sort(observers.begin(), observers.end(),
                     [&](std::size_t a, std::size_t b) { return graph.degree[a] > graph.degree[b]; });
    observers.resize(kMaxDrawnObservers);
    std::sort(observers.begin(), observers.end());
  }
  std::vector<std::ptrdiff_t> slot(nodes, -1);
  for (std::size_t i = 0; i < observers.size(); ++i) slot[observers[i]] = static_cast<std::ptrdiff_t>(i);
  std::vector<nlohmann::json> epsilon(observers.size(), nlohmann::json(std::vector<std::nullptr_t>(nodes))),
      kind(observers.size(), nlohmann::json(std::vector<std::nullptr_t>(nodes)));
  for (const Pair& p : pairs)
    if (slot[p.observer] >= 0) {
      epsilon[static_cast<std::size_t>(slot[p.observer])][p.target] = rounded_up(p.epsilon);
      kind[static_cast<std::size_t>(slot[p.observer])][p.target] = p.kind;
    }
  return {{"observers", observers}, {"epsilon", epsilon}, {"certificate", kind}};
}

std::string threat_model(const nlohmann::json& summary) {
  const nlohmann::json& p = summary.value("parameters", nlohmann::json::object());
  const std::string method = summary.value("method", "");
  std::string who = "one observer";
  if (summary.contains("colluders") && summary["colluders"].is_array() && !summary["colluders"].empty())
    who = "a coalition of " + std::to_string(summary["colluders"].size()) + " colluders";
  std::string sees = "everything it receives";
  if (method == "linear-system") sees = "view " + p.value("view", std::string("secure-sum"));
  if (method == "mf") sees = "trust model " + p.value("trust", std::string("pndp"));
  if (method == "random-walk")
    sees = p.value("sender_known", false) ? "the token when it visits, and who sent it"
                                          : "the token when it visits";
  return who + ", " + sees;
}

}  // namespace

nlohmann::json account_part(const Input& input, const LoadedGraph* graph, const ReportOptions& options) {
  const nlohmann::json& s = input.document["summary"];
  const auto nodes = static_cast<std::size_t>(number_field(input, s, "nodes"));
  if (graph != nullptr && graph->graph.num_nodes() != nodes)
    throw std::invalid_argument("report input '" + input.file + "' has " + std::to_string(nodes) +
                                " nodes, but the report's graph has " +
                                std::to_string(graph->graph.num_nodes()) +
                                ": give the graph the account ran on (--graph)");
  std::vector<std::string> labels;
  if (graph != nullptr) labels = graph->labels;
  for (std::size_t v = labels.size(); v < nodes; ++v) labels.push_back(std::to_string(v));
  const std::vector<Pair> pairs = read_pairs(input, nodes);
  const double pair_count = number_field(input, s, "pairs");
  const std::string method = s.value("method", ""), bound = s.value("bound", "");
  nlohmann::json per_observer{{"observer", nlohmann::json::array()},
                              {"epsilon_mean", nlohmann::json::array()},
                              {"epsilon_max", nlohmann::json::array()}};
  for (const nlohmann::json& o : s.value("per_observer", nlohmann::json::array())) {
    per_observer["observer"].push_back(labels.at(node_index(input, o, "observer", nodes)));
    per_observer["epsilon_mean"].push_back(rounded_up(number_field(input, o, "epsilon_mean")));
    per_observer["epsilon_max"].push_back(rounded_up(number_field(input, o, "epsilon_max")));
  }
  const nlohmann::json& p = s.value("parameters", nlohmann::json::object());
  return {
      {"name", fmt::format("{}, {}, σ={:g}", method, bound, number_field(input, s, "sigma"))},
      {"file", input.file},
      {"command", recorded_command(input)},
      {"method", method},
      {"bound", bound},
      {"valid_bound", s.value("valid_bound", false)},
      {"sigma", number_field(input, s, "sigma")},
      {"delta", number_field(input, s, "delta")},
      {"rounds", p.value("rounds", nlohmann::json())},
      {"threat_model", threat_model(s)},
      {"nodes", nodes},
      {"pairs", pair_count},
      {"local_dp_epsilon", rounded_up(number_field(input, object_field(input, s, "local_dp"), "epsilon"))},
      {"central_dp_epsilon",
       rounded_up(number_field(input, object_field(input, s, "central_dp"), "epsilon"))},
      {"capped_fraction", pair_count > 0 ? number_field(input, s, "capped_pairs") / pair_count : 0.0},
      {"certificates", s.value("certificates", nlohmann::json::object())},
      {"by_distance", box_rows(input, pairs)},
      {"cdf", cdf(pairs)},
      {"per_observer", std::move(per_observer)},
      {"heatmap", heatmap(pairs, graph, nodes, labels, options)},
      {"rows", graph != nullptr && graph->drawn ? observer_rows(pairs, *graph, nodes, options) : nullptr},
      {"warnings", recorded_warnings(input)}};
}

}  // namespace netdp::report::detail
