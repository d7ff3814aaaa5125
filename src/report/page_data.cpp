// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The data of a report page (src/report/page/data-schema.md): the network and its facts, and one
// part per input.

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "netdp/gossip/network_spec.hpp"
#include "netdp/gossip/spectral.hpp"
#include "netdp/graph/layout.hpp"
#include "netdp/graph/metrics.hpp"
#include "page_parts.hpp"

namespace netdp::report {
namespace detail {

namespace {
/// x rounded to 6 significant digits, up or down, and never past x the other way.
nlohmann::json rounded(double x, bool up) {
  if (!std::isfinite(x)) return nullptr;
  if (x == 0) return 0.0;
  const double scale = std::pow(10.0, 5 - std::floor(std::log10(std::fabs(x))));
  const double r = (up ? std::ceil(x * scale) : std::floor(x * scale)) / scale;
  if (up) return r >= x ? r : std::nextafter(r, INFINITY);
  return r <= x ? r : std::nextafter(r, -INFINITY);
}
}  // namespace

nlohmann::json rounded_up(double x) { return rounded(x, true); }
nlohmann::json rounded_down(double x) { return rounded(x, false); }

double number_field(const Input& input, const nlohmann::json& object, const char* name) {
  if (!object.is_object() || !object.contains(name) || !object[name].is_number())
    throw std::invalid_argument("report input '" + input.file + "': the field \"" + name +
                                "\" is missing or not a number");
  return object[name].get<double>();
}

const nlohmann::json& object_field(const Input& input, const nlohmann::json& object, const char* name) {
  if (!object.is_object() || !object.contains(name) || !object[name].is_object())
    throw std::invalid_argument("report input '" + input.file + "': the field \"" + name +
                                "\" is missing or not an object");
  return object[name];
}

/// The object that holds an input's own fields ("run", "warnings"): an account's summary, else the
/// document itself.
const nlohmann::json& fields_of(const Input& input) {
  return input.kind == InputKind::account ? input.document["summary"] : input.document;
}

/// The "run" record of an input, or null (outputs of netdp before the record, Python's results).
const nlohmann::json* run_of(const Input& input) {
  const nlohmann::json& fields = fields_of(input);
  return fields.contains("run") && fields["run"].is_object() ? &fields["run"] : nullptr;
}

nlohmann::json recorded_command(const Input& input) {
  const nlohmann::json* run = run_of(input);
  return run != nullptr ? run->value("command", nlohmann::json()) : nlohmann::json();
}

nlohmann::json recorded_warnings(const Input& input) {
  const nlohmann::json warnings = fields_of(input).value("warnings", nlohmann::json::array());
  return warnings.is_array() ? warnings : nlohmann::json::array();
}

nlohmann::json compare_part(const Input& input) {
  const nlohmann::json& d = input.document;
  nlohmann::json columns{{"distance", nlohmann::json::array()}, {"accountant", nlohmann::json::array()},
                         {"pairs", nlohmann::json::array()},    {"min", nlohmann::json::array()},
                         {"mean", nlohmann::json::array()},     {"max", nlohmann::json::array()}};
  std::vector<std::string> accountants;
  for (const char* name : {"muffliato", "muffliato_exact", "mf", "secure_sum"})
    for (const nlohmann::json& row : d["by_distance"]) {
      if (!row.contains(std::string(name) + "_max")) continue;
      if (accountants.empty() || accountants.back() != name) accountants.emplace_back(name);
      columns["distance"].push_back(row.value("distance", nlohmann::json()));
      columns["accountant"].push_back(name);
      columns["pairs"].push_back(row.value("pairs", nlohmann::json()));
      for (const char* statistic : {"min", "mean", "max"})
        columns[statistic].push_back(
            rounded_up(number_field(input, row, (std::string(name) + "_" + statistic).c_str())));
    }
  nlohmann::json paper = nlohmann::json::array();
  if (d.value("muffliato_bound", std::string()) == "paper-formula") paper.push_back("muffliato");
  const double sigma = number_field(input, d, "sigma");
  return {{"name", fmt::format("compare, T={}, σ={:g}", d.value("rounds", nlohmann::json()).dump(), sigma)},
          {"file", input.file},
          {"command", recorded_command(input)},
          {"nodes", d.value("nodes", nlohmann::json())},
          {"rounds", d.value("rounds", nlohmann::json())},
          {"sigma", sigma},
          {"alpha", number_field(input, d, "alpha")},
          {"measure", "Rényi ε at order α"},
          {"local_dp_epsilon", rounded_up(number_field(input, d, "local_dp"))},
          {"central_dp_epsilon", rounded_up(number_field(input, d, "central_dp"))},
          {"accountants", accountants},
          {"paper_formula", std::move(paper)},
          {"by_distance", std::move(columns)},
          {"warnings", recorded_warnings(input)}};
}

nlohmann::json training_part(const Input& input) {
  const nlohmann::json& d = input.document;
  nlohmann::json metrics = nlohmann::json::object();
  for (const char* name :
       {"round", "train_loss", "test_loss", "test_accuracy", "consensus_distance", "epsilon"}) {
    nlohmann::json column = nlohmann::json::array();
    bool any = false;
    for (const nlohmann::json& row : d["metrics"]) {
      const nlohmann::json value = row.is_object() ? row.value(name, nlohmann::json()) : nlohmann::json();
      any = any || value.is_number();
      if (!value.is_number())
        column.push_back(nullptr);
      else  // ε as every ε of the page: rounded up
        column.push_back(std::string_view(name) == "epsilon" ? rounded_up(value.get<double>()) : value);
    }
    metrics[name] = any ? std::move(column) : nlohmann::json();
  }
  if (metrics["round"].is_null())
    throw std::invalid_argument("report input '" + input.file + "': metrics.json has no evaluated round");
  const nlohmann::json sigma = d.value("sigma", nlohmann::json());
  std::string name = d.value("algorithm", std::string("?"));
  if (sigma.is_number()) name += fmt::format(", σ={:g}", sigma.get<double>());
  if (d.contains("target_epsilon") && d["target_epsilon"].is_number())
    name += fmt::format(" (target ε={:g})", d["target_epsilon"].get<double>());
  return {
      {"name", name},
      {"dir", input.file},
      {"command", d.value("command", nlohmann::json())},
      {"algorithm", d.value("algorithm", nlohmann::json())},
      {"sigma", sigma},
      {"epsilon", d.contains("epsilon") && d["epsilon"].is_number() ? rounded_up(d["epsilon"].get<double>())
                                                                    : nlohmann::json()},
      {"delta", d.value("delta", nlohmann::json())},
      {"accountant", d.value("accountant", nlohmann::json())},
      {"bound", d.value("bound", nlohmann::json())},
      {"valid_bound", d.value("valid_bound", false)},
      {"final_test_accuracy", d.value("final_test_accuracy", nlohmann::json())},
      {"final_test_loss", d.value("final_test_loss", nlohmann::json())},
      {"metrics", std::move(metrics)},
      {"warnings", recorded_warnings(input)}};
}

nlohmann::json audit_table(const std::vector<const Input*>& audits) {
  if (audits.empty()) return nullptr;
  nlohmann::json table = nlohmann::json::object();
  const auto add = [&](const char* column, nlohmann::json value) {
    table[column].push_back(std::move(value));
  };
  for (const Input* a : audits) {
    const nlohmann::json& d = a->document;
    add("file", a->file);
    add("method", d.value("method", nlohmann::json()));
    add("observer", d.value("observer", nlohmann::json()));
    add("target", d.value("target", nlohmann::json()));
    add("claimed_epsilon", rounded_up(number_field(*a, d, "claimed_epsilon")));
    add("empirical_epsilon_lower", rounded_down(number_field(*a, d, "empirical_epsilon_lower")));
    add("claimed_mu", d.value("claimed_mu", nlohmann::json()));
    add("empirical_mu_lower", d.value("empirical_mu_lower", nlohmann::json()));
    add("verdict", d.value("verdict", nlohmann::json()));
    add("confidence", d.value("confidence", nlohmann::json()));
    add("trials", d.value("trials", nlohmann::json()));
  }
  return table;
}

}  // namespace detail

namespace {

namespace fs = std::filesystem;
using detail::LoadedGraph;

/// The network of the report: the options' own, or the one recorded by the first input that
/// recorded one; a graph file not found as written is looked up beside that input.
std::optional<gossip::NetworkSpec> chosen_network(const std::vector<Input>& inputs,
                                                  const ReportOptions& options,
                                                  std::vector<std::string>& notes) {
  if (options.network) return options.network;
  for (const Input& input : inputs) {
    const nlohmann::json* run = detail::run_of(input);
    if (run == nullptr) continue;
    gossip::NetworkSpec spec;
    try {
      spec = network_from_record(*run);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("report input '" + input.file + "': its \"run\" record: " + e.what());
    }
    const fs::path beside = fs::path(input.file).parent_path();
    for (std::string* file : {&spec.graph, &spec.matrix})
      if (!file->empty() && fs::path(*file).is_relative() && !fs::exists(*file) && fs::exists(beside / *file))
        *file = (beside / *file).string();
    return spec;
  }
  notes.push_back(
      "no input records its network (outputs of an older netdp, or training runs only): no graph facts "
      "or drawing; give one with --graph");
  return std::nullopt;
}

/// The facts and drawing of the network `w`, shown as `name` with the weighting `weights`.
nlohmann::json graph_part(const std::string& name, const std::string& weights, const gossip::GossipMatrix& w,
                          LoadedGraph& loaded, const ReportOptions& options,
                          std::vector<std::string>& notes) {
  const graph::Graph& g = w.graph();
  const std::size_t n = g.num_nodes();
  loaded.graph = g;
  loaded.labels.resize(n);
  loaded.degree.resize(n);
  for (graph::NodeId v = 0; v < n; ++v) {
    loaded.labels[v] = g.label(v);
    loaded.degree[v] = static_cast<double>(g.degree(v));
  }
  loaded.order = graph::bandwidth_order(g);
  const graph::DegreeStats degrees = graph::degree_stats(g);
  const bool connected = graph::is_connected(g);
  if (connected && n > graph::kDiameterMaxNodes)
    notes.push_back("the diameter is left out: " + std::to_string(n) + " nodes, more than " +
                    std::to_string(graph::kDiameterMaxNodes) + " (one breadth-first search per node)");
  const gossip::SecondEigenvalue second = gossip::second_eigenvalue(w);
  if (!second.converged) notes.push_back("the spectral gap is left out: " + second.diagnostic);
  nlohmann::json part{
      {"spec", name},
      {"weights", weights},
      {"nodes", n},
      {"edges", g.num_edges()},
      {"degree_min", degrees.min},
      {"degree_mean", degrees.mean},
      {"degree_max", degrees.max},
      {"diameter",
       connected && n <= graph::kDiameterMaxNodes ? nlohmann::json(graph::diameter(g)) : nlohmann::json()},
      {"spectral_gap", second.converged ? nlohmann::json(second.spectral_gap) : nlohmann::json()},
      {"labels", loaded.labels},
      {"layout", nullptr},
      {"edge_list", nullptr}};
  if (n > options.max_drawing_nodes) {
    notes.push_back("the graph drawing is left out: " + std::to_string(n) + " nodes, more than " +
                    std::to_string(options.max_drawing_nodes));
    return part;
  }
  const graph::Layout layout = graph::force_layout(g);
  nlohmann::json x = nlohmann::json::array(), y = nlohmann::json::array();
  for (std::size_t v = 0; v < n; ++v) {  // 4 decimals: a 10,000-pixel drawing
    x.push_back(std::round(layout.x[v] * 1e4) / 1e4);
    y.push_back(std::round(layout.y[v] * 1e4) / 1e4);
  }
  nlohmann::json source = nlohmann::json::array(), target = nlohmann::json::array();
  for (graph::NodeId u = 0; u < n; ++u)
    for (const graph::NodeId v : g.neighbors(u))
      if (u < v) source.push_back(u), target.push_back(v);
  part["layout"] = {{"x", std::move(x)}, {"y", std::move(y)}};
  part["edge_list"] = {{"source", std::move(source)}, {"target", std::move(target)}};
  loaded.drawn = true;
  return part;
}

}  // namespace

nlohmann::json page_data(const std::vector<Input>& inputs, const ReportOptions& options) {
  if (inputs.empty()) throw std::invalid_argument("a report needs at least one input (--input)");
  std::vector<std::string> notes;
  nlohmann::json graph_json;
  LoadedGraph loaded;
  bool have_graph = false;
  if (options.matrix) {
    graph_json =
        graph_part(options.network_name, options.weights_name, *options.matrix, loaded, options, notes);
    have_graph = true;
  } else if (const std::optional<gossip::NetworkSpec> spec = chosen_network(inputs, options, notes)) {
    try {
      const gossip::GossipMatrix w = gossip::load_network(*spec);
      const std::string weights = spec->matrix.empty() ? std::string(gossip::weighting_name(spec->weighting))
                                                       : "the matrix of " + spec->matrix;
      graph_json = graph_part(spec->graph.empty() ? "the support of " + spec->matrix : spec->graph, weights,
                              w, loaded, options, notes);
      have_graph = true;
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(
          std::string("the report's network cannot be read (give it with --graph): ") + e.what());
    }
  }
  nlohmann::json data{
      {"title", options.title},
      {"netdp_version", NETDP_VERSION},
      {"certificate_kinds", {"exact", "upper-bound", "cap-in-span", "cap-undetermined", "paper-formula"}},
      {"inputs", nlohmann::json::array()},
      {"graph", graph_json},
      {"accounts", nlohmann::json::array()},
      {"compares", nlohmann::json::array()},
      {"audits", nullptr},
      {"training", nlohmann::json::array()}};
  std::vector<const Input*> audits;
  for (const Input& input : inputs) {
    // A field of another type than netdp writes (an edited or foreign file) is refused by name.
    try {
      data["inputs"].push_back({{"file", input.file},
                                {"kind", input_kind_name(input.kind)},
                                {"command", detail::recorded_command(input)}});
      switch (input.kind) {
        case InputKind::account:
          data["accounts"].push_back(detail::account_part(input, have_graph ? &loaded : nullptr, options));
          break;
        case InputKind::compare:
          data["compares"].push_back(detail::compare_part(input));
          break;
        case InputKind::train:
          data["training"].push_back(detail::training_part(input));
          break;
        case InputKind::audit:
          audits.push_back(&input);
          break;
      }
      if (input.kind == InputKind::audit) data["audits"] = detail::audit_table(audits);
    } catch (const nlohmann::json::exception& e) {
      throw std::invalid_argument("report input '" + input.file + "': a field is not what netdp writes (" +
                                  e.what() + ")");
    }
  }
  // Legend labels are unique: a repeated name gets its file.
  for (const char* part : {"accounts", "compares", "training"}) {
    std::map<std::string, int> uses;
    for (const nlohmann::json& a : data[part]) ++uses[a["name"].get<std::string>()];
    for (nlohmann::json& a : data[part])
      if (uses[a["name"].get<std::string>()] > 1)
        a["name"] =
            a["name"].get<std::string>() + " (" + a.value("file", a.value("dir", std::string())) + ")";
  }
  data["notes"] = notes;
  return data;
}

}  // namespace netdp::report
