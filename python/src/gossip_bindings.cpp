// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Gossip matrices: W of a named weighting in CSR, and its spectrum's facts.

#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "netdp/gossip/spectral.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/graph.hpp"

namespace netdp::python {
namespace {

/// W in CSR: (indptr, indices, data), rows summing to 1.
py::tuple gossip_csr(const graph::Graph& g, const std::string& weights) {
  const gossip::GossipMatrix w = gossip::make_gossip_matrix(g, gossip::parse_weighting(weights));
  const SparseMatrix& m = w.matrix();
  std::vector<std::int64_t> indptr(m.outerIndexPtr(), m.outerIndexPtr() + m.rows() + 1);
  std::vector<std::int64_t> indices(m.innerIndexPtr(), m.innerIndexPtr() + m.nonZeros());
  std::vector<double> data(m.valuePtr(), m.valuePtr() + m.nonZeros());
  const auto rows = static_cast<py::ssize_t>(indptr.size());
  const auto nnz = static_cast<py::ssize_t>(data.size());
  return py::make_tuple(owned_array(std::move(indptr), {rows}), owned_array(std::move(indices), {nnz}),
                        owned_array(std::move(data), {nnz}));
}

py::dict gossip_spectrum(const graph::Graph& g, const std::string& weights) {
  const gossip::GossipMatrix w = gossip::make_gossip_matrix(g, gossip::parse_weighting(weights));
  const gossip::SecondEigenvalue second = gossip::second_eigenvalue(w);
  py::dict out;
  out["second_eigenvalue_modulus"] = second.modulus;
  out["spectral_gap"] = second.spectral_gap;
  out["symmetric"] = w.is_symmetric();
  const std::optional<double> mixing = gossip::mixing_time_bound(w);
  out["mixing_time_bound"] = mixing ? py::cast(*mixing) : py::none();
  return out;
}

/// `name`_min, _mean, _max of a range into `out` (the command line's summary fields).

}  // namespace

void bind_gossip(py::module_& m) {
  m.def("gossip_csr", &gossip_csr, py::arg("graph"), py::arg("weights"));
  m.def("gossip_spectrum", &gossip_spectrum, py::arg("graph"), py::arg("weights"));
}

}  // namespace netdp::python
