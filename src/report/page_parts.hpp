// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the report module: the parts of page_data, one per kind of input.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "netdp/graph/graph.hpp"
#include "netdp/report/report.hpp"

namespace netdp::report::detail {

/// The network the report describes, when one could be read.
struct LoadedGraph {
  graph::Graph graph;
  std::vector<std::string> labels;   ///< label of node i
  std::vector<graph::NodeId> order;  ///< graph::bandwidth_order
  std::vector<double> degree;        ///< of node i
  bool drawn = false;                ///< a layout was made (n <= max_drawing_nodes)
};

/// x rounded up to 6 significant digits (a displayed ε is never below the computed one); null for
/// a value that is not finite.
nlohmann::json rounded_up(double x);

/// x rounded down to 6 significant digits (a displayed lower bound is never above the computed one).
nlohmann::json rounded_down(double x);

/// The "accounts" entry of one `netdp account --json` input.
nlohmann::json account_part(const Input& input, const LoadedGraph* graph, const ReportOptions& options);

/// The "compares" entry of one `netdp compare --json` input.
nlohmann::json compare_part(const Input& input);

/// The "training" entry of one training run.
nlohmann::json training_part(const Input& input);

/// The "audits" table of every audit input (null when there is none).
nlohmann::json audit_table(const std::vector<const Input*>& audits);

/// The command line recorded in an input, or null.
nlohmann::json recorded_command(const Input& input);

/// `input`'s warnings ("warnings" of its summary or of the document).
nlohmann::json recorded_warnings(const Input& input);

/// A number field of `object`, refusing (naming the input's file and the field) when it is absent
/// or not a number.
double number_field(const Input& input, const nlohmann::json& object, const char* name);

/// An object field of `object`, refusing likewise when it is absent or not an object.
const nlohmann::json& object_field(const Input& input, const nlohmann::json& object, const char* name);

}  // namespace netdp::report::detail
