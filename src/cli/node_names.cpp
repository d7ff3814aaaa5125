// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "node_names.hpp"

#include <algorithm>
#include <filesystem>
#include <ostream>

#include "netdp/util/atomic_file.hpp"
#include "output.hpp"

namespace netdp::cli {
namespace {

// A non-negative integer in canonical decimal form that a double holds exactly (JSON readers
// parse numbers as doubles).
bool is_json_integer(const std::string& s) {
  if (s.empty() || s.size() > 15 || (s.size() > 1 && s[0] == '0')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// RFC 4180: a cell with a comma, quote or line break is quoted, its quotes doubled.
std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

}  // namespace

NodeNames::NodeNames(const graph::Graph& g) {
  labels_.reserve(g.num_nodes());
  for (graph::NodeId v = 0; v < g.num_nodes(); ++v) labels_.push_back(g.label(v));
  relabelled_ = g.relabelled();
  numeric_ = std::all_of(labels_.begin(), labels_.end(), is_json_integer);
  json_.reserve(labels_.size());
  csv_.reserve(labels_.size());
  for (const std::string& label : labels_) {
    json_.push_back(numeric_ ? label : dump_json(nlohmann::ordered_json(label), -1));
    csv_.push_back(csv_cell(label));
  }
}

nlohmann::ordered_json NodeNames::json(graph::NodeId v) const {
  return numeric_ ? nlohmann::ordered_json(std::stoull(labels_[v])) : nlohmann::ordered_json(labels_[v]);
}

std::string labels_path(const std::string& matrix_path) {
  const std::filesystem::path path(matrix_path);
  std::filesystem::path labels = path;
  labels.replace_extension(".labels.txt");
  return labels.string();
}

void write_labels_file(const std::string& matrix_path, const NodeNames& names) {
  util::write_file_atomically(labels_path(matrix_path), [&names](std::ostream& file) {
    for (std::size_t v = 0; v < names.size(); ++v) file << names.label(static_cast<graph::NodeId>(v)) << '\n';
  });
}

}  // namespace netdp::cli
