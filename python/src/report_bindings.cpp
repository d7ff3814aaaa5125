// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The HTML report (netdp::report): the same page as `netdp report`, from files and from results
// made in Python (their documents as JSON text, in the command line's field names).

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/report/report.hpp"

namespace netdp::python {
namespace {

/// One input: a file or run folder (`document` None), or a document with the name it is shown by.
using ReportInput = std::pair<std::string, std::optional<std::string>>;

py::dict write_report(std::vector<ReportInput> given, std::string path, std::string title,
                      std::optional<graph::Graph> g, std::string weights, std::optional<SparseMatrix> matrix,
                      std::string network_name) {
  // The work owns copies of everything (it may outlive an interrupted call).
  const auto notes = run_interruptibly<std::vector<std::string>>([=] {
    std::vector<report::Input> inputs;
    for (const auto& [name, document] : given) {
      if (!document) {
        inputs.push_back(report::read_input(name));
        continue;
      }
      inputs.push_back(report::input_from_json(nlohmann::json::parse(*document), name));
    }
    report::ReportOptions options;
    options.title = title;
    if (g) {
      options.matrix = matrix ? gossip::matrix_on_graph(*matrix, *g)
                              : gossip::make_gossip_matrix(*g, gossip::parse_weighting(weights));
      options.network_name = network_name;
      options.weights_name = matrix ? "your matrix" : weights;
    }
    const nlohmann::json data = report::page_data(inputs, options);
    report::write_report(path, data);
    return data["notes"].get<std::vector<std::string>>();
  });
  py::dict out;
  out["path"] = path;
  out["notes"] = notes;
  return out;
}

}  // namespace

void bind_report(py::module_& m) {
  m.def("report", &write_report, py::arg("inputs"), py::arg("path"), py::arg("title"), py::arg("graph"),
        py::arg("weights"), py::arg("matrix"), py::arg("network_name"),
        "Writes the report page (netdp::report::write_report) for files and JSON documents.");
}

}  // namespace netdp::python
