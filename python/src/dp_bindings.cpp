// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The dp module's conversions: Rényi curves to (ε, δ), μ-GDP to ε and back.

#include <pybind11/stl.h>

#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/dp/rdp.hpp"
#include "netdp/util/check.hpp"

namespace netdp::python {

void bind_dp(py::module_& m) {
  m.def("default_rdp_orders", &dp::default_rdp_orders);
  m.def("gaussian_rdp", &dp::gaussian_rdp, py::arg("alpha"), py::arg("mu"));
  m.def(
      "rdp_to_dp",
      [](std::vector<double> orders, std::vector<double> epsilons, double delta, const std::string& method) {
        require(method == "improved" || method == "mironov", "method '{}' is not one of: improved, mironov",
                method);
        const dp::RdpConversion c = dp::rdp_to_dp(
            dp::RdpCurve(std::move(orders), std::move(epsilons)), delta,
            method == "improved" ? dp::RdpConversionMethod::improved : dp::RdpConversionMethod::mironov);
        return py::make_tuple(c.epsilon, c.alpha);
      },
      py::arg("orders"), py::arg("epsilons"), py::arg("delta"), py::arg("method"));
  m.def("gdp_epsilon", py::overload_cast<double, double>(&dp::gdp_epsilon), py::arg("mu"), py::arg("delta"));
  m.def("gdp_delta", &dp::gdp_delta, py::arg("mu"), py::arg("epsilon"));
  m.def("gdp_mu_for", &dp::gdp_mu_for, py::arg("epsilon"), py::arg("delta"));
}

}  // namespace netdp::python
