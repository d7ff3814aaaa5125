// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the cli module: how outputs name nodes. A node is named by its label (the id in the
// graph's file, or its index for a generated graph); when some label differs from its index the
// rows also give the index (`observer_index`). Labels are JSON numbers when every label is a
// non-negative integer in canonical form, else JSON strings; CSV cells are quoted when needed.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "netdp/graph/graph.hpp"

namespace netdp::cli {

class NodeNames {
 public:
  /// No nodes (a report before its graph is known).
  NodeNames() = default;
  explicit NodeNames(const graph::Graph& g);

  /// Whether some label differs from its index: then rows carry the index too.
  bool relabelled() const { return relabelled_; }
  /// The label as a JSON value (number or string) and as pre-formatted JSON and CSV text.
  nlohmann::ordered_json json(graph::NodeId v) const;
  const std::string& json_text(graph::NodeId v) const { return json_[v]; }
  const std::string& csv_text(graph::NodeId v) const { return csv_[v]; }
  /// The label as plain text (for human output and file names of rows).
  const std::string& label(graph::NodeId v) const { return labels_[v]; }
  std::size_t size() const { return labels_.size(); }

 private:
  std::vector<std::string> labels_;
  std::vector<std::string> json_;
  std::vector<std::string> csv_;
  bool numeric_ = true;
  bool relabelled_ = false;
};

/// The labels file beside a matrix output: F.npy → F.labels.txt (the extension, if any, replaced).
std::string labels_path(const std::string& matrix_path);

/// Writes the label of node i on line i + 1 to labels_path(matrix_path), atomically: the rows and
/// columns of an index-based matrix output are named by it.
void write_labels_file(const std::string& matrix_path, const NodeNames& names);

}  // namespace netdp::cli
