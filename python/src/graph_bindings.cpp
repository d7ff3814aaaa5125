// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Graphs: from a SPEC string (every reader of `--graph`) or from an edge array, with their labels
// and the notes of what a reader changed.

#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "netdp/gossip/network_spec.hpp"
#include "netdp/graph/graph.hpp"
#include "netdp/util/check.hpp"

namespace netdp::python {
namespace {

graph::Graph graph_from_spec(const std::string& spec, bool lcc, std::uint64_t seed) {
  return gossip::load_graph({.graph = spec, .lcc = lcc, .seed = seed});
}

graph::Graph graph_from_edges(std::size_t num_nodes,
                              const py::array_t<std::int64_t, py::array::c_style>& edges,
                              std::optional<std::vector<std::string>> labels) {
  require(edges.ndim() == 2 && (edges.shape(1) == 2 || edges.shape(0) == 0),
          "edges must be an (m, 2) array of node indices, got shape ({}{})", edges.shape(0),
          edges.ndim() == 2 ? ", " + std::to_string(edges.shape(1)) : "");
  std::vector<graph::Edge> list;
  const auto view = edges.unchecked<2>();
  for (py::ssize_t i = 0; i < edges.shape(0); ++i) {
    const std::int64_t u = view(i, 0);
    const std::int64_t v = view(i, 1);
    require(u >= 0 && v >= 0 && static_cast<std::uint64_t>(u) < num_nodes &&
                static_cast<std::uint64_t>(v) < num_nodes,
            "edge {} = ({}, {}) has an endpoint outside 0..{}", i, u, v, num_nodes - 1);
    require(u != v, "edge {} = ({}, {}) is a self-loop: a gossip graph has none", i, u, v);
    list.push_back({static_cast<graph::NodeId>(u), static_cast<graph::NodeId>(v)});
  }
  graph::Graph g = graph::Graph::from_edges(num_nodes, list);
  if (labels) g.set_labels(std::move(*labels));
  return g;
}

py::array_t<std::int64_t> graph_edges(const graph::Graph& g) {
  std::vector<std::int64_t> flat;
  for (const graph::Edge& e : g.edges()) {
    flat.push_back(e.u);
    flat.push_back(e.v);
  }
  const auto m = static_cast<py::ssize_t>(flat.size() / 2);
  return owned_array(std::move(flat), {m, 2});
}

std::vector<std::string> graph_labels(const graph::Graph& g) {
  std::vector<std::string> out;
  out.reserve(g.num_nodes());
  for (graph::NodeId v = 0; v < g.num_nodes(); ++v) out.push_back(g.label(v));
  return out;
}

}  // namespace

void bind_graph(py::module_& m) {
  py::class_<graph::Graph>(m, "Graph", "An undirected simple graph (the library's graph::Graph).")
      .def_static("from_spec", &graph_from_spec, py::arg("spec"), py::arg("lcc") = false, py::arg("seed") = 1,
                  "The graph of a SPEC string (`netdp help specs`), e.g. 'hypercube:d=6'.")
      .def_static("from_edges", &graph_from_edges, py::arg("num_nodes"), py::arg("edges"),
                  py::arg("labels") = py::none(),
                  "A graph on num_nodes nodes from an (m, 2) array of indices.")
      .def_property_readonly("num_nodes", &graph::Graph::num_nodes)
      .def_property_readonly("num_edges", &graph::Graph::num_edges)
      .def_property_readonly("labels", &graph_labels, "Each node's label (its index when unlabelled).")
      .def_property_readonly("relabelled", &graph::Graph::relabelled)
      .def_property_readonly("notes", &graph::Graph::notes)
      .def("edges", &graph_edges, "The edges once each as an (m, 2) array, u < v.")
      .def("find", &graph::Graph::find, py::arg("label"), "The index of the node with this label, or None.");
}

}  // namespace netdp::python
