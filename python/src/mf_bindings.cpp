// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Matrix factorization: `netdp factorize` (C, its loss, sensitivity and certificate).

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <string>

#include "bindings.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/graph.hpp"
#include "netdp/mf/factorize_request.hpp"
#include "netdp/util/enum_names.hpp"

namespace netdp::python {
namespace {

/// `netdp factorize`: C, its loss, sensitivity and certificate (dl: on the graph's W).
py::dict factorize(const mf::FactorizeRequest& request, const std::optional<graph::Graph>& g,
                   const std::string& weights) {
  mf::check_factorize_request(request);
  std::optional<gossip::GossipMatrix> w;
  if (g) w = gossip::make_gossip_matrix(*g, gossip::parse_weighting(weights));
  mf::Factorization f = run_interruptibly<mf::Factorization>([request, w] {
    const DenseMatrix h = mf::workload_gram(request, w ? &*w : nullptr);
    return mf::factorize(request, h,
                         mf::make_participation(request.rounds, request.participations, request.separation));
  });
  const bool certified = f.certificate_kind != mf::CertificateKind::none && std::isfinite(f.certificate);
  py::dict certificate;
  certificate["kind"] = mf::to_string(f.certificate_kind);
  certificate["value"] = certified ? py::cast(f.certificate) : py::none();
  certificate["lower_bound"] = f.lower_bound;
  certificate["global_lower_bound"] = f.global_lower_bound;
  certificate["iterations"] = f.iterations;
  certificate["converged"] = f.converged;
  py::dict out;
  out["c"] = py::array_t<double>(py::cast(std::move(f.c)));
  out["loss"] = f.loss;
  out["sensitivity"] = f.sensitivity;
  out["sensitivity_exact"] = f.sensitivity_exact;
  out["trace"] = f.trace;
  out["certificate"] = certificate;
  return out;
}

}  // namespace

void bind_mf(py::module_& m) {
  py::class_<mf::FactorizeRequest>(m, "FactorizeRequest",
                                   "The MF problem, named as `netdp factorize` names it.")
      .def(py::init<>())
      .def_property(
          "workload",
          [](const mf::FactorizeRequest& r) { return util::name_of(mf::kWorkloadNames, r.workload); },
          [](mf::FactorizeRequest& r, const std::string& name) { r.workload = mf::parse_workload(name); })
      .def_readwrite("rounds", &mf::FactorizeRequest::rounds)
      .def_readwrite("participations", &mf::FactorizeRequest::participations)
      .def_readwrite("separation", &mf::FactorizeRequest::separation)
      .def_readwrite("initial_power", &mf::FactorizeRequest::initial_power)
      .def_property(
          "method",
          [](const mf::FactorizeRequest& r) { return util::name_of(mf::kFactorizeMethodNames, r.method); },
          [](mf::FactorizeRequest& r, const std::string& name) {
            r.method = mf::parse_factorize_method(name);
          })
      .def_readwrite("bands", &mf::FactorizeRequest::bands);
  m.def("factorize", &factorize, py::arg("request"), py::arg("graph"), py::arg("weights"));
}

}  // namespace netdp::python
