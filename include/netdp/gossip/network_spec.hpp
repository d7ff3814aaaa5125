// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The SPEC strings of a gossip network, owned by the gossip module beside graph::from_spec:
// a NetworkSpec (graph SPEC, largest component, weighting) builds the GossipMatrix, and a
// schedule SPEC (`fixed`, `pairwise`, `er-per-round:p=P`, `dropout:p=P`) builds the
// time-varying W_0..W_{T-1}. The CLI and the training configuration parse them here, once.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/gossip/schedule.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/graph.hpp"
#include "netdp/graph/io.hpp"

namespace netdp::gossip {

/// A gossip schedule as data. `probability` is the edge probability of `er_per_round` and the
/// presence probability of `dropout` (in (0, 1]); it is 1 for the other kinds.
struct ScheduleSpec {
  enum class Kind {
    fixed,         ///< W_t = W
    pairwise,      ///< randomized pairwise gossip on W's edges (Muffliato Algorithm 2)
    er_per_round,  ///< a fresh Erdős–Rényi G(n, p) graph each round
    dropout,       ///< node dropout on the base graph
  };
  Kind kind = Kind::fixed;
  double probability = 1.0;
  friend bool operator==(const ScheduleSpec&, const ScheduleSpec&) = default;
};

/// The valid forms, for help texts and errors: "fixed, pairwise, er-per-round:p=P, dropout:p=P".
std::string_view schedule_spec_forms();

/// Every schedule form with its meaning, one per line (`netdp help specs`).
std::string schedule_spec_help();

/// Parses a schedule SPEC. Throws std::invalid_argument naming the SPEC and the rule it broke
/// (an unknown form lists the valid forms; p must be a number in (0, 1]).
ScheduleSpec parse_schedule_spec(std::string_view text);

/// The SPEC string of `spec` (parse_schedule_spec(schedule_spec_string(s)) == s).
std::string schedule_spec_string(const ScheduleSpec& spec);

/// Whether the schedule only uses edges of the base graph (so hop distances in it are meaningful).
bool uses_base_graph(const ScheduleSpec& spec);

/// W_0..W_{rounds-1} of `spec` on the base matrix `w`; the time-varying graphs are weighted by
/// `weighting`, random schedules are drawn from `seed`. Throws unless rounds >= 1, and for the
/// schedules that weight a new graph each round (er-per-round, dropout) when `weighting` is none
/// (a gossip matrix given as data has no rule to weight another graph).
Schedule schedule_from_spec(const ScheduleSpec& spec, const GossipMatrix& w,
                            std::optional<Weighting> weighting, std::size_t rounds, std::uint64_t seed);

/// A gossip network as data: a graph SPEC (graph::from_spec), optionally restricted to its
/// largest connected component, and a weighting; or a gossip matrix of the user's own, read from
/// the Matrix Market file `matrix`. `seed` draws a random graph SPEC that has no `seed=` of its own.
struct NetworkSpec {
  std::string graph = "karate";
  bool lcc = false;
  Weighting weighting = Weighting::hamilton;
  std::uint64_t seed = 1;
  /// A Matrix Market W (read_gossip_matrix_market). When set, `weighting` is not used; `graph`, if
  /// not empty, names W's nodes and must be W's graph (same size, W_uv > 0 or W_vu > 0 exactly on
  /// its edges); if empty, the graph is W's support with nodes labelled 1..n as in the file.
  std::string matrix = {};
  /// How a graph file is read: its CSV columns, --symmetrize (graph::ReadOptions).
  graph::ReadOptions read = {};
};

/// A user's W on the graph `g` that names its nodes: validated as GossipMatrix, with as many rows as
/// g has nodes and W_uv > 0 or W_vu > 0 exactly on g's edges. Throws std::invalid_argument naming
/// the rule (and the edge or entry) otherwise.
GossipMatrix matrix_on_graph(SparseMatrix w, graph::Graph g);

/// The weighting of spec's time-varying schedules: none for a user's W.
std::optional<Weighting> schedule_weighting(const NetworkSpec& spec);

/// The graph of `spec` (its largest connected component with lcc; W's graph for a matrix).
graph::Graph load_graph(const NetworkSpec& spec);

/// The gossip matrix of load_graph(spec) under spec.weighting, or the user's W (validated as
/// GossipMatrix, and against the graph when both are given).
GossipMatrix load_network(const NetworkSpec& spec);

}  // namespace netdp::gossip
