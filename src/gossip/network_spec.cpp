// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/gossip/network_spec.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "netdp/gossip/matrix_market_io.hpp"
#include "netdp/gossip/schedules.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/graph/spec.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/memory.hpp"
#include "netdp/util/parse_number.hpp"

namespace netdp::gossip {
namespace {

constexpr std::string_view kForms = "fixed, pairwise, er-per-round:p=P, dropout:p=P";

// P of `<name>:p=P`, in (0, 1].
double spec_probability(std::string_view text, std::string_view name) {
  const std::string prefix = fmt::format("{}:p=", name);
  require(text.substr(0, prefix.size()) == prefix, "schedule '{}' needs a probability: {}P (valid forms: {})",
          text, prefix, kForms);
  const std::string value(text.substr(prefix.size()));
  const std::optional<double> parsed = util::parse_double(value);
  require(parsed.has_value(), "schedule '{}': p = '{}' is not a number (valid forms: {})", text, value,
          kForms);
  const double p = *parsed;
  require(p > 0.0 && p <= 1.0, "schedule '{}': p must be in (0, 1], got {} (valid forms: {})", text, p,
          kForms);
  return p;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// Whether the schedule's matrices come from W itself (no weighting of another graph needed).
bool uses_base_matrix(const ScheduleSpec& spec) {
  return spec.kind == ScheduleSpec::Kind::fixed || spec.kind == ScheduleSpec::Kind::pairwise;
}

}  // namespace

std::string_view schedule_spec_forms() { return kForms; }

std::string schedule_spec_help() {
  return fmt::format(
      "Gossip schedules (--schedule SPEC): {}\n"
      "  fixed            W_t = W every round\n"
      "  pairwise         randomized pairwise gossip on W's edges (Muffliato Algorithm 2)\n"
      "  er-per-round:p=P a fresh Erdos-Renyi G(n, P) graph each round, weighted by --weights\n"
      "  dropout:p=P      each node present with probability P each round, on the base graph\n"
      "  Random schedules are drawn from --seed.\n",
      kForms);
}

ScheduleSpec parse_schedule_spec(std::string_view text) {
  using Kind = ScheduleSpec::Kind;
  if (text == "fixed") return {Kind::fixed, 1.0};
  if (text == "pairwise") return {Kind::pairwise, 1.0};
  if (starts_with(text, "er-per-round")) return {Kind::er_per_round, spec_probability(text, "er-per-round")};
  if (starts_with(text, "dropout")) return {Kind::dropout, spec_probability(text, "dropout")};
  throw std::invalid_argument(fmt::format("unknown schedule '{}' (valid forms: {})", text, kForms));
}

std::string schedule_spec_string(const ScheduleSpec& spec) {
  switch (spec.kind) {
    case ScheduleSpec::Kind::fixed:
      return "fixed";
    case ScheduleSpec::Kind::pairwise:
      return "pairwise";
    case ScheduleSpec::Kind::er_per_round:
      return fmt::format("er-per-round:p={}", spec.probability);
    case ScheduleSpec::Kind::dropout:
      return fmt::format("dropout:p={}", spec.probability);
  }
  return "fixed";
}

bool uses_base_graph(const ScheduleSpec& spec) { return spec.kind != ScheduleSpec::Kind::er_per_round; }

/// A time-varying schedule holds one sparse matrix per round (8-byte values and 4-byte indices per
/// entry, 4 bytes per node of offsets, ~64 bytes of object): `pairwise` n + 2 entries, `dropout` at
/// most W's, `er-per-round` n + 2E with E, the edges drawn, taken 6 standard deviations above its
/// mean. The accountants keep two more per-round copies (a transpose, the neighbour lists), so the
/// estimate is three times the schedule. Checked before the first matrix is drawn.
void require_schedule_memory(const ScheduleSpec& spec, const GossipMatrix& w, std::size_t rounds) {
  if (spec.kind == ScheduleSpec::Kind::fixed) return;
  const auto n = static_cast<double>(w.num_nodes());
  double entries = static_cast<double>(w.matrix().nonZeros());
  if (spec.kind == ScheduleSpec::Kind::pairwise) entries = n + 2.0;
  if (spec.kind == ScheduleSpec::Kind::er_per_round) {
    const double mean = spec.probability * n * (n - 1.0) / 2.0;
    entries = n + 2.0 * (mean + 6.0 * std::sqrt(mean) + 6.0);
  }
  const double per_round = 12.0 * entries + 4.0 * (n + 1.0) + 64.0;
  util::require_memory(
      3.0 * per_round * static_cast<double>(rounds),
      fmt::format("the gossip schedule '{}' over T = {} rounds", schedule_spec_string(spec), rounds),
      fmt::format("one sparse n x n matrix per round, {:.3g} entries of 12 bytes and n + 1 offsets of 4 "
                  "(n = {}), held three times by the accountants",
                  entries, w.num_nodes()),
      "lower the rounds, or use --schedule fixed");
}

Schedule schedule_from_spec(const ScheduleSpec& spec, const GossipMatrix& w,
                            std::optional<Weighting> weighting, std::size_t rounds, std::uint64_t seed) {
  require(rounds >= 1, "a schedule needs rounds >= 1, got {}", rounds);
  require(weighting || uses_base_matrix(spec),
          "schedule '{}' weights a new graph each round by a weighting (--weights), and a gossip matrix "
          "given as data (--matrix) has none: use schedule fixed or pairwise, or --graph with --weights",
          schedule_spec_string(spec));
  require_schedule_memory(spec, w, rounds);
  switch (spec.kind) {
    case ScheduleSpec::Kind::fixed:
      return fixed_schedule(w, rounds);
    case ScheduleSpec::Kind::pairwise:
      return randomized_pairwise_schedule(w, rounds, seed);
    case ScheduleSpec::Kind::er_per_round:
      return erdos_renyi_schedule(w.num_nodes(), spec.probability, *weighting, rounds, seed);
    case ScheduleSpec::Kind::dropout:
      return dropout_schedule(w.graph(), *weighting, spec.probability, rounds, seed);
  }
  return fixed_schedule(w, rounds);
}

std::optional<Weighting> schedule_weighting(const NetworkSpec& spec) {
  if (!spec.matrix.empty()) return std::nullopt;
  return spec.weighting;
}

namespace {

graph::Graph spec_graph(const NetworkSpec& spec) {
  graph::Graph g = graph::from_spec(spec.graph, spec.seed, spec.read);
  if (spec.lcc) g = graph::largest_connected_component(g);
  return g;
}

// The user's W from a file, on the graph of the SPEC: matrix_on_graph, its errors naming both.
GossipMatrix user_matrix_on(const GossipMatrix& w, graph::Graph g, const NetworkSpec& spec) {
  try {
    return matrix_on_graph(w.matrix(), std::move(g));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(
        fmt::format("--matrix {} on the graph '{}': {}", spec.matrix, spec.graph, e.what()));
  }
}

}  // namespace

// An edge that W never uses would change hop distances and every output that names the graph, so
// the support must be the edges exactly.
GossipMatrix matrix_on_graph(SparseMatrix w, graph::Graph g) {
  require(w.rows() == w.cols(), "W is {} x {}: a gossip matrix is square", w.rows(), w.cols());
  require(static_cast<std::size_t>(w.rows()) == g.num_nodes(),
          "W is {} x {} but the graph has {} nodes: W must have one row per node", w.rows(), w.cols(),
          g.num_nodes());
  GossipMatrix out(std::move(w), std::move(g));  // entries finite, >= 0, rows sum to 1, support on edges
  const SparseMatrix& m = out.matrix();          // explicit zeros pruned: coeff 0 is off the support
  for (const graph::Edge& e : out.graph().edges()) {
    require(m.coeff(e.u, e.v) > 0.0 || m.coeff(e.v, e.u) > 0.0,
            "the graph has the edge {{{}, {}}} but W_uv = W_vu = 0 there (rows {} and {}, 0-based): W's "
            "support must be the graph's edges",
            out.graph().label(e.u), out.graph().label(e.v), e.u, e.v);
  }
  return out;
}

graph::Graph load_graph(const NetworkSpec& spec) {
  if (spec.matrix.empty()) return spec_graph(spec);
  return load_network(spec).graph();
}

GossipMatrix load_network(const NetworkSpec& spec) {
  if (spec.matrix.empty()) {
    graph::Graph g = spec_graph(spec);
    if (g.weighted() && spec.weighting != Weighting::from_graph) {
      g.add_note(
          fmt::format("{}: the edge weights are not used by --weights {} (--weights from-graph uses them)",
                      spec.graph, weighting_name(spec.weighting)));
    }
    return make_gossip_matrix(g, spec.weighting);
  }
  GossipMatrix w = read_gossip_matrix_market(spec.matrix);
  if (spec.graph.empty()) {
    require(!spec.lcc, "--matrix {}: --lcc restricts a graph SPEC and W is given whole: drop --lcc",
            spec.matrix);
    return w;
  }
  return user_matrix_on(std::move(w), spec_graph(spec), spec);
}

}  // namespace netdp::gossip
